"""Auction interactions: who may still bid, trades and bankruptcies while bidding, jail
(R-AUCTION-*, R-BANKRUPT-3, R-TRADE-1, R-JAIL-4)."""

from __future__ import annotations

from typing import Any

from monopoly.core import events as ev
from monopoly.core.actions import (
    AcceptTrade,
    Bid,
    DeclareBankruptcy,
    DeclineBuy,
    KeepMortgaged,
    PassBid,
    ProposeTrade,
    RejectTrade,
    Roll,
)
from monopoly.core.state import BID, BUY, MORTGAGE_RECEIVED, RAISE_CASH, ROLL, TRADE
from tests.scenario import assert_illegal, start, waiting


def owned(seat: int, *spaces: int, **extra: Any) -> dict[str, dict[str, Any]]:
    return {str(s): {"owner": seat, **extra} for s in spaces}


def declined(players: list[dict[str, Any]], **position: Any) -> Any:
    """P0 rolls 1 + 2 from GO to Baltic (3, unowned, 60) and declines."""
    game = start({"players": players, **position}, dice=[(1, 2)])
    game.apply(Roll(0))
    assert waiting(game) == (BUY, 0)
    game.apply(DeclineBuy(0))
    assert waiting(game) == (BID, 0)  # R-AUCTION-2: the decliner starts
    return game


def test_r_auction_2_last_bidder_left_who_never_bid_may_still_bid() -> None:
    game = declined([{}, {}, {}])
    game.apply(PassBid(0))
    game.apply(PassBid(1))
    assert waiting(game) == (BID, 2)  # one bidder left but no bid yet: P2 decides
    game.apply(Bid(2, 1))
    assert game.owner[3] == 2 and game.cash[2] == 1499
    assert waiting(game) == (ROLL, 1)


def test_r_auction_2_last_bidder_left_who_never_bid_may_pass_unsold() -> None:
    game = declined([{}, {}, {}])
    game.apply(PassBid(0))
    game.apply(PassBid(1))
    game.apply(PassBid(2))
    assert game.owner[3] == -1
    assert any(isinstance(e, ev.AuctionUnsold) for e in game.events)


def test_r_auction_1_decliner_passes_at_once_others_bid_around() -> None:
    game = declined([{}, {}, {}])
    game.apply(PassBid(0))
    assert_illegal(game, Bid(0, 5), "seat 1")  # out of this auction
    game.apply(Bid(1, 5))
    game.apply(Bid(2, 6))
    assert waiting(game) == (BID, 1)
    assert_illegal(game, Bid(1, 6), "7")  # each bid above the last
    game.apply(Bid(1, 61))
    game.apply(PassBid(2))
    assert game.owner[3] == 1 and game.cash[1] == 1500 - 61


def test_r_auction_1_r_jail_4_jailed_and_penniless_players_in_the_auction() -> None:
    game = declined([{}, {"position": 10, "jail_turns": 1}, {"cash": 0}])
    game.apply(Bid(0, 10))
    assert waiting(game) == (BID, 1)  # in jail: still a bidder
    game.apply(Bid(1, 20))
    assert waiting(game) == (BID, 2)
    assert [type(a) for a in game.decision_actions()] == [PassBid]  # no cash, no bid
    assert_illegal(game, Bid(2, 21), "0")
    game.apply(PassBid(2))
    game.apply(PassBid(0))
    assert game.owner[3] == 1 and game.cash[1] == 1480


def test_r_auction_2_r_trade_1_trade_offer_during_an_auction_waits_for_the_answer() -> None:
    game = declined([{}, {}, {}], properties=owned(2, 39))
    game.apply(Bid(0, 10))
    assert waiting(game) == (BID, 1)
    game.apply(ProposeTrade(2, partner=1, give=(39,), take_cash=300))
    assert waiting(game) == (TRADE, 1)
    assert_illegal(game, Bid(1, 11), "trade")
    game.apply(RejectTrade(1))
    assert waiting(game) == (BID, 1)
    assert game.bid_range() == (11, 1500)
    game.apply(ProposeTrade(2, partner=1, give=(39,), take_cash=300))
    game.apply(AcceptTrade(1))
    assert game.owner[39] == 1 and game.cash[1] == 1200
    assert waiting(game) == (BID, 1)
    assert game.bid_range() == (11, 1200)  # bids up to the cash held now


def bankrupt_high_bidder() -> Any:
    """P2 holds the high bid (10, all its cash) on Baltic over P1's 5, then accepts a gift
    of mortgaged Boardwalk and cannot pay the 10 % (R-MORT-4): bankrupt to the Bank while
    the auction of Baltic goes on. R-AUCTION-4: P2 leaves it, the 10 lapses and P1's 5
    stands; Boardwalk's auction waits until Baltic's is over."""
    game = declined([{}, {}, {"cash": 10}, {}], properties=owned(0, 39, mortgaged=True))
    game.apply(PassBid(0))
    game.apply(Bid(1, 5))
    game.apply(Bid(2, 10))
    assert waiting(game) == (BID, 3)
    game.apply(ProposeTrade(0, partner=2, give=(39,)))
    game.apply(AcceptTrade(2))
    assert waiting(game) == (MORTGAGE_RECEIVED, 2)
    game.apply(KeepMortgaged(2, 39))
    assert waiting(game) == (RAISE_CASH, 2)
    game.apply(DeclareBankruptcy(2))
    assert not game.active[2] and game.owner[39] == -1
    assert waiting(game) == (BID, 3) and game.decision is not None
    assert game.decision.space == 3
    assert game.bid_range() == (6, 1500)  # P1's 5 stands
    return game


def boardwalk_auction_follows(game: Any) -> None:
    """R-BANKRUPT-3, R-AUCTION-4: then Boardwalk, from the player whose turn it is."""
    for seat in (0, 1, 3):
        assert waiting(game) == (BID, seat) and game.decision is not None
        assert game.decision.space == 39
        game.apply(PassBid(seat))
    assert game.owner[39] == -1


def test_r_auction_4_the_highest_bid_still_in_the_game_stands() -> None:
    """A bankrupt player has left the game (R-BANKRUPT-1) and can never own Baltic: their
    bid lapses and P1's earlier bid of 5 wins when nobody bids more."""
    game = bankrupt_high_bidder()
    game.apply(PassBid(3))
    assert game.owner[3] == 1 and game.cash[1] == 1495
    assert all(game.owner[s] != 2 for s in range(40))
    boardwalk_auction_follows(game)


def test_r_auction_4_bankrupt_high_bidder_outbid_by_a_remaining_player() -> None:
    game = bankrupt_high_bidder()
    game.apply(Bid(3, 11))
    game.apply(PassBid(1))
    assert game.owner[3] == 3 and game.cash[3] == 1489
    boardwalk_auction_follows(game)
