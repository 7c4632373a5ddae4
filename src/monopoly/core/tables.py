"""The numbers of a board under a rule set, as plain lists by space: derived once.

A :class:`Board` holds its spaces as objects; the rules, the players and the simulator
read the same few numbers of them on every turn (is this a street, its price, the
spaces of its group, the rent at each level...). :func:`tables_for` derives them once
per board and rule set; the game and every player view hold the same :class:`Tables`.
Each fact has its one name here and is worked out in one place.
"""

from __future__ import annotations

from typing import Final

from .board import BOARD_SIZE, Board, Card, SpaceKind
from .rules import RuleSet


def interest(value: int) -> int:
    """R-MORT-2 **Decision**: 10 % rounded up to a whole unit."""
    return (value + 9) // 10


class Tables:
    """The facts of one board under one rule set (never changed after they are made)."""

    def __init__(self, board: Board, rules: RuleSet) -> None:
        spaces = board.spaces
        self.board = board
        self.hotel_level = rules.houses_per_hotel + 1
        """The building level of a hotel (levels 1..hotel_level - 1 are houses)."""
        self.properties = board.properties
        self.kinds = [int(space.kind) for space in spaces]
        """Per space: its :class:`SpaceKind` as a plain int."""
        self.is_property = [space.is_property for space in spaces]
        self.is_street = [space.kind == SpaceKind.STREET for space in spaces]
        self.is_railroad = [space.kind == SpaceKind.RAILROAD for space in spaces]
        self.is_utility = [space.kind == SpaceKind.UTILITY for space in spaces]
        self.price = [space.price for space in spaces]
        self.house_cost = [space.house_cost for space in spaces]
        self.sale_price = [space.building_sale_price for space in spaces]
        """What the Bank pays for a building there (R-BUILD-6)."""
        self.mortgage_value = [space.mortgage_value for space in spaces]
        self.lift_cost = [value + interest(value) for value in self.mortgage_value]
        """Lifting a mortgage: the mortgage value plus 10 % (R-MORT-2)."""
        self.rents = [space.rents for space in spaces]
        """A street's rents for 0..4 houses and the hotel (() for other spaces)."""
        self.railroad_rents = board.railroad_rents
        self.utility_multipliers = board.utility_multipliers
        self.groups = list(board.groups.values())
        """The groups (colour groups, railroads, utilities), numbered in board order."""
        self.group_of = [-1] * BOARD_SIZE
        """Per space: the number of its group (-1: none)."""
        for number, members in enumerate(self.groups):
            for space in members:
                self.group_of[space] = number
        self.members = [board.groups.get(space.group, ()) for space in spaces]
        """Per space: the spaces of its group (() for spaces of no group)."""
        self.street_groups = [
            number for number, members in enumerate(self.groups) if self.is_street[members[0]]
        ]
        self.street_members = [self.groups[group] for group in self.street_groups]
        self.is_street_group = [self.is_street[members[0]] for members in self.groups]
        self.is_railroad_group = [self.is_railroad[members[0]] for members in self.groups]
        self.nearest_railroad = [board.nearest(s, SpaceKind.RAILROAD) for s in range(BOARD_SIZE)]
        """Per space: the first railroad forward from it (R-CARD-2)."""
        self.nearest_utility = [board.nearest(s, SpaceKind.UTILITY) for s in range(BOARD_SIZE)]
        """Per space: the first utility forward from it (R-CARD-3)."""
        self.cards = {
            role: {card.key: (card, int(card.kind)) for card in deck}
            for role, deck in board.decks.items()
        }
        """Per deck (by role): each card by its key, with its :class:`CardKind` as an int."""

    def card(self, role: str, key: str) -> Card:
        """The card ``key`` of the deck of ``role``."""
        found = self.cards[role].get(key)
        if found is None:
            raise KeyError(f"no card {key!r} in the {role} deck")
        return found[0]

    def rent_at(self, space: int, level: int) -> int:
        """A street's rent at a building level (0: the single base rent)."""
        return self.rents[space][5 if level == self.hotel_level else level]


_MADE: Final[dict[tuple[Board, RuleSet], Tables]] = {}


def tables_for(board: Board, rules: RuleSet) -> Tables:
    """The :class:`Tables` of ``board`` under ``rules``, made at the first call."""
    key = (board, rules)
    made = _MADE.get(key)
    if made is None:
        made = _MADE[key] = Tables(board, rules)
    return made
