"""Ctrl-C stops `monopoly simulate` and `monopoly tournament` and keeps the games done:
real processes, stopped as a user stops them (SIGINT to the whole process group)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest

from monopoly.core.records import load_record
from tests.cli.ctrl_c import ctrl_c_in_terminal, ctrl_c_when

PLANNED = 200_000
"""Far more games than a run plays before it is stopped."""
QUICK_GAMES = ["--bots", "random", "--turn-limit", "100"]
STOPPED = re.compile(r"Stopped early: (\d+) of (\d+) games played")


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_in_a_terminal_keeps_the_games_done(tmp_path: Path, workers: str) -> None:
    """Stopped once the progress bar counts games: the summary, the Parquet rows and the
    report are of the games done, and say so."""
    out, report = tmp_path / "games.parquet", tmp_path / "report"
    args = ["simulate", "--games", str(PLANNED), *QUICK_GAMES, "--workers", workers]
    stopped = ctrl_c_in_terminal([*args, "--out", str(out), "--report", str(report)])
    assert stopped.code == 0, stopped.output
    found = STOPPED.search(stopped.output)
    assert found is not None, stopped.output
    done = int(found[1])
    assert 0 < done < PLANNED and int(found[2]) == PLANNED
    assert f"Games: {done} ·" in stopped.output
    assert pq.read_table(out).column("game").to_pylist() == list(range(done))
    page = (report / "index.html").read_text(encoding="utf-8")
    assert f"{done} of {PLANNED} games played" in page


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_json_parquet_and_records_hold_the_games_done(
    tmp_path: Path, workers: str
) -> None:
    """``--json`` (no progress bar): stopped once 150 records are written (six chunks of
    25 games; in one process, five are summed by then). The JSON, the Parquet rows and
    the records are of the same games, the first ones, each record whole."""
    out, records = tmp_path / "games.parquet", tmp_path / "records"
    args = ["simulate", "--json", "--games", str(PLANNED), *QUICK_GAMES, "--workers", workers]
    stopped = ctrl_c_when(
        [*args, "--out", str(out), "--records", str(records)],
        ready=lambda: records.is_dir() and len(list(records.iterdir())) >= 150,
    )
    assert stopped.code == 0, stopped.output
    data = json.loads(stopped.output)
    assert data["complete"] is False and data["planned_games"] == PLANNED
    done = data["games"]
    assert 0 < done < PLANNED
    assert sum(data["end_reasons"].values()) == done
    table = pq.read_table(out)
    assert table.column("game").to_pylist() == list(range(done))
    assert sum(table.column("turns").to_pylist()) == data["turns"]["total"]
    written = sorted(path.name for path in records.iterdir())
    assert all(name.endswith(".json") for name in written), "no record is left half-written"
    for index in range(done):
        assert load_record(records / f"game-{index + 1:06d}.json").turn > 0


@pytest.mark.parametrize(
    ("workers", "language", "stopped_line", "setup_line"),
    [
        ("1", "en", r"Stopped early: (\d+) of 200000 games played", "{} games · 3 players"),
        (
            "2",
            "de",
            r"Vorzeitig beendet: (\d+) von 200000 Spielen gespielt",
            "{} Spiele · 3 Spieler",
        ),
    ],
    ids=["1 worker, English", "2 workers, German"],
)
def test_tournament_shows_the_standings_of_the_games_played(
    workers: str, language: str, stopped_line: str, setup_line: str
) -> None:
    """Stopped once the progress bar counts games: the standings are of the games
    played, in the language asked for, and say the tournament was stopped early."""
    args = ["tournament", "--games", str(PLANNED), "--players", "3", *QUICK_GAMES]
    stopped = ctrl_c_in_terminal([*args, "--workers", workers, "--language", language])
    assert stopped.code == 0, stopped.output
    found = re.search(stopped_line, stopped.output)
    assert found is not None, stopped.output
    done = int(found[1])
    assert 0 < done < PLANNED
    assert setup_line.format(done) in stopped.output
