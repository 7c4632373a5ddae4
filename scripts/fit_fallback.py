"""Fitting the fallback's two weights to simulated games (see fallback.py).

    PYTHONPATH=src .venv/bin/python scripts/fit_fallback.py --games 1000 --players 2 3 4

(scipy, which fits, is a development dependency; the game needs only the weights).

Plays expert games to their end (standard rules, the simulator's turn limit), takes the
position every ``--every`` player-turns, and finds the weights that give the games' real
results the highest likelihood (scipy). It prints the weights and the mean log-loss per
position of the fit, of the plain net-worth share and of guessing evenly.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from dataclasses import dataclass

from scipy.optimize import minimize  # type: ignore[import-untyped]

from monopoly.analysis.fallback import Shares, Weights, chances_from, features
from monopoly.analysis.rollout import LEVEL, players_of
from monopoly.analysis.runner import Pool
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from monopoly.sim.backends import chunks
from monopoly.sim.loop import play_counting
from monopoly.sim.matches import DEFAULT_TURN_LIMIT

Sample = tuple[list[Shares], list[bool], list[float]]
"""A position's shares, which seats are still in, and each seat's real result."""


@dataclass(frozen=True, slots=True)
class SampleJob:
    players: int
    seed: int
    every: int
    start: int
    stop: int


def game_samples(players: int, seed: int, every: int) -> list[Sample]:
    """One expert game played to its end, then its positions every ``every`` turns."""
    rules = RuleSet.named("standard", turn_limit=DEFAULT_TURN_LIMIT)
    finished = Game.new(players, rules=rules, seed=seed)
    play_counting(finished, players_of(LEVEL, players, seed))
    share = 1.0 / len(finished.winners)
    outcome = [share if seat in finished.winners else 0.0 for seat in range(players)]
    game = Game(finished.setup, list(finished.record))
    samples: list[Sample] = []
    taken = -1
    while not game.over:
        if game.turn % every == 0 and game.turn != taken:
            taken = game.turn
            samples.append((features(game), list(game.active), outcome))
        action = game.next_scripted_action()
        if action is None:
            break
        game.apply_unchecked(action)
    return samples


def run_sample_job(job: SampleJob) -> list[Sample]:
    samples: list[Sample] = []
    for index in range(job.start, job.stop):
        seed = (job.seed * 1_000_003 + index * 7_001 + job.players) % (2**62)
        samples += game_samples(job.players, seed, job.every)
    return samples


def log_loss(samples: Sequence[Sample], weights: Weights) -> float:
    """Mean over positions of ``-Σ_seats result · log(chance)``."""
    total = 0.0
    for shares, active, outcome in samples:
        chances = chances_from(shares, active, weights)
        total -= sum(o * math.log(max(c, 1e-12)) for o, c in zip(outcome, chances, strict=True))
    return total / max(1, len(samples))


def even_loss(samples: Sequence[Sample]) -> float:
    total = 0.0
    for _, active, outcome in samples:
        guess = 1 / sum(active)
        total -= sum(o * math.log(guess) for o, a in zip(outcome, active, strict=True) if a)
    return total / max(1, len(samples))


def fit(samples: Sequence[Sample]) -> Weights:
    def loss(w: Sequence[float]) -> float:
        return log_loss(samples, (w[0], w[1]))

    best = minimize(loss, [1.0, 0.0], method="Nelder-Mead")
    return float(best.x[0]), float(best.x[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=600, help="per player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--every", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    samples: list[Sample] = []
    with Pool(args.workers) as pool:
        for players in args.players:
            ranges = chunks(args.games, pool.workers * 4)
            jobs = [SampleJob(players, args.seed, args.every, a, b) for a, b in ranges]
            for part in pool.map(run_sample_job, jobs):
                samples += part
    weights = fit(samples)
    print(f"{len(samples)} positions of {args.games * len(args.players)} games")
    print(f"weights: worth {weights[0]:.3f}, income {weights[1]:.3f}")
    print(f"log-loss: fit {log_loss(samples, weights):.4f}, ", end="")
    plain = log_loss(samples, (1.0, 0.0))
    print(f"net-worth share {plain:.4f}, even {even_loss(samples):.4f}")


if __name__ == "__main__":
    main()
