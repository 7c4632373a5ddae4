"""Matches between computer players, as the worker processes play them.

The tournament and the ladder (:mod:`monopoly.cli.tournament`, :mod:`monopoly.cli.ladder`)
send :func:`play_chunk` to a backend (:mod:`monopoly.sim.backends`): it lives here, apart
from the command line, so that a worker (a process pool's or a Ray node's) imports it
without the commands' modules.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from monopoly.bots.base import make_bot, play
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet

Z_95 = 1.959964
DEFAULT_TURN_LIMIT = 1000
"""Turns after which a simulated game ends and the richest player wins: the simulator's,
the tournament's, the ladder's and the calibration's default."""


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a success rate (successes may be fractional)."""
    if trials <= 0:
        return (0.0, 1.0)
    rate = successes / trials
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game's result: the level of each seat, the winning seats, its length."""

    seats: tuple[str, ...]
    winners: tuple[int, ...]
    turns: int
    rounds: int
    end_reason: str


@dataclass(frozen=True, slots=True)
class TournamentSetup:
    """What a worker needs to play any game of the tournament from its number alone."""

    players: int
    lineup: tuple[str, ...]
    rules: RuleSet
    edition: str
    seed: int


def play_chunk(job: tuple[TournamentSetup, int, int]) -> list[Outcome]:
    setup, start, stop = job
    return [_play_one(setup, number) for number in range(start, stop)]


def _play_one(setup: TournamentSetup, number: int) -> Outcome:
    players, lineup = setup.players, setup.lineup
    seats = tuple(lineup[(seat + number) % players] for seat in range(players))
    game_seed = setup.seed * 1_000_003 + number
    game = Game.new(players, setup.edition, setup.rules, seed=game_seed)
    game.collect_events = False
    bots = [make_bot(name, game_seed * 16 + seat) for seat, name in enumerate(seats)]
    play(game, bots)
    return Outcome(seats, game.winners, game.turn, game.round, game.end_reason or "unfinished")
