"""Chat at the table: seated players talk in the waiting room and in the game; the text
is cleaned, limited in length and rate, kept for latecomers, and watchers only read."""

from __future__ import annotations

import pytest

from monopoly.web.chat import BURST, MAX_LENGTH, WINDOW, ChatRefusal, ChatRoom, clean

from .servers import Player, ServerThread, create_game, join_game, start_game


def test_messages_are_trimmed_and_control_characters_dropped() -> None:
    assert clean("  hello \n  world\t ") == "hello world"
    assert clean("a\u0000b\u200bc") == "abc"  # NUL and a zero-width space are format/control
    assert clean("<b>bold</b>") == "<b>bold</b>"  # kept as text: pages show text only
    for bad, code in (("   ", "empty_chat"), ("x" * (MAX_LENGTH + 1), "chat_too_long")):
        with pytest.raises(ChatRefusal) as refused:
            clean(bad)
        assert refused.value.code == code
    with pytest.raises(ChatRefusal):
        clean(42)


def test_each_seat_may_send_a_burst_then_must_wait() -> None:
    room = ChatRoom()
    for i in range(BURST):
        room.post(0, "Ann", f"message {i}", now=100.0 + i * 0.1)
    with pytest.raises(ChatRefusal) as refused:
        room.post(0, "Ann", "one more", now=101.0)
    assert refused.value.code == "chat_too_fast"
    assert room.post(1, "Bob", "Bob may still talk", now=101.0)["name"] == "Bob"
    assert room.post(0, "Ann", "later", now=100.0 + WINDOW + 0.01)["text"] == "later"
    assert [m["text"] for m in room.history()["messages"]][-2:] == ["Bob may still talk", "later"]


def test_chat_over_the_websocket_reaches_everyone_and_latecomers(server: ServerThread) -> None:
    created = create_game(server.base, [{"type": "human"}, {"type": "human"}])
    game_id = created["game_id"]
    bob_token = join_game(server.base, game_id, "Bob", "boot")["seat_token"]
    ann = Player(server.base, game_id, created["seat_token"])
    bob = Player(server.base, game_id, bob_token)
    ann.send({"type": "chat", "text": "  hi <b>Bob</b>  "})
    heard = bob.expect("chat")
    assert (heard["seat"], heard["name"], heard["text"]) == (0, "Ann", "hi <b>Bob</b>")
    assert ann.expect("chat")["text"] == "hi <b>Bob</b>"
    ann.send({"type": "chat", "text": "x" * (MAX_LENGTH + 1)})
    assert ann.expect("error")["code"] == "chat_too_long"
    start_game(server.base, game_id, created["seat_token"])
    bob.send({"type": "chat", "text": "good luck"})
    assert ann.expect("chat")["text"] == "good luck"
    watcher = Player(server.base, game_id)
    history = watcher.expect("chat_history")["messages"]
    assert [m["text"] for m in history] == ["hi <b>Bob</b>", "good luck"]
    watcher.send({"type": "chat", "text": "let me in"})
    assert watcher.expect("error")["code"] == "spectator"
    for i in range(BURST):
        ann.send({"type": "chat", "text": f"spam {i}"})
    ann.send({"type": "chat", "text": "too fast"})
    assert ann.expect("error")["code"] == "chat_too_fast"
    for player in (ann, bob, watcher):
        player.close()
