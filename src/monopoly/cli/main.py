"""The ``monopoly`` command: demonstration games, replays of records, editions."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

from monopoly.bots.base import BotError, make_bot
from monopoly.bots.driver import SeatDriver
from monopoly.build import running
from monopoly.core.editions import EditionError, edition_keys, get_edition
from monopoly.core.errors import MonopolyError, RecordError
from monopoly.core.game import Game
from monopoly.core.narrate import Narrator, money
from monopoly.core.records import game_state, load_record, record_of
from monopoly.core.rules import RuleSet

app = typer.Typer(help="MONOPOLY: the classic game and its themed editions.", no_args_is_help=True)
console = Console(highlight=False)
errors = Console(stderr=True, highlight=False, soft_wrap=True)

NAMES = {
    "en": ["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"],
    "de": ["Anna", "Bernd", "Clara", "Dieter", "Emma", "Felix", "Greta", "Hans"],
}


def counting_progress(transient: bool = False) -> Progress:
    """A progress bar that counts (``12/200``) and estimates the time left."""
    columns = (*Progress.get_default_columns()[:1], BarColumn(), MofNCompleteColumn())
    return Progress(*columns, TimeRemainingColumn(), console=console, transient=transient)


def fail(message: str) -> typer.Exit:
    errors.print(f"[bold red]error:[/] {message}")
    return typer.Exit(2)


@app.command()
def demo(
    players: Annotated[int, typer.Option(help="Number of computer players (2-6).")] = 4,
    edition: Annotated[
        str, typer.Option(help="classic, zelda, cthulhu, fallout, transformers")
    ] = "classic",
    rules: Annotated[str, typer.Option(help="standard, short, speed or short+speed")] = "standard",
    language: Annotated[str, typer.Option(help="en or de")] = "en",
    seed: Annotated[int, typer.Option(help="Seed of the dice and the players")] = -1,
    max_turns: Annotated[int, typer.Option(help="Stop after this many turns (richest wins)")] = 400,
    delay: Annotated[float, typer.Option(help="Seconds between turns")] = 0.0,
    record: Annotated[Path | None, typer.Option(help="Write the game record (JSON) here")] = None,
    bots: Annotated[
        str, typer.Option(help="Levels, comma-separated, one per seat or one for all")
    ] = "hard,normal,easy",
) -> None:
    """Watch computer players play a whole game, narrated in the terminal."""
    if seed < 0:
        seed = time.time_ns() % 1_000_000
    levels = [level.strip() for level in bots.split(",")]
    seat_levels = [levels[seat % len(levels)] for seat in range(players)]
    try:
        rule_set = RuleSet.named(rules, turn_limit=max_turns)
        players_bots = [make_bot(level, seed * 10 + seat) for seat, level in enumerate(seat_levels)]
        names = [
            f"{name} ({level.rpartition(':')[2]})"
            for name, level in zip(_player_names(language, players), seat_levels, strict=True)
        ]
        game = Game.new(names, edition, rule_set, seed=seed, language=language)
    except (MonopolyError, EditionError, BotError) as error:
        raise fail(str(error)) from None
    narrator = Narrator(game)
    title = game.edition.names[language].title
    console.rule(f"[bold]{title}[/] · {rule_set.describe()} · seed {seed}")
    _print_events(narrator, game.events)
    driver = SeatDriver(game, players_bots.__getitem__)
    shown = len(game.events)
    while driver.step() is not None:
        events = game.events[shown:]
        shown = len(game.events)
        _print_events(narrator, events)
        if delay and any(type(e).__name__ == "TurnStarted" for e in events):
            time.sleep(delay)
    _print_standings(game)
    if record is not None:
        record.write_text(json.dumps(record_of(game), ensure_ascii=False, indent=1), "utf-8")
        console.print(f"record: {record}")


def _player_names(language: str, count: int) -> list[str]:
    names = NAMES.get(language, NAMES["en"])
    return [names[i] if i < len(names) else f"#{i + 1}" for i in range(count)]


def _print_events(narrator: Narrator, events: Sequence[object]) -> None:
    for event in events:
        name = type(event).__name__
        text = narrator.describe(event)
        if name == "TurnStarted":
            console.print(f"\n[bold cyan]{text}[/]")
        elif name in ("GameOver", "PlayerBankrupt"):
            console.print(f"[bold red]{text}[/]")
        else:
            console.print(f"  {text}")


def _print_standings(game: Game) -> None:
    console.rule()
    for seat in sorted(range(game.players), key=lambda s: -game.net_worth(s)):
        worth = money(game, game.net_worth(seat))
        state = worth if game.active[seat] else Narrator(game).text("standing_bankrupt")
        crown = " 🏆" if seat in game.winners else ""
        console.print(f"{game.names[seat]:10} {state}{crown}")


@app.command()
def replay(
    record: Annotated[Path, typer.Argument(help="A game record (JSON)")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the final state as JSON")] = False,
) -> None:
    """Replay a game record: its final state as JSON, or a readable account."""
    try:
        game = load_record(record)
    except RecordError as error:
        raise fail(str(error)) from None
    if as_json:
        sys.stdout.write(json.dumps(game_state(game), ensure_ascii=False, indent=2) + "\n")
        return
    narrator = Narrator(game)
    _print_events(narrator, game.events)
    if game.decision is not None:
        decision = game.decision
        console.print(f"\n… waiting for {game.names[decision.seat]}: {decision.kind}")
    _print_standings(game)


@app.command()
def editions() -> None:
    """List the editions and their names in both languages."""
    for key in edition_keys():
        edition = get_edition(key)
        en, de = edition.names["en"], edition.names["de"]
        console.print(f"[bold]{key}[/] ({', '.join(edition.aliases)}): {en.title} / {de.title}")
        console.print(f"   {en.terms['currency']} · {en.terms['houses']} · {en.terms['hotels']}")


def _show_version(asked: bool) -> None:
    if asked:
        console.print(f"monopoly {package_version('monopoly')}, {running().describe()}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_show_version,
            is_eager=True,
            help="Show the version and which build runs (compiled or pure Python), and exit.",
        ),
    ] = False,
) -> None:
    """MONOPOLY: the classic game and its themed editions."""
    current = running()
    if not current.compiled and current.reason == "not compiled" and sys.stderr.isatty():
        # Said once per run, where a person reads it (tests and pipes are left alone).
        errors.print(f"monopoly runs the {current.describe()}: simulations run slower")


def main() -> None:
    """The ``monopoly`` command (also ``python -m monopoly``)."""
    app()


# The other commands register themselves on ``app`` when imported.
from monopoly.cli import analyse as _analyse  # noqa: E402,F401
from monopoly.cli import ladder as _ladder  # noqa: E402,F401
from monopoly.cli import play as _play  # noqa: E402,F401
from monopoly.cli import serve as _serve  # noqa: E402,F401
from monopoly.cli import simulate as _simulate  # noqa: E402,F401
from monopoly.cli import tournament as _tournament  # noqa: E402,F401
