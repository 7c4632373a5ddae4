"""The `resign` message over a real WebSocket: the sender's seat leaves the game, bankrupt
to the Bank (R-BANKRUPT-3); a watcher cannot resign, nor a player already out."""

from __future__ import annotations

from .servers import Player, ServerThread, ann_in_a_game


def test_resign_takes_the_senders_seat_out_and_the_others_play_on(server: ServerThread) -> None:
    game_id, _token, ann = ann_in_a_game(server.base, moves=1)
    watcher = Player(server.base, game_id)
    watcher.send({"type": "resign"})
    refused = watcher.expect("error")
    assert refused["code"] == "spectator"

    ann.send({"type": "resign"})  # no state_id: whatever happened meanwhile
    state = ann.wait_for(lambda s: not s["game"]["players"][0]["active"])
    said = [e["text"] for e in state["events"]]
    assert "Ann resigns and leaves the game." in said
    assert "Ann is bankrupt." in said
    assert state["decision_actions"] == [] and state["free_actions"] == []

    ann.send({"type": "resign"})
    again = ann.expect("error")
    over = ann.state is not None and ann.state["game"]["over"]
    if not over:  # the computer players may have finished the game meanwhile
        assert again["code"] == "illegal_action" and again["reason"] == "player_bankrupt"
    else:
        assert again["code"] == "game_over"
    # The computer players play on to the end without her.
    final = ann.wait_for(lambda s: s["game"]["over"], timeout=60)
    assert 0 not in final["game"]["winners"]
    ann.close()
    watcher.close()
