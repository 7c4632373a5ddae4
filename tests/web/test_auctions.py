"""Auctions move briskly: a person is asked to bid only while they can still win; when
passing is all they could do, the server passes for them at once (R-AUCTION-1)."""

from __future__ import annotations

from .servers import Player, ServerThread, create_game, start_game

BROKE_BESIDE_NEW_YORK = {
    "players": [{"cash": 0, "position": 10}, {"cash": 1500}],
    "properties": {"1": {"owner": 1}},
    "turn": 0,
}
"""Ann has no cash; the server's dice for seed 8 roll her 3 + 6 onto New York Avenue,
which nobody owns."""


def test_a_person_who_cannot_outbid_is_not_asked(server: ServerThread) -> None:
    created = create_game(
        server.base,
        [{"type": "human"}, {"type": "bot", "level": "easy"}],
        rules={"preset": "standard", "options": {}},
        position=BROKE_BESIDE_NEW_YORK,
        seed=8,
    )
    game_id = created["game_id"]
    ann = Player(server.base, game_id, created["seat_token"])
    start_game(server.base, game_id, created["seat_token"])
    ann.act(ann.my_turn()["decision_actions"][0])  # roll
    buy = ann.wait_for(lambda s: s["decision"]["kind"] == "buy")
    assert [a["act"] for a in buy["decision_actions"]] == ["decline"]  # $0: cannot buy
    ann.act(buy["decision_actions"][0])
    after = ann.wait_for(
        lambda s: any(
            e["type"] == "AuctionWon" or e["type"] == "AuctionUnsold" for e in s["events"]
        )
    )
    events = [e for m in ann.seen if m["type"] == "state" for e in m["events"]]
    assert any(e["type"] == "BidPassed" and e["seat"] == 0 for e in events)
    asked = [
        m
        for m in ann.seen
        if m["type"] == "state"
        and m["decision"]
        and m["decision"]["kind"] == "bid"
        and m["decision"]["seat"] == 0
    ]
    assert asked == []  # never asked to bid with nothing to bid
    assert after["game"]["owner"][19] in (-1, 1)
    ann.close()
