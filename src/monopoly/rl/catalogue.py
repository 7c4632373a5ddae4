"""The fixed integer action catalogue of the RL environments, and its legality mask.

Every id means the same thing in every state of every edition ("build on space 37",
"bid 1.25 × the item's value", "offer space 12 to the player two seats on for its
printed price"). The mask of a state lists exactly the ids whose action the engine
accepts now: each candidate comes from ``Game.decision_actions()`` and
``Game.free_actions()`` or is a template checked with ``Game.is_legal`` — the engine's
one legality source, never a second copy of the rules.

Layout (``CATALOGUE.describe(i)`` names any id; ``docs/rl.md`` has the table):

=====================  =====  ==========================================================
block                  size   meaning
=====================  =====  ==========================================================
roll                   1      roll the dice (R-TURN-1)
jail                   4      roll for doubles, pay the fine, use a Chance / Community
                              Chest Get Out of Jail Free card (R-JAIL-1, R-JAIL-2)
buy / decline          2      buy the property landed on, or send it to auction
pass_bid               1      leave the auction
bid                    7      bid the lowest legal amount, or 0.5 / 0.75 / 1.0 / 1.25 /
                              1.5 / 2.0 × the item's value (printed price; a building's
                              cost in a shortage auction) when that is a legal bid
accept / reject        2      answer the trade offered to you
keep_mortgaged         1      keep a received mortgaged deed mortgaged (R-MORT-4)
bankrupt               1      declare bankruptcy (only when nothing can pay, R-DEBT-2)
waive_claims           1      let open rent claims go (rule ``rent_must_be_claimed``)
bus                    12     Speed Die Bus: move by this many steps (1..12)
triples                40     Speed Die triples: move to space i
want                   W      building shortage: want i buildings (0..W-1)
place                  40     put a building won in a shortage auction on space i
build                  40     buy one building on space i
build_row              40     buy one building on each street of the group whose
                              first space is i (one request: it may start a
                              building shortage, R-BUILD-6)
sell                   40     sell one building (or break a hotel down) on space i
mortgage               40     mortgage space i
unmortgage             40     lift the mortgage of space i (also: a received deed)
claim                  40     claim the rent owed on space i
trade_buy              40     ask space i's owner for it, paying its printed price
trade_buy_high         40     the same, paying 1.5 × its printed price
trade_sell             7×40   offer space i to the player k (1..7) seats on, for its
                              printed price
done                   1      end an out-of-turn window (the environments' own id)
breakdown              B      a hotel sold while the Bank lacks the houses to replace
                              it: take the i-th arrangement of the group the rules
                              offer, the best for rent first (R-BUILD-4)
=====================  =====  ==========================================================

``VERSION`` 2 added ``done`` (id 745) at the end, version 3 the ``breakdown`` block after
it; every earlier id keeps its meaning, so policies trained on an earlier version index
the same ids.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from math import comb

import numpy as np

from monopoly.core.actions import (
    AcceptTrade,
    Action,
    Bid,
    Build,
    Buy,
    ChooseBreakdown,
    ChooseMove,
    ChooseSpace,
    ClaimRent,
    DeclareBankruptcy,
    DeclareWant,
    DeclineBuy,
    KeepMortgaged,
    Mortgage,
    PassBid,
    PayJailFine,
    PlaceBuilding,
    RejectTrade,
    Roll,
    RollForDoubles,
    SellBuilding,
    Unmortgage,
    UseJailCard,
)
from monopoly.core.board import BOARD_SIZE, DECK_ROLES, SpaceKind
from monopoly.core.editions import edition_keys, get_edition
from monopoly.core.game import Game
from monopoly.core.memo import FreeActionsMemo
from monopoly.core.state import BID, BREAKDOWN, JAIL, RAISE_CASH, ROLL, TRADE, Decision

from .mask import TRADE_BUY, TRADE_SELL, GameOrView, TradeTemplates, trade_action

MAX_SEATS = 8
BID_FACTORS = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0)
MAX_STEPS = 12
FREE_BLOCKS = frozenset(
    {
        "build",
        "build_row",
        "sell",
        "mortgage",
        "unmortgage",
        "trade_buy",
        "trade_buy_high",
        "trade_sell",
    }
)
"""The blocks of the free actions (R-BUILD-1, R-MORT-1, R-TRADE-1)."""
VERSION = 3
"""The catalogue's version: 1 had ids 0..744; 2 appended ``done`` (745); 3 appended
``breakdown``."""


def _max_stock() -> int:
    boards = [get_edition(key).board for key in edition_keys()]
    return max(max(b.houses, b.hotels) for b in boards)


def _max_breakdowns() -> int:
    """The most arrangements a hotel's breakdown can offer on any board: they keep the
    same number of buildings, evenly (R-BUILD-3), so they differ only in which ``k`` of
    a group's ``n`` streets carry the one building more — at most ``comb(n, n // 2)``."""
    sizes = [
        len(group)
        for key in edition_keys()
        for board in [get_edition(key).board]
        for group in board.groups.values()
        if group and board.spaces[group[0]].kind == SpaceKind.STREET
    ]
    return max(comb(n, n // 2) for n in sizes)


class Catalogue:
    """The id layout. One instance (``CATALOGUE``) serves every edition and rule set."""

    def __init__(self) -> None:
        self.blocks: dict[str, tuple[int, int]] = {}
        self.size = 0
        for name, size in (
            ("roll", 1),
            ("jail", 2 + len(DECK_ROLES)),
            ("buy", 1),
            ("decline", 1),
            ("pass_bid", 1),
            ("bid", 1 + len(BID_FACTORS)),
            ("accept", 1),
            ("reject", 1),
            ("keep_mortgaged", 1),
            ("bankrupt", 1),
            ("waive_claims", 1),
            ("bus", MAX_STEPS),
            ("triples", BOARD_SIZE),
            ("want", _max_stock() + 1),
            ("place", BOARD_SIZE),
            ("build", BOARD_SIZE),
            ("build_row", BOARD_SIZE),
            ("sell", BOARD_SIZE),
            ("mortgage", BOARD_SIZE),
            ("unmortgage", BOARD_SIZE),
            ("claim", BOARD_SIZE),
            ("trade_buy", BOARD_SIZE),
            ("trade_buy_high", BOARD_SIZE),
            ("trade_sell", (MAX_SEATS - 1) * BOARD_SIZE),
            ("done", 1),
            ("breakdown", _max_breakdowns()),
        ):
            self.blocks[name] = (self.size, size)
            self.size += size
        self._split = [
            (name, index) for name, (_start, size) in self.blocks.items() for index in range(size)
        ]
        self._simple_start = {cls: self.blocks[b][0] for b, cls in _SIMPLE_TYPES.items()}
        self._space_start = {cls: self.blocks[b][0] for b, cls in _SPACE_TYPES.items()}
        self.WAIVE_CLAIMS = self.blocks["waive_claims"][0]
        assert (self.blocks["trade_buy"][0], self.blocks["trade_sell"][0]) == (
            TRADE_BUY,
            TRADE_SELL,
        ), "monopoly.rl.mask's trade template ids must match the layout"
        self.DONE = self.blocks["done"][0]
        self._free = [name in FREE_BLOCKS for name, _index in self._split]

    def is_free(self, action_id: int) -> bool:
        """Whether the id is one of the free actions a seat may take at any of its
        decisions (building, selling, mortgaging, lifting, offering a trade): those
        count against an environment's limit per turn, unless they answer the decision."""
        return self._free[action_id]

    def id(self, block: str, index: int = 0) -> int:
        start, size = self.blocks[block]
        if not 0 <= index < size:
            raise ValueError(f"{block} has ids 0..{size - 1}, not {index}")
        return start + index

    def split(self, action_id: int) -> tuple[str, int]:
        """The block and the index within it of ``action_id``."""
        if not 0 <= action_id < self.size:
            raise ValueError(f"action id {action_id} is outside 0..{self.size - 1}")
        return self._split[action_id]

    def describe(self, action_id: int) -> str:
        block, index = self.split(action_id)
        if block == "trade_sell":
            return f"trade_sell space {index % BOARD_SIZE} to seat+{index // BOARD_SIZE + 1}"
        if block == "bid":
            return "bid lowest" if index == 0 else f"bid {BID_FACTORS[index - 1]} x value"
        return block if self.blocks[block][1] == 1 else f"{block} {index}"

    # ------------------------------------------------------------------ id -> action
    def action(self, game: GameOrView, seat: int, action_id: int) -> Action | None:
        """The engine action that ``action_id`` means for ``seat`` now (None for the
        environment's own ``waive_claims``). Raises ValueError when the id cannot be
        turned into an action here at all (e.g. a bid outside an auction)."""
        block, i = self.split(action_id)
        decision = game.decision
        simple = _SIMPLE.get(block)
        if simple is not None:
            return simple(seat)
        if block in ("waive_claims", "done"):
            return None
        if block == "jail":
            if i == 0:
                return RollForDoubles(seat)
            if i == 1:
                return PayJailFine(seat)
            return UseJailCard(seat, DECK_ROLES[i - 2])
        if block == "bid":
            return Bid(seat, self._bid_amount(game, i))
        if block == "keep_mortgaged":
            return KeepMortgaged(seat, decision.space if decision else -1)
        if block == "bus":
            return ChooseMove(seat, i + 1)
        if block == "want":
            return DeclareWant(seat, i)
        if block == "build_row":
            return Build(seat, row_of(game, i))
        if block == "breakdown":
            return _breakdown(game, i)
        per_space = _PER_SPACE.get(block)
        if per_space is not None:
            return per_space(seat, i)
        return trade_action(game, seat, action_id)

    def _bid_amount(self, game: GameOrView, index: int) -> int:
        decision = game.decision
        if decision is None or decision.kind != BID:
            raise ValueError("a bid id needs a running auction")
        low, _high = game.bid_range()
        if index == 0:
            return low
        return round(BID_FACTORS[index - 1] * item_value(game, decision))

    # ------------------------------------------------------------------ action -> id
    def id_of(self, action: Action, game: GameOrView) -> int | None:
        """The id of an engine action from ``decision_actions``/``free_actions`` in
        ``game`` now (bids: the lowest-bid id), or None when no id means exactly it."""
        kind = type(action)
        start = self._simple_start.get(kind)
        if start is not None:  # the commonest answers: one look-up
            return start
        start = self._space_start.get(kind)
        if start is not None:
            space: int = action.space  # type: ignore[attr-defined]
            return start + space
        if kind is RollForDoubles:
            return self.id("jail", 0)
        if kind is PayJailFine:
            return self.id("jail", 1)
        if isinstance(action, UseJailCard):
            return self.id("jail", 2 + DECK_ROLES.index(action.deck))
        if kind is Bid:
            return self.id("bid", 0)
        if kind is KeepMortgaged:
            return self.id("keep_mortgaged")
        if isinstance(action, ChooseMove):
            return self.id("bus", action.steps - 1) if 1 <= action.steps <= MAX_STEPS else None
        if isinstance(action, DeclareWant):
            return self.id("want", action.count)
        if isinstance(action, Build):
            return self._build_id(action.spaces, game)
        if isinstance(action, ChooseBreakdown):
            return self._breakdown_id(action, game)
        return None

    def _build_id(self, spaces: tuple[int, ...], game: GameOrView) -> int | None:
        """``build`` for one street; ``build_row`` for one building on each street of a
        whole group (in any order); None for any other request (a part of a row, two
        houses on one street)."""
        if len(spaces) == 1:
            return self.id("build", spaces[0])
        first = min(spaces, default=-1)
        if first < 0 or sorted(spaces) != sorted(row_of(game, first)):
            return None
        return self.id("build_row", first)

    def _breakdown_id(self, action: ChooseBreakdown, game: GameOrView) -> int | None:
        decision = game.decision
        if decision is None or decision.kind is not BREAKDOWN:
            return None
        options = game.decision_actions()
        return self.id("breakdown", options.index(action)) if action in options else None

    # ------------------------------------------------------------------ the mask
    def legal_ids(
        self,
        game: GameOrView,
        seat: int,
        free: bool = True,
        trades: bool = True,
        out_of_turn: bool = False,
        templates: TradeTemplates | None = None,
        kept: FreeActionsMemo[list[int]] | None = None,
    ) -> list[int]:
        """The ids legal for ``seat`` now, in increasing order.

        ``free=False`` leaves out building, selling, mortgaging and trades (the
        environment's limit on free actions per turn); in a debt (``raise_cash``)
        selling and mortgaging stay, since they are how the debt gets paid.
        Trade offers are listed at the seat's roll, jail and trade decisions, and with
        ``out_of_turn`` (an environment's out-of-turn window) also without a decision;
        ``templates`` keeps the engine's answers about them from one state of a game to
        the next (:mod:`monopoly.rl.mask`; without it they are all asked afresh), and
        ``kept`` likewise the ids of building, selling, mortgaging and lifting; they
        are read from the game itself, the other ids also from a player's view.
        """
        decision = game.decision
        if decision is None or not game.active[seat]:
            return []
        ids: set[int] = set()
        deciding = decision.seat == seat
        if deciding:
            ids.update(self._ids(game, game.decision_actions()))
            if decision.kind == BID:
                ids.update(self._bid_templates(game, decision))
        if free:
            if kept is None:
                ids.update(self.free_ids(game, seat))
            else:
                ids.update(kept.get(_game(game), seat, lambda: self.free_ids(game, seat)))
            if trades and (out_of_turn or (deciding and decision.kind in (ROLL, JAIL, TRADE))):
                ids.update((templates or TradeTemplates()).legal_ids(_game(game), seat))
        else:
            claims = [ClaimRent(seat, c[2]) for c in game.claims if c[0] == seat]
            ids.update(self._ids(game, claims))
            if deciding and decision.kind == RAISE_CASH:
                raising = game.free_actions(seat)
                ids.update(
                    self._ids(game, (a for a in raising if isinstance(a, SellBuilding | Mortgage)))
                )
        return sorted(ids)

    def free_ids(self, game: GameOrView, seat: int) -> list[int]:
        """The ids of the seat's free actions now: building (a street or a whole row),
        selling, mortgaging, lifting mortgages and claiming rent."""
        free_actions = game.free_actions(seat)
        return [*self._ids(game, free_actions), *self._row_templates(game, seat, free_actions)]

    def _ids(self, game: GameOrView, actions: Iterable[Action]) -> list[int]:
        return [i for a in actions if (i := self.id_of(a, game)) is not None]

    def _row_templates(self, game: GameOrView, seat: int, free_actions: list[Action]) -> list[int]:
        firsts = {
            row[0]
            for a in free_actions
            if isinstance(a, Build) and len(row := row_of(game, a.spaces[0])) > 1
        }
        return [
            self.id("build_row", first)
            for first in sorted(firsts)
            if game.is_legal(Build(seat, row_of(game, first)))
        ]

    def _bid_templates(self, game: GameOrView, decision: Decision) -> list[int]:
        low, high = game.bid_range()
        value = item_value(game, decision)
        return [
            self.id("bid", k + 1)
            for k, factor in enumerate(BID_FACTORS)
            if low <= round(factor * value) <= high
        ]


def _game(game: GameOrView) -> Game:
    """The game itself: what is kept between states is read from it, not from a view."""
    if not isinstance(game, Game):
        raise TypeError("kept answers are read from the game, not from a view")
    return game


def row_of(game: GameOrView, space: int) -> tuple[int, ...]:
    """The streets of ``space``'s group when ``space`` is its first one, else ()."""
    board = game.board
    group = board.spaces[space].group
    if board.spaces[space].kind != SpaceKind.STREET:
        return ()
    row = tuple(board.groups[group])
    return row if row and row[0] == space else ()


def _breakdown(game: GameOrView, index: int) -> Action:
    """The ``index``-th arrangement the pending hotel breakdown offers (the engine lists
    them best for rent first)."""
    decision = game.decision
    if decision is None or decision.kind is not BREAKDOWN:
        raise ValueError("a breakdown id needs a hotel's breakdown to choose")
    options = game.decision_actions()
    if index >= len(options):
        raise ValueError(f"this breakdown offers {len(options)} arrangements, not {index + 1}")
    return options[index]


def item_value(game: GameOrView, decision: Decision) -> int:
    """What a bid factor multiplies: the deed's printed price, or for a building in a
    shortage auction the dearest building cost of the board."""
    if decision.space >= 0:
        return game.board.spaces[decision.space].price
    return max(s.house_cost for s in game.board.spaces if s.kind == SpaceKind.STREET)


_SIMPLE = {
    "roll": Roll,
    "buy": Buy,
    "decline": DeclineBuy,
    "pass_bid": PassBid,
    "accept": AcceptTrade,
    "reject": RejectTrade,
    "bankrupt": DeclareBankruptcy,
}
_SIMPLE_TYPES: dict[str, type[Action]] = dict(_SIMPLE)
_PER_SPACE: dict[str, Callable[[int, int], Action]] = {
    "triples": ChooseSpace,
    "place": PlaceBuilding,
    "sell": SellBuilding,
    "mortgage": Mortgage,
    "unmortgage": Unmortgage,
    "claim": ClaimRent,
    "build": lambda seat, space: Build(seat, (space,)),
}
_SPACE_TYPES: dict[str, type[Action]] = {
    block: make for block, make in _PER_SPACE.items() if isinstance(make, type)
}
"""The blocks whose action class takes (seat, space) itself (not ``build``'s tuple)."""


CATALOGUE = Catalogue()
SIZE = CATALOGUE.size
MASK_DTYPE = np.dtype(np.int8)


def mask_of(ids: Iterable[int]) -> np.ndarray:
    """The mask the environments give: int8, ``SIZE`` long, 1 at each of ``ids`` (a new
    array each time)."""
    flags = bytearray(SIZE)
    for action_id in ids:
        flags[action_id] = 1
    return np.frombuffer(flags, MASK_DTYPE)
