"""Before the start the host sets the other seats: a computer player of a level, or a
free seat for a person; a person who had joined is removed (and told so)."""

from __future__ import annotations

import json

import httpx
from websockets.sync.client import connect

from .servers import Player, ServerThread, create_game, join_game, start_game


def seats(server: ServerThread, game_id: str) -> list[tuple[str, str | None, bool]]:
    lobby = httpx.get(f"{server.base}/api/games/{game_id}").json()
    return [(s["type"], s["name"], s["taken"]) for s in lobby["seats"]]


def test_the_host_turns_seats_into_computers_and_removes_a_player(server: ServerThread) -> None:
    created = create_game(server.base, [{"type": "human"}, {"type": "human"}, {"type": "human"}])
    game_id = created["game_id"]
    bob_token = join_game(server.base, game_id, "Bob", "boot")["seat_token"]
    ann = Player(server.base, game_id, created["seat_token"])
    bob = Player(server.base, game_id, bob_token)

    bob.send({"type": "host_seat", "seat": 2, "to": "bot", "level": "easy"})
    assert bob.expect("error")["code"] == "not_host"
    ann.send({"type": "host_seat", "seat": 0, "to": "bot", "level": "easy"})
    assert ann.expect("error")["code"] == "bad_seat"
    ann.send({"type": "host_seat", "seat": 2, "to": "bot", "level": "grandmaster"})
    assert ann.expect("error")["code"] == "bad_level"
    assert seats(server, game_id)[2] == ("human", None, False)  # refusals change nothing

    ann.send({"type": "host_seat", "seat": 2, "to": "bot", "level": "easy"})
    lobby = ann.expect("lobby")["game"]
    assert (lobby["seats"][2]["type"], lobby["seats"][2]["name"]) == ("bot", "Bot 3 (Easy)")

    ann.send({"type": "host_seat", "seat": 1, "to": "person"})  # Bob is removed
    assert bob.expect("removed")["game_id"] == game_id
    assert seats(server, game_id)[1] == ("human", None, False)
    url = server.base.replace("http://", "ws://") + f"/ws/games/{game_id}"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "token": bob_token}))
        assert '"bad_token"' in ws.recv(timeout=5)

    ann.send({"type": "host_seat", "seat": 1, "to": "bot", "level": "random"})
    ann.expect("lobby")
    start_game(server.base, game_id, created["seat_token"])
    ann.send({"type": "host_seat", "seat": 1, "to": "person"})
    assert ann.expect("error")["code"] == "not_open"
    ann.close()
    bob.close()


def test_the_host_changes_the_rules_before_the_start(server: ServerThread) -> None:
    """R-SPEED-1: after switching to the Speed Die the game starts with 1,000 more."""
    created = create_game(server.base, [{"type": "human"}, {"type": "bot", "level": "easy"}])
    game_id = created["game_id"]
    ann = Player(server.base, game_id, created["seat_token"])
    ann.send({"type": "host_rules", "rules": {"preset": "nonsense"}})
    assert ann.expect("error")["code"] == "bad_rules"
    ann.send({"type": "host_rules", "rules": {"preset": "speed", "options": {"turn_limit": 9}}})
    lobby = ann.expect("lobby")["game"]
    assert lobby["rules"] == {"preset": "speed", "options": {"turn_limit": 9}}
    assert httpx.get(f"{server.base}/api/games/{game_id}").json()["rules"]["preset"] == "speed"
    start_game(server.base, game_id, created["seat_token"])
    state = ann.expect("state")
    assert [p["cash"] for p in state["game"]["players"]] == [2500, 2500]
    ann.send({"type": "host_rules", "rules": "standard"})
    assert ann.expect("error")["code"] == "not_open"
    ann.close()
