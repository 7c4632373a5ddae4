"""Auctions of properties and of buildings in a shortage (R-AUCTION-*, R-BUILD-6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import events as ev
from .actions import PASSES, Action, Bid, PassBid
from .board import BANK
from .memo import remember
from .reasons import Reason, refuse
from .state import BID, HOTEL_ITEM, PLACE, Auction, Decision, Placement, Shortage

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
    if game.collect_events:
        game.events.append(ev.AuctionStarted(item, tuple(bidders)))
    game.tasks.append(Decision(BID, bidders[0], item, running))


def bid_range(game: Game, decision: Decision) -> tuple[int, int]:
    running: Auction = decision.data
    low = running.high_bid + 1
    return max(low, game.rules.auction_minimum_bid), game.cash[decision.seat]


_BIDS: Final[dict[tuple[int, int], Bid]] = {}
"""The bids listed or made so far, by (seat, amount): actions are immutable values, so
listing one at every bidding decision makes no new object."""


def actions(game: Game, decision: Decision) -> list[Action]:
    low, high = bid_range(game, decision)
    result: list[Action] = [PASSES[decision.seat]]
    if low <= high:
        result.append(bid_of(decision.seat, low))
    return result


def bid_of(seat: int, amount: int) -> Bid:
    """``Bid(seat, amount)``, made once per seat and amount."""
    key = (seat, amount)
    made = _BIDS.get(key)
    if made is None:
        made = remember(_BIDS, key, Bid(seat, amount), 10_000)
    return made


def check_bid(game: Game, action: Bid, decision: Decision) -> Reason | None:
    low, high = bid_range(game, decision)
    amount = action.amount
    if amount < low:
        return refuse(game, "bid_too_low", low=low)
    if amount > high:
        return refuse(game, "bid_too_high", high=high)
    return None


def bid(game: Game, action: Bid, decision: Decision) -> None:
    running: Auction = decision.data
    seat, amount = action.seat, action.amount
    running.high_bid = amount
    running.high_bidder = seat
    running.bids.append((seat, amount))
    if game.collect_events:
        game.events.append(ev.BidPlaced(seat, amount))
    running.index = (running.index + 1) % len(running.bidders)
    _next(game, decision)


def pass_bid(game: Game, action: PassBid, decision: Decision) -> None:
    if game.collect_events:
        game.events.append(ev.BidPassed(action.seat))
    _remove_current(decision)
    _next(game, decision)


def pass_in_debt(game: Game, decision: Decision) -> None:
    """R-DEBT-3: a bidder who owes more than they hold may not bid: their turn passes."""
    game.emit(ev.BidPassedInDebt, decision.seat)
    _remove_current(decision)
    _next(game, decision)


def withdraw(game: Game, seat: int) -> None:
    """R-AUCTION-4: a bidder who went bankrupt leaves every running auction and their
    bids lapse; the highest bid of a player still in the game stands (or none)."""
    for task in game.tasks:
        if type(task) is not Decision or task.kind != BID:
            continue
        running: Auction = task.data
        if seat in running.bidders:
            place = running.bidders.index(seat)
            del running.bidders[place]
            if place < running.index:
                running.index -= 1
            if running.bidders:
                running.index %= len(running.bidders)
                task.seat = running.bidders[running.index]
        running.bids = [b for b in running.bids if b[0] != seat]
        running.high_bidder, running.high_bid = running.bids[-1] if running.bids else (-1, 0)


def is_over(decision: Decision) -> bool:
    """Nobody left to bid, or only the highest bidder (R-AUCTION-2)."""
    running: Auction = decision.data
    left = running.bidders
    return not left or (len(left) == 1 and left[0] == running.high_bidder)


def end(game: Game, decision: Decision) -> None:
    """Close the auction on top of the stack once it is over."""
    game.tasks.pop()
    _finish(game, decision.data)


def running_index(game: Game) -> int:
    """Where the outermost running auction sits on the task stack, or -1."""
    for index, task in enumerate(game.tasks):
        if type(task) is Decision and task.kind == BID:
            return index
    return -1


def _remove_current(decision: Decision) -> None:
    running: Auction = decision.data
    del running.bidders[running.index]
    if running.bidders:
        running.index %= len(running.bidders)


def _next(game: Game, decision: Decision) -> None:
    """The turn to bid moves on. An auction that is over is closed by the game's task
    loop, which finds it on top of the stack after the action (:func:`is_over`)."""
    running: Auction = decision.data
    if running.bidders:
        decision.seat = running.bidders[running.index]


def _finish(game: Game, running: Auction) -> None:
    winner, amount, item = running.high_bidder, running.high_bid, running.item
    if winner < 0:
        game.emit(ev.AuctionUnsold, item)
        if running.shortage is not None:
            running.shortage.wants.clear()  # nobody bids: the rest stays with the Bank
        return
    if game.collect_events:
        game.events.append(ev.AuctionWon(winner, item, amount))
    if item >= 0:
        game.give_deed(item, winner)
    else:
        game.tasks.append(
            Decision(PLACE, winner, data=Placement(item == HOTEL_ITEM, running.shortage, amount))
        )
    game.push_pay(winner, BANK, amount, "auction")
