"""Auctions of properties and of buildings in a shortage (R-AUCTION-*, R-BUILD-6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import events as ev
from .actions import PASSES, Action, Bid
from .reasons import refuse
from .state import BID, HOTEL_ITEM, PLACE, Auction, Decision, Shortage

if TYPE_CHECKING:
    from .game import Game


def start(
    game: Game,
    item: int,
    starter: int,
    bidders: list[int] | None = None,
    shortage: Shortage | None = None,
) -> None:
    """R-AUCTION-2: bidding goes round in seat order from ``starter``."""
    if bidders is None:
        bidders = game.seats_from(starter)
    if not bidders:
        return
    running = Auction(item, bidders, shortage)
    game.emit(ev.AuctionStarted, item, tuple(bidders))
    game.tasks.append(Decision(BID, bidders[0], item, running))


def bid_range(game: Game, decision: Decision) -> tuple[int, int]:
    running: Auction = decision.data
    low = max(game.rules.auction_minimum_bid, running.high_bid + 1)
    return low, game.cash[decision.seat]


def actions(game: Game, decision: Decision) -> list[Action]:
    low, high = bid_range(game, decision)
    result: list[Action] = [PASSES[decision.seat]]
    if low <= high:
        result.append(Bid(decision.seat, low))
    return result


def check_bid(game: Game, action: Any, decision: Decision) -> str:
    low, high = bid_range(game, decision)
    if action.amount < low:
        return refuse(game, "bid_too_low", low=low)
    if action.amount > high:
        return refuse(game, "bid_too_high", high=high)
    return ""


def bid(game: Game, action: Any, decision: Decision) -> None:
    running: Auction = decision.data
    running.high_bid = action.amount
    running.high_bidder = action.seat
    game.emit(ev.BidPlaced, action.seat, action.amount)
    running.index = (running.index + 1) % len(running.bidders)
    _next(game, decision)


def pass_bid(game: Game, action: Any, decision: Decision) -> None:
    game.emit(ev.BidPassed, action.seat)
    _remove_current(decision)
    _next(game, decision)


def drop_bidder(game: Game, decision: Decision) -> None:
    """A bidder went bankrupt while the auction waited for them."""
    _remove_current(decision)
    game.tasks.append(decision)
    _next(game, decision)


def _remove_current(decision: Decision) -> None:
    running: Auction = decision.data
    del running.bidders[running.index]
    if running.bidders:
        running.index %= len(running.bidders)


def _next(game: Game, decision: Decision) -> None:
    running: Auction = decision.data
    left = running.bidders
    if not left or (len(left) == 1 and left[0] == running.high_bidder):
        game.tasks.pop()
        _finish(game, running)
        return
    decision.seat = left[running.index]


def _finish(game: Game, running: Auction) -> None:
    winner, amount, item = running.high_bidder, running.high_bid, running.item
    if winner >= 0 and not game.active[winner]:
        winner = -1  # R-BANKRUPT-1: a high bidder who went bankrupt meanwhile wins nothing
    if winner < 0:
        game.emit(ev.AuctionUnsold, item)
        if running.shortage is not None:
            running.shortage.wants.clear()  # nobody bids: the rest stays with the Bank
        return
    game.emit(ev.AuctionWon, winner, item, amount)
    if item >= 0:
        game.owner[item] = winner
        game.deeds_version += 1
    else:
        game.tasks.append(
            Decision(PLACE, winner, data=(item == HOTEL_ITEM, running.shortage, amount))
        )
    game.push_pay(winner, -1, amount, "auction")
