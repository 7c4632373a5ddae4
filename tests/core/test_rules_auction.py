"""Auctions: R-AUCTION-1..3 (bidding order, amounts, passing, unsold, bankrupt estates)."""

from __future__ import annotations

from typing import Any

from monopoly.core import events as ev
from monopoly.core.actions import Bid, Buy, DeclareBankruptcy, DeclineBuy, PassBid, Roll
from monopoly.core.errors import NotYourTurnError
from monopoly.core.game import Game
from monopoly.core.state import BID, BUY, ROLL
from tests.scenario import assert_illegal, start
from tests.spaces import BALTIC, INCOME_TAX, MEDITERRANEAN, READING


def decline_baltic(position: dict[str, Any] | None = None, players: int = 3) -> Game:
    """The player to move rolls 1+2 from GO onto Baltic Avenue and declines to buy."""
    game = start(position, players=players, dice=[(1, 2)])
    seat = game.current
    game.apply(Roll(seat))
    assert game.decision is not None and game.decision.kind == BUY
    game.apply(DeclineBuy(seat))
    return game


def bidder(game: Game) -> int:
    decision = game.decision
    assert decision is not None and decision.kind == BID
    return decision.seat


def test_r_auction_2_bidding_starts_with_decliner_and_goes_round_in_seat_order() -> None:
    game = decline_baltic()
    assert bidder(game) == 0  # the decliner bids first (R-AUCTION-1: the decliner may bid)
    game.apply(Bid(0, 10))
    assert bidder(game) == 1
    game.apply(Bid(1, 20))
    assert bidder(game) == 2
    game.apply(PassBid(2))
    assert bidder(game) == 0
    game.apply(Bid(0, 30))
    assert bidder(game) == 1
    events = game.apply(PassBid(1))
    # One bidder left: the highest bid wins and is paid to the Bank.
    assert game.owner[BALTIC] == 0
    assert game.cash == [1500 - 30, 1500, 1500]
    assert ev.AuctionWon(0, BALTIC, 30) in events
    # Play goes on: the roll was not doubles, so seat 1 is next.
    assert game.decision is not None
    assert (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_auction_2_order_starts_with_the_decliner_not_seat_zero() -> None:
    game = decline_baltic({"players": [{}, {}, {}], "turn": 1})
    assert bidder(game) == 1
    game.apply(Bid(1, 5))
    assert bidder(game) == 2
    game.apply(PassBid(2))
    assert bidder(game) == 0
    game.apply(Bid(0, 6))
    assert bidder(game) == 1
    game.apply(Bid(1, 7))
    assert bidder(game) == 0
    game.apply(PassBid(0))
    assert game.owner[BALTIC] == 1
    assert game.cash == [1500, 1500 - 7, 1500]


def test_r_auction_2_a_player_who_passed_is_out_of_that_auction() -> None:
    game = decline_baltic()
    game.apply(PassBid(0))
    assert bidder(game) == 1
    game.apply(Bid(1, 10))
    assert bidder(game) == 2
    game.apply(Bid(2, 20))
    assert bidder(game) == 1  # seat 0 passed: skipped from now on
    assert_illegal(game, Bid(0, 30), "not your decision")
    game.apply(Bid(1, 25))
    assert bidder(game) == 2
    game.apply(PassBid(2))
    assert game.owner[BALTIC] == 1
    assert game.cash == [1500, 1475, 1500]


def test_r_auction_2_nobody_bids_property_stays_with_bank() -> None:
    game = decline_baltic()
    game.apply(PassBid(0))
    game.apply(PassBid(1))
    events = game.apply(PassBid(2))
    assert ev.AuctionUnsold(BALTIC) in events
    assert game.owner[BALTIC] == -1
    assert game.cash == [1500, 1500, 1500]
    assert game.decision is not None
    assert (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_auction_1_bid_must_be_above_the_last_and_at_least_one() -> None:
    game = decline_baltic()
    assert game.bid_range() == (1, 1500)
    assert_illegal(game, Bid(0, 0), "at least 1")
    assert_illegal(game, Bid(0, -5), "at least 1")
    game.apply(Bid(0, 10))
    assert game.bid_range() == (11, 1500)
    assert_illegal(game, Bid(1, 10), "at least 11")
    assert_illegal(game, Bid(1, 9), "at least 11")
    game.apply(Bid(1, 11))
    assert game.bid_range() == (12, 1500)


def test_r_auction_1_bid_only_up_to_cash_held() -> None:
    game = decline_baltic({"players": [{}, {"cash": 40}, {}]})
    game.apply(Bid(0, 15))
    assert game.bid_range() == (16, 40)
    assert_illegal(game, Bid(1, 41), "at most your cash, 40")
    game.apply(Bid(1, 40))  # the whole cash is a legal bid
    game.apply(PassBid(2))
    game.apply(PassBid(0))
    assert game.owner[BALTIC] == 1
    assert game.cash[1] == 0


def test_r_auction_1_player_below_the_high_bid_can_only_pass() -> None:
    game = decline_baltic({"players": [{}, {"cash": 30}, {}]})
    game.apply(Bid(0, 30))
    assert game.decision_actions() == [PassBid(1)]
    assert_illegal(game, Bid(1, 31), "at most your cash, 30")


def test_r_auction_1_decliner_who_cannot_afford_the_price_may_still_bid() -> None:
    game = start({"players": [{"cash": 50}, {}]}, dice=[(1, 2)])
    game.apply(Roll(0))
    assert_illegal(game, Buy(0), "costs 60, you have 50")
    game.apply(DeclineBuy(0))
    assert bidder(game) == 0
    game.apply(Bid(0, 50))
    game.apply(PassBid(1))
    assert game.owner[BALTIC] == 0
    assert game.cash == [0, 1500]


def test_r_auction_1_only_the_seat_to_bid_may_bid() -> None:
    game = decline_baltic()
    error = assert_illegal(game, Bid(2, 10), "waiting for seat 0")
    assert isinstance(error, NotYourTurnError)
    assert_illegal(game, PassBid(1), "waiting for seat 0")
    assert_illegal(game, Roll(0), "not your decision")


def test_r_auction_1_bankrupt_players_do_not_bid() -> None:
    game = start({"players": [{}, {"bankrupt": True}, {}]}, dice=[(1, 2)])
    game.apply(Roll(0))
    events = game.apply(DeclineBuy(0))
    assert ev.AuctionStarted(BALTIC, (0, 2)) in events
    game.apply(Bid(0, 10))
    assert bidder(game) == 2
    assert_illegal(game, Bid(1, 20), "bankrupt")


def test_r_auction_3_bankrupt_to_bank_estate_is_auctioned_from_the_next_player() -> None:
    """R-AUCTION-2/3, R-BANKRUPT-3: seat 1 goes bankrupt to the Bank on its own turn, so the
    auctions of its deeds start with the next player still in the game (seat 2)."""
    position = {
        "players": [{}, {"cash": 10, "position": 1}, {}, {}],
        "properties": {
            MEDITERRANEAN: {"owner": 1, "mortgaged": True},
            READING: {"owner": 1, "mortgaged": True},
        },
        "turn": 1,
    }
    game = start(position, dice=[(1, 2)])
    game.apply(Roll(1))  # 1 -> 4, Income Tax 200 with 10 cash and nothing to raise
    assert game.position[1] == INCOME_TAX
    events = game.apply(DeclareBankruptcy(1))
    assert not game.active[1]
    assert ev.AuctionStarted(MEDITERRANEAN, (2, 3, 0)) in events
    # Deeds go back to the Bank unmortgaged before they are sold.
    assert game.owner[MEDITERRANEAN] == -1 and not game.mortgaged[MEDITERRANEAN]
    assert game.owner[READING] == -1 and not game.mortgaged[READING]
    assert bidder(game) == 2
    game.apply(Bid(2, 40))
    assert bidder(game) == 3
    game.apply(PassBid(3))
    game.apply(PassBid(0))
    assert game.owner[MEDITERRANEAN] == 2 and not game.mortgaged[MEDITERRANEAN]
    # Second auction: Reading Railroad, again from seat 2; nobody bids.
    assert bidder(game) == 2
    assert game.decision is not None and game.decision.space == READING
    game.apply(PassBid(2))
    game.apply(PassBid(3))
    events = game.apply(PassBid(0))
    assert ev.AuctionUnsold(READING) in events
    assert game.owner[READING] == -1
    assert game.cash == [1500, 0, 1460, 1500]
    # The bankrupt player's turn is over: play passes to seat 2.
    assert game.decision is not None
    assert (game.decision.kind, game.decision.seat) == (ROLL, 2)
