"""`monopoly simulate` and `monopoly odds`, run as a user would."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from monopoly.cli.main import app
from monopoly.core.records import load_record
from monopoly.sim.stats import TIMING_KEYS
from tests.command import monopoly as run

MONOPOLY = [sys.executable, "-c", "from monopoly.cli.main import app; app()"]


def run_process(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own: for runs with pool workers, which are forked
    from it (not from a test worker with its threads)."""
    return subprocess.run([*MONOPOLY, *args], capture_output=True, text=True, timeout=300)


def in_process(*args: str) -> Result:
    """The same command run in this process (quicker, for arguments that are refused)."""
    return CliRunner().invoke(app, list(args))


def simulate_json(*args: str) -> dict[str, Any]:
    """``simulate --json ARGS``: in this process with one worker, else in its own."""
    workers = args[args.index("--workers") + 1] if "--workers" in args else "every core"
    result = (run if workers == "1" else run_process)("simulate", "--json", *args)
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


SMALL = (
    "--games",
    "24",
    "--players",
    "3",
    "--seed",
    "5",
    "--bots",
    "random",
    "--turn-limit",
    "400",
)


@pytest.fixture(scope="module")
def one_worker() -> dict[str, Any]:
    return simulate_json(*SMALL, "--workers", "1")


def test_the_json_summary_adds_up(one_worker: dict[str, Any]) -> None:
    data = one_worker
    assert data["games"] == 24
    assert sum(data["end_reasons"].values()) == 24
    assert set(data["end_reasons"]) <= {"last_player", "limit"}
    assert data["turns"]["min"] <= data["turns"]["mean"] <= data["turns"]["max"] <= 400
    assert data["games_per_second"] > 0 and data["seconds"] > 0
    # player-turns (the engine's game.turn) per second; the seconds are rounded to the
    # millisecond, which on a fast build's 30 ms run moves the rate by more than 1 %
    total, seconds = data["turns"]["total"], data["seconds"]
    fastest, slowest = total / (seconds - 0.0005), total / (seconds + 0.0005)
    assert slowest - 0.1 <= data["player_turns_per_second"] <= fastest + 0.1
    assert data["backend"] == "local" and data["workers"] == 1
    wins = data["wins"]
    assert sum(seat["wins"] for seat in wins["by_seat"]) >= 24
    assert wins["by_level"]["random"]["seat_games"] == 3 * 24
    assert wins["by_level"]["random"]["wins"] == sum(seat["wins"] for seat in wins["by_seat"])
    spaces = data["landings"]["spaces"]
    assert len(spaces) == 41
    assert [s["index"] for s in spaces if s["in_jail"]] == [10]
    assert sum(s["count"] for s in spaces) == data["landings"]["total"] == data["rolls"]["total"]
    assert next(s for s in spaces if s["index"] == 30)["count"] == 0  # Go to Jail
    assert next(s for s in spaces if s["in_jail"])["count"] > 0
    assert sum(s["share"] for s in spaces) == pytest.approx(1.0, abs=1e-4)
    rent = data["rent"]
    assert sum(p["total"] for p in rent["by_property"]) == rent["total"] > 0
    assert sum(g["total"] for g in rent["by_group"]) == rent["total"]
    assert len(rent["by_property"]) == 28


def test_the_same_seed_gives_the_same_games_on_any_number_of_workers(
    one_worker: dict[str, Any],
) -> None:
    two_workers = simulate_json(*SMALL, "--workers", "2")
    for key in TIMING_KEYS:
        one_worker.pop(key), two_workers.pop(key)
    assert one_worker == two_workers
    other_seed = simulate_json(*SMALL[:-6], "--seed", "6", *SMALL[-4:], "--workers", "1")
    assert other_seed["landings"] != one_worker["landings"]


def test_several_levels_share_the_seats() -> None:
    data = simulate_json(
        "--games", "6", "--players", "2", "--bots", "random,normal", "--turn-limit", "150",
        "--workers", "1",
    )  # fmt: skip
    assert data["seating"] == "rotated"
    assert {level: row["seat_games"] for level, row in data["wins"]["by_level"].items()} == {
        "normal": 6,
        "random": 6,
    }


def test_records_replay_to_the_recorded_winners(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    data = simulate_json(
        "--games", "4", "--players", "2", "--seed", "2", "--turn-limit", "200",
        "--workers", "2", "--records", str(folder),
    )  # fmt: skip
    files = sorted(folder.glob("*.json"))
    assert len(files) == 4
    wins = [0, 0]
    for path in files:
        recorded = json.loads(path.read_text("utf-8"))["result"]["winners"]
        game = load_record(path)  # replays every action, checking the winners
        assert list(game.winners) == recorded
        for seat in game.winners:
            wins[seat] += 1
    assert wins == [seat["wins"] for seat in data["wins"]["by_seat"]]
    shown = run("replay", str(files[0]), "--json")
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["over"] is True


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.images: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "img":
            self.images.append(dict(attrs)["src"] or "")


def test_the_report_is_a_page_with_its_plots(tmp_path: Path) -> None:
    folder = tmp_path / "report"
    result = run(
        "simulate", "--games", "8", "--players", "3", "--turn-limit", "200", "--workers", "1",
        "--report", str(folder), "--language", "de",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    page = (folder / "index.html").read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    parser = _Page()
    parser.feed(page)
    assert {"html", "head", "title", "body", "table"} <= set(parser.tags)
    assert len(parser.images) == 5
    for image in parser.images:
        assert (folder / image).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Landungen" in page and "Schlossallee" in page
    assert "Siege" in result.stdout or "Siegquote" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--edition", "monopolis"], "monopolis"),
        (["--bots", "grandmaster"], "grandmaster"),
        (["--rules", "chaos"], "chaos"),
        (["--games", "0"], "--games"),
        (["--workers", "0"], "--workers"),
        (["--bots", "random,random,random", "--players", "2"], "3 levels for 2 players"),
        (["--language", "fr"], "fr"),
    ],
)
def test_bad_arguments_are_refused_and_change_nothing(
    args: list[str], message: str, tmp_path: Path
) -> None:
    folder = tmp_path / "records"
    result = in_process("simulate", "--games", "2", *args, "--records", str(folder))
    assert result.exit_code == 2
    assert "error" in result.stderr and message in result.stderr
    assert not folder.exists()


def test_odds_as_json_sorted_with_jail_apart() -> None:
    result = run("odds", "--jail", "stay", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["jail"] == "stay"
    rows = data["spaces"]
    assert len(rows) == 41
    assert rows[0]["in_jail"] is True
    assert [r["probability"] for r in rows] == sorted(
        (r["probability"] for r in rows), reverse=True
    )
    assert sum(r["probability"] for r in rows) == pytest.approx(1.0)


def test_odds_table_names_spaces_in_the_chosen_language() -> None:
    result = run("odds", "--language", "de")
    assert result.returncode == 0, result.stderr
    assert "Im Gefängnis" in result.stdout and "Los" in result.stdout


@pytest.mark.parametrize("args", [["--jail", "sometimes"], ["--edition", "monopolis"]])
def test_odds_refuses_bad_arguments(args: list[str]) -> None:
    result = in_process("odds", *args)
    assert result.exit_code == 2
    assert args[1] in result.stderr


@pytest.mark.parametrize(
    ("language", "rate", "share"),
    [
        ("en", r"\d+\.\d games/s, [\d,]+ player-turns/s", r"\d+\.\d%"),
        ("de", r"\d+,\d Spiele/s, [\d.]+ Spielerzüge/s", r"\d+,\d\u00a0%"),
    ],
)
def test_numbers_are_written_as_the_language_writes_them(
    language: str, rate: str, share: str
) -> None:
    """English: 1,234.5 and 25.0%; German: 1.234,5 and 25,0 % (the tables and lines a
    person reads; the JSON keeps plain numbers)."""
    args = ["--games", "12", "--workers", "1", "--seed", "3", "--language", language]
    result = in_process("simulate", *args)
    assert result.exit_code == 0, result.output
    assert re.search(rate, result.output), result.output
    assert re.search(share, result.output), result.output
    tournament = in_process("tournament", "--games", "6", "--workers", "1", "--language", language)
    assert tournament.exit_code == 0, tournament.output
    fraction = r"0,\d{3}" if language == "de" else r"0\.\d{3}"
    assert re.search(rf"{fraction} – {fraction}", tournament.output), tournament.output
