"""``monopoly simulate`` (many games between computer players) and ``monopoly odds``
(the exact long-run landing odds). See docs/simulator.md."""

from __future__ import annotations

import json
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from monopoly.bots.base import LEVELS, load_levels
from monopoly.build import running
from monopoly.cli.main import app, console, counting_progress, fail
from monopoly.cli.options import Address, Backend, Workers
from monopoly.core.editions import EditionError, get_edition
from monopoly.sim.parquet import GameTable, ParquetError
from monopoly.sim.runner import SimConfig, SimulationError, run
from monopoly.sim.stats import Summary, odds_table
from monopoly.sim.texts import LANGUAGES, Texts

if TYPE_CHECKING:
    from monopoly.core.odds import LandingOdds


def default_level() -> str:
    """``normal`` once it is registered, ``random`` until then."""
    load_levels()
    return "normal" if "normal" in LEVELS else "random"


@app.command()
def simulate(
    games: Annotated[int, typer.Option(help="Number of games")] = 1000,
    players: Annotated[int, typer.Option(help="Players per game (2-6)")] = 4,
    edition: Annotated[str, typer.Option(help="Edition key or alias")] = "classic",
    rules: Annotated[str, typer.Option(help="standard, short, speed or short+speed")] = "standard",
    bots: Annotated[
        str,
        typer.Option(
            help="Computer-player level(s) per seat, comma-separated (easy, normal, hard, expert, "
            "learned, random, module:Class or a policy file .npz); one level plays every "
            "seat; several are rotated one seat on per game. Default: normal (random until "
            "normal exists)."
        ),
    ] = "",
    seed: Annotated[int, typer.Option(help="Seed of the whole simulation")] = 0,
    workers: Workers = None,
    backend: Backend = "local",
    address: Address = None,
    out: Annotated[
        Path | None, typer.Option(help="Write one row per game into this Parquet file")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON summary")] = False,
    records: Annotated[
        Path | None, typer.Option(help="Write every game's record (JSON) into this folder")
    ] = None,
    report: Annotated[
        Path | None, typer.Option(help="Write an HTML report with plots into this folder")
    ] = None,
    turn_limit: Annotated[
        int, typer.Option(help="Turns before the richest player wins (0: none)")
    ] = 1000,
    language: Annotated[str, typer.Option(help="Language of names and labels: en or de")] = "en",
) -> None:
    """Play many games between computer players and sum up wins, lengths, landings, rent.
    Ctrl-C stops and keeps the games done."""
    levels = [level.strip() for level in (bots or default_level()).split(",")]
    try:
        config = SimConfig.create(
            games, players, edition, rules, levels, seed, workers, turn_limit, language, records,
            backend, address,
        )  # fmt: skip
        summary = _run(config, show_progress=not as_json, out=out)
    except (SimulationError, ParquetError) as error:
        raise fail(str(error)) from None
    chosen = get_edition(config.edition)
    texts = Texts(chosen, language)
    data = summary.to_json(config.setup_json(), chosen, texts)
    data["build"] = running().describe()
    if as_json:
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    else:
        _print_summary(data, summary, texts)
    if records is not None and not as_json:
        console.print(texts("records_written", count=summary.games, path=records))
    if out is not None and not as_json:
        console.print(texts("table_written", count=summary.games, path=out))
    if report is not None:
        from monopoly.sim.report import write_report  # matplotlib: only when needed

        page = write_report(summary, config.setup_json(), chosen, texts, report)
        if not as_json:
            console.print(texts("report_written", path=page))


def _run(config: SimConfig, show_progress: bool, out: Path | None) -> Summary:
    with ExitStack() as stack:
        sink = None if out is None else stack.enter_context(GameTable(out))
        if not show_progress:
            return run(config, sink=sink)
        progress = stack.enter_context(counting_progress())
        task = progress.add_task("games", total=config.games)
        return run(config, lambda done: progress.advance(task, done), sink)
    raise AssertionError("unreachable")


def _print_summary(data: dict[str, Any], summary: Summary, texts: Texts) -> None:
    turns = data["turns"]
    console.rule(f"[bold]{texts('title')}[/] · {texts.names.title} · {data['rules']}")
    if not summary.complete:
        console.print(texts("stopped_early", done=summary.games, total=summary.planned))
    seating = texts("seating_rotated" if data["seating"] == "rotated" else "seating_fixed")
    console.print(f"{texts('bots')}: {', '.join(data['bots'])} ({seating})")
    speed = texts(
        "games_per_second",
        value=texts.number(data["games_per_second"], 1),
        turns=texts.number(data["player_turns_per_second"]),
        rolls=texts.number(data["rolls_per_second"]),
    )
    seconds = texts.number(data["seconds"], 1)
    console.print(f"{texts('games')}: {data['games']} · {seconds} s · {speed}")
    summary_text = texts(
        "turns_summary",
        mean=texts.number(turns["mean"], 1),
        median=texts.number(turns["median"], 1 if turns["median"] % 1 else 0),
        min=turns["min"],
        max=turns["max"],
    )
    console.print(f"{texts('turns_per_game')}: {summary_text}")
    reasons = ", ".join(f"{texts.end_reason(k)} {v}" for k, v in data["end_reasons"].items())
    console.print(f"{texts('end_reasons')}: {reasons}")
    console.print(_wins_table(data, texts))
    if data["wins"]["shared_games"]:
        console.print(texts("shared", count=data["wins"]["shared_games"]))
    console.print(_landing_table(data, texts, top=12))
    console.print(_rent_table(data, texts, top=12))


def _wins_table(data: dict[str, Any], texts: Texts) -> Table:
    table = Table(title=texts("wins"))
    for column in (texts("level"), texts("seat_games"), texts("wins"), texts("win_rate")):
        table.add_column(column, justify="left" if column == texts("level") else "right")
    for level, row in data["wins"]["by_level"].items():
        table.add_row(level, str(row["seat_games"]), str(row["wins"]), texts.percent(row["rate"]))
    return table


def _landing_table(data: dict[str, Any], texts: Texts, top: int) -> Table:
    table = Table(title=texts("most_landed"))
    for column in (texts("rank"), texts("space"), texts("landings"), texts("share")):
        table.add_column(column, justify="left" if column == texts("space") else "right")
    rows = sorted(data["landings"]["spaces"], key=lambda row: -row["count"])
    for rank, row in enumerate(rows[:top], 1):
        table.add_row(str(rank), row["name"], str(row["count"]), texts.percent(row["share"], 2))
    return table


def _rent_table(data: dict[str, Any], texts: Texts, top: int) -> Table:
    table = Table(title=texts("top_rent"))
    for column in (texts("space"), texts("group"), texts("rent"), texts("rent_per_game")):
        numeric = column in (texts("rent"), texts("rent_per_game"))
        table.add_column(column, justify="right" if numeric else "left")
    group_names = {row["group"]: row["name"] for row in data["rent"]["by_group"]}
    rows = sorted(data["rent"]["by_property"], key=lambda row: -row["total"])
    for row in rows[:top]:
        group = group_names.get(row["group"], row["group"])
        table.add_row(row["name"], group, texts.number(row["total"]), texts.number(row["per_game"]))
    return table


@app.command()
def odds(
    jail: Annotated[
        str, typer.Option(help="leave: pay (or use a card) at once; stay: roll for doubles")
    ] = "leave",
    as_json: Annotated[bool, typer.Option("--json", help="Print the odds as JSON")] = False,
    edition: Annotated[str, typer.Option(help="Edition key or alias")] = "classic",
    language: Annotated[str, typer.Option(help="Language of the names: en or de")] = "en",
) -> None:
    """The exact long-run probability of landing on each space (a Markov chain)."""
    from monopoly.core.odds import OddsError, landing_odds  # numpy: only when needed

    try:
        if language not in LANGUAGES:
            raise OddsError(f"unknown language {language!r}: use {' or '.join(LANGUAGES)}")
        result = landing_odds(edition, jail)
    except (OddsError, EditionError) as error:
        raise fail(str(error)) from None
    texts = Texts(result.edition, language)
    if as_json:
        sys.stdout.write(json.dumps(odds_json(result, texts), ensure_ascii=False, indent=1) + "\n")
        return
    _print_odds(result, texts)


def odds_json(result: LandingOdds, texts: Texts) -> dict[str, Any]:
    return {
        "edition": result.edition.key,
        "jail": result.jail,
        "per": "roll",
        "spaces": odds_table(result, texts),
    }


def _print_odds(result: LandingOdds, texts: Texts) -> None:
    table = Table(title=f"{texts('odds_title')} · {texts.names.title}")
    for column in (texts("rank"), texts("space"), texts("group"), texts("probability")):
        table.add_column(column, justify="right" if column != texts("space") else "left")
    for rank, row in enumerate(odds_table(result, texts), 1):
        group = texts.group_name(row["group"]) if row["group"] else ""
        table.add_row(str(rank), row["name"], group, texts.percent(row["probability"], 4))
    console.print(table)
    console.print(f"{texts('jail_strategy')}: {texts('jail_mode_' + result.jail)}")
    console.print(texts("landing_definition"))
