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
from monopoly.core.actions import DeclareBankruptcy, Resign
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
    """One game's result: the level of each seat, the winning seats, its length, and
    each seat's place (:func:`finishing_places`)."""

    seats: tuple[str, ...]
    winners: tuple[int, ...]
    turns: int
    rounds: int
    end_reason: str
    places: tuple[int, ...] = ()


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
    return Outcome(
        seats,
        game.winners,
        game.turn,
        game.round,
        game.end_reason or "unfinished",
        finishing_places(game),
    )


def finishing_places(game: Game) -> tuple[int, ...]:
    """Each seat's place when the game ended (1 is first; equal places share a number):
    the winners first; then the other players still in the game (a turn limit's or the
    short game's end, R-SHORT-4) by net worth; then the bankrupt players, the later one
    out ahead of the earlier (the order their bankruptcies or resignations stand in the
    game's record)."""
    out = [
        entry[1].seat
        for entry in game.record
        if entry[0] == "action" and isinstance(entry[1], DeclareBankruptcy | Resign)
    ]
    gone = set(out)
    lost = [seat for seat in range(game.players) if seat not in gone and not game.active[seat]]
    survivors = [
        seat for seat in range(game.players) if game.active[seat] and seat not in game.winners
    ]
    # Best first, each entry a set of seats sharing a place.
    order: list[list[int]] = [list(game.winners)] if game.winners else []
    for worth in sorted({game.net_worth(seat) for seat in survivors}, reverse=True):
        order.append([seat for seat in survivors if game.net_worth(seat) == worth])
    order.extend([seat] for seat in reversed(out))
    if lost:  # out of the game before the record began (a set-up position)
        order.append(lost)
    places = [0] * game.players
    for place, seats in enumerate(order, 1):
        for seat in seats:
            places[seat] = place
    return tuple(places)
