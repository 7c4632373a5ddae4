"""Events: what happened, in the past tense, built cheaply as named tuples.

``apply()`` returns them; texts are made only on demand by :mod:`monopoly.core.narrate`.
Seats are ints, spaces are board indexes, ``-1`` as a creditor means the Bank.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeAlias

from .board import BANK as BANK


class TurnStarted(NamedTuple):
    seat: int
    turn: int


class TurnOrderDecided(NamedTuple):
    order: tuple[int, ...]
    rolls: tuple[tuple[int, ...], ...]


class DiceRolled(NamedTuple):
    seat: int
    dice: tuple[int, ...]
    doubles: bool


class Moved(NamedTuple):
    seat: int
    start: int
    end: int


class SalaryCollected(NamedTuple):
    seat: int
    amount: int
    landed: bool = False
    """On GO itself (a roll, a card, a triples jump), not passing it."""


class PropertyBought(NamedTuple):
    seat: int
    space: int
    price: int


class PropertyDealt(NamedTuple):
    seat: int
    space: int


class AuctionStarted(NamedTuple):
    space: int
    """A property index, or -1 for a house and -2 for a hotel (building shortage)."""
    bidders: tuple[int, ...]


class BidPlaced(NamedTuple):
    seat: int
    amount: int


class BidPassed(NamedTuple):
    seat: int


class BidPassedInDebt(NamedTuple):
    """R-DEBT-3: the bidder owes more than they hold, so their turn to bid passes."""

    seat: int


class AuctionWon(NamedTuple):
    seat: int
    space: int
    amount: int


class AuctionUnsold(NamedTuple):
    space: int


class RentPaid(NamedTuple):
    payer: int
    owner: int
    space: int
    amount: int


class RentOwed(NamedTuple):
    payer: int
    owner: int
    space: int
    amount: int


class RentForfeited(NamedTuple):
    owner: int
    space: int


class MoneyPaid(NamedTuple):
    payer: int
    payee: int
    amount: int
    reason: str


class CardDrawn(NamedTuple):
    seat: int
    deck: str
    card: str


class SentToJail(NamedTuple):
    seat: int


class LeftJail(NamedTuple):
    seat: int
    how: str


class StayedInJail(NamedTuple):
    seat: int
    failed_rolls: int


class JailCardKept(NamedTuple):
    seat: int
    deck: str


class BuildingBuilt(NamedTuple):
    seat: int
    space: int
    hotel: bool
    price: int
    won_at_auction: bool = False
    """Placed after a shortage auction (R-BUILD-6): ``price`` is the bid, paid already."""


class BuildingSold(NamedTuple):
    seat: int
    space: int
    level: int
    amount: int


class BuildingShortage(NamedTuple):
    hotel: bool
    stock: int
    wanted: int


class PropertyMortgaged(NamedTuple):
    seat: int
    space: int
    amount: int


class MortgageLifted(NamedTuple):
    seat: int
    space: int
    amount: int


class MortgageInterestPaid(NamedTuple):
    seat: int
    space: int
    amount: int


class TradeProposed(NamedTuple):
    seat: int
    partner: int
    offer: Any


class TradeAccepted(NamedTuple):
    seat: int
    partner: int


class TradeRejected(NamedTuple):
    seat: int
    partner: int


class TradeLapsed(NamedTuple):
    """R-DEBT-3: ``seat``'s offer to ``partner`` lapsed: one of them left the game."""

    seat: int
    partner: int


class DebtOwed(NamedTuple):
    seat: int
    creditor: int
    amount: int


class DebtLapsed(NamedTuple):
    """R-DEBT-3: the creditor left the game before the debt was paid."""

    seat: int
    creditor: int
    amount: int


class PlayerBankrupt(NamedTuple):
    seat: int
    creditor: int


class FreeParkingCollected(NamedTuple):
    seat: int
    amount: int


class SpeedDieActivated(NamedTuple):
    seat: int


class GameOver(NamedTuple):
    winners: tuple[int, ...]
    reason: str
    worth: tuple[int, ...]


Event: TypeAlias = (
    TurnStarted
    | TurnOrderDecided
    | DiceRolled
    | Moved
    | SalaryCollected
    | PropertyBought
    | PropertyDealt
    | AuctionStarted
    | BidPlaced
    | BidPassed
    | BidPassedInDebt
    | AuctionWon
    | AuctionUnsold
    | RentPaid
    | RentOwed
    | RentForfeited
    | MoneyPaid
    | CardDrawn
    | SentToJail
    | LeftJail
    | StayedInJail
    | JailCardKept
    | BuildingBuilt
    | BuildingSold
    | BuildingShortage
    | PropertyMortgaged
    | MortgageLifted
    | MortgageInterestPaid
    | TradeProposed
    | TradeAccepted
    | TradeRejected
    | TradeLapsed
    | DebtOwed
    | DebtLapsed
    | PlayerBankrupt
    | FreeParkingCollected
    | SpeedDieActivated
    | GameOver
)  # fmt: skip
"""Anything the game reports: what ``Game.apply`` returns and the log keeps."""
