"""``monopoly tournament``: computer-player levels against each other, with statistics.

:func:`run_tournament` is the core (the tests call it): N seeded games, the seats
rotated so that every entry of the line-up plays every seat equally often, and per level
its share of the wins (a shared win counts fractionally) with a 95 % Wilson interval.
Games end at a turn limit at the latest (the richest player wins then). Games are
played in chunks on a backend (this process, a process pool, or a Ray cluster:
:mod:`monopoly.sim.backends`) and added up in game order, so a seed gives the same
result on any of them.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Annotated, Any

import typer
from rich.progress import Progress
from rich.table import Table

from monopoly.bots.base import BotError, make_bot, play
from monopoly.cli.main import app, console, fail
from monopoly.cli.options import Address, Backend, Workers
from monopoly.core.editions import EditionError
from monopoly.core.errors import MonopolyError
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from monopoly.sim.backends import BackendError, chunks, open_backend

Z_95 = 1.959964
DEFAULT_TURN_LIMIT = 1000


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a success rate (successes may be fractional)."""
    if trials <= 0:
        return (0.0, 1.0)
    rate = successes / trials
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class LevelResult:
    """One level's results: ``seats`` is how many seats it held per game."""

    level: str
    seats: int
    wins: float = 0.0
    seat_games: Counter[int] = field(default_factory=Counter)

    def rate(self, games: int) -> float:
        return self.wins / games if games else 0.0


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game's result: the level of each seat, the winning seats, its length."""

    seats: tuple[str, ...]
    winners: tuple[int, ...]
    turns: int
    rounds: int
    end_reason: str


@dataclass
class TournamentResult:
    games: int
    players: int
    lineup: tuple[str, ...]
    rules: str
    edition: str
    seed: int
    turn_limit: int
    levels: dict[str, LevelResult]
    turns: int = 0
    """Player-turns over all games (one turn of one player, the engine's ``game.turn``)."""
    rounds: int = 0
    end_reasons: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    backend: str = "local"
    workers: int = 1

    def add(self, outcome: Outcome) -> None:
        """Count one game (games are added in game order)."""
        for seat, name in enumerate(outcome.seats):
            self.levels[name].seat_games[seat] += 1
        for winner in outcome.winners:
            self.levels[outcome.seats[winner]].wins += 1 / len(outcome.winners)
        self.turns += outcome.turns
        self.rounds += outcome.rounds
        self.end_reasons[outcome.end_reason] += 1

    def to_json(self) -> dict[str, Any]:
        levels = {}
        for name, result in self.levels.items():
            low, high = wilson_interval(result.wins, self.games)
            levels[name] = {
                "seats": result.seats,
                "fair_share": result.seats / self.players,
                "wins": round(result.wins, 4),
                "win_rate": round(result.rate(self.games), 4),
                "ci95": [round(low, 4), round(high, 4)],
                "games_per_seat": {str(k): v for k, v in sorted(result.seat_games.items())},
            }
        return {
            "games": self.games,
            "players": self.players,
            "lineup": list(self.lineup),
            "rules": self.rules,
            "edition": self.edition,
            "seed": self.seed,
            "turn_limit": self.turn_limit,
            "mean_turns": round(self.turns / self.games, 2) if self.games else 0,
            "mean_rounds": round(self.rounds / self.games, 2) if self.games else 0,
            "end_reasons": dict(self.end_reasons.most_common()),
            "levels": levels,
            **self.timing_json(),
        }

    def timing_json(self) -> dict[str, Any]:
        """How fast and where it ran: the only fields that differ between runs of a seed."""
        seconds = max(self.seconds, 1e-9)
        return {
            "backend": self.backend,
            "workers": self.workers,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / seconds, 2),
            "player_turns_per_second": round(self.turns / seconds, 1),
        }


def lineup_for(bots: list[str], players: int) -> tuple[str, ...]:
    """The seats' levels: the listed bots, repeated in order to fill every seat."""
    if not bots or any(not name for name in bots):
        raise BotError("name at least one bot level, e.g. --bots hard,normal,easy")
    if len(bots) > players:
        raise BotError(f"{len(bots)} bots listed for {players} players")
    return tuple(bots[i % len(bots)] for i in range(players))


def run_tournament(
    games: int,
    players: int,
    bots: list[str],
    seed: int = 0,
    rules: str = "standard",
    edition: str = "classic",
    turn_limit: int = DEFAULT_TURN_LIMIT,
    progress: Callable[[int], None] | None = None,
    backend: str = "local",
    workers: int | None = 1,
    address: str | None = None,
) -> TournamentResult:
    """Play ``games`` games; in game ``i`` seat ``s`` is played by ``lineup[(s + i) % P]``.

    ``workers`` 1 plays in this process; None uses every core (or the Ray cluster's CPUs).
    """
    if games < 1:
        raise BotError("play at least one game")
    lineup = lineup_for(bots, players)
    rule_set = RuleSet.named(rules, turn_limit=turn_limit)
    for name in set(lineup):
        make_bot(name, 0)  # fails early on a bad spec
    Game.new(players, edition, rule_set)  # and on a bad edition or player count
    levels = {name: LevelResult(name, lineup.count(name)) for name in dict.fromkeys(lineup)}
    result = TournamentResult(
        games, players, lineup, rule_set.describe(), edition, seed, turn_limit, levels
    )
    setup = TournamentSetup(players, lineup, rule_set, edition, seed)
    try:
        with open_backend(backend, workers, address) as runner:
            result.backend, result.workers = runner.name, runner.workers
            ranges = chunks(games, runner.workers, runner.most_per_chunk)
            started = time.perf_counter()
            for outcomes in runner.map(play_chunk, ((setup, a, b) for a, b in ranges)):
                for outcome in outcomes:
                    result.add(outcome)
                if progress is not None:
                    progress(sum(result.end_reasons.values()))
            result.seconds = time.perf_counter() - started
    except BackendError as error:
        raise BotError(str(error)) from None
    return result


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
    play(game, bots, checked=False)
    return Outcome(seats, game.winners, game.turn, game.round, game.end_reason or "unfinished")


@app.command()
def tournament(
    games: Annotated[int, typer.Option(help="Number of games")] = 100,
    players: Annotated[int, typer.Option(help="Players per game (2-8)")] = 3,
    bots: Annotated[
        str, typer.Option(help="Levels or module:Class, comma-separated, repeated to fill seats")
    ] = "hard,normal,easy",
    seed: Annotated[int, typer.Option(help="Seed of the first game")] = 0,
    rules: Annotated[str, typer.Option(help="standard, short, speed or short+speed")] = "standard",
    edition: Annotated[str, typer.Option(help="Edition key")] = "classic",
    turn_limit: Annotated[
        int, typer.Option(help="Turns after which the richest player wins")
    ] = DEFAULT_TURN_LIMIT,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON")] = False,
    workers: Workers = None,
    backend: Backend = "local",
    address: Address = None,
) -> None:
    """Computer players against each other: win rates with 95 % confidence intervals."""
    names = [name.strip() for name in bots.split(",")]
    play_all = partial(
        run_tournament,
        games,
        players,
        names,
        seed,
        rules,
        edition,
        turn_limit,
        backend=backend,
        workers=workers,
        address=address,
    )
    try:
        if as_json or not sys.stdout.isatty():
            result = play_all()
        else:
            with Progress(console=console, transient=True) as bar:
                task = bar.add_task("playing", total=games)
                result = play_all(progress=lambda done: bar.update(task, completed=done))
    except (BotError, MonopolyError, EditionError) as error:
        raise fail(str(error)) from None
    if as_json:
        sys.stdout.write(json.dumps(result.to_json(), indent=2) + "\n")
        return
    _print_result(result)


def _print_result(result: TournamentResult) -> None:
    data = result.to_json()
    console.print(
        f"{result.games} games · {result.players} players · rules {result.rules} · "
        f"edition {result.edition} · seed {result.seed}"
    )
    console.print(
        f"seats rotated every game; turn limit {result.turn_limit} (then the richest wins)"
    )
    table = Table("level", "seats", "fair share", "win rate", "95 % CI", "wins")
    for name, level in data["levels"].items():
        low, high = level["ci95"]
        table.add_row(
            name,
            str(level["seats"]),
            f"{level['fair_share']:.3f}",
            f"{level['win_rate']:.3f}",
            f"{low:.3f} – {high:.3f}",
            f"{level['wins']:g}",
        )
    console.print(table)
    reasons = ", ".join(f"{k} {v}" for k, v in data["end_reasons"].items())
    console.print(
        f"mean length {data['mean_turns']} turns ({data['mean_rounds']} rounds); ended by {reasons}"
    )
    console.print(
        f"{data['seconds']:.1f} s on {data['workers']} {data['backend']} worker(s): "
        f"{data['games_per_second']:.1f} games/s, {data['player_turns_per_second']:,.0f} "
        "player-turns/s"
    )
