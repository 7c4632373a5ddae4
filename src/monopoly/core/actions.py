"""Actions: small frozen values with a stable JSON and text form.

Every action names the ``seat`` that takes it. ``action_from_json`` checks the shape of
untrusted input and raises :class:`MalformedActionError`; whether the action is legal
*now* is the game's business (``Game.check``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .board import DECK_ROLES
from .errors import MalformedActionError

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type[Action]) -> tuple[str, ...]:
    """An action type's field names, kept (``dataclasses.fields`` builds them at every
    call, and the server writes every seat's legal actions as JSON after every change)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


@dataclass(frozen=True, slots=True)
class Action:
    """Base class. ``name`` is the action's word in records and texts."""

    seat: int

    def __init__(self, seat: int) -> None:
        # Every action writes its constructor, so that it is compiled with the class (the
        # one dataclasses writes stays Python); frozen, it sets its fields through object.
        object.__setattr__(self, "seat", seat)

    @property
    def name(self) -> str:
        """The action's word in records and texts (``roll``, ``bid``...)."""
        return ACTION_NAMES[type(self)]

    def __deepcopy__(self, memo: dict[int, Any]) -> Action:
        return self  # frozen: a copy may share it

    def __reduce__(self) -> tuple[type[Action], tuple[Any, ...]]:
        """Pickled as the arguments of its constructor (analyses send actions to worker
        processes): the compiled build's native class would otherwise be restored by
        setting its fields one by one, which a frozen class refuses."""
        return type(self), tuple(getattr(self, name) for name in _field_names(type(self)))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"act": self.name}
        for name in _field_names(type(self)):
            value = getattr(self, name)
            data[name] = list(value) if isinstance(value, tuple) else value
        return data

    def __str__(self) -> str:
        """The text form, ``seat 0: bid amount=50``; :meth:`parse` reads it back."""
        args = [
            f"{f.name}=" + (",".join(map(str, value)) if isinstance(value, tuple) else str(value))
            for f in fields(self)
            if f.name != "seat" and (value := getattr(self, f.name)) != f.default
        ]
        return " ".join([f"seat {self.seat}: {self.name}", *args])

    @staticmethod
    def parse(text: str) -> Action:
        """The action of a text form (``str(action)``): ``Action.parse(str(a)) == a``.

        Raises :class:`MalformedActionError` for text that names no action correctly.
        """
        head, _, rest = text.strip().partition(":")
        seat_word, _, seat = head.partition(" ")
        name, *pairs = rest.split() or [""]
        if seat_word != "seat" or not seat.strip().lstrip("-").isdigit():
            raise MalformedActionError(f"an action's text starts with 'seat N:', got {text!r}")
        data: dict[str, object] = {"act": name, "seat": int(seat)}
        cls = ACTION_TYPES.get(name)
        defaults = {f.name: getattr(cls(seat=0), f.name) for f in fields(cls)} if cls else {}
        for pair in pairs:
            key, equals, value = pair.partition("=")
            if not equals or key not in defaults:
                raise MalformedActionError(f"{name!r} has no field in {pair!r} ({text!r})")
            data[key] = _text_value(defaults[key], value, text)
        return action_from_json(data)


@dataclass(frozen=True, slots=True)
class SpaceAction(Action):
    """An action on one space of the board."""

    space: int = 0

    def __init__(self, seat: int, space: int = 0) -> None:
        Action.__init__(self, seat)
        object.__setattr__(self, "space", space)


class Roll(Action):
    """Roll the dice at the start of a turn (or again after doubles). R-TURN-1."""

    __slots__ = ()


class PayJailFine(Action):
    """Pay the fine to leave jail before rolling. R-JAIL-1."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class UseJailCard(Action):
    """Use a Get Out of Jail Free card of the given deck role. R-JAIL-1."""

    deck: str = ""

    def __init__(self, seat: int, deck: str = "") -> None:
        Action.__init__(self, seat)
        object.__setattr__(self, "deck", deck)


class RollForDoubles(Action):
    """Stay in jail and roll for doubles. R-JAIL-2."""

    __slots__ = ()


class Buy(Action):
    """Buy the property landed on at its printed price. R-LAND-1."""

    __slots__ = ()


class DeclineBuy(Action):
    """Do not buy: the property goes to auction. R-LAND-1."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Bid in the running auction. R-AUCTION-1."""

    amount: int = 0

    def __init__(self, seat: int, amount: int = 0) -> None:
        Action.__init__(self, seat)
        object.__setattr__(self, "amount", amount)


class PassBid(Action):
    """Leave the running auction. R-AUCTION-2."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Build(Action):
    """Buy buildings: one on each listed space, in order (a space may repeat). R-BUILD-*."""

    spaces: tuple[int, ...] = ()

    def __init__(self, seat: int, spaces: tuple[int, ...] = ()) -> None:
        Action.__init__(self, seat)
        object.__setattr__(self, "spaces", spaces)


class SellBuilding(SpaceAction):
    """Sell one building level of a street back to the Bank. R-BUILD-4."""

    __slots__ = ()


class Mortgage(SpaceAction):
    """Mortgage a property. R-MORT-1."""

    __slots__ = ()


class Unmortgage(SpaceAction):
    """Lift a mortgage: value + 10 % rounded up. R-MORT-2, R-MORT-4."""

    __slots__ = ()


class KeepMortgaged(SpaceAction):
    """Keep a received mortgaged property mortgaged, paying the 10 % alone. R-MORT-4."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class ProposeTrade(Action):
    """Offer a trade to ``partner``: what the proposer gives and what they take. R-TRADE-1.

    ``give_cards`` / ``take_cards`` list deck roles of Get Out of Jail Free cards.
    """

    partner: int = -1
    give: tuple[int, ...] = ()
    give_cash: int = 0
    give_cards: tuple[str, ...] = ()
    take: tuple[int, ...] = ()
    take_cash: int = 0
    take_cards: tuple[str, ...] = ()

    def __init__(
        self,
        seat: int,
        partner: int = -1,
        give: tuple[int, ...] = (),
        give_cash: int = 0,
        give_cards: tuple[str, ...] = (),
        take: tuple[int, ...] = (),
        take_cash: int = 0,
        take_cards: tuple[str, ...] = (),
    ) -> None:
        Action.__init__(self, seat)
        object.__setattr__(self, "partner", partner)
        object.__setattr__(self, "give", give)
        object.__setattr__(self, "give_cash", give_cash)
        object.__setattr__(self, "give_cards", give_cards)
        object.__setattr__(self, "take", take)
        object.__setattr__(self, "take_cash", take_cash)
        object.__setattr__(self, "take_cards", take_cards)


class AcceptTrade(Action):
    """Agree to the trade proposed to you."""

    __slots__ = ()


class RejectTrade(Action):
    """Turn down the trade proposed to you."""

    __slots__ = ()


class DeclareBankruptcy(Action):
    """Give up when even selling everything to the Bank cannot pay. R-DEBT-2."""

    __slots__ = ()


class Resign(Action):
    """Leave the game at any time: bankrupt to the Bank, whose deeds are auctioned
    (R-BANKRUPT-3); in the short game this ends the game (R-SHORT-4). **Decision**: a
    player raising cash for a debt to another player is bankrupt to that player
    (R-BANKRUPT-2), as declaring bankruptcy would make them. Never listed among the legal
    actions (no computer player or random chooser picks it): a person asks for it."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class ChooseMove(Action):
    """Speed Die Bus: move by one white die or by their sum. R-SPEED-4."""

    steps: int = 0

    def __init__(self, seat: int, steps: int = 0) -> None:
        Action.__init__(self, seat)
        object.__setattr__(self, "steps", steps)


class ChooseSpace(SpaceAction):
    """Speed Die triples: the space to move to. R-SPEED-7."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class DeclareWant(Action):
    """Building shortage: how many buildings of the short kind this player wants. R-BUILD-6."""

    count: int = 0

    def __init__(self, seat: int, count: int = 0) -> None:
        Action.__init__(self, seat)
        object.__setattr__(self, "count", count)


class PlaceBuilding(SpaceAction):
    """Put a building won at a shortage auction on a street. R-BUILD-6."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class ChooseBreakdown(Action):
    """How a hotel sold while the Bank lacks houses comes down: the building levels of
    the colour group's streets, in board order (0-4 houses, 5 a hotel). R-BUILD-4."""

    levels: tuple[int, ...] = ()

    def __init__(self, seat: int, levels: tuple[int, ...] = ()) -> None:
        Action.__init__(self, seat)
        object.__setattr__(self, "levels", levels)


class ClaimRent(SpaceAction):
    """Claim rent owed on a space (only with ``rent_must_be_claimed``). R-RENT-5."""

    __slots__ = ()


SEATS = range(8)
"""Answers without parameters, made once per seat: frozen values are safe to share, and
the common decisions then allocate nothing."""
ROLLS = tuple(Roll(seat) for seat in SEATS)
BUYS = tuple(Buy(seat) for seat in SEATS)
DECLINES = tuple(DeclineBuy(seat) for seat in SEATS)
PASSES = tuple(PassBid(seat) for seat in SEATS)
ROLLS_FOR_DOUBLES = tuple(RollForDoubles(seat) for seat in SEATS)
JAIL_FINES = tuple(PayJailFine(seat) for seat in SEATS)
ACCEPTS = tuple(AcceptTrade(seat) for seat in SEATS)
REJECTS = tuple(RejectTrade(seat) for seat in SEATS)


# Each action type by its word in records, JSON and texts. (A class attribute would read
# better, but mypyc takes a ClassVar on a frozen dataclass for a field.)
ACTION_TYPES: dict[str, type[Action]] = {
    "roll": Roll,
    "pay_fine": PayJailFine,
    "use_card": UseJailCard,
    "roll_doubles": RollForDoubles,
    "buy": Buy,
    "decline": DeclineBuy,
    "bid": Bid,
    "pass": PassBid,
    "build": Build,
    "sell": SellBuilding,
    "mortgage": Mortgage,
    "unmortgage": Unmortgage,
    "keep_mortgaged": KeepMortgaged,
    "propose_trade": ProposeTrade,
    "accept_trade": AcceptTrade,
    "reject_trade": RejectTrade,
    "bankrupt": DeclareBankruptcy,
    "choose_move": ChooseMove,
    "choose_space": ChooseSpace,
    "want": DeclareWant,
    "place": PlaceBuilding,
    "choose_breakdown": ChooseBreakdown,
    "claim_rent": ClaimRent,
    "resign": Resign,
}
ACTION_NAMES: dict[type[Action], str] = {cls: name for name, cls in ACTION_TYPES.items()}


def action_from_json(data: object) -> Action:
    """Parse an action from its JSON form, checking every field's type."""
    if not isinstance(data, dict):
        raise MalformedActionError(f"an action must be a JSON object, got {data!r}")
    kind = data.get("act")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise MalformedActionError(
            f"unknown action {kind!r}; known: {', '.join(sorted(ACTION_TYPES))}"
        )
    values: dict[str, Any] = {}
    allowed = {f.name: f for f in fields(cls)}
    for key, value in data.items():
        if key == "act":
            continue
        if key not in allowed:
            raise MalformedActionError(f"action {kind!r} has no field {key!r}")
        values[key] = _field_value(str(kind), key, value, getattr(cls(seat=0), key))
    if "seat" not in values:
        raise MalformedActionError(f"action {kind!r} needs a 'seat'")
    return cls(**values)


def field_types(cls: type[Action]) -> tuple[tuple[str, type, bool], ...]:
    """Each field's name, the exact type of its value (or of a tuple's items) and whether
    it is a tuple. Read from the defaults, since the compiled build's dataclasses keep no
    item types: a tuple's items are deck roles in the fields named ``*cards``, else
    whole numbers."""
    blank = cls(seat=0)
    result = []
    for name in _field_names(cls):
        default = getattr(blank, name)
        if isinstance(default, tuple):
            result.append((name, str if name.endswith("cards") else int, True))
        else:
            result.append((name, type(default), False))
    return tuple(result)


def _text_value(default: object, value: str, text: str) -> object:
    """A field's value in the text form, by the type of the field's default."""
    if isinstance(default, str):
        return value
    parts = value.split(",") if value else []
    try:
        numbers = [int(part) for part in parts]
    except ValueError:
        if isinstance(default, tuple):
            return parts  # deck roles; action_from_json checks them
        raise MalformedActionError(f"{value!r} is not a whole number ({text!r})") from None
    if isinstance(default, tuple):
        return numbers
    if len(numbers) != 1:
        raise MalformedActionError(f"{value!r} is not one whole number ({text!r})")
    return numbers[0]


def _field_value(kind: str, key: str, value: object, default: object) -> object:
    if isinstance(default, tuple):
        if not isinstance(value, list | tuple):
            raise MalformedActionError(f"{kind}.{key} must be a list, got {value!r}")
        if key.endswith("cards"):
            if not all(isinstance(v, str) and v in DECK_ROLES for v in value):
                raise MalformedActionError(f"{kind}.{key} must list deck roles {DECK_ROLES}")
        elif not all(type(v) is int for v in value):
            raise MalformedActionError(f"{kind}.{key} must list whole numbers, got {value!r}")
        return tuple(value)
    if isinstance(default, str):
        if not isinstance(value, str):
            raise MalformedActionError(f"{kind}.{key} must be a string, got {value!r}")
        return value
    if type(value) is not int:
        raise MalformedActionError(f"{kind}.{key} must be a whole number, got {value!r}")
    return value
