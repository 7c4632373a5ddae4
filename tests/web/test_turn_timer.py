"""The optional turn timer: a person has so many seconds per decision; then a computer
player decides for them that once (an auction: they pass) and everyone is told."""

from __future__ import annotations

from pathlib import Path

from monopoly.web.session import ServerConfig

from .servers import Player, ServerThread, create_game, start_game


def test_a_person_who_lets_the_time_run_out_gets_a_computer_decision(tmp_path: Path) -> None:
    config = ServerConfig(bot_delay=0, turn_timer=0.6, testing=True)
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as server:
        created = create_game(
            server.base,
            [{"type": "human"}, {"type": "bot", "level": "easy"}],
            rules={"preset": "standard", "options": {}},
        )
        game_id = created["game_id"]
        ann = Player(server.base, game_id, created["seat_token"])
        start_game(server.base, game_id, created["seat_token"])
        first = ann.my_turn()
        assert 0 < first["turn_timer"] <= 0.6
        timed_out = ann.expect("timed_out", timeout=5)
        assert (timed_out["seat"], timed_out["name"]) == (0, "Ann")
        after = ann.expect("state")
        assert after["state_id"] > first["state_id"]
        assert any(e["type"] == "DiceRolled" and e["seat"] == 0 for e in after["events"])
        ann.close()


def test_without_a_turn_timer_nobody_is_hurried(server: ServerThread) -> None:
    created = create_game(server.base, [{"type": "human"}, {"type": "bot", "level": "easy"}])
    ann = Player(server.base, created["game_id"], created["seat_token"])
    start_game(server.base, created["game_id"], created["seat_token"])
    assert ann.my_turn()["turn_timer"] is None
    ann.close()
