"""The board, the cards and the names of an edition, as immutable values.

An :class:`Edition` is loaded from a data file (see :mod:`monopoly.core.editions`). Every
number the rules use lives on :class:`Board`; every word a player sees lives in the
edition's per-language :class:`Names`. The engine only reads these objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final

BOARD_SIZE: Final = 40
"""Spaces on every board; GO is space 0 and tokens move to higher numbers."""
JAIL_SLOT: Final = BOARD_SIZE
"""Landing tables have 41 slots: the 40 spaces (the jail space counts "just visiting")
and slot 40, "in jail"."""
SLOTS: Final = BOARD_SIZE + 1
BANK: Final = -1
"""The Bank where a seat is expected: a creditor, a payee, the owner of an unsold deed."""
LANGUAGES: tuple[str, ...] = ("en", "de")
CHANCE = "chance"
COMMUNITY_CHEST = "community_chest"
DECK_ROLES: tuple[str, ...] = (CHANCE, COMMUNITY_CHEST)


class SpaceKind(IntEnum):
    """What happens on a space; the engine dispatches on this."""

    GO = 0
    STREET = 1
    RAILROAD = 2
    UTILITY = 3
    CHANCE = 4
    COMMUNITY_CHEST = 5
    TAX = 6
    JAIL = 7
    FREE_PARKING = 8
    GO_TO_JAIL = 9


PROPERTY_KINDS = frozenset({SpaceKind.STREET, SpaceKind.RAILROAD, SpaceKind.UTILITY})


@dataclass(frozen=True, slots=True)
class Space:
    """One of the 40 spaces, with the numbers printed on its deed (if any).

    ``rents`` holds the street rents for 0..4 houses and the hotel (six numbers);
    railroads and utilities use the rule numbers in :class:`Board` instead.
    """

    index: int
    kind: SpaceKind
    group: str = ""
    price: int = 0
    rents: tuple[int, ...] = ()
    house_cost: int = 0
    tax: int = 0

    @property
    def is_property(self) -> bool:
        return self.kind in PROPERTY_KINDS

    @property
    def mortgage_value(self) -> int:
        """R-MORT-1: half the printed price."""
        return self.price // 2

    @property
    def building_sale_price(self) -> int:
        """R-BUILD-4: what the Bank pays back for one building level (half its price)."""
        return self.house_cost // 2


class CardKind(IntEnum):
    """The effect of a card; ``Card`` carries its numbers."""

    ADVANCE_TO = 0
    NEAREST_RAILROAD = 1
    NEAREST_UTILITY = 2
    COLLECT = 3
    PAY = 4
    GET_OUT_OF_JAIL = 5
    GO_BACK = 6
    GO_TO_JAIL = 7
    REPAIRS = 8
    PAY_EACH_PLAYER = 9
    COLLECT_FROM_EACH_PLAYER = 10


@dataclass(frozen=True, slots=True)
class Card:
    """A card's effect. ``key`` is its stable id in records (unique within its deck)."""

    key: str
    kind: CardKind
    amount: int = 0
    target: int = -1
    per_house: int = 0
    per_hotel: int = 0


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """All the numbers of a board: spaces, decks and the rule constants."""

    spaces: tuple[Space, ...]
    decks: dict[str, tuple[Card, ...]]
    groups: dict[str, tuple[int, ...]]
    railroad_rents: tuple[int, ...] = (25, 50, 100, 200)
    utility_multipliers: tuple[int, ...] = (4, 10)
    go_salary: int = 200
    jail_fine: int = 50
    houses: int = 32
    hotels: int = 12
    jail_index: int = 10
    properties: tuple[int, ...] = field(default=())

    def nearest(self, start: int, kind: SpaceKind) -> int:
        """The first space of ``kind`` forward from ``start`` (R-CARD-2, R-CARD-3)."""
        for step in range(1, BOARD_SIZE + 1):
            space = (start + step) % BOARD_SIZE
            if self.spaces[space].kind == kind:
                return space
        raise ValueError(f"no {kind.name} on the board")


@dataclass(frozen=True, slots=True)
class Token:
    key: str
    names: dict[str, str]


@dataclass(frozen=True, slots=True)
class Names:
    """Everything an edition calls by name, in one language.

    ``terms`` holds the edition's words: ``currency``, ``currency_symbol``, ``house``,
    ``houses``, ``hotel``, ``hotels``, ``street``, ``railroad``, ``utility`` and the deck
    names ``chance`` / ``community_chest`` (by role). ``cards`` holds each card's text by
    ``"<role>.<key>"``; ``{target}`` and amounts are already filled in by the loader.
    """

    title: str
    spaces: tuple[str, ...]
    groups: dict[str, str]
    terms: dict[str, str]
    cards: dict[str, str]


@dataclass(frozen=True, slots=True)
class Edition:
    """An edition: its board numbers plus its names in every language."""

    key: str
    aliases: tuple[str, ...]
    board: Board
    names: dict[str, Names]
    tokens: tuple[Token, ...]
    printed: tuple[bool, ...]
    deck_keys: dict[str, str]
    group_colours: dict[str, str]
    source: str = ""

    def name_of(self, index: int, language: str = "en") -> str:
        return self.names[language].spaces[index]

    def term(self, word: str, language: str = "en") -> str:
        return self.names[language].terms[word]


def jail_card_key(board: Board, role: str) -> str:
    """The key of the Get Out of Jail Free card in the deck of ``role``."""
    for card in board.decks[role]:
        if card.kind == CardKind.GET_OUT_OF_JAIL:
            return card.key
    raise AssertionError(f"no jail card in the {role} deck")
