"""The shared machinery of the computer-player levels (easy, normal, hard).

:class:`LevelPlayer` answers every decision kind by dispatching to one method per kind;
the levels override the methods whose judgement differs. Before rolling (or choosing a
way out of jail) a player may take free actions — claim rent, build, lift a mortgage,
propose a trade — one at a time; the game then asks again. At most
``MAX_FREE_ACTIONS`` free actions are taken per decision, so no level can loop.

Speed: nothing is copied and the game's lists are read through the view; the per-game
constants (groups, rents per landing, valuations) live on :class:`BoardFacts`, computed
once per board and rule set and shared by all bots.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final

from monopoly.core.actions import (
    SEATS,
    Action,
    Build,
    ChooseSpace,
    ClaimRent,
    DeclareBankruptcy,
    DeclareWant,
    Mortgage,
    SellBuilding,
    Unmortgage,
)
from monopoly.core.auction import bid_of
from monopoly.core.board import BOARD_SIZE, SpaceKind
from monopoly.core.memo import CounterMemo, remember
from monopoly.core.state import (
    BID,
    BREAKDOWN,
    BUS,
    BUY,
    JAIL,
    MORTGAGE_RECEIVED,
    PLACE,
    RAISE_CASH,
    ROLL,
    TRADE,
    TRIPLES,
    WANT,
    Decision,
    for_every_kind,
)
from monopoly.core.tables import Tables
from monopoly.core.view import PlayerView, ReadOnly

from .valuation import BoardFacts, Plan, count_active

MAX_FREE_ACTIONS: Final = 40
NEVER: Final = 1 << 40
"""A cost no player can pay."""
HANDLERS: Final = for_every_kind(
    {
        ROLL: "roll",
        JAIL: "jail",
        BUY: "buy",
        BID: "bid",
        RAISE_CASH: "raise_cash",
        MORTGAGE_RECEIVED: "mortgage_received",
        TRADE: "answer_trade",
        BUS: "bus",
        TRIPLES: "triples",
        WANT: "want",
        PLACE: "place",
        BREAKDOWN: "breakdown",
    },
    "the computer players (LevelPlayer)",
)
"""The method answering each decision kind, by name: a player holding its own bound
methods would be a reference cycle, keeping every game it played (and its record) alive
until the cyclic collector found it."""
Handler = Callable[[PlayerView, Decision, Sequence[Action]], Action]
_FACTS: Final[dict[Tables, BoardFacts]] = {}


def facts_for(view: PlayerView) -> BoardFacts:
    """What the players derive from the view's board and rules (worked out once)."""
    facts = _FACTS.get(view.tables)
    if facts is None:
        facts = _FACTS[view.tables] = BoardFacts(view.tables)
    return facts


# Actions made once and reused: they are immutable values, and a frozen dataclass is dear
# to make (its ``__init__`` runs in Python even when compiled: a few thousand instructions).
_TABLE_SEATS: Final = len(SEATS)
_SALES: Final[list[SellBuilding | None]] = [None] * (_TABLE_SEATS * BOARD_SIZE)
_MORTGAGES: Final[list[Mortgage | None]] = [None] * (_TABLE_SEATS * BOARD_SIZE)
_LIFTS: Final[list[Unmortgage | None]] = [None] * (_TABLE_SEATS * BOARD_SIZE)
_BUILDS: Final[dict[tuple[int, tuple[int, ...]], Build]] = {}


def _sale(seat: int, space: int) -> SellBuilding:
    """``SellBuilding(seat, space)``, made once (the look-up inline: no extra call)."""
    if 0 <= seat < _TABLE_SEATS and 0 <= space < BOARD_SIZE:
        i = seat * BOARD_SIZE + space
        made = _SALES[i]
        if made is None:
            made = _SALES[i] = SellBuilding(seat, space)
        return made
    return SellBuilding(seat, space)


def _mortgage(seat: int, space: int) -> Mortgage:
    """``Mortgage(seat, space)``, made once."""
    if 0 <= seat < _TABLE_SEATS and 0 <= space < BOARD_SIZE:
        i = seat * BOARD_SIZE + space
        made = _MORTGAGES[i]
        if made is None:
            made = _MORTGAGES[i] = Mortgage(seat, space)
        return made
    return Mortgage(seat, space)


def _lift(seat: int, space: int) -> Unmortgage:
    """``Unmortgage(seat, space)``, made once."""
    if 0 <= seat < _TABLE_SEATS and 0 <= space < BOARD_SIZE:
        i = seat * BOARD_SIZE + space
        made = _LIFTS[i]
        if made is None:
            made = _LIFTS[i] = Unmortgage(seat, space)
        return made
    return Unmortgage(seat, space)


def _build(seat: int, spaces: tuple[int, ...]) -> Build:
    key = (seat, spaces)
    made = _BUILDS.get(key)
    if made is None:
        made = remember(_BUILDS, key, Build(seat, spaces), 10_000)
    return made


class LevelPlayer:
    """Base of the levels: decision dispatch, claims, cash raising, Bus/triples/shortages."""

    def __init__(self, seed: int = 0) -> None:
        self._seed = seed
        self._rng: random.Random | None = None
        self.facts: BoardFacts  # set by prepare() at the first decision
        self._board: object = None
        self._free_actions = 0
        # What is worked out from the board for a seat, kept by the game's counters.
        self._complete: CounterMemo[list[int]] = CounterMemo([])
        """By the seat's ``holdings_version``: :meth:`complete_groups`."""
        self._least: CounterMemo[tuple[int, int]] = CounterMemo((NEVER, NEVER))
        """By the seat's ``holdings_version``: :meth:`least_costs`."""
        self._plans: CounterMemo[list[Plan]] = CounterMemo([])
        """By the seat's ``holdings_version``, ``buildings_version`` and the highest
        level: :meth:`_build_plans`."""

    @property
    def rng(self) -> random.Random:
        """The player's own generator, seeded with its seed at the first use: the levels
        play without chance, and seeding a generator costs as much as a dozen decisions
        (the simulator makes four players per game)."""
        if self._rng is None:
            self._rng = random.Random(self._seed)
        return self._rng

    # ------------------------------------------------------------------ the interface
    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        decision = view.decision
        assert decision is not None
        return self.answer(view, decision, legal)

    def answer(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        """:meth:`decide` with the pending ``decision`` given (the simulator's loop has
        it at hand)."""
        if view.board is not self._board:
            self.prepare(view)
        kind = decision.kind
        turn_start = kind is ROLL or kind is JAIL
        if (turn_start or view.claims) and self._free_actions < MAX_FREE_ACTIONS:
            # A free action first: claim rent; before rolling, build, lift or trade.
            extra = self._claim(view, decision.seat) if view.claims else None
            if extra is None and turn_start:
                extra = self.turn_actions(view, decision.seat)
            if extra is not None:
                self._free_actions += 1
                return extra
        self._free_actions = 0
        # The commonest kinds by direct calls; the others through the table by name.
        if kind is ROLL:
            return self.roll(view, decision, legal)
        if kind is BUY:
            return self.buy(view, decision, legal)
        if kind is BID:
            return self.bid(view, decision, legal)
        if kind is RAISE_CASH:
            return self.raise_cash(view, decision, legal)
        if kind is JAIL:
            return self.jail(view, decision, legal)
        handler: Handler = getattr(self, HANDLERS[kind])
        return handler(view, decision, legal)

    def interject(self, view: PlayerView) -> Action | None:
        """A free action while another seat decides: only claiming rent (R-RENT-5)."""
        return self._claim(view, view.seat) if view.claims else None

    def prepare(self, view: PlayerView) -> None:
        """Learn the board and rules of the view's game (done by the first ``decide``)."""
        self._board = view.board
        self.facts = facts_for(view)
        self.start_game(view)

    def start_game(self, view: PlayerView) -> None:
        """Hook: set up per-game caches (the board may differ from the last game)."""

    @staticmethod
    def _claim(view: PlayerView, seat: int) -> Action | None:
        for owner, _payer, space, _amount in view.claims:
            if owner == seat:
                return ClaimRent(seat, space)
        return None

    # ------------------------------------------------------------------ hooks per decision
    def turn_actions(self, view: PlayerView, seat: int) -> Action | None:
        """Free actions before rolling (build, lift mortgages, trade); None: roll now."""
        return None

    def roll(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        return legal[0]  # the one answer

    def jail(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        return legal[0]  # roll for doubles

    def buy(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        return legal[-1]  # decline

    def bid(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        low, high = view.bid_range()
        ceiling = min(self.bid_ceiling(view, decision), high)
        if low > ceiling:
            return legal[0]  # pass
        step = max(
            1, (self.facts.tables.price[decision.space] if decision.space >= 0 else 50) // 10
        )
        return bid_of(decision.seat, min(low + step - 1, ceiling))

    def bid_ceiling(self, view: PlayerView, decision: Decision) -> int:
        """The most this player pays for the item auctioned (a space, or a building)."""
        return 0

    def raise_cash(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        """Raise cash by the cheapest sale or mortgage; bankrupt only when nothing helps."""
        if legal:
            return legal[0]  # DeclareBankruptcy is listed only when nothing can pay
        seat = decision.seat
        best = self.cheapest_cash(view, seat)
        return best if best is not None else DeclareBankruptcy(seat)

    def mortgage_received(
        self, view: PlayerView, decision: Decision, legal: Sequence[Action]
    ) -> Action:
        return legal[-1]  # keep it mortgaged

    def answer_trade(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        return legal[-1]  # reject

    def bus(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        seat = decision.seat
        start = view.position[seat]

        def score(action: Action) -> float:
            steps: int = action.steps  # type: ignore[attr-defined]
            return self.space_score(view, seat, (start + steps) % BOARD_SIZE)

        return max(legal, key=score)

    def triples(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        seat = decision.seat
        start = view.position[seat]
        best = max(
            range(BOARD_SIZE), key=lambda s: self.space_score(view, seat, s, passes_go=s < start)
        )
        return ChooseSpace(seat, best)

    def want(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        hotel: bool = decision.data.hotel
        count = self.buildings_wanted(view, decision.seat, hotel)
        return DeclareWant(decision.seat, max(0, min(count, len(legal) - 1)))

    def place(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        facts = self.facts
        assert facts is not None
        level = view.level
        return max(
            legal,
            key=lambda a: (
                facts.freq[a.space]  # type: ignore[attr-defined]
                * (
                    facts.tables.rent_at(a.space, level[a.space] + 1)  # type: ignore[attr-defined]
                    - facts.tables.rent_at(a.space, level[a.space])  # type: ignore[attr-defined]
                )
            ),
        )

    def breakdown(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        """R-BUILD-4: keep the buildings where they earn the most rent."""
        facts = self.facts
        group = facts.tables.board.groups[facts.tables.board.spaces[decision.space].group]

        def expected_rent(action: Action) -> float:
            levels: tuple[int, ...] = action.levels  # type: ignore[attr-defined]
            return sum(
                facts.freq[s] * facts.tables.rent_at(s, level)
                for s, level in zip(group, levels, strict=True)
            )

        return max(legal, key=expected_rent)

    # ------------------------------------------------------------------ shared judgement
    def space_score(
        self, view: PlayerView, seat: int, space: int, passes_go: bool = False
    ) -> float:
        """How good it is to end a move on ``space`` (Bus and triples choices)."""
        facts = self.facts
        assert facts is not None
        deed = facts.tables.board.spaces[space]
        score = float(facts.tables.board.go_salary) if passes_go else 0.0
        kind = deed.kind
        if deed.is_property:
            holder = view.owner[space]
            if holder < 0:
                if deed.price <= view.cash[seat]:
                    score += deed.price * 0.5 + 100 * self._completes(view, seat, space)
            elif holder != seat:
                score -= facts.rent_now(space, view.owner, view.level, view.mortgaged)
        elif kind == SpaceKind.TAX:
            score -= deed.tax
        elif kind == SpaceKind.GO_TO_JAIL:
            score -= 60
        return score

    def _completes(self, view: PlayerView, seat: int, space: int) -> int:
        """1 if owning ``space`` would give ``seat`` its whole group, else 0."""
        facts = self.facts
        assert facts is not None
        owner = view.owner
        for other in facts.tables.groups[facts.tables.group_of[space]]:
            if other != space and owner[other] != seat:
                return 0
        return 1

    def buildings_wanted(self, view: PlayerView, seat: int, hotel: bool) -> int:
        """Building shortage: how many buildings of the kind this player would take."""
        facts = self.facts
        assert facts is not None
        per_hotel = facts.tables.hotel_level - 1
        count = 0
        level, owner = view.level, view.owner
        for group in self.complete_groups(view, seat):
            for s in facts.tables.groups[group]:
                if (
                    owner[s] == seat
                    and (level[s] == per_hotel) == hotel
                    and level[s] < facts.tables.hotel_level
                ):
                    count += 1
        spare = view.cash[seat] - self.cash_reserve(view, seat)
        cost = (
            facts.tables.house_cost[facts.tables.groups[self.complete_groups(view, seat)[0]][0]]
            if count
            else 1
        )
        return min(count, max(0, spare // max(1, cost)))

    def cash_reserve(self, view: PlayerView, seat: int) -> int:
        return 150

    def complete_groups(self, view: PlayerView, seat: int) -> list[int]:
        """The street groups ``seat`` owns whole with no street mortgaged."""
        facts = self.facts
        assert facts is not None
        version = view.holdings_version[seat]
        memo = self._complete
        if memo.holds(view, seat, version):
            return memo.answer  # the seat's deeds and mortgages are as they were
        owner, mortgaged = view.owner, view.mortgaged
        result = []
        for group in facts.tables.street_groups:
            for s in facts.tables.groups[group]:
                if owner[s] != seat or mortgaged[s]:
                    break
            else:
                result.append(group)
        return memo.keep(view, seat, version, 0, 0, result)

    def cheapest_cash(self, view: PlayerView, seat: int) -> Action | None:
        """The sale or mortgage that costs least per unit of cash raised: a sale loses
        half the building's cost and its rent (:meth:`sale_loss`), a mortgage the 10 %
        to lift it and the rent meanwhile (:meth:`mortgage_loss`), each over
        ``cash_horizon`` rounds."""
        facts = self.facts
        level, mortgaged = view.level, view.mortgaged
        turns = self.cash_horizon * self.opponents(view)
        best: Action | None = None
        best_cost = 0.0
        for s in view.deeds[seat]:
            if mortgaged[s]:
                continue  # nothing to sell or mortgage on it
            highest = _highest_level(level, facts.tables.groups[facts.tables.group_of[s]])
            if level[s]:  # sell a building: only from the highest level of the group
                if level[s] < highest:
                    continue
                action: Action = _sale(seat, s)
                cost = self.sale_loss(view, s, turns) / facts.half_house[s]
            elif highest:
                continue  # no mortgage in a group with buildings
            else:
                action = _mortgage(seat, s)
                cost = self.mortgage_loss(view, seat, s, turns) / facts.half_price[s]
            if best is None or cost < best_cost:
                best, best_cost = action, cost
        return best

    def sale_loss(self, view: PlayerView, space: int, turns: float) -> float:
        """What selling a building on ``space`` loses over ``turns`` opponent turns: half
        its cost, and the rent of its level meanwhile."""
        facts = self.facts
        return (
            facts.tables.house_cost[space] / 2 + turns * facts.sale_loss[space][view.level[space]]
        )

    def mortgage_cost(self, view: PlayerView, seat: int, space: int) -> float:
        """What mortgaging ``space`` loses over ``cash_horizon`` rounds."""
        return self.mortgage_loss(view, seat, space, self.cash_horizon * self.opponents(view))

    def mortgage_loss(self, view: PlayerView, seat: int, space: int, turns: float) -> float:
        """What mortgaging ``space`` loses over ``turns`` opponent turns: the 10 % to
        lift it and the rent meanwhile."""
        value = self.facts.tables.price[space] // 2
        return value / 10 + turns * self.rent_lost_by_mortgage(view, seat, space)

    cash_horizon = 5.0
    """Rounds a property stays mortgaged or a building sold, for costing cash raising."""

    def rent_lost_by_mortgage(self, view: PlayerView, seat: int, space: int) -> float:
        """Rent per opponent turn lost by mortgaging ``space``."""
        facts = self.facts
        assert facts is not None
        group = facts.tables.group_of[space]
        members = facts.tables.groups[group]
        owner, mortgaged = view.owner, view.mortgaged
        if not facts.tables.is_street_group[group]:
            count = 0
            for m in members:
                if owner[m] == seat:
                    count += 1
            rents = facts.tables.railroad_rents if facts.tables.is_railroad_group[group] else None
            rent = (
                rents[count - 1]
                if rents
                else MEAN_UTILITY_ROLL * facts.tables.utility_multipliers[count - 1]
            )
            return facts.freq[space] * rent
        for m in members:
            if owner[m] != seat or mortgaged[m]:
                return facts.single_rate[space]
        # the whole group: the doubled rent goes on every street of it
        return sum(facts.single_rate[m] for m in members) + facts.single_rate[space]

    @staticmethod
    def opponents(view: PlayerView) -> int:
        return max(1, count_active(view.active) - 1)

    def least_costs(self, view: PlayerView, seat: int) -> tuple[int, int]:
        """(the cheapest house on a complete group of ``seat``, the cheapest of its
        mortgages to lift), ``NEVER`` for none: with less to spend, no building plan and
        no lift can come up (:meth:`build_action`, :meth:`unmortgage_action`). Asked at
        every roll, so kept by the seat's ``holdings_version``."""
        version = view.holdings_version[seat]
        memo = self._least
        if memo.holds(view, seat, version):
            return memo.answer
        facts = self.facts
        build_from = lift_from = NEVER
        for group in self.complete_groups(view, seat):
            cost = facts.tables.house_cost[facts.tables.groups[group][0]]
            if cost < build_from:
                build_from = cost
        for space in self.lift_candidates(view, seat):
            if facts.tables.lift_cost[space] < lift_from:
                lift_from = facts.tables.lift_cost[space]
        return memo.keep(view, seat, version, 0, 0, (build_from, lift_from))

    def lift_candidates(self, view: PlayerView, seat: int) -> list[int]:
        """The seat's mortgaged properties."""
        mortgaged = view.mortgaged
        return [s for s in view.deeds[seat] if mortgaged[s]]

    def unmortgage_action(self, view: PlayerView, seat: int, spare: int) -> Action | None:
        """Lift the mortgage that restores most rent, if it costs no more than ``spare``."""
        facts = self.facts
        assert facts is not None
        best: int = -1
        best_gain = -1.0
        for s in self.lift_candidates(view, seat):
            if facts.tables.lift_cost[s] > spare:
                continue
            gain = self.rent_lost_by_mortgage(view, seat, s) + 0.001 * s
            if gain > best_gain:
                best, best_gain = s, gain
        return _lift(seat, best) if best >= 0 else None

    def build_action(
        self, view: PlayerView, seat: int, budget: int, max_level: int
    ) -> Action | None:
        """One level on the lowest streets of the best-paying complete group, evenly,
        within ``budget`` and up to ``max_level``; None when nothing pays or is legal."""
        plans = self._build_plans(view, seat, max_level)
        if not plans:
            return None
        best: tuple[int, ...] = ()
        best_return = 0.0
        for cost, spaces, gains in plans:
            affordable = min(budget // max(1, cost), len(spaces))
            if not affordable:
                continue
            ratio = gains[affordable] / (cost * affordable)
            if ratio > best_return:
                best, best_return = spaces[:affordable], ratio
        if not best:
            return None
        facts = self.facts
        level = view.level
        stock = (
            view.bank_hotels if level[best[0]] == facts.tables.hotel_level - 1 else view.bank_houses
        )
        best = best[: max(0, stock)]
        if not best:
            return None
        action = _build(seat, best)
        return action if view.is_legal(action) else None

    def _build_plans(self, view: PlayerView, seat: int, max_level: int) -> list[Plan]:
        """Per complete group below ``max_level``: the house cost, its lowest streets by
        landing frequency, and the rent the first k of them gain (k = 0, 1, ...). Only
        the complete groups and their buildings matter: kept until one of them changes."""
        holdings, buildings = view.holdings_version[seat], view.buildings_version
        memo = self._plans
        if memo.holds(view, seat, holdings, buildings, max_level):
            return memo.answer  # none of the seat's deeds and no building changed since
        groups = self.complete_groups(view, seat)
        if not groups:
            return []
        facts, level = self.facts, view.level
        plans = []
        for group in groups:
            low, plan = facts.build_plan(group, level)
            if low < max_level:
                plans.append(plan)
        return memo.keep(view, seat, holdings, buildings, max_level, plans)


def _highest_level(level: ReadOnly[int], members: tuple[int, ...]) -> int:
    """The highest building level on the spaces ``members``."""
    highest = 0
    for member in members:
        here = level[member]
        if here > highest:
            highest = here
    return highest


MEAN_UTILITY_ROLL = 7
