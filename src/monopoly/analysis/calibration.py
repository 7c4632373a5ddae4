"""Calibration, the honest test of the win chances: do predicted chances match how often
players actually win?

For each of many games between computer players (the rollouts' level), played to their
end: one position at a turn drawn uniformly from the game's turns gets every seat's win
chance by :func:`~monopoly.analysis.win_chances`'s rollouts; the game's real result is the
outcome (a shared win counts its share). The pairs (predicted chance, outcome) give a
**reliability diagram** (predictions in ten bins against the observed win rate in each)
and the **Brier score**: the mean over games of ``Σ_seats (chance − outcome)²`` (0 is
perfect; guessing ``1/players`` for everyone scores ``1 − 1/players``).

Games run in parallel on a backend of the simulator; each game's seed comes from the
calibration's seed and the game's index alone, so a run is reproducible on any number of
workers.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from matplotlib.figure import Figure

from monopoly.bots.base import play
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from monopoly.sim.backends import chunks
from monopoly.sim.matches import DEFAULT_TURN_LIMIT
from monopoly.sim.report import blank_figure

from .estimates import Z95
from .rollout import RolloutSettings, players_of, rollout
from .runner import Pool
from .texts import AnalysisTexts

BINS = 10


@dataclass(frozen=True, slots=True)
class CalibrationJob:
    """Games ``start``..``stop`` of a calibration run."""

    players: int
    settings: RolloutSettings
    seed: int
    start: int
    stop: int


@dataclass(slots=True)
class Calibration:
    """The (predicted, outcome) pairs of every seat of every game so far."""

    players: int
    settings: RolloutSettings
    predictions: list[list[float]] = field(default_factory=list)
    outcomes: list[list[float]] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.outcomes)

    def add(self, other: Calibration) -> None:
        self.predictions.extend(other.predictions)
        self.outcomes.extend(other.outcomes)
        self.turns.extend(other.turns)

    def brier(self) -> float:
        """Mean over games of the squared distances summed over seats."""
        total = sum(
            sum((p - o) ** 2 for p, o in zip(ps, os, strict=True))
            for ps, os in zip(self.predictions, self.outcomes, strict=True)
        )
        return total / max(1, self.games)

    def baseline_brier(self) -> float:
        """The Brier score of guessing ``1/players`` for every seat."""
        guess = 1 / self.players
        total = sum(sum((guess - o) ** 2 for o in os) for os in self.outcomes)
        return total / max(1, self.games)

    def bins(self) -> list[tuple[float, float, float, int]]:
        """Per bin of predicted chance: (mean prediction, observed rate, its 95 %
        half-width, pairs); empty bins are left out."""
        pairs: list[list[tuple[float, float]]] = [[] for _ in range(BINS)]
        for ps, os in zip(self.predictions, self.outcomes, strict=True):
            for p, o in zip(ps, os, strict=True):
                pairs[min(BINS - 1, int(p * BINS))].append((p, o))
        rows = []
        for members in pairs:
            if not members:
                continue
            n = len(members)
            predicted = sum(p for p, _ in members) / n
            observed = sum(o for _, o in members) / n
            half = Z95 * math.sqrt(max(observed * (1 - observed), 1e-9) / n)
            rows.append((predicted, observed, half, n))
        return rows

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "players": self.players,
            "level": self.settings.level,
            "rollouts_per_prediction": self.settings.rollouts,
            "horizon": self.settings.horizon,
            "seed": self.settings.seed,
            "brier": round(self.brier(), 5),
            "baseline_brier": round(self.baseline_brier(), 5),
            "bins": [
                {"predicted": round(p, 4), "observed": round(o, 4), "half_width": round(h, 4),
                 "pairs": n}
                for p, o, h, n in self.bins()
            ],
        }  # fmt: skip


def calibration_game(
    players: int, settings: RolloutSettings, seed: int
) -> tuple[list[float], list[float], int]:
    """One game: (each seat's predicted chance at a random turn, each seat's outcome,
    the turn of the prediction)."""
    rules = RuleSet.named("standard", turn_limit=DEFAULT_TURN_LIMIT)
    game = Game.new(players, rules=rules, seed=seed)
    play(game, players_of(settings.level, players, seed))
    share = 1.0 / len(game.winners)
    outcome = [share if seat in game.winners else 0.0 for seat in range(players)]
    turn = random.Random(seed).randint(1, max(1, game.turn))
    position = _position_at_turn(game, turn)
    rolled = [rollout(position, settings, index) for index in range(settings.rollouts)]
    predicted = [sum(r[seat] for r in rolled) / len(rolled) for seat in range(players)]
    return predicted, outcome, turn


def _position_at_turn(finished: Game, turn: int) -> Game:
    """The finished game replayed to the start of ``turn``."""
    game = Game(finished.setup, list(finished.record))
    while game.turn < turn:
        action = game.next_scripted_action()
        if action is None:
            break
        game.apply_unchecked(action)
    return game


def run_calibration_job(job: CalibrationJob) -> Calibration:
    result = Calibration(job.players, job.settings)
    for index in range(job.start, job.stop):
        seed = (job.seed * 1_000_003 + index * 9_973 + 17) % (2**62)
        predicted, outcome, turn = calibration_game(job.players, job.settings, seed)
        result.predictions.append(predicted)
        result.outcomes.append(outcome)
        result.turns.append(turn)
    return result


def calibrate(
    games: int,
    players: int = 4,
    settings: RolloutSettings | None = None,
    pool: Pool | None = None,
    progress: Callable[[int], None] | None = None,
) -> Calibration:
    """Play ``games`` games and compare predictions with results; ``progress(games)`` is
    told as chunks finish; Ctrl-C returns the games finished so far."""
    if games < 1:
        raise ValueError(f"calibration needs at least 1 game, got {games}")
    if not 2 <= players <= 8:
        raise ValueError(f"players must be 2 to 8, got {players}")
    settings = settings or RolloutSettings(rollouts=16)
    pool = pool or Pool()
    ranges = chunks(games, pool.workers)
    jobs = [CalibrationJob(players, settings, settings.seed, a, b) for a, b in ranges]
    total = Calibration(players, settings)
    try:
        for part in pool.map(run_calibration_job, jobs):
            total.add(part)
            if progress is not None:
                progress(part.games)
    except KeyboardInterrupt:
        pass
    return total


def plot_reliability(calibration: Calibration, texts: AnalysisTexts) -> Figure:
    """Predicted chance (by bin) against the observed win rate, with 95 % bars, the
    diagonal of perfect calibration, and how many predictions fell in each bin."""
    return plot_bins(calibration.bins(), calibration.brier(), calibration.baseline_brier(), texts)


def plot_bins(
    rows: list[tuple[float, float, float, int]], brier: float, baseline: float, texts: AnalysisTexts
) -> Figure:
    """:func:`plot_reliability` of bins (mean prediction, observed rate, half-width,
    predictions) and the two Brier scores (as in ``calibration.json``)."""
    figure = blank_figure(6.4, 6.8)
    diagram, counts = figure.subplots(2, 1, height_ratios=(3, 1), sharex=True)
    diagram.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label=texts("perfect"))
    diagram.errorbar(
        [r[0] for r in rows], [r[1] for r in rows], yerr=[r[2] for r in rows],
        fmt="o-", color="#4c72b0", capsize=3, label=texts("observed"),
    )  # fmt: skip
    diagram.set_xlim(0, 1)
    diagram.set_ylim(0, 1)
    diagram.set_ylabel(texts("observed"))
    scores = texts("brier", score=texts.number(brier, 3), baseline=texts.number(baseline, 3))
    diagram.set_title(f"{texts('reliability')}\n{scores}", fontsize=10)
    diagram.legend(loc="upper left", fontsize=8)
    counts.bar([r[0] for r in rows], [r[3] for r in rows], width=0.06, color="#8172b2")
    counts.set_xlabel(texts("predicted"))
    counts.set_ylabel(texts("predictions"))
    figure.tight_layout()
    return figure
