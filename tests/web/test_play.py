"""Live play over real WebSockets: a whole game, refusals, bad input, reconnecting."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from monopoly.web.explain import WHY_PREFIX
from monopoly.web.session import ServerConfig

from .servers import (
    ANN_AND_BOTS,
    Player,
    ServerThread,
    ann_in_a_game,
    create_game,
    join_game,
    simple_answer,
    start_game,
)


def play_to_the_end(player: Player, limit: int = 2000) -> dict[str, Any]:
    """Answer every decision of the player's seat until the game-over message."""
    message = player.state or player.recv()
    for _ in range(limit):
        if message["type"] == "game_over":
            return message
        decision = message.get("decision") if message["type"] == "state" else None
        if decision and decision["seat"] == message["seat"]:
            player.act(simple_answer(message))
        message = player.recv()
    raise AssertionError("the game did not end")


def test_a_person_plays_computer_players_to_the_end(server: ServerThread) -> None:
    _, _, ann = ann_in_a_game(server.base)
    over = play_to_the_end(ann)

    states = [m for m in ann.seen if m["type"] == "state"]
    ids = [s["state_id"] for s in states]
    assert ids == sorted(ids) and ids[-1] > ids[0]
    errors = [m for m in ann.seen if m["type"] == "error"]
    assert errors == []
    kinds = {e["type"] for s in states for e in s["events"]}
    assert {"DiceRolled", "Moved", "TurnStarted", "GameOver"} <= kinds
    assert all(e["text"] for s in states for e in s["events"])

    final = states[-1]["game"]
    assert final["over"] is True and states[-1]["decision"] is None
    assert over["winners"] == final["winners"] and over["reason"] in ("limit", "bankruptcy")
    assert over["turns"] <= 40
    ranking = over["ranking"]
    assert sorted(r["seat"] for r in ranking) == [0, 1, 2]
    assert ranking[0]["rank"] == 1
    for row in ranking:
        player = final["players"][row["seat"]]
        assert (row["net_worth"], row["cash"]) == (player["net_worth"], player["cash"])
    assert ranking[0]["seat"] in over["winners"]
    assert over["text"]
    results_have_a_worth_history_and_statistics(over, states)
    ann.close()


def results_have_a_worth_history_and_statistics(
    over: dict[str, Any], states: list[dict[str, Any]]
) -> None:
    """The chart's points: one per turn, the first the start, the last the end; the
    statistics add up to what the events of the game say."""
    history = over["history"]
    turns, worth = history["turns"], history["net_worth"]
    assert turns == sorted(turns) and len(turns) == len(set(turns)) == len(worth)
    assert turns[-1] == over["turns"] and len(turns) >= over["turns"]
    assert all(len(row) == 3 for row in worth)
    assert states[0]["state_id"] == 0  # the start: cash and the dealt deeds (R-SHORT-1)
    assert worth[0] == [p["net_worth"] for p in states[0]["game"]["players"]]
    final = {row["seat"]: row["net_worth"] for row in over["ranking"]}
    assert worth[-1] == [final[seat] for seat in range(3)]
    events = [e for s in states for e in s["events"]]
    rent = sum(e["amount"] for e in events if e["type"] == "RentPaid")
    rent += sum(
        e["amount"]
        for e in events
        if e["type"] == "MoneyPaid" and e["reason"] == "rent" and e["payee"] >= 0
    )
    ranking = over["ranking"]
    assert sum(r["rent_received"] for r in ranking) == rent
    assert sum(r["rent_paid"] for r in ranking) == rent
    doubles = sum(1 for e in events if e["type"] == "DiceRolled" and e["doubles"])
    assert sum(r["doubles"] for r in ranking) == doubles


@pytest.fixture
def table(server: ServerThread) -> Iterator[dict[str, Any]]:
    """Ann and Bob (people) and a computer player, started; waits for a person's turn."""
    seats = [{"type": "human"}, {"type": "human"}, {"type": "bot", "level": "random"}]
    created = create_game(server.base, seats)
    game_id = created["game_id"]
    joined = join_game(server.base, game_id, "Bob", "boot")
    ann = Player(server.base, game_id, created["seat_token"])
    bob = Player(server.base, game_id, joined["seat_token"])
    start_game(server.base, game_id, created["seat_token"])
    players = {0: ann, 1: bob}
    state = ann.wait_for(lambda s: s["decision"]["seat"] in players)
    bob.wait_for(lambda s: s["state_id"] == state["state_id"])
    decider = players[state["decision"]["seat"]]
    other = players[1 - state["decision"]["seat"]]
    yield {
        "decider": decider,
        "other": other,
        "state": state,
        "game_id": game_id,
        "base": server.base,
    }
    ann.close()
    bob.close()


def sync(player: Player) -> dict[str, Any]:
    player.send({"type": "sync"})
    return player.expect("state")


def test_an_action_against_a_stale_state_is_refused(table: dict[str, Any]) -> None:
    decider, other, state = table["decider"], table["other"], table["state"]
    roll = (
        state["decision_actions"][0]
        if decider.state is None
        else decider.state["decision_actions"][0]
    )
    decider.act(roll, state_id=state["state_id"] - 1)
    error = decider.expect("error")
    assert error["code"] == "stale_state" and error["state_id"] == state["state_id"]
    fresh = decider.expect("state")
    assert fresh["full"] is True and fresh["state_id"] == state["state_id"]
    assert other.next_message() == {"type": "pong"}
    decider.act(roll, state_id=state["state_id"])
    moved = other.expect("state")
    assert moved["state_id"] > state["state_id"]


def test_an_action_for_another_seat_is_refused(table: dict[str, Any]) -> None:
    decider, other, state = table["decider"], table["other"], table["state"]
    their_roll = decider.state["decision_actions"][0]
    other.act(their_roll, state_id=state["state_id"])
    error = other.expect("error")
    assert error["code"] == "not_your_seat" and error["request"] == "action"
    other.act({"act": "roll"}, state_id=state["state_id"])
    error = other.expect("error")
    assert error["code"] == "illegal_action" and "not your decision" in error["message"]
    assert decider.next_message() == {"type": "pong"}
    assert sync(other)["state_id"] == state["state_id"]


def bad_messages(seat: int) -> list[tuple[object, str]]:
    """(message, expected error code) for every message type."""
    other = 1 - seat

    def action(body: object, **extra: object) -> dict[str, object]:
        return {"type": "action", "state_id": "CURRENT", "action": body, **extra}

    return [
        ("{not json", "bad_json"),
        (b"\x00\x01", "bad_json"),
        ([1, 2], "bad_message"),
        ({"no": "type"}, "bad_message"),
        ({"type": 7}, "bad_message"),
        ({"type": "dance"}, "unknown_type"),
        ({"type": "hello"}, "already_hello"),
        ({"type": "hello", "token": None, "name": "x"}, "bad_message"),
        ({"type": "action", "action": {"act": "roll"}}, "bad_message"),
        ({"type": "action", "state_id": "3", "action": {"act": "roll"}}, "bad_message"),
        (action({"act": "roll"}, sneaky=1), "bad_message"),
        (action("roll"), "bad_action"),
        (action({"act": "fly"}), "bad_action"),
        (action({"act": "bid", "amount": "lots"}), "bad_action"),
        (action({"act": "roll", "colour": "red"}), "bad_action"),
        (action({"act": "roll", "seat": "0"}), "bad_action"),
        (action({"act": "build", "spaces": "all"}), "bad_action"),
        (action({"act": "roll", "seat": other}), "not_your_seat"),
        (action({"act": "buy"}), "illegal_action"),
        (action({"act": "bid", "amount": 10}), "illegal_action"),
        (action({"act": "mortgage", "space": 39}), "illegal_action"),
        (action({"act": "build", "spaces": [1]}), "illegal_action"),
        (action({"act": "sell", "space": 0}), "illegal_action"),
        (action({"act": "propose_trade", "partner": other}), "illegal_action"),
        (action({"act": "propose_trade", "partner": seat, "give_cash": 5}), "illegal_action"),
        (action({"act": "accept_trade"}), "illegal_action"),
        (action({"act": "choose_space", "space": 12}), "illegal_action"),
        ({"type": "check"}, "bad_action"),
        ({"type": "check", "action": {"act": "fly"}}, "bad_action"),
        ({"type": "check", "action": {"act": "roll"}, "state_id": 1}, "bad_message"),
        ({"type": "hand_to_bot"}, "bad_seat"),
        ({"type": "hand_to_bot", "seat": "1"}, "bad_seat"),
        ({"type": "hand_to_bot", "seat": 9}, "bad_seat"),
        ({"type": "hand_to_bot", "seat": 2}, "not_a_person"),
        ({"type": "hand_to_bot", "seat": other}, "not_absent"),
        ({"type": "sync", "full": True}, "bad_message"),
        ({"type": "ping", "id": 1}, "bad_message"),
    ]


def test_bad_messages_get_a_clear_error_to_the_sender_only_and_change_nothing(
    table: dict[str, Any],
) -> None:
    decider, other = table["decider"], table["other"]
    before = sync(decider)
    for message, code in bad_messages(decider.welcome["seat"]):
        if isinstance(message, dict) and message.get("state_id") == "CURRENT":
            message = {**message, "state_id": before["state_id"]}
        if isinstance(message, str | bytes):
            decider.send_raw(message)
        else:
            decider.send_raw(json.dumps(message))
        error = decider.expect("error")
        assert (error["code"], message) == (code, message)
        assert error["message"] and error["state_id"] == before["state_id"]
        assert decider.next_message() == {"type": "pong"}
        assert other.next_message() == {"type": "pong"}
    after = sync(decider)
    assert after["state_id"] == before["state_id"]
    assert after["game"] == before["game"] and after["decision"] == before["decision"]
    assert after["log"] == before["log"]


def test_messages_before_hello_and_with_a_bad_token_are_refused(table: dict[str, Any]) -> None:
    url = table["base"].replace("http://", "ws://") + f"/ws/games/{table['game_id']}"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "action", "state_id": 0, "action": {"act": "roll"}}))
        assert json.loads(ws.recv(timeout=5))["code"] == "hello_first"
        ws.send(json.dumps({"type": "hello", "token": "not-a-seat-token"}))
        assert json.loads(ws.recv(timeout=5))["code"] == "bad_token"
        ws.send(json.dumps({"type": "hello", "token": 12}))
        assert json.loads(ws.recv(timeout=5))["code"] == "bad_message"
        ws.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
    other = table["other"]
    # the refused hellos told nobody anything; the watcher who came and went did
    told = [other.expect("presence")["watchers"]]
    while told[-1] != 0:  # arrival and leaving may be told together
        told.append(other.expect("presence")["watchers"])
    assert told in ([0], [1, 0])
    assert other.next_message() == {"type": "pong"}


def test_check_answers_whether_a_trade_is_legal_without_taking_it(table: dict[str, Any]) -> None:
    decider, state = table["decider"], table["state"]
    seat = decider.welcome["seat"]
    offer = {"act": "propose_trade", "partner": 1 - seat, "give_cash": 100}
    decider.send({"type": "check", "action": offer})
    answer = decider.expect("check_result")
    assert answer["legal"] is True and answer["problem"] == ""
    assert answer["action"]["seat"] == seat and answer["action"]["give_cash"] == 100
    too_much = {**offer, "give_cash": 10**6}
    decider.send({"type": "check", "action": too_much})
    answer = decider.expect("check_result")
    assert answer["legal"] is False and "you offer" in answer["problem"]
    assert sync(decider)["state_id"] == state["state_id"]


def test_a_trade_offer_goes_to_the_partner_who_answers(table: dict[str, Any]) -> None:
    decider, other, state = table["decider"], table["other"], table["state"]
    seat = decider.welcome["seat"]
    decider.act({"act": "propose_trade", "partner": 1 - seat, "give_cash": 100}, state["state_id"])
    offered = other.wait_for(lambda s: s["decision"]["kind"] == "trade")
    assert offered["decision"]["offer"]["give_cash"] == 100
    assert [a["act"] for a in offered["decision_actions"]] == ["accept_trade", "reject_trade"]
    assert offered["events"][-1]["type"] == "TradeProposed"
    cash = [p["cash"] for p in offered["game"]["players"]]
    other.act({"act": "accept_trade"})
    done = decider.wait_for(lambda s: s["state_id"] > offered["state_id"])
    assert done["game"]["players"][seat]["cash"] == cash[seat] - 100
    assert done["game"]["players"][1 - seat]["cash"] == cash[1 - seat] + 100


def test_reconnecting_gets_the_same_state_and_the_whole_log(server: ServerThread) -> None:
    game_id, token, ann = ann_in_a_game(server.base, moves=6)
    last = ann.my_turn()  # the game waits for Ann: nothing changes while she is away
    events = [e for m in ann.seen if m["type"] == "state" for e in m["events"]]
    texts = [
        line
        for e in events
        for line in (e["text"], WHY_PREFIX + e.get("why", ""))
        if line != WHY_PREFIX
    ]
    ann.close()

    again = Player(server.base, game_id, token)
    assert again.welcome["seat"] == 0 and again.welcome["name"] == "Ann"
    restored = again.expect("state")
    assert restored["full"] is True and restored["state_id"] == last["state_id"]
    assert restored["game"]["players"][1:] == last["game"]["players"][1:]
    assert restored["game"]["owner"] == last["game"]["owner"]
    assert restored["decision"] == last["decision"]
    assert restored["decision_actions"] == last["decision_actions"]
    assert restored["log"] == texts
    again.close()


def test_with_a_bot_delay_each_computer_move_comes_as_its_own_state(tmp_path: Path) -> None:
    config = ServerConfig(bot_delay=0.01, testing=True)
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as server:
        created = create_game(server.base, ANN_AND_BOTS)
        ann = Player(server.base, created["game_id"], created["seat_token"])
        start_game(server.base, created["game_id"], created["seat_token"])
        for _ in range(3):
            ann.act(simple_answer(ann.my_turn()))
            ann.expect("state")
        ann.my_turn()
        ann.close()
    ids = [m["state_id"] for m in ann.seen if m["type"] == "state"]
    assert ids[0] == 0 and ids == list(range(len(ids)))


def test_a_finished_game_shows_its_result_on_reconnect(server: ServerThread) -> None:
    created = create_game(server.base, ANN_AND_BOTS)
    game_id, token = created["game_id"], created["seat_token"]
    ann = Player(server.base, game_id, token)
    start_game(server.base, game_id, token)
    over = play_to_the_end(ann)
    ann.close()
    again = Player(server.base, game_id, token)
    assert again.welcome["status"] == "over"
    assert again.expect("state")["game"]["over"] is True
    assert again.expect("game_over") == over
    again.send({"type": "action", "state_id": 0, "action": {"act": "roll"}})
    assert again.expect("error")["code"] == "game_over"
    again.close()


def test_many_games_run_at_once(server: ServerThread) -> None:
    games = [create_game(server.base, ANN_AND_BOTS, seed=seed) for seed in (1, 2, 3)]
    players = [Player(server.base, g["game_id"], g["seat_token"]) for g in games]
    for game in games:
        start_game(server.base, game["game_id"], game["seat_token"])
    results: list[dict[str, Any]] = []
    threads = [
        threading.Thread(target=lambda p=p: results.append(play_to_the_end(p))) for p in players
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(results) == 3 and all(r["type"] == "game_over" for r in results)
    for player in players:
        assert not [m for m in player.seen if m["type"] == "error"]
        player.close()
