"""``monopoly play``: play against computer players in the terminal."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from monopoly.bots.base import Bot, BotError, make_bot
from monopoly.cli.main import NAMES, app, fail
from monopoly.cli.terminal import SAVE_KEY, TerminalGame, Texts, terminal_catalog
from monopoly.core.editions import EditionError
from monopoly.core.errors import MonopolyError, RecordError
from monopoly.core.game import Game
from monopoly.core.records import load_record
from monopoly.core.rules import RuleSet

DEFAULT_SAVE = Path("monopoly-game.json")
RESUME_NEWS = 12
"""How many lines of the game log a resumed game shows again."""


@app.command()
def play(
    players: Annotated[int, typer.Option(help="Seats in all: people and computers (2-6)")] = 4,
    humans: Annotated[
        str, typer.Option(help="The people's names, comma-separated (one seat each)")
    ] = "",
    bots: Annotated[
        str,
        typer.Option(
            help="Computer levels (easy, normal, hard, expert, learned), one per seat or for all"
        ),
    ] = "normal",
    edition: Annotated[
        str, typer.Option(help="classic, zelda, cthulhu, fallout, transformers")
    ] = "classic",
    rules: Annotated[str, typer.Option(help="standard, short, speed or short+speed")] = "standard",
    language: Annotated[str, typer.Option(help="en or de")] = "en",
    seed: Annotated[int, typer.Option(help="Seed of the dice (default: from the clock)")] = -1,
    max_turns: Annotated[int, typer.Option(help="End after this many turns (0: never)")] = 0,
    resume: Annotated[
        Path | None, typer.Option(help="Continue a game saved with q (a game record)")
    ] = None,
    save: Annotated[
        Path | None, typer.Option(help="Where q (and the end of the game) saves the record")
    ] = None,
) -> None:
    """Play MONOPOLY in the terminal against computer players (q saves and quits)."""
    console = Console(highlight=False)
    people = [name.strip() for name in humans.split(",") if name.strip()]
    levels = [level.strip() for level in bots.split(",") if level.strip()] or ["normal"]
    try:
        if resume is not None:
            game, seat_levels = _resumed(resume, people, levels)
        else:
            seed = seed if seed >= 0 else time.time_ns() % 1_000_000
            game, seat_levels = _new_game(
                players, people, levels, edition, rules, language, seed, max_turns
            )
        seat_bots = _bots(seat_levels, game.setup.seed)
    except (MonopolyError, EditionError, BotError) as error:
        raise fail(str(error)) from None
    t = Texts(game)
    title = game.edition.names[game.language].title
    console.rule(
        f"[bold]{t('title', title=title, rules=game.rules.describe(), seed=game.setup.seed)}"
    )
    news_from = max(0, len(game.events) - RESUME_NEWS) if resume is not None else 0
    terminal = TerminalGame(
        game,
        seat_bots,
        console,
        _reader(console),
        save_path=save or resume or DEFAULT_SAVE,
        levels=seat_levels,
        news_from=news_from,
    )
    try:
        terminal.run()
    except KeyboardInterrupt:  # at the prompt this is an end of input; here, mid-move
        terminal.save_and_quit()


def _new_game(
    players: int,
    people: list[str],
    levels: list[str],
    edition: str,
    rules: str,
    language: str,
    seed: int,
    max_turns: int,
) -> tuple[Game, dict[int, str]]:
    if language not in NAMES:
        raise MonopolyError(f"unknown language {language!r}: use en or de")
    people = people or [terminal_catalog(language)["default_human"]]
    if len(people) > players:
        raise MonopolyError(f"{len(people)} people need --players {len(people)} or more")
    if len(set(people)) != len(people):
        raise MonopolyError("two people have the same name")
    seat_levels = {
        seat: levels[(seat - len(people)) % len(levels)] for seat in range(len(people), players)
    }
    free_names = [name for name in NAMES[language] if name not in people]
    names = list(people)
    for index, level in enumerate(seat_levels.values()):
        bot_name = free_names[index] if index < len(free_names) else f"#{len(names) + 1}"
        names.append(f"{bot_name} ({level.rpartition(':')[2]})")
    rule_set = RuleSet.named(rules, turn_limit=max_turns)
    return Game.new(names, edition, rule_set, seed=seed, language=language), seat_levels


def _resumed(path: Path, people: list[str], levels: list[str]) -> tuple[Game, dict[int, str]]:
    game = load_record(path)
    if game.over:
        raise RecordError(f"{path}: this game is over already")
    saved: Any = json.loads(path.read_text("utf-8")).get(SAVE_KEY)
    if people:
        unknown = [name for name in people if name not in game.names]
        if unknown:
            raise RecordError(f"{path}: no player called {', '.join(unknown)}: {game.names}")
        humans = {game.names.index(name) for name in people}
        return game, {
            seat: levels[seat % len(levels)] for seat in range(game.players) if seat not in humans
        }
    if not isinstance(saved, dict) or not isinstance(saved.get("bots"), dict):
        raise RecordError(f"{path}: say which players are people with --humans NAME[,NAME]")
    return game, {int(seat): str(level) for seat, level in saved["bots"].items()}


def _bots(seat_levels: dict[int, str], seed: int) -> dict[int, Bot]:
    return {seat: make_bot(level, seed * 10 + seat) for seat, level in seat_levels.items()}


def _reader(console: Console) -> Any:
    def read_line(prompt: str) -> str:
        try:
            return console.input(prompt)
        except KeyboardInterrupt:
            console.print()
            raise EOFError from None

    return read_line
