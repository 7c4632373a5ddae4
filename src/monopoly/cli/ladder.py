"""``monopoly ladder``: every computer player rated against every other.

The entrants are every registered level (``random``, ``easy``, ``normal``, ``hard``,
``expert``, ``learned``) and any ``module:Class`` or core-mode policy file (``.npz``,
played like ``learned``: :mod:`monopoly.rl.learned`) given. The ladder plays, with the
same seeds on any backend:

* **4-player games**: every set of four entrants, ``--games`` games each, the seats
  rotated every game (so each entrant plays each seat equally often);
* **heads-up games**: every pair, ``--games`` games each, seats alternating.

Each game is a multiplayer result in finishing order — the winners first, then the
other players still in the game by net worth (at the turn limit), then the bankrupt
players, the later one out ahead of the earlier
(:func:`monopoly.sim.matches.finishing_places`) — and updates the entrants' ratings
with openskill's Plackett-Luce model (Weng & Lin 2011). A rating is a mean ``mu`` and an
uncertainty ``sigma``; the table is sorted by the conservative ``ordinal`` = mu − 3
sigma. Games end at the turn limit at the latest (then the richest player wins, as in
the simulator).

The model rates one game after another, and the result depends on their order: rated
as they are played — every 4-player line-up's games in a block, then every pair's — the
last blocks decided the table. So the games are rated once all are played, in an order
shuffled by the seed (the same on any backend), and without openskill's drift ``tau``:
it lets a rating forget old games, as a person's skill changes, but a level's play does
not change from one game to the next. One shuffled order still moves an ordinal by
about ±0.6, so the games are rated in ``ORDERS`` such orders and the table gives the
mean μ and σ.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from statistics import fmean
from typing import Annotated, Any

import typer
from openskill.models import PlackettLuce
from rich.progress import Progress
from rich.table import Table

from monopoly.bots.base import LEVELS, BotError, load_levels, make_bot
from monopoly.cli.main import app, console, fail
from monopoly.cli.options import Address, Backend, Workers
from monopoly.core.editions import EditionError
from monopoly.core.errors import MonopolyError
from monopoly.core.rules import RuleSet
from monopoly.sim.backends import BackendError, chunks, open_backend
from monopoly.sim.matches import (
    DEFAULT_TURN_LIMIT,
    Outcome,
    TournamentSetup,
    play_chunk,
    wilson_interval,
)

FORMATS = {"4p": 4, "heads-up": 2}
DRIFT = 0.0
"""openskill's ``tau``, the skill drift added before each game: none for computer
players, whose play does not change (see the module docstring)."""
ORDERS = 10
"""How many shuffled orders the games are rated in (the table gives the means): one
order alone moves an ordinal by about ±0.6 (one standard deviation) at 60 games a
line-up."""


@dataclass
class Standing:
    """One entrant: its rating and its games per format (wins may be shared)."""

    name: str
    mu: float
    sigma: float
    games: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FORMATS, 0))
    wins: dict[str, float] = field(default_factory=lambda: dict.fromkeys(FORMATS, 0.0))

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, Any]:
        shares = {}
        for kind in FORMATS:
            games = self.games[kind]
            low, high = wilson_interval(self.wins[kind], games)
            shares[kind] = {
                "games": games,
                "win_share": round(self.wins[kind] / games, 4) if games else None,
                "ci95": [round(low, 4), round(high, 4)],
            }
        return {
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "ordinal": round(self.ordinal, 3),
            **shares,
        }


@dataclass
class LadderResult:
    entrants: list[str]
    games_per_lineup: int
    seed: int
    rules: str
    turn_limit: int
    standings: dict[str, Standing]
    games: int = 0
    complete: bool = True

    def table_order(self) -> list[Standing]:
        return sorted(self.standings.values(), key=lambda s: -s.ordinal)

    def to_json(self) -> dict[str, Any]:
        return {
            "entrants": self.entrants,
            "games_per_lineup": self.games_per_lineup,
            "seed": self.seed,
            "rules": self.rules,
            "turn_limit": self.turn_limit,
            "games": self.games,
            "complete": self.complete,
            "model": "openskill PlackettLuce (finishing order: the winners, the others still "
            "in by net worth, the bankrupt players the last out first)",
            "ratings": {s.name: s.to_json() for s in self.table_order()},
        }


def registered_levels() -> list[str]:
    load_levels()
    return sorted(LEVELS, key=lambda name: list(LEVELS).index(name))


def lineups(entrants: list[str]) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(format, line-up) of every game set: each 4-set (when there are 4 entrants or
    more), then each pair."""
    if len(entrants) >= 4:
        for group in combinations(entrants, 4):
            yield "4p", group
    for pair in combinations(entrants, 2):
        yield "heads-up", pair


def run_ladder(
    extra: list[str] | None = None,
    games: int = 20,
    seed: int = 0,
    rules: str = "standard",
    turn_limit: int = DEFAULT_TURN_LIMIT,
    levels: list[str] | None = None,
    backend: str = "local",
    workers: int | None = 1,
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> LadderResult:
    """Play the ladder (see the module docstring); ``levels`` defaults to every
    registered level. Ctrl-C stops it with the games played so far rated
    (``complete`` False)."""
    if games < 1:
        raise BotError("play at least one game per line-up")
    entrants = list(dict.fromkeys([*(levels or registered_levels()), *(extra or [])]))
    if len(entrants) < 2:
        raise BotError("a ladder needs at least two entrants")
    for name in entrants:
        make_bot(name, 0)  # a bad spec fails before any game
    rule_set = RuleSet.named(rules, turn_limit=turn_limit)
    first = PlackettLuce().rating()
    result = LadderResult(
        entrants,
        games,
        seed,
        rule_set.describe(),
        turn_limit,
        {name: Standing(name, first.mu, first.sigma) for name in entrants},
    )
    sets = list(lineups(entrants))
    total = len(sets) * games
    played: list[tuple[str, Outcome]] = []
    try:
        with open_backend(backend, workers, address) as runner:
            for number, (kind, lineup) in enumerate(sets):
                setup = TournamentSetup(
                    len(lineup), lineup, rule_set, "classic", seed * 10_007 + number
                )
                jobs = ((setup, a, b) for a, b in chunks(games, runner.workers, 25))
                for outcomes in runner.map(play_chunk, jobs):
                    played.extend((kind, outcome) for outcome in outcomes)
                    if progress is not None:
                        progress(len(played), total)
    except BackendError as error:
        raise BotError(str(error)) from None
    except KeyboardInterrupt:
        result.complete = False
    rate_games(result, played)
    return result


def rate_games(result: LadderResult, played: list[tuple[str, Outcome]]) -> None:
    """Count the games ``played`` (format, outcome) into ``result``'s standings and rate
    them in ``ORDERS`` orders shuffled by its seed, so that no block of one line-up or
    one format comes last (``played`` is in the order of the line-ups and their games,
    whatever the backend); each entrant's μ and σ are the means of those orders'."""
    for kind, outcome in played:
        _count(result, kind, outcome)
    shuffle = random.Random(result.seed).shuffle
    ends: dict[str, list[Any]] = {name: [] for name in result.entrants}
    for _ in range(ORDERS):
        model = PlackettLuce(tau=DRIFT)
        ratings = {name: model.rating(name=name) for name in result.entrants}
        order = list(played)
        shuffle(order)
        for _kind, outcome in order:
            _rate(model, ratings, outcome)
        for name, rating in ratings.items():
            ends[name].append(rating)
    for name, rated in ends.items():
        result.standings[name].mu = fmean(r.mu for r in rated)
        result.standings[name].sigma = fmean(r.sigma for r in rated)


def _rate(model: PlackettLuce, ratings: dict[str, Any], outcome: Outcome) -> None:
    teams = [[ratings[name]] for name in outcome.seats]
    ranks = [float(place) for place in outcome.places]
    for team, name in zip(model.rate(teams, ranks=ranks), outcome.seats, strict=True):
        ratings[name] = team[0]


def _count(result: LadderResult, kind: str, outcome: Outcome) -> None:
    for seat, name in enumerate(outcome.seats):
        standing = result.standings[name]
        standing.games[kind] += 1
        if seat in outcome.winners:
            standing.wins[kind] += 1 / len(outcome.winners)
    result.games += 1


@app.command()
def ladder(
    entrants: Annotated[
        list[str] | None,
        typer.Argument(
            help="More entrants: module:Class or a policy file (.npz); the registered levels "
            "always play"
        ),
    ] = None,
    games: Annotated[int, typer.Option(help="Games per line-up (each 4-set and pair)")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the first game")] = 0,
    rules: Annotated[str, typer.Option(help="standard, short, speed or short+speed")] = "standard",
    turn_limit: Annotated[
        int, typer.Option(help="Turns after which the richest player wins")
    ] = DEFAULT_TURN_LIMIT,
    out: Annotated[Path, typer.Option(help="Where to write the JSON")] = Path("ladder.json"),
    workers: Workers = None,
    backend: Backend = "local",
    address: Address = None,
) -> None:
    """Rate every computer player (openskill) in rotated 4-player and heads-up games."""
    try:
        if not sys.stdout.isatty():
            result = run_ladder(
                entrants, games, seed, rules, turn_limit, None, backend, workers, address
            )
        else:
            with Progress(console=console, transient=True) as bar:
                task = bar.add_task("playing", total=None)
                result = run_ladder(
                    entrants,
                    games,
                    seed,
                    rules,
                    turn_limit,
                    None,
                    backend,
                    workers,
                    address,
                    progress=lambda done, total: bar.update(task, completed=done, total=total),
                )
    except (BotError, MonopolyError, EditionError) as error:
        raise fail(str(error)) from None
    out.write_text(json.dumps(result.to_json(), indent=2) + "\n", encoding="utf-8")
    print_ladder(result)
    console.print(f"written to {out}")


def print_ladder(result: LadderResult) -> None:
    state = "" if result.complete else " (stopped early: the games played so far)"
    console.print(
        f"{result.games} games{state} · {result.games_per_lineup} per line-up · rules "
        f"{result.rules} · seed {result.seed} · turn limit {result.turn_limit}"
    )
    table = Table("rank", "entrant", "ordinal", "mu", "sigma", "4p win share", "heads-up win share")
    for rank, standing in enumerate(result.table_order(), 1):
        row = standing.to_json()
        cells = []
        for kind in FORMATS:
            share = row[kind]["win_share"]
            low, high = row[kind]["ci95"]
            cells.append("–" if share is None else f"{share:.3f} ({low:.2f}–{high:.2f})")
        table.add_row(
            str(rank),
            standing.name,
            f"{standing.ordinal:.2f}",
            f"{standing.mu:.2f}",
            f"{standing.sigma:.2f}",
            *cells,
        )
    console.print(table)
