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
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Annotated, Any

import typer
from rich.table import Table

from monopoly.bots.base import BotError, make_bot
from monopoly.cli.main import app, console, counting_progress, fail
from monopoly.cli.options import Address, Backend, Workers
from monopoly.core.editions import EditionError, get_edition
from monopoly.core.errors import MonopolyError
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from monopoly.sim.backends import BackendError, play_in_chunks
from monopoly.sim.matches import (
    DEFAULT_TURN_LIMIT,
    Outcome,
    TournamentSetup,
    play_chunk,
    wilson_interval,
)
from monopoly.sim.texts import Texts


@dataclass
class LevelResult:
    """One level's results: ``seats`` is how many seats it held per game."""

    level: str
    seats: int
    wins: float = 0.0
    seat_games: Counter[int] = field(default_factory=Counter)

    def rate(self, games: int) -> float:
        return self.wins / games if games else 0.0


@dataclass
class TournamentResult:
    """The levels' results over the games played: ``games`` of the ``planned``, fewer
    (``complete`` False) when Ctrl-C stopped the tournament."""

    planned: int
    players: int
    lineup: tuple[str, ...]
    rules: str
    edition: str
    seed: int
    turn_limit: int
    levels: dict[str, LevelResult]
    games: int = 0
    complete: bool = True
    turns: int = 0
    """Player-turns over all games (one turn of one player, the engine's ``game.turn``)."""
    rounds: int = 0
    end_reasons: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    backend: str = "local"
    workers: int = 1

    def add(self, outcome: Outcome) -> None:
        """Count one game (games are added in game order)."""
        self.games += 1
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
            "planned_games": self.planned,
            "complete": self.complete,
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

    def take(outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            result.add(outcome)
        if progress is not None:
            progress(result.games)

    try:
        played = play_in_chunks(setup, games, play_chunk, take, backend, workers, address)
    except BackendError as error:
        raise BotError(str(error)) from None
    result.backend, result.workers = played.backend, played.workers
    result.seconds, result.complete = played.seconds, played.complete
    return result


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
    language: Annotated[str, typer.Option(help="Language of the table: en or de")] = "en",
) -> None:
    """Computer players against each other: win rates with 95 % confidence intervals.
    Ctrl-C stops and keeps the games played."""
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
        texts = Texts(get_edition(edition), language)
        if as_json or not sys.stdout.isatty():
            result = play_all()
        else:
            with counting_progress(transient=True) as bar:
                task = bar.add_task(texts("games"), total=games)
                result = play_all(progress=lambda done: bar.update(task, completed=done))
    except (BotError, MonopolyError, EditionError, ValueError) as error:
        raise fail(str(error)) from None
    if as_json:
        sys.stdout.write(json.dumps(result.to_json(), indent=2) + "\n")
        return
    _print_result(result, texts)


def _print_result(result: TournamentResult, texts: Texts) -> None:
    data = result.to_json()
    if not result.complete:
        console.print(texts("stopped_early", done=result.games, total=result.planned))
    console.print(
        texts(
            "tournament_setup",
            count=result.games,
            players=result.players,
            rules=result.rules,
            edition=texts.names.title,
            seed=result.seed,
        )
    )
    console.print(texts("tournament_seating", limit=result.turn_limit))
    console.print(_standings_table(data, texts))
    reasons = ", ".join(f"{texts.end_reason(k)} {v}" for k, v in data["end_reasons"].items())
    console.print(
        texts(
            "tournament_length",
            turns=texts.number(data["mean_turns"], 2),
            rounds=texts.number(data["mean_rounds"], 2),
            reasons=reasons,
        )
    )
    console.print(
        texts(
            "tournament_speed",
            seconds=texts.number(data["seconds"], 1),
            workers=data["workers"],
            backend=data["backend"],
            games=texts.number(data["games_per_second"], 1),
            turns=texts.number(data["player_turns_per_second"]),
        )
    )


def _standings_table(data: dict[str, Any], texts: Texts) -> Table:
    headers = ("level", "seats", "fair_share", "win_rate", "ci95", "wins")
    table = Table(*(texts(header) for header in headers))
    for name, level in data["levels"].items():
        low, high = level["ci95"]
        table.add_row(
            name,
            str(level["seats"]),
            texts.number(level["fair_share"], 3),
            texts.number(level["win_rate"], 3),
            f"{texts.number(low, 3)} – {texts.number(high, 3)}",
            f"{level['wins']:g}",
        )
    return table
