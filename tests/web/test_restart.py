"""Nothing is lost: a killed server process comes back with every game where it was."""

from __future__ import annotations

from pathlib import Path

import httpx

from .servers import Player, ServerProcess, ann_in_a_game
from .test_play import play_to_the_end


def test_a_restarted_server_restores_the_game_mid_way(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with ServerProcess(db) as first:
        assert "MONOPOLY is served at http://127.0.0.1:" in first.banner
        game_id, token, ann = ann_in_a_game(first.base, moves=8)
        before = ann.my_turn()
        ann.send({"type": "sync"})
        log = ann.expect("state")["log"]
        first.kill()

    with ServerProcess(db) as second:
        lobby = httpx.get(f"{second.base}/api/games/{game_id}").json()
        assert lobby["status"] == "running"
        ann = Player(second.base, game_id, token)
        after = ann.expect("state")
        assert after["state_id"] == before["state_id"]
        assert after["game"] == before["game"]
        assert after["decision"] == before["decision"]
        assert after["decision_actions"] == before["decision_actions"]
        assert after["free_actions"] == before["free_actions"]
        assert after["log"] == log
        over = play_to_the_end(ann)
        assert over["winners"]
        assert httpx.get(f"{second.base}/api/games/{game_id}").json()["status"] == "over"
        ann.close()
