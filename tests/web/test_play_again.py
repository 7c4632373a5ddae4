"""Play again: after the end, the same people get the next game with the same edition
and rules, each with a new seat token of their own; the host starts it."""

from __future__ import annotations

import httpx

from .servers import Player, ServerThread, create_game, join_game, simple_answer, start_game


def test_the_same_people_get_the_next_game(server: ServerThread) -> None:
    created = create_game(
        server.base,
        [{"type": "human"}, {"type": "human"}, {"type": "bot", "level": "easy"}],
        rules={"preset": "short", "options": {"turn_limit": 3}},
        edition="zelda",
        token="triforce",
    )
    game_id = created["game_id"]
    bob_token = join_game(server.base, game_id, "Bob", "boomerang")["seat_token"]
    ann = Player(server.base, game_id, created["seat_token"])
    ann.send({"type": "play_again"})
    assert ann.expect("error")["code"] == "not_over"
    start_game(server.base, game_id, created["seat_token"])
    bob = Player(server.base, game_id, bob_token)
    players = {0: ann, 1: bob}
    over = None
    while over is None:
        for player in players.values():
            message = player.recv()
            if message["type"] == "game_over":
                over = message
            elif (
                message["type"] == "state"
                and message["decision"]
                and message["decision"]["seat"] == message["seat"]
            ):
                player.act(simple_answer(message))
    watcher = Player(server.base, game_id)
    watcher.send({"type": "play_again"})
    assert watcher.expect("error")["code"] == "spectator"

    bob.send({"type": "play_again"})
    for_bob = bob.expect("play_again")
    for_ann = ann.expect("play_again")
    for_watcher = watcher.expect("play_again")
    next_id = for_bob["game_id"]
    assert next_id != game_id and for_ann["game_id"] == for_watcher["game_id"] == next_id
    assert "seat_token" not in for_watcher
    assert for_ann["seat_token"] != for_bob["seat_token"]
    lobby = httpx.get(f"{server.base}/api/games/{next_id}").json()
    assert lobby["status"] == "open" and lobby["edition"] == "zelda"
    assert lobby["rules"] == {"preset": "short", "options": {"turn_limit": 3}}
    seats = [(s["type"], s["name"], s["token"], s["taken"]) for s in lobby["seats"]]
    assert seats[:2] == [("human", "Ann", "triforce", True), ("human", "Bob", "boomerang", True)]
    assert seats[2][0] == "bot"
    bob.send({"type": "play_again"})  # asking again gives the same next game
    assert bob.expect("play_again")["game_id"] == next_id
    start = httpx.post(
        f"{server.base}/api/games/{next_id}/start", json={"seat_token": for_bob["seat_token"]}
    )
    assert start.json()["error"]["code"] == "not_host"
    start_game(server.base, next_id, for_ann["seat_token"])
    again = Player(server.base, next_id, for_bob["seat_token"])
    assert again.welcome["seat"] == 1 and again.welcome["name"] == "Bob"
    for player in (ann, bob, watcher, again):
        player.close()
