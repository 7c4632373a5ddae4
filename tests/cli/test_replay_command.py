"""The `monopoly replay` and `monopoly demo` commands, run as a user would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from monopoly.bots.random_bot import RandomBot, play
from monopoly.core.game import Game
from monopoly.core.records import record_of
from tests.command import monopoly as run


@pytest.fixture(scope="module")
def finished_record(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Game]:
    game = Game.new(["Ann", "Bob", "Cem"], "classic", "speed", seed=11, language="de")
    play(game, [RandomBot(seat) for seat in range(3)])
    path = tmp_path_factory.mktemp("records") / "game.json"
    path.write_text(json.dumps(record_of(game)), encoding="utf-8")
    return path, game


def test_replay_json_prints_the_final_state(finished_record: tuple[Path, Game]) -> None:
    path, game = finished_record
    result = run("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["over"] is True
    assert state["winners"] == list(game.winners)
    assert [p["cash"] for p in state["players"]] == game.cash
    assert [p["position"] for p in state["players"]] == game.position
    assert [p["name"] for p in state["players"]] == ["Ann", "Bob", "Cem"]
    owned = {int(k): v["owner"] for k, v in state["properties"].items()}
    assert owned == {s: game.owner[s] for s in game.board.properties if game.owner[s] >= 0}
    assert state["pending"] is None
    assert set(state["decks"]) == {"chance", "community_chest"}
    assert state["bank"] == {"houses": game.bank_houses, "hotels": game.bank_hotels}


def test_replay_tells_the_game_in_the_records_language(finished_record: tuple[Path, Game]) -> None:
    path, game = finished_record
    result = run("replay", str(path))
    assert result.returncode == 0, result.stderr
    assert "würfelt" in result.stdout
    assert "Spielende" in result.stdout
    assert game.names[game.winners[0]] in result.stdout.split("Spielende")[1]


def test_replay_of_a_mid_game_record_names_the_pending_decision(tmp_path: Path) -> None:
    game = Game.new(["Ann", "Bob"], seed=3)
    play(game, [RandomBot(0), RandomBot(1)], max_actions=25)
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(record_of(game)), encoding="utf-8")
    state = json.loads(run("replay", str(path), "--json").stdout)
    decision = game.decision
    assert decision is not None
    assert state["pending"] == {
        "kind": decision.kind,
        "seat": decision.seat,
        "space": decision.space,
    }
    assert state["over"] is False


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        (
            '{"setup": {"players": ["a", "b"]}, "log": [{"act": "fly", "seat": 0}]}',
            "unknown action",
        ),
        ('{"setup": {"players": ["a", "b"], "edition": "monopoly-city"}}', "monopoly-city"),
        ('{"setup": {"players": ["a", "b"]}, "log": [{"act": "buy", "seat": 0}]}', "log entry 1"),
        ('{"setup": {"players": ["a", "b"]}, "log": [{"dice": [7, 1]}]}', "log entry 1"),
        ('{"setup": {"players": ["a"]}}', "2 to 6 players"),
    ],
)
def test_replay_of_a_broken_record_fails_clearly(
    tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content, encoding="utf-8")
    result = run("replay", str(path), "--json")
    assert result.returncode != 0
    assert result.stdout == ""
    assert "error:" in result.stderr
    assert message in result.stderr.replace("\n", " ")
    assert str(path.name) in result.stderr.replace("\n", "")


def test_replay_of_a_missing_file_fails_clearly(tmp_path: Path) -> None:
    result = run("replay", str(tmp_path / "nope.json"))
    assert result.returncode != 0
    assert "cannot read" in result.stderr


def test_demo_plays_a_game_and_writes_a_replayable_record(tmp_path: Path) -> None:
    record = tmp_path / "demo.json"
    result = run(
        "demo",
        "--players",
        "3",
        "--edition",
        "zelda",
        "--language",
        "de",
        "--seed",
        "5",
        "--max-turns",
        "60",
        "--record",
        str(record),
    )
    assert result.returncode == 0, result.stderr
    assert "Rubine" in result.stdout or "◆" in result.stdout
    assert "Spielende" in result.stdout
    state = json.loads(run("replay", str(record), "--json").stdout)
    assert state["over"] is True and state["edition"] == "zelda"


def test_demo_rejects_an_unknown_edition() -> None:
    result = run("demo", "--edition", "monopoly-junior")
    assert result.returncode == 2
    assert "monopoly-junior" in result.stderr
