"""A game never waits forever: an absent person's seat goes to a computer player."""

from __future__ import annotations

import time

import httpx

from .conftest import ABSENCE
from .servers import Player, ServerThread, create_game, join_game, simple_answer, start_game


def test_an_absent_seat_is_handed_to_a_bot_and_taken_back(server: ServerThread) -> None:
    created = create_game(server.base, [{"type": "human"}, {"type": "human"}])
    game_id = created["game_id"]
    bob_token = join_game(server.base, game_id, "Bob", "boot")["seat_token"]
    ann = Player(server.base, game_id, created["seat_token"])
    bob = Player(server.base, game_id, bob_token)
    start_game(server.base, game_id, created["seat_token"])
    ann.expect("state")
    bob.close()
    gone = ann.expect("presence")["seats"][1]
    assert gone["connected"] is False and gone["can_hand_to_bot"] is False

    ann.send({"type": "hand_to_bot", "seat": 1})
    assert ann.expect("error")["code"] == "not_absent"
    time.sleep(ABSENCE + 0.1)
    ann.send({"type": "hand_to_bot", "seat": 1})
    handed = ann.expect("presence")["seats"][1]
    assert handed["bot_standin"] is True
    lobby = httpx.get(f"{server.base}/api/games/{game_id}").json()
    assert lobby["seats"][1]["bot_standin"] is True
    ann.send({"type": "hand_to_bot", "seat": 1})
    assert ann.expect("error")["code"] == "already_handed_over"

    def bob_rolled() -> bool:
        return any(
            e["type"] == "DiceRolled" and e["seat"] == 1
            for m in ann.seen
            if m["type"] == "state"
            for e in m["events"]
        )

    while not bob_rolled():
        state = ann.my_turn()
        ann.act(simple_answer(state))
        ann.expect("state")

    bob = Player(server.base, game_id, bob_token)
    assert bob.welcome["seat"] == 1
    back = ann.expect("presence")["seats"][1]
    assert back["bot_standin"] is False and back["connected"] is True
    for _ in range(50):
        state = ann.wait_for(lambda s: s["decision"]["seat"] == 1 or s["decision"]["seat"] == 0)
        if state["decision"]["seat"] == 1:
            break
        ann.act(simple_answer(state))
        ann.expect("state")
    waiting = bob.my_turn()
    assert waiting["decision_actions"]
    assert ann.next_message() == {"type": "pong"}  # nobody plays Bob's seat now
    assert (
        httpx.get(f"{server.base}/api/games/{game_id}").json()["seats"][1]["bot_standin"] is False
    )
    ann.close()
    bob.close()
