"""Auctions of properties and of buildings in a shortage (R-AUCTION-*, R-BUILD-6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import events as ev
from .actions import PASSES, Action, Bid, PassBid
from .board import BANK
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
    minimum = game.rules.auction_minimum_bid
    # Not max(): the built-in's keyword parsing costs a thousand instructions a call.
    return (low if low > minimum else minimum), game.cash[decision.seat]


_LOWEST_BIDS: Final[dict[tuple[int, int], Bid]] = {}
"""The bids listed or made so far, by (seat, amount): actions are immutable values, and
listing one at every bidding decision then makes no new object."""


_PASSES: Final = PASSES
"""The passes by seat, held in a constant: the compiled build reads it from a static
instead of looking the name up in the module's dictionary."""


def actions(game: Game, decision: Decision) -> list[Action]:
    low, high = bid_range(game, decision)
    result: list[Action] = [_PASSES[decision.seat]]
    if low <= high:  # bid_of, inline: this runs at every bidding decision
        key = (decision.seat, low)
        lowest = _LOWEST_BIDS.get(key)
        if lowest is None:
            if len(_LOWEST_BIDS) >= 10_000:
                _LOWEST_BIDS.clear()
            lowest = _LOWEST_BIDS[key] = Bid(decision.seat, low)
        result.append(lowest)
    return result


def bid_of(seat: int, amount: int) -> Bid:
    """``Bid(seat, amount)``, made once: a bid is an immutable value, and a frozen
    dataclass is dear to make (its ``__init__`` runs in Python even when compiled)."""
    key = (seat, amount)
    made = _LOWEST_BIDS.get(key)
    if made is None:
        if len(_LOWEST_BIDS) >= 10_000:
            _LOWEST_BIDS.clear()
        made = _LOWEST_BIDS[key] = Bid(seat, amount)
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
    seat, amount = action.seat, action.amount  # each read of an action's field is a look-up
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
    """The turn to bid moves on. An auction that is over is closed by ``Game._run``,
    which runs right after every action and checks the auction on top of the stack
    anyway (:func:`is_over`): once per bid instead of twice."""
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
