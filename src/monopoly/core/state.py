"""The records that live on the game's task stack.

A :class:`Decision` on top of the stack says who must decide what now; everything else on
the stack is a task (a small named tuple) that runs by itself. ``Game._run`` pops the
top: a task is carried out (and may push more), a decision waits for an action.
"""

from __future__ import annotations

from copy import deepcopy
from enum import StrEnum
from typing import Any, Final, NamedTuple, TypeVar

from .board import BOARD_SIZE


class DecisionKind(StrEnum):
    """What a player must decide: the one list of decision kinds.

    Every table keyed by kind (the engine's answers, the computer players, the terminal's
    headers, the browser's panels, the locale texts ``decision_<kind>``) must handle each;
    ``tests/test_surfaces.py`` checks that none is forgotten.
    """

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


V = TypeVar("V")


def for_every_kind(table: dict[DecisionKind, V], where: str) -> dict[DecisionKind, V]:
    """``table`` (keyed by decision kind), checked to handle every kind: a new kind that
    is forgotten fails at import, naming the table."""
    missing = [kind.value for kind in DecisionKind if kind not in table]
    if missing:
        raise AssertionError(f"{where} handles no decision kind {', '.join(missing)}")
    return table


# Final: the compiled build reads them as constants, not from the module's namespace.
ROLL: Final = DecisionKind.ROLL
JAIL: Final = DecisionKind.JAIL
BUY: Final = DecisionKind.BUY
BID: Final = DecisionKind.BID
RAISE_CASH: Final = DecisionKind.RAISE_CASH
MORTGAGE_RECEIVED: Final = DecisionKind.MORTGAGE_RECEIVED
TRADE: Final = DecisionKind.TRADE
BUS: Final = DecisionKind.BUS
TRIPLES: Final = DecisionKind.TRIPLES
WANT: Final = DecisionKind.WANT
PLACE: Final = DecisionKind.PLACE
BREAKDOWN: Final = DecisionKind.BREAKDOWN


class Decision:
    """Who must decide what: ``kind``, ``seat``, the space it is about and details."""

    __slots__ = ("data", "kind", "seat", "space")

    def __init__(self, kind: DecisionKind, seat: int, space: int = -1, data: Any = None) -> None:
        self.kind = kind
        self.seat = seat
        self.space = space
        self.data = data

    def __repr__(self) -> str:
        return f"Decision({self.kind}, seat={self.seat}, space={self.space})"

    def __deepcopy__(self, memo: dict[int, Any]) -> Decision:
        return Decision(self.kind, self.seat, self.space, deepcopy(self.data, memo))


ROLL_DECISIONS: Final = tuple(Decision(ROLL, seat) for seat in range(8))
JAIL_DECISIONS: Final = tuple(Decision(JAIL, seat) for seat in range(8))
"""``Decision(ROLL, seat)`` and ``Decision(JAIL, seat)``, made once: a turn's start asks
one of them, and nothing changes them (only a bid's seat moves on)."""
BUY_DECISIONS: Final = tuple(
    tuple(Decision(BUY, seat, space) for space in range(BOARD_SIZE)) for seat in range(8)
)
"""``BUY_DECISIONS[seat][space]``: ``Decision(BUY, seat, space)``, made once for the same
reason (a landing on an unowned property asks one)."""


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

    def __deepcopy__(self, memo: dict[int, Any]) -> Auction:
        twin = Auction(self.item, list(self.bidders), deepcopy(self.shortage, memo))
        twin.index, twin.high_bid, twin.high_bidder = self.index, self.high_bid, self.high_bidder
        twin.bids = list(self.bids)
        return twin


class Debt:
    """Money a player owes and cannot pay yet (R-DEBT-1). ``creditor`` -1 is the Bank."""

    __slots__ = ("amount", "creditor", "reason", "space")

    def __init__(self, creditor: int, amount: int, reason: str, space: int = -1) -> None:
        self.creditor = creditor
        self.amount = amount
        self.reason = reason
        self.space = space
        """The property whose rent is owed, if any (for the rent statistics)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Debt:
        return Debt(self.creditor, self.amount, self.reason, self.space)


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

    def __deepcopy__(self, memo: dict[int, Any]) -> Placement:
        shortage = deepcopy(self.shortage, memo)
        return Placement(self.hotel, shortage, self.paid, self.printed_price)


class Shortage:
    """A building shortage being settled (R-BUILD-6)."""

    __slots__ = ("hotel", "request", "requester", "wants")

    def __init__(self, requester: int, request: tuple[int, ...], hotel: bool) -> None:
        self.requester = requester
        self.request = request
        self.hotel = hotel
        self.wants: dict[int, int] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Shortage:
        twin = Shortage(self.requester, self.request, self.hotel)
        twin.wants = dict(self.wants)
        return twin


# ---------------------------------------------------------------------- tasks
class TurnStart(NamedTuple):
    """Begin ``seat``'s turn (a position's first turn; later turns follow by themselves)."""

    seat: int


class AfterRoll(NamedTuple):
    """After the move of a roll: doubles roll again (R-TURN-4)."""

    seat: int
    doubles: bool


AFTER_ROLLS: Final = tuple((AfterRoll(seat, False), AfterRoll(seat, True)) for seat in range(8))
"""``AFTER_ROLLS[seat][doubles]``: the task of every roll, made once (tasks never change)."""


class MrMonopolyMove(NamedTuple):
    """The Speed Die's Mr. Monopoly move, after the white-dice move (R-SPEED-5)."""

    seat: int


class Move(NamedTuple):
    """Move forward and resolve the space (after the third failed jail roll, R-JAIL-3)."""

    seat: int
    steps: int


class Pay(NamedTuple):
    """A payment due now, or a debt to raise cash for (R-DEBT-1); -1 is the Bank."""

    payer: int
    payee: int
    amount: int
    reason: str


class AuctionDue(NamedTuple):
    """A property to auction, bidding from ``starter`` (R-BANKRUPT-3, R-AUCTION-4)."""

    space: int
    starter: int


class SettleShortage(NamedTuple):
    """Go on with a building shortage: build, auction or hand out (R-BUILD-6)."""

    shortage: Shortage


class BuildHeld(NamedTuple):
    """A build request held back by a shortage, built once it is settled if still legal."""

    seat: int
    spaces: tuple[int, ...]


class FinishGame(NamedTuple):
    """End the game by net worth once a bankruptcy is settled (R-SHORT-4)."""

    reason: str


Task = (
    AfterRoll | TurnStart | MrMonopolyMove | Move | Pay | AuctionDue | SettleShortage
    | BuildHeld | FinishGame
)  # fmt: skip
"""Every task the stack holds besides decisions."""

HOUSE_ITEM = -1
HOTEL_ITEM = -2
