"""`monopoly analyse game.json`: the table, the JSON and the HTML report, as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from monopoly.bots.base import make_bot, play
from monopoly.core.game import Game
from monopoly.core.records import record_of
from monopoly.core.rules import RuleSet
from tests.cli.ctrl_c import ctrl_c_in_terminal
from tests.command import monopoly as run


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = Game.new(["Ann", "Bob"], seed=5, rules=RuleSet.named("standard", turn_limit=10))
    play(game, [make_bot("hard", 1), make_bot("normal", 2)])
    path = tmp_path_factory.mktemp("records") / "game.json"
    path.write_text(json.dumps(record_of(game)), encoding="utf-8")
    return path


def test_table_json_and_report(record: Path, tmp_path: Path) -> None:
    out, report = tmp_path / "analysis.json", tmp_path / "report"
    args = ["--rollouts", "4", "--horizon", "8", "--workers", "1", "--seat", "0"]
    done = run("analyse", str(record), *args, "--out", str(out), "--report", str(report))
    assert done.returncode == 0, done.stderr
    assert "Win chances" in done.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["players"] == ["Ann", "Bob"]
    assert [point["turn"] for point in data["chart"]] == list(range(1, 11))
    assert all(decision["seat"] == 0 for decision in data["decisions"])
    page = (report / "index.html").read_text(encoding="utf-8")
    assert "win_chances.png" in page and (report / "win_chances.png").stat().st_size > 1000


def test_german_labels(record: Path) -> None:
    done = run("analyse", str(record), "--rollouts", "2", "--horizon", "4", "--workers", "1",
               "--language", "de")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Gewinnchancen" in done.stdout


def test_json_on_stdout(record: Path) -> None:
    done = run("analyse", str(record), "--rollouts", "2", "--horizon", "4", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["complete"] is True


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "5"], "--seat must be 0 to 1"),
        (["--rollouts", "1"], "at least 2 rollouts"),
        (["--level", "grandmaster"], "unknown bot"),
    ],
)
def test_bad_input_is_refused(record: Path, args: list[str], message: str) -> None:
    done = run("analyse", str(record), *args)
    assert done.returncode == 2
    assert message in done.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_keeps_what_is_done(record: Path, tmp_path: Path, workers: str) -> None:
    """Run in a terminal (a pseudo-terminal: the progress bar shows), interrupted with
    Ctrl-C once a position is done (the signal goes to the command's whole process
    group, pool workers included, as a terminal sends it): the JSON has what was
    finished and says it is incomplete."""
    out = tmp_path / "partial.json"
    args = ["analyse", str(record), "--rollouts", "300", "--workers", workers]
    stopped = ctrl_c_in_terminal([*args, "--out", str(out)])
    assert stopped.code == 0, stopped.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["complete"] is False
    assert len(data["chart"]) + len(data["decisions"]) >= 1
    assert "Stopped early" in stopped.output


def test_calibrate_writes_the_diagram_and_scores(tmp_path: Path) -> None:
    args = ["--games", "3", "--players", "2", "--rollouts", "2", "--horizon", "10"]
    done = run("calibrate", *args, "--level", "easy", "--workers", "1", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "Brier score" in done.stdout
    data = json.loads((tmp_path / "calibration.json").read_text(encoding="utf-8"))
    assert data["games"] == 3 and data["players"] == 2
    assert sum(b["pairs"] for b in data["bins"]) == 6
    assert (tmp_path / "reliability.png").stat().st_size > 1000


def test_calibrate_refuses_bad_input(tmp_path: Path) -> None:
    done = run("calibrate", "--games", "0", "--out", str(tmp_path))
    assert done.returncode == 2
    assert "at least 1 game" in done.stderr
