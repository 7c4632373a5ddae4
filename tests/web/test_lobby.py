"""The lobby over real HTTP: editions, options, creating, joining, starting, watching."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from monopoly.bots.base import LEVELS
from monopoly.core.editions import get_edition

from .servers import BOTS_GAME, Player, ServerThread, create_game, join_game, start_game

TWO_PEOPLE = [{"type": "human"}, {"type": "bot", "level": "random"}, {"type": "human"}]


def test_health_and_the_placeholder_page(server: ServerThread) -> None:
    assert httpx.get(f"{server.base}/api/health").json() == {"status": "ok"}
    page = httpx.get(f"{server.base}/")
    assert page.status_code == 200
    assert "<html" in page.text.lower()


def test_edition_metadata_names_the_board_in_the_chosen_language(server: ServerThread) -> None:
    listing = httpx.get(f"{server.base}/api/editions").json()["editions"]
    assert [e["key"] for e in listing] == ["classic", "zelda", "cthulhu", "fallout", "transformers"]
    data = httpx.get(f"{server.base}/api/editions/zelda", params={"language": "de"}).json()
    edition = get_edition("zelda")
    assert len(data["spaces"]) == 40
    assert [s["name"] for s in data["spaces"]] == list(edition.names["de"].spaces)
    street = data["spaces"][39]
    assert street["kind"] == "street" and street["price"] == 400 and street["house_cost"] == 200
    assert street["rents"] == [50, 200, 600, 1400, 1700, 2000]
    assert street["colour"] == data["groups"][street["group"]]["colour"]
    assert data["spaces"][5]["kind"] == "railroad" and data["spaces"][4]["tax"] == 200
    assert data["decks"]["chance"] == edition.names["de"].terms["chance"]
    assert [t["name"] for t in data["tokens"]] == [t.names["de"] for t in edition.tokens]
    assert data["terms"]["currency"] == "Rubine"


def test_edition_metadata_refuses_unknown_editions_and_languages(server: ServerThread) -> None:
    unknown = httpx.get(f"{server.base}/api/editions/monopoly-galaxy")
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "unknown_edition"
    french = httpx.get(f"{server.base}/api/editions/classic", params={"language": "fr"})
    assert french.status_code == 422
    assert french.json()["error"]["code"] == "bad_language"


def test_options_list_the_registered_levels_in_both_languages(server: ServerThread) -> None:
    english = httpx.get(f"{server.base}/api/options").json()
    german = httpx.get(f"{server.base}/api/options", params={"language": "de"}).json()
    assert {level["key"] for level in english["levels"]} == set(LEVELS)
    named = {level["key"]: level["name"] for level in german["levels"]}
    assert named["random"] == "Zufall" and named["learned"] == "Gelernt"
    for english_level, german_level in zip(english["levels"], german["levels"], strict=True):
        assert english_level["about"] and german_level["about"] != english_level["about"]
    assert [p["key"] for p in german["presets"]] == ["standard", "short", "speed", "short+speed"]
    names = {o["key"]: o["name"] for o in german["rule_options"]}
    assert (
        names["free_parking_pot"]
        != dict((o["key"], o["name"]) for o in english["rule_options"])["free_parking_pot"]
    )
    levels = httpx.get(f"{server.base}/api/levels").json()["levels"]
    assert levels == english["levels"]


def test_create_join_and_start_a_game(server: ServerThread) -> None:
    created = create_game(server.base, TWO_PEOPLE, edition="zelda", token="triforce")
    game_id = created["game_id"]
    assert created["seat"] == 0 and len(created["seat_token"]) >= 40
    assert created["invite_url"] == f"{server.base}/?join={game_id}"
    assert created["watch_url"] == f"{server.base}/?watch={game_id}"
    lobby = created["game"]
    assert lobby["status"] == "open"
    assert [s["taken"] for s in lobby["seats"]] == [True, True, False]
    assert "triforce" not in lobby["free_tokens"] and "boomerang" in lobby["free_tokens"]

    listed = httpx.get(f"{server.base}/api/games").json()["games"]
    assert game_id in [g["game_id"] for g in listed]

    joined = join_game(server.base, game_id, "Bob", "boomerang")
    assert joined["seat"] == 2 and joined["seat_token"] != created["seat_token"]
    assert joined["game"]["seats"][2]["name"] == "Bob"
    assert game_id not in [
        g["game_id"] for g in httpx.get(f"{server.base}/api/games").json()["games"]
    ]

    start_game(server.base, game_id, created["seat_token"])
    running = httpx.get(f"{server.base}/api/games/{game_id}").json()
    assert running["status"] in ("running", "over")
    tokens = [s["token"] for s in running["seats"]]
    assert tokens[0] == "triforce" and tokens[2] == "boomerang" and tokens[1] is not None
    assert len(set(tokens)) == 3


def test_a_waiting_player_sees_others_join_and_the_start(server: ServerThread) -> None:
    created = create_game(server.base, TWO_PEOPLE)
    game_id = created["game_id"]
    host = Player(server.base, game_id, created["seat_token"])
    assert host.welcome["seat"] == 0 and host.welcome["status"] == "open"
    host.expect("lobby")
    join_game(server.base, game_id, "Bob", "boot")
    lobby = host.expect("lobby")["game"]
    assert lobby["seats"][2]["name"] == "Bob"
    start_game(server.base, game_id, created["seat_token"])
    state = host.expect("state")
    assert state["seat"] == 0 and [p["name"] for p in state["game"]["players"]][2] == "Bob"
    host.close()


BAD_CREATES: list[tuple[dict[str, Any], str]] = [
    ({"edition": "monopoly-galaxy"}, "unknown_edition"),
    ({"edition": 3}, "unknown_edition"),
    ({"language": "fr"}, "bad_language"),
    ({"rules": "turbo"}, "bad_rules"),
    ({"rules": {"preset": "short", "options": {"free_parking_pot": "yes"}}}, "bad_rules"),
    ({"rules": {"preset": "short", "options": {"max_players": 8}}}, "bad_rules"),
    ({"rules": {"preset": "short", "tempo": 2}}, "bad_rules"),
    ({"rules": {"options": {"starting_cash": -5}}}, "bad_rules"),
    ({"seats": [{"type": "human"}]}, "bad_seats"),
    ({"seats": [{"type": "human"}] * 7}, "bad_seats"),
    ({"seats": [{"type": "bot", "level": "random"}, {"type": "human"}]}, "bad_seats"),
    ({"seats": [{"type": "human"}, {"type": "alien"}]}, "bad_seats"),
    ({"seats": "two"}, "bad_seats"),
    ({"seats": [{"type": "human"}, {"type": "bot", "level": "genius"}]}, "unknown_level"),
    ({"seats": [{"type": "human"}, {"type": "bot", "level": "os:system"}]}, "unknown_level"),
    ({"name": ""}, "bad_name"),
    ({"name": "x" * 25}, "bad_name"),
    ({"name": 42}, "bad_name"),
    ({"token": "triforce"}, "unknown_token"),
    ({"seed": "seven"}, "bad_request"),
]


@pytest.mark.parametrize(("change", "code"), BAD_CREATES)
def test_bad_game_requests_are_refused_and_create_nothing(
    server: ServerThread, change: dict[str, Any], code: str
) -> None:
    body = {**BOTS_GAME, "seats": TWO_PEOPLE, **change}
    response = httpx.post(f"{server.base}/api/games", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]
    assert httpx.get(f"{server.base}/api/games").json()["games"] == []


def test_a_body_that_is_not_json_is_refused(server: ServerThread) -> None:
    response = httpx.post(
        f"{server.base}/api/games", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "bad_request"
    response = httpx.post(f"{server.base}/api/games", json=[1, 2])
    assert response.json()["error"]["code"] == "bad_request"


def test_joining_refuses_taken_names_and_tokens_and_full_games(server: ServerThread) -> None:
    created = create_game(server.base, [{"type": "human"}, {"type": "human"}])
    url = f"{server.base}/api/games/{created['game_id']}/join"

    def code(body: object) -> tuple[int, str]:
        response = httpx.post(url, json=body)
        return response.status_code, response.json()["error"]["code"]

    assert code({"name": "ann", "token": "boot"}) == (409, "name_taken")
    assert code({"name": "Bob", "token": "cat"}) == (409, "token_taken")
    assert code({"name": "Bob", "token": "triforce"}) == (422, "unknown_token")
    assert code({"name": "  ", "token": "boot"}) == (422, "bad_name")
    assert code("Bob") == (422, "bad_request")
    join_game(server.base, created["game_id"], "Bob", "boot")
    assert code({"name": "Cem", "token": "thimble"}) == (409, "game_full")
    unknown = httpx.post(f"{server.base}/api/games/nope/join", json={"name": "X", "token": "cat"})
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "unknown_game"


def test_only_the_creator_starts_and_only_when_seats_are_filled(server: ServerThread) -> None:
    created = create_game(server.base, TWO_PEOPLE)
    url = f"{server.base}/api/games/{created['game_id']}/start"
    early = httpx.post(url, json={"seat_token": created["seat_token"]})
    assert (early.status_code, early.json()["error"]["code"]) == (409, "seats_free")
    bob = join_game(server.base, created["game_id"], "Bob", "boot")
    by_guest = httpx.post(url, json={"seat_token": bob["seat_token"]})
    assert (by_guest.status_code, by_guest.json()["error"]["code"]) == (403, "not_host")
    no_token = httpx.post(url, json={})
    assert no_token.status_code == 403
    assert httpx.get(f"{server.base}/api/games/{created['game_id']}").json()["status"] == "open"
    start_game(server.base, created["game_id"], created["seat_token"])
    again = httpx.post(url, json={"seat_token": created["seat_token"]})
    assert (again.status_code, again.json()["error"]["code"]) == (409, "not_open")
    late = httpx.post(
        f"{server.base}/api/games/{created['game_id']}/join",
        json={"name": "Cem", "token": "top_hat"},
    )
    assert late.json()["error"]["code"] == "not_open"


def test_a_spectator_follows_the_game_without_any_actions(server: ServerThread) -> None:
    created = create_game(server.base, [{"type": "human"}, {"type": "bot", "level": "random"}])
    game_id = created["game_id"]
    start_game(server.base, game_id, created["seat_token"])
    watcher = Player(server.base, game_id)
    assert watcher.welcome["spectator"] is True and watcher.welcome["seat"] is None
    state = watcher.expect("state")
    assert state["full"] is True and state["seat"] is None and state["log"]
    assert state["decision_actions"] == [] and state["free_actions"] == []
    assert "decks" in state["game"] and set(state["game"]["decks"]) == {"chance", "community_chest"}
    watcher.send({"type": "action", "state_id": state["state_id"], "action": {"act": "roll"}})
    error = watcher.expect("error")
    assert error["code"] == "spectator"
    watcher.close()


def test_an_unknown_game_on_the_websocket_gets_an_error(server: ServerThread) -> None:
    url = server.base.replace("http://", "ws://") + "/ws/games/no-such-game"
    with connect(url) as ws:
        assert json.loads(ws.recv(timeout=5))["code"] == "unknown_game"
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


def test_everyone_learns_how_many_are_watching(server: ServerThread) -> None:
    created = create_game(server.base, [{"type": "human"}, {"type": "bot", "level": "random"}])
    game_id = created["game_id"]
    start_game(server.base, game_id, created["seat_token"])
    ann = Player(server.base, game_id, created["seat_token"])
    assert ann.expect("presence")["watchers"] == 0
    first, second = Player(server.base, game_id), Player(server.base, game_id)
    wait_until_told(ann, watchers=2)  # arrivals together may come in one message
    first.close()
    wait_until_told(ann, watchers=1)
    second.close()
    ann.close()


def wait_until_told(player: Player, watchers: int) -> None:
    """Read presence messages until one says ``watchers`` are watching (one with a
    count that never was, or none in time, fails the test)."""
    while (told := player.expect("presence")["watchers"]) != watchers:
        assert 0 <= told <= 2
