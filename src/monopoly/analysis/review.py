"""A whole game analysed: the win-chance chart over its turns and its decisions judged.

The record is replayed action by action. At the start of every player-turn the chart
gets a point (each seat's win chance); every judged decision is compared with its
alternatives (:mod:`monopoly.analysis.judge`). All positions go to the pool at once,
in the order of the game, so that a run stopped early (Ctrl-C) keeps the points and
decisions finished so far, mostly from the start of the game.

Judged: buy or decline, the jail choice, accepting or rejecting a trade, proposing a
trade, building. Bids are not judged in a whole game (an auction has many, each worth
little on its own); ask :func:`~monopoly.analysis.judge.judge` about one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from monopoly.core.actions import Action, Build, ProposeTrade
from monopoly.core.game import Game, decisions_answered
from monopoly.core.records import entry_from_json, record_of, setup_from_json
from monopoly.core.state import BUY, JAIL, TRADE

from .estimates import WinChances
from .judge import Judgement, alternatives_of, judge_scores
from .rollout import RolloutSettings
from .runner import Alternatives, Pool, Scores

JUDGED_KINDS = (BUY, JAIL, TRADE)
JUDGED_ACTIONS = (Build, ProposeTrade)


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """The win chances at the start of player-turn ``turn`` (``prefix``: the log entry
    of the position)."""

    turn: int
    prefix: int
    chances: WinChances

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "prefix": self.prefix, **self.chances.to_json()}


@dataclass(frozen=True, slots=True)
class ReviewedDecision:
    """A decision of the game, judged: at log entry ``prefix`` in turn ``turn``."""

    turn: int
    prefix: int
    space: int
    """The space of the decision (the street offered for sale...), or -1."""
    judgement: Judgement

    def to_json(self) -> dict[str, Any]:
        where = {"turn": self.turn, "prefix": self.prefix, "space": self.space}
        return {**where, **self.judgement.to_json()}


@dataclass(slots=True)
class GameAnalysis:
    """What :func:`analyse_game` found; ``complete`` is False when it was stopped early."""

    names: tuple[str, ...]
    settings: RolloutSettings
    points: list[ChartPoint] = field(default_factory=list)
    decisions: list[ReviewedDecision] = field(default_factory=list)
    winners: tuple[int, ...] = ()
    turns: int = 0
    planned: int = 0
    """How many positions (chart points and decisions) the analysis set out to do."""
    complete: bool = True

    @property
    def done(self) -> int:
        return len(self.points) + len(self.decisions)

    def marked(self) -> list[ReviewedDecision]:
        """The decisions with a mark (inaccuracy, mistake or blunder)."""
        return [d for d in self.decisions if d.judgement.mark != "good"]

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.names),
            "settings": {
                "level": self.settings.level,
                "horizon": self.settings.horizon,
                "rollouts": self.settings.rollouts,
                "seed": self.settings.seed,
            },
            "turns": self.turns,
            "winners": list(self.winners),
            "complete": self.complete,
            "chart": [point.to_json() for point in self.points],
            "decisions": [decision.to_json() for decision in self.decisions],
        }


@dataclass(frozen=True, slots=True)
class Position:
    """A position to analyse: a chart point (one alternative, the game as it is) or a
    decision (the taken action and its alternatives)."""

    prefix: int
    turn: int
    seat: int
    alternatives: Alternatives
    is_decision: bool
    space: int = -1


def plan(
    record: dict[str, Any], seat: int | None = None, decisions: bool = True
) -> tuple[Game, list[Position]]:
    """Replay ``record``: the final game and the positions to analyse, in game order
    (``seat``: judge only that seat's decisions; ``decisions`` False: the chart alone)."""
    setup = setup_from_json(record.get("setup"))
    script = [entry_from_json(entry, i + 1) for i, entry in enumerate(record.get("log", []))]
    game = Game(setup, script)
    positions: list[Position] = []
    last_turn = -1
    while True:
        prefix = game.chance.position
        action = game.next_scripted_action()
        if action is None:
            break
        if game.turn != last_turn:
            last_turn = game.turn
            positions.append(Position(prefix, game.turn, -1, ((),), False))
        if decisions and is_judged(game, action) and (seat is None or action.seat == seat):
            alternatives = alternatives_of(game, action)
            if len(alternatives) > 1:
                space = game.decision.space if game.decision is not None else -1
                where = Position(prefix, game.turn, action.seat, alternatives, True, space)
                positions.append(where)
        game.apply(action)
    return game, positions


def is_judged(game: Game, action: Action) -> bool:
    """A judged action: building, a trade offer, or the answer to a judged decision (a
    mortgage taken while deciding to buy is not that answer)."""
    if isinstance(action, JUDGED_ACTIONS):
        return True
    decision = game.decision
    answers = decisions_answered().get(type(action))
    return (
        decision is not None
        and decision.seat == action.seat
        and decision.kind in JUDGED_KINDS
        and answers is not None
        and decision.kind in answers
    )


def analyse_game(
    record: dict[str, Any],
    settings: RolloutSettings | None = None,
    pool: Pool | None = None,
    seat: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    decisions: bool = True,
) -> GameAnalysis:
    """The chart and the judged decisions of a recorded game (a record as JSON, see
    docs/records.md). ``progress(done, total)`` is told after each position; Ctrl-C
    (KeyboardInterrupt) stops early and returns what is done (``complete`` False);
    ``decisions`` False: the chart alone."""
    settings = settings or RolloutSettings()
    final, positions = plan(record, seat, decisions)
    result = GameAnalysis(tuple(final.names), settings, winners=final.winners, turns=final.turn)
    result.planned = len(positions)
    clean = record_of(final)
    done = 0

    def finished(index: int, scores: list[Scores]) -> None:
        nonlocal done
        add_scores(result, final, positions[index], scores)
        done += 1
        if progress is not None:
            progress(done, len(positions))

    jobs = [(clean, p.prefix, p.alternatives, settings) for p in positions]
    try:
        (pool or Pool()).run_many(jobs, finished)
    except KeyboardInterrupt:
        result.complete = False
    result.points.sort(key=lambda point: point.prefix)
    result.decisions.sort(key=lambda decision: decision.prefix)
    return result


def add_scores(result: GameAnalysis, game: Game, position: Position, scores: list[Scores]) -> None:
    """Put the scores of ``position`` into ``result``: a chart point or a judgement."""
    if position.is_decision:
        judgement = judge_scores(game, position.alternatives, position.seat, scores)
        reviewed = ReviewedDecision(position.turn, position.prefix, position.space, judgement)
        result.decisions.append(reviewed)
    else:
        chances = WinChances.from_scores(tuple(game.names), scores[0])
        result.points.append(ChartPoint(position.turn, position.prefix, chances))


def analyse_live(
    game: Game,
    settings: RolloutSettings | None = None,
    pool: Pool | None = None,
    seat: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> GameAnalysis:
    """:func:`analyse_game` of a game in memory (its record so far)."""
    return analyse_game(record_of(game), settings, pool, seat, progress)
