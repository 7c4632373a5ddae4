"""The small mutable records that live on the game's task stack.

A :class:`Decision` on top of the stack says who must decide what now; everything else on
the stack is a task (a plain tuple) that runs by itself.
"""

from __future__ import annotations

from typing import Any

# Decision kinds.
ROLL = "roll"
JAIL = "jail"
BUY = "buy"
BID = "bid"
RAISE_CASH = "raise_cash"
MORTGAGE_RECEIVED = "mortgage_received"
TRADE = "trade"
BUS = "bus"
TRIPLES = "triples"
WANT = "want"
PLACE = "place"
BREAKDOWN = "breakdown"

# Task opcodes.
OP_TURN_START = 0
OP_AFTER_ROLL = 1
OP_MR_MONOPOLY = 2
OP_MOVE = 3
OP_PAY = 4
OP_AUCTION = 5
OP_SHORTAGE = 6
OP_BUILD = 7
OP_FINISH = 8

HOUSE_ITEM = -1
HOTEL_ITEM = -2


class Decision:
    """Who must decide what: ``kind`` (one of the constants above), ``seat`` and details."""

    __slots__ = ("data", "kind", "seat", "space")

    def __init__(self, kind: str, seat: int, space: int = -1, data: Any = None) -> None:
        self.kind = kind
        self.seat = seat
        self.space = space
        self.data = data

    def __repr__(self) -> str:
        return f"Decision({self.kind}, seat={self.seat}, space={self.space})"


class Auction:
    """A running auction of a property (``item`` = space) or one building (HOUSE/HOTEL)."""

    __slots__ = ("bidders", "bids", "high_bid", "high_bidder", "index", "item", "shortage")

    def __init__(self, item: int, bidders: list[int], shortage: Shortage | None = None) -> None:
        self.item = item
        self.bidders = bidders
        """Who may still bid, in seat order; ``index`` points at the one to bid now."""
        self.index = 0
        self.high_bid = 0
        self.high_bidder = -1
        self.bids: list[tuple[int, int]] = []
        """Every bid so far (seat, amount): a bankrupt bidder's bid lapses (R-AUCTION-4)."""
        self.shortage = shortage


class Debt:
    """Money a player owes and cannot pay yet (R-DEBT-1). ``creditor`` -1 is the Bank."""

    __slots__ = ("amount", "creditor", "reason", "space")

    def __init__(self, creditor: int, amount: int, reason: str, space: int = -1) -> None:
        self.creditor = creditor
        self.amount = amount
        self.reason = reason
        self.space = space
        """The property whose rent is owed, if any (for the rent statistics)."""


class Placement:
    """A building the Bank hands out in a shortage (R-BUILD-6), to be put on a street.

    ``paid`` is the winning bid already charged (refunded if it cannot be placed);
    with ``printed_price`` the sole remaining applicant pays the street's house price
    when placing instead.
    """

    __slots__ = ("hotel", "paid", "printed_price", "shortage")

    def __init__(
        self, hotel: bool, shortage: Shortage | None, paid: int, printed_price: bool = False
    ) -> None:
        self.hotel = hotel
        self.shortage = shortage
        self.paid = paid
        self.printed_price = printed_price


class Shortage:
    """A building shortage being settled (R-BUILD-6)."""

    __slots__ = ("hotel", "request", "requester", "wants")

    def __init__(self, requester: int, request: tuple[int, ...], hotel: bool) -> None:
        self.requester = requester
        self.request = request
        self.hotel = hotel
        self.wants: dict[int, int] = {}
