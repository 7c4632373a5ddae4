"""`monopoly simulate --out games.parquet`: one row per game, read back with pyarrow."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
from typer.testing import CliRunner

from monopoly.cli.main import app
from monopoly.sim.parquet import GameTable
from monopoly.sim.runner import SimConfig, game_seed, lineup, run


def simulate(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["simulate", "--json", *args])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.output)
    return data


def test_the_rows_add_up_to_the_json_summary(tmp_path: Path) -> None:
    path = tmp_path / "games.parquet"
    args = ["--games", "30", "--players", "3", "--bots", "easy,normal,hard", "--seed", "4"]
    data = simulate(*args, "--turn-limit", "120", "--workers", "2", "--out", str(path))
    rows = pq.read_table(path).to_pylist()
    assert [row["game"] for row in rows] == list(range(30))
    assert [row["seed"] for row in rows] == [game_seed(4, i) for i in range(30)]
    assert all(row["players"] == 3 and len(row["net_worths"]) == 3 for row in rows)
    assert [tuple(row["levels"]) for row in rows] == [
        lineup(("easy", "normal", "hard"), 3, i) for i in range(30)
    ]
    assert sum(row["turns"] for row in rows) == data["turns"]["total"]
    assert sum(row["rolls"] for row in rows) == data["rolls"]["total"]
    reasons: dict[str, int] = {}
    for row in rows:
        reasons[row["end_reason"]] = reasons.get(row["end_reason"], 0) + 1
    assert reasons == data["end_reasons"]
    seat_wins = [0, 0, 0]
    for row in rows:
        for seat in row["winners"]:
            seat_wins[seat] += 1
        shared = len(row["winners"]) > 1
        assert row["winner"] == (None if shared else row["winners"][0])
    assert seat_wins == [seat["wins"] for seat in data["wins"]["by_seat"]]
    assert data["wins"]["shared_games"] == sum(len(row["winners"]) > 1 for row in rows)


def test_winners_hold_the_largest_fortune_and_the_bankrupt_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.parquet"
    simulate("--games", "12", "--players", "4", "--seed", "8", "--workers", "1", "--out", str(path))
    for row in pq.read_table(path).to_pylist():
        worths = row["net_worths"]
        assert all(worths[seat] == max(worths) for seat in row["winners"])  # R-SHORT-4
        if row["end_reason"] == "last_player":  # R-END-1: the others went bankrupt
            assert sorted(worths)[:-1] == [0, 0, 0] and worths[row["winner"]] > 0


def test_rows_stream_out_in_row_groups(tmp_path: Path) -> None:
    """A row group is written as soon as it is full: memory holds one group, not the file."""
    path = tmp_path / "games.parquet"
    config = SimConfig.create(21, players=2, bots=["random"], seed=3, workers=1, turn_limit=60)
    with GameTable(path, row_group=8) as table:
        summary = run(config, sink=table)
        assert table.rows == 16  # two full groups already on disk, five games waiting
    metadata = pq.ParquetFile(path).metadata
    assert metadata.num_rows == 21 == summary.games
    assert [metadata.row_group(i).num_rows for i in range(metadata.num_row_groups)] == [8, 8, 5]


def test_an_unwritable_path_is_refused_before_playing(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "folder" / "games.parquet"
    result = CliRunner().invoke(app, ["simulate", "--games", "3", "--out", str(missing)])
    assert result.exit_code == 2
    assert "cannot write" in result.output and str(missing) in result.output
    assert not missing.parent.exists()
