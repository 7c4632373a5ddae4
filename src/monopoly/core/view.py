"""What one player may see of a game: everything on the table, nothing hidden.

Computer players, the browser and RL agents get a :class:`PlayerView`. It shows the
game's lists through live :class:`ReadOnly` windows (no copying, and no way to write) and
leaves out what no player can know: the order of the card decks and the random
generator.
"""

from __future__ import annotations

from collections.abc import Iterator
from copy import deepcopy
from typing import TYPE_CHECKING, Any, Generic, TypeVar, final

from .reasons import Reason
from .state import Decision

T = TypeVar("T")

if TYPE_CHECKING:
    from .actions import Action
    from .board import Board, Edition
    from .game import Game
    from .rules import RuleSet
    from .tables import Tables


@final
class ReadOnly(Generic[T]):
    """A live, read-only window on one of the game's lists: it always shows what the
    list holds now, and has no way to change it (``view.cash[0] = 5`` raises
    ``TypeError``). Only the engine changes its state."""

    __slots__ = ("_items",)

    def __init__(self, items: list[T]) -> None:
        self._items = items

    def __getitem__(self, index: int) -> T:
        return self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __contains__(self, value: object) -> bool:
        return value in self._items

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ReadOnly):
            return self._items == other._items
        return self._items == other

    __hash__ = None  # type: ignore[assignment]  # it changes as the game goes on

    def __repr__(self) -> str:
        return f"ReadOnly({self._items!r})"

    def copy(self) -> list[T]:
        """A list of what it holds now, to keep or change."""
        return self._items.copy()

    def snapshot(self) -> tuple[T, ...]:
        """What it holds now, to keep as it is."""
        return tuple(self._items)

    def index(self, value: T) -> int:
        return self._items.index(value)

    def count(self, value: T) -> int:
        return self._items.count(value)


class PlayerView:
    """A read-only window on ``game`` for ``seat`` (-1: a spectator).

    The board and the rules are plain attributes. The game's per-seat and per-space
    lists are shown through :class:`ReadOnly` windows: the game changes those lists in
    place and never replaces them, so a window made once always shows the game as it
    is now, and no player can change it.
    """

    __slots__ = (
        "_game",
        "active",
        "board",
        "cash",
        "claims",
        "deeds",
        "edition",
        "holdings_version",
        "jail_turns",
        "level",
        "mortgaged",
        "names",
        "owner",
        "players",
        "position",
        "rules",
        "seat",
        "speed_active",
        "tables",
    )

    def __init__(self, game: Game, seat: int = -1) -> None:
        self._game = game
        self.seat = seat
        # The table: public to every player.
        self.board: Board = game.board
        self.edition: Edition = game.edition
        self.rules: RuleSet = game.rules
        self.tables: Tables = game.tables
        self.players: int = game.players
        self.names: ReadOnly[str] = ReadOnly(game.names)
        self.cash: ReadOnly[int] = ReadOnly(game.cash)
        self.position: ReadOnly[int] = ReadOnly(game.position)
        self.active: ReadOnly[bool] = ReadOnly(game.active)
        self.jail_turns: ReadOnly[int] = ReadOnly(game.jail_turns)
        self.speed_active: ReadOnly[bool] = ReadOnly(game.speed_active)
        self.owner: ReadOnly[int] = ReadOnly(game.owner)
        self.deeds: ReadOnly[tuple[int, ...]] = ReadOnly(game.deeds)
        """Per seat: the spaces whose deed it holds, in board order."""
        self.level: ReadOnly[int] = ReadOnly(game.level)
        self.mortgaged: ReadOnly[bool] = ReadOnly(game.mortgaged)
        self.holdings_version: ReadOnly[int] = ReadOnly(game.holdings_version)
        """Per seat: changes whenever the seat's deeds or their mortgages change."""
        self.claims: ReadOnly[tuple[int, int, int, int]] = ReadOnly(game.claims)
        """Open rent claims (owner, payer, space, amount)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> PlayerView:
        """The same seat's view of a copy of the game (OpenSpiel copies whole states)."""
        return type(self)(deepcopy(self._game, memo), self.seat)

    def sample_game(self, seed: int) -> Game:
        """A game this seat cannot tell from the real one, for search players: a copy of
        the table with the decks' hidden order and the coming dice drawn from ``seed``."""
        return self._game.determinised(seed)

    @property
    def deeds_version(self) -> int:
        """Changes whenever an owner or a mortgage changes (for caching)."""
        return self._game.deeds_version

    @property
    def buildings_version(self) -> int:
        """Changes whenever a building is bought or sold (for caching)."""
        return self._game.buildings_version

    @property
    def jail_cards(self) -> tuple[tuple[str, ...], ...]:
        """Each seat's Get Out of Jail Free cards, by the deck they came from."""
        return tuple(tuple(cards) for cards in self._game.jail_cards)

    @property
    def bank_houses(self) -> int:
        return self._game.bank_houses

    @property
    def bank_hotels(self) -> int:
        return self._game.bank_hotels

    @property
    def deck_sizes(self) -> dict[str, int]:
        """How many cards lie in each deck (their order is hidden)."""
        return {role: len(deck) for role, deck in self._game.decks.items()}

    @property
    def current(self) -> int:
        return self._game.current

    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def round(self) -> int:
        """Rounds played: play has come back round to the first player this often."""
        return self._game.round

    @property
    def doubles(self) -> int:
        return self._game.doubles

    @property
    def last_roll(self) -> tuple[int, ...]:
        return self._game.last_roll

    @property
    def free_parking_pot(self) -> int:
        return self._game.free_parking_pot

    @property
    def over(self) -> bool:
        return self._game.over

    @property
    def winners(self) -> tuple[int, ...]:
        return self._game.winners

    @property
    def decision(self) -> Decision | None:
        tasks = self._game.tasks  # Game.decision, read here: asked at every decision
        if tasks:
            top = tasks[-1]
            if type(top) is Decision:
                return top
        return None

    # Questions answered by the rules.
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        return self._game.legal_actions(self.seat if seat is None else seat)

    def decision_actions(self) -> list[Action]:
        return self._game.decision_actions()

    def free_actions(self, seat: int | None = None) -> list[Action]:
        return self._game.free_actions(self.seat if seat is None else seat)

    def is_legal(self, action: Action) -> bool:
        return self._game.is_legal(action)

    def problem(self, action: Action) -> Reason | None:
        return self._game.problem(action)

    def bid_range(self) -> tuple[int, int]:
        return self._game.bid_range()

    def net_worth(self, seat: int) -> int:
        return self._game.net_worth(seat)

    def owns_group(self, seat: int, group: str) -> bool:
        return self._game.owns_group(seat, group)

    def properties_of(self, seat: int) -> list[int]:
        return self._game.properties_of(seat)

    def houses_and_hotels(self, seat: int) -> tuple[int, int]:
        return self._game.houses_and_hotels(seat)

    def active_seats(self) -> list[int]:
        return self._game.active_seats()

    def raisable(self, seat: int) -> int:
        """Cash plus what the Bank would pay for buildings and mortgages (R-DEBT-2)."""
        from .debt import raisable

        return raisable(self._game, seat)

    def rent_of(self, space: int) -> int:
        """The rent a visitor would owe on ``space`` now (utilities: per pip rolled)."""
        from .rent import rent_before_roll

        return rent_before_roll(self._game, space)
