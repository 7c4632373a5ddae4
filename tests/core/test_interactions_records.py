"""A record cut in the middle of any pending decision replays to the same decision, and
play goes on identically (records are the setup plus every action and chance outcome)."""

from __future__ import annotations

import json
from typing import Any

from monopoly.core.actions import (
    AcceptTrade,
    Action,
    Bid,
    Build,
    ChooseMove,
    ChooseSpace,
    DeclareBankruptcy,
    DeclareWant,
    DeclineBuy,
    KeepMortgaged,
    Mortgage,
    PassBid,
    PlaceBuilding,
    ProposeTrade,
    RejectTrade,
    Roll,
    Unmortgage,
)
from monopoly.core.chance import BUS
from monopoly.core.game import Game
from monopoly.core.records import game_state, record_of, replay
from monopoly.core.state import BID, MORTGAGE_RECEIVED, PLACE, RAISE_CASH, TRADE, TRIPLES, WANT
from monopoly.core.state import BUS as BUS_DECISION
from tests.scenario import start


def owned(seat: int, *spaces: int, **extra: Any) -> dict[str, dict[str, Any]]:
    return {str(s): {"owner": seat, **extra} for s in spaces}


def pending(game: Game) -> tuple[Any, ...]:
    d = game.decision
    assert d is not None
    return (d.kind, d.seat, d.space, game.bid_range())


def same(a: Game, b: Game) -> None:
    assert game_state(a) == game_state(b)
    assert pending(a) == pending(b)
    for seat in range(a.players):
        assert a.legal_actions(seat) == b.legal_actions(seat)


def cut_and_go_on(game: Game, kind: str, *then: Action) -> Game:
    """Replay ``game``'s record (it waits for ``kind``), then apply ``then`` to both."""
    assert game.decision is not None and game.decision.kind == kind
    data = json.loads(json.dumps(record_of(game)))
    again = replay(data)
    same(game, again)
    for action in then:
        game.apply(action)
        again.apply(action)
        same(game, again)
    assert record_of(again) == record_of(game)
    return again


def test_record_cut_in_an_auction_after_bids() -> None:
    game = start({"players": [{}, {}, {}]}, dice=[(1, 2)])
    game.apply(Roll(0))
    game.apply(DeclineBuy(0))
    game.apply(Bid(0, 10))
    game.apply(Bid(1, 25))
    game.apply(PassBid(2))
    again = cut_and_go_on(game, BID, Bid(0, 26), PassBid(1))
    assert again.owner[3] == 0 and again.cash[0] == 1474


def test_record_cut_with_a_trade_offer_waiting_during_an_auction() -> None:
    game = start({"players": [{}, {}, {}], "properties": owned(2, 39)}, dice=[(1, 2)])
    game.apply(Roll(0))
    game.apply(DeclineBuy(0))
    game.apply(Bid(0, 10))
    game.apply(ProposeTrade(2, partner=1, give=(39,), take_cash=300))
    again = cut_and_go_on(game, TRADE, AcceptTrade(1), Bid(1, 11), PassBid(2), PassBid(0))
    assert again.owner[39] == 1 and again.owner[3] == 1


def test_record_cut_in_a_counter_offer() -> None:
    game = start({"players": [{}, {}], "properties": {**owned(0, 1), **owned(1, 3)}})
    game.apply(ProposeTrade(0, partner=1, give=(1,), take=(3,), give_cash=50))
    game.apply(ProposeTrade(1, partner=0, give=(3,), take=(1,), take_cash=80))
    again = cut_and_go_on(game, TRADE, RejectTrade(0))
    assert again.owner[1] == 0 and again.owner[3] == 1


def test_record_cut_in_a_debt_then_raised_and_paid() -> None:
    game = start(
        {
            "players": [{"position": 35, "cash": 50}, {}],
            "properties": {**owned(1, 37, 39), **owned(0, 6)},
        },
        dice=[(1, 3)],
    )
    game.apply(Roll(0))
    again = cut_and_go_on(game, RAISE_CASH, Mortgage(0, 6))
    assert again.cash[0] == 0 and again.cash[1] == 1600


def test_record_cut_in_a_debt_then_bankruptcy_with_a_mortgage_received() -> None:
    game = start(
        {
            "players": [{"position": 35, "cash": 0}, {"cash": 10}, {}],
            "properties": {**owned(1, 37, 39), **owned(0, 6, mortgaged=True)},
        },
        dice=[(1, 3)],
    )
    game.apply(Roll(0))
    game.apply(DeclareBankruptcy(0))
    again = cut_and_go_on(game, MORTGAGE_RECEIVED, KeepMortgaged(1, 6))
    assert again.cash[1] == 5 and again.mortgaged[6]
    game2 = start(
        {
            "players": [{"position": 35, "cash": 0}, {}, {}],
            "properties": {**owned(1, 37, 39), **owned(0, 6, mortgaged=True)},
        },
        dice=[(1, 3)],
    )
    game2.apply(Roll(0))
    game2.apply(DeclareBankruptcy(0))
    again2 = cut_and_go_on(game2, MORTGAGE_RECEIVED, Unmortgage(1, 6))
    assert again2.cash[1] == 1500 - 55 and not again2.mortgaged[6]


def test_record_cut_in_a_building_shortage_and_its_auction() -> None:
    position = {
        "players": [{}, {}],
        "properties": {
            **owned(0, 1, 3),
            **owned(1, 6, 8, 9),
            **owned(0, 16, 18, 19, 21, 23, 24, buildings=4),
            **owned(0, 26, 27, 29, buildings=2),
        },
    }
    game = start(position)
    game.apply(Build(0, (1, 3)))
    cut_and_go_on(game, WANT, DeclareWant(1, 1))
    game.apply(Bid(0, 10))
    again = cut_and_go_on(game, BID, Bid(1, 20), PassBid(0))
    assert again.decision is not None and again.decision.kind == PLACE
    cut_and_go_on(again, PLACE, PlaceBuilding(1, 9))


def test_record_cut_at_speed_die_choices() -> None:
    game = start(
        {"players": [{"position": 10, "speed_die": True}, {}]},
        rules="speed",
        dice=[(3, 3, BUS), (2, 2, 2)],
    )
    game.apply(Roll(0))
    cut_and_go_on(game, BUS_DECISION, ChooseMove(0, 6))
    game.apply(DeclineBuy(0))  # 16 St. James
    for seat in (0, 1):
        game.apply(PassBid(seat))
    game.apply(Roll(0))
    again = cut_and_go_on(game, TRIPLES, ChooseSpace(0, 39))
    assert again.position[0] == 39
