"""Advice during a game ("advice on", docs/analysis.md and docs/protocol.md) over real
WebSockets: the win-chance bar after each turn, trade advice on request, refused in a
game without it, and the game going on while the analysis pool works."""

from __future__ import annotations

from typing import Any

import httpx

from monopoly.core.game import Game
from monopoly.core.records import replay

from .servers import BOTS_GAME, Player, ServerThread, ann_in_a_game, create_game, start_game

NEW_YORK = 19


def split_board() -> dict[str, Any]:
    """Heads-up, every colour group split between Ann (seat 0) and Bob, $2,000 each."""
    board = Game.new(2).board
    properties = {
        str(space): {"owner": index % 2}
        for spaces in board.groups.values()
        for index, space in enumerate(spaces)
    }
    properties[str(NEW_YORK)] = {"owner": 1}
    return {"players": [{"cash": 2000}, {"cash": 2000}], "properties": properties}


def ann_with_advice(server: ServerThread) -> tuple[str, Player, dict[str, Any]]:
    """Ann against a computer player in a game created with advice on; her first state."""
    created = create_game(
        server.base,
        [{"type": "human"}, {"type": "bot", "level": "normal"}],
        rules={"preset": "standard"},
        position=split_board(),
        advice=True,
    )
    game_id, token = created["game_id"], created["seat_token"]
    ann = Player(server.base, game_id, token)
    start_game(server.base, game_id, token)
    return game_id, ann, ann.expect("state")


def bobs_deeds(state: dict[str, Any]) -> list[int]:
    return sorted(state["game"]["players"][1]["properties"])


def test_advice_is_refused_in_a_game_without_it(server: ServerThread) -> None:
    _, _, ann = ann_in_a_game(server.base)
    state = ann.expect("state")
    assert state["game"]["advice"] is False
    ann.send({"type": "advice", "offer": {"partner": 1, "give_cash": 1}})
    error = ann.expect("error")
    assert error["code"] == "advice_off" and error["request"] == "advice"
    assert "advice is off" in error["message"]
    assert not [m for m in ann.seen if m["type"] in ("win_chances", "advice")]
    ann.close()


def test_advice_on_shows_win_chances_and_trade_advice(server: ServerThread) -> None:
    game_id, ann, state = ann_with_advice(server)
    assert state["game"]["advice"] is True
    lobby = server.app.state.hub.store.load(game_id)
    assert lobby.setup["advice"] is True
    assert replay(lobby.record(), check_result=False).setup.advice is True

    bar = ann.expect("win_chances", timeout=60)
    chances = [p["mean"] for p in bar["players"]]
    assert len(chances) == 2 and abs(sum(chances) - 1) < 1e-6
    assert all(0 <= c <= 1 for c in chances)
    assert all(p["half_width"] > 0 for p in bar["players"])
    assert bar["rollouts"] >= 2 and bar["turn"] == state["game"]["turn"]

    # $1 for all of Bob's deeds: Ann gains what Bob loses, by far more than the noise.
    offer = {"partner": 1, "give_cash": 1, "take": bobs_deeds(ann.state or state)}
    ann.send({"type": "advice", "offer": offer})
    advice = ann.expect("advice", timeout=60)
    ann_change, bob_change = advice["change"]
    assert advice["offer"]["take"] == offer["take"] and advice["offer"]["seat"] == 0
    assert ann_change["mean"] > ann_change["half_width"] > 0
    assert abs(ann_change["mean"] + bob_change["mean"]) < 1e-6  # heads-up: one's gain
    assert advice["rollouts"] >= 2
    ann.close()


def test_the_game_goes_on_while_advice_is_computed(server: ServerThread) -> None:
    _, ann, state = ann_with_advice(server)
    offer = {"partner": 1, "give_cash": 1, "take": bobs_deeds(state)}
    ann.send({"type": "advice", "offer": offer})
    mine = ann.my_turn()
    ann.act(mine["decision_actions"][0])
    moved = ann.wait_for(lambda s: s["state_id"] > mine["state_id"])
    answered = [m["type"] for m in ann.seen if m["type"] == "advice"]
    assert moved["events"] and answered == []  # her move came first: nobody waited
    assert ann.expect("advice", timeout=60)["change"][0]["mean"] > 0
    ann.close()


def test_bad_advice_requests_are_refused_clearly(server: ServerThread) -> None:
    game_id, ann, _ = ann_with_advice(server)
    ann.send({"type": "advice", "offer": {"partner": 1, "take": [1]}})  # her own deed
    refused = ann.expect("error")
    assert refused["code"] == "illegal_action" and refused["request"] == "advice"
    ann.send({"type": "advice", "offer": {"seat": 1, "partner": 0, "give_cash": 5}})
    assert ann.expect("error")["code"] == "not_your_seat"
    ann.send({"type": "advice", "offer": "New York"})
    assert ann.expect("error")["code"] == "bad_message"
    watcher = Player(server.base, game_id)
    watcher.send({"type": "advice", "offer": {"partner": 1, "give_cash": 1}})
    assert watcher.expect("error")["code"] == "spectator"
    watcher.close()
    ann.close()


def test_the_lobby_shows_the_setting_and_refuses_a_bad_one(server: ServerThread) -> None:
    created = create_game(server.base, [{"type": "human"}, {"type": "bot", "level": "easy"}])
    assert created["game"]["advice"] is False  # off by default
    with_advice = create_game(
        server.base, [{"type": "human"}, {"type": "bot", "level": "easy"}], advice=True
    )
    game = httpx.get(f"{server.base}/api/games/{with_advice['game_id']}").json()
    assert game["advice"] is True
    body = {**BOTS_GAME, "seats": [{"type": "human"}, {"type": "human"}], "advice": "yes"}
    refused = httpx.post(f"{server.base}/api/games", json=body)
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "bad_request"
    assert "advice must be true or false" in refused.json()["error"]["message"]
