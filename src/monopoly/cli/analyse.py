"""``monopoly analyse game.json``: the analysis board for a recorded game. See
docs/analysis.md."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from monopoly.analysis import GameAnalysis, Pool, RolloutSettings, analyse_game
from monopoly.analysis.rollout import HORIZON, LEVEL
from monopoly.analysis.texts import AnalysisTexts, decision_rows
from monopoly.bots.base import BotError
from monopoly.cli.main import app, console, counting_progress, fail
from monopoly.cli.options import Address, Backend, Workers
from monopoly.core.errors import MonopolyError, RecordError
from monopoly.core.records import load_record, record_of
from monopoly.sim.backends import BackendError

Horizon = Annotated[int, typer.Option(help="Player-turns a rollout plays on")]
Language = Annotated[str, typer.Option(help="Language of the labels: en or de")]
CHART_ROWS = 16
"""At most this many turns in the terminal's table of chances (the report has all)."""


@app.command()
def analyse(
    record: Annotated[Path, typer.Argument(help="A game record (JSON), e.g. from --record")],
    seat: Annotated[int | None, typer.Option(help="Judge only this seat's decisions")] = None,
    rollouts: Annotated[int, typer.Option(help="Rollouts per position")] = 100,
    horizon: Horizon = HORIZON,
    level: Annotated[str, typer.Option(help="Level of the players in the rollouts")] = LEVEL,
    seed: Annotated[int, typer.Option(help="Seed of the rollouts")] = 0,
    workers: Workers = None,
    backend: Backend = "local",
    address: Address = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON")] = False,
    out: Annotated[Path | None, typer.Option(help="Write the analysis as JSON here")] = None,
    report: Annotated[
        Path | None, typer.Option(help="Write an HTML report with the chart into this folder")
    ] = None,
    language: Language = "en",
) -> None:
    """Win chances over a game's turns and its decisions marked (inaccuracy, mistake,
    blunder). Ctrl-C stops and keeps what is done."""
    try:
        game = load_record(record)
        if seat is not None and not 0 <= seat < game.players:
            raise MonopolyError(f"--seat must be 0 to {game.players - 1}, got {seat}")
        settings = RolloutSettings(level, horizon, rollouts, seed)
        texts = AnalysisTexts(game.edition, language)
        with Pool(workers, backend, address) as pool:
            analysis = _run(record_of(game), settings, pool, seat, texts, quiet=as_json)
    except (RecordError, MonopolyError, BotError, BackendError, ValueError) as error:
        raise fail(str(error)) from None
    data = analysis.to_json()
    if as_json:
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    else:
        _print(analysis, game, texts)
    if out is not None:
        out.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        if not as_json:
            console.print(texts("json_written", path=out))
    if report is not None:
        from monopoly.analysis.report import write_report  # matplotlib: only when needed

        page = write_report(analysis, game, texts, report)
        if not as_json:
            console.print(texts("report_written", path=page))


def _run(
    record: dict[str, object],
    settings: RolloutSettings,
    pool: Pool,
    seat: int | None,
    texts: AnalysisTexts,
    quiet: bool,
) -> GameAnalysis:
    if quiet:
        return analyse_game(record, settings, pool, seat)
    with counting_progress() as progress:
        task = progress.add_task(texts("analysing"), total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        return analyse_game(record, settings, pool, seat, advance)


def _print(analysis: GameAnalysis, game: object, texts: AnalysisTexts) -> None:
    from monopoly.core.game import Game

    assert isinstance(game, Game)
    console.rule(f"[bold]{texts('analysis_title')}[/] · {texts.names.title}")
    if not analysis.complete:
        console.print(texts("stopped_early", done=analysis.done, total=analysis.planned))
    console.print(_chances_table(analysis, texts))
    rows = decision_rows(analysis, game, texts)
    if not rows:
        console.print(texts("no_marks"))
        return
    table = Table(title=texts("marked_decisions"))
    for header in ("turn", "player", "taken", "better", "loss", "mark"):
        table.add_column(texts(header), justify="right" if header in ("turn", "loss") else "left")
    for row in rows:
        table.add_row(*row)
    console.print(table)


def _chances_table(analysis: GameAnalysis, texts: AnalysisTexts) -> Table:
    table = Table(title=texts("win_chances"))
    table.add_column(texts("turn"), justify="right")
    for name in analysis.names:
        table.add_column(name, justify="right")
    step = max(1, -(-len(analysis.points) // CHART_ROWS))
    shown = analysis.points[::step]
    if analysis.points and shown[-1] is not analysis.points[-1]:
        shown.append(analysis.points[-1])
    for point in shown:
        table.add_row(str(point.turn), *(c.points(texts) for c in point.chances.chances))
    return table


@app.command()
def calibrate(
    games: Annotated[int, typer.Option(help="Games to play and predict")] = 2000,
    players: Annotated[int, typer.Option(help="Players per game")] = 4,
    rollouts: Annotated[int, typer.Option(help="Rollouts per prediction")] = 12,
    horizon: Horizon = HORIZON,
    level: Annotated[str, typer.Option(help="Level of every player")] = LEVEL,
    seed: Annotated[int, typer.Option(help="Seed of the games and rollouts")] = 0,
    workers: Workers = None,
    backend: Backend = "local",
    address: Address = None,
    out: Annotated[Path, typer.Option(help="Folder for the diagram and the JSON")] = Path(
        "calibration"
    ),
    language: Language = "en",
) -> None:
    """How well the win chances are calibrated: a reliability diagram and the Brier
    score over many games (see docs/analysis.md). Ctrl-C keeps the games done."""
    from monopoly.analysis.calibration import calibrate as run_calibration
    from monopoly.analysis.calibration import plot_reliability
    from monopoly.core.editions import get_edition
    from monopoly.sim.report import save_figure

    try:
        settings = RolloutSettings(level, horizon, rollouts, seed)
        texts = AnalysisTexts(get_edition("classic"), language)
        with Pool(workers, backend, address) as pool, counting_progress() as progress:
            task = progress.add_task(texts("games"), total=games)
            result = run_calibration(
                games, players, settings, pool, lambda done: progress.advance(task, done)
            )
    except (MonopolyError, BotError, BackendError, ValueError) as error:
        raise fail(str(error)) from None
    out.mkdir(parents=True, exist_ok=True)
    save_figure(plot_reliability(result, texts), out / "reliability.png")
    data = result.to_json()
    (out / "calibration.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    console.print(
        texts(
            "brier",
            score=texts.number(data["brier"], 4),
            baseline=texts.number(data["baseline_brier"], 4),
        )
    )
    console.print(f"{texts('games')}: {result.games} · {out / 'reliability.png'}")
