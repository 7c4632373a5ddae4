"""What the computer players know about a board, and how they value holdings.

:class:`BoardFacts` holds the per-game constants (groups, prices, the rent a group brings
in per opponent turn at each building level) computed once per board and rule set.
:class:`Valuation` turns ownership into money: a group is worth its deeds plus the rent
it can earn over a horizon of rounds (after paying for houses up to a target level),
minus the rent its owner expects to pay on groups that rivals complete.

All rates are *per opponent turn*: ``sum(landings per turn x rent)`` over the group's
spaces (see :mod:`monopoly.bots.landing`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from monopoly.core.board import BOARD_SIZE
from monopoly.core.memo import remember
from monopoly.core.tables import Tables
from monopoly.core.view import ReadOnly

from .landing import landing_frequencies

MEAN_ROLL: Final = 7
NO_CHANGE: dict[int, int] = {}
"""No owner changes (never written to). Lists and dicts rather than abstract types
throughout: the compiled build reads them natively."""
FULL_TABLE: Final = 3
"""Opponents from which on the horizon no longer grows (see ``Valuation.rounds``)."""
TRADES_KEPT: Final = 20_000
"""Remembered trades per valuation (one for all players with its weights, see
:func:`shared_valuation`) before its memos start afresh."""
OPPONENTS_KEPT: Final = 8
"""Numbers of opponents (0-7) whose complete-group values a valuation keeps."""
UNKNOWN: Final = -1.0
"""A value not worked out yet (a complete group's value is never negative: its rent
at level 0 costs nothing to build)."""


def count_active(active: ReadOnly[bool]) -> int:
    """The players still in the game."""
    return active.count(True)


Plan = tuple[int, tuple[int, ...], list[float]]
"""Building one level on a street group evenly: the house cost, its lowest streets by
landing frequency, and the rent the first k of them gain (k = 0, 1, ...)."""


class BoardFacts:
    """What the computer players derive from a board's :class:`Tables` and its landing
    frequencies (shared by every player of that board and rule set)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        board = tables.board
        self.freq = landing_frequencies(board)
        self.rate = [self._level_rates(members) for members in tables.groups]
        self.single_rate = [
            self.freq[s] * tables.rents[s][0] if tables.is_street[s] else 0.0
            for s in range(BOARD_SIZE)
        ]
        self.group_single_rate = [
            sum(self.single_rate[m] for m in members) for members in tables.groups
        ]
        """Per group: the single rates of its streets added up (as ``sum`` adds them)."""
        self.sale_loss = [self._sale_losses(s) for s in range(BOARD_SIZE)]
        """Per street and building level: the rent per landing lost by selling one
        building there (frequency times the drop in rent), worked out once."""
        self.build_gain = [self._build_gains(s) for s in range(BOARD_SIZE)]
        """Per street and building level L: the rent per landing one more building
        there adds (``freq * (rent_at(L + 1) - rent_at(L))``, nothing taken off at L =
        0: the single rent of a group held whole counts as a gain)."""
        self.by_freq = [_most_visited_first(list(members), self.freq) for members in tables.groups]
        """Each group's spaces by landing frequency, highest first, ties in board order."""
        self.build_plans = [self._group_plans(group) for group in range(len(tables.groups))]
        """Per street group: the :data:`Plan` of building on it for each lowest level
        and set of streets at that level, see :meth:`build_plan` (empty for the other
        groups)."""
        self.half_house = [max(1, cost // 2) for cost in tables.house_cost]
        self.half_price = [max(1, price // 2) for price in tables.price]
        """What a sale and a mortgage raise (at least 1: a divisor)."""
        self.valuations: dict[tuple[float, int, float, float], Valuation] = {}
        """The valuations on this board by their weights (see :func:`shared_valuation`)."""

    def _level_rates(self, members: tuple[int, ...]) -> list[float]:
        """Rent per opponent turn of a whole street group with every street at level L
        (L = 0: the doubled base rent of a complete group)."""
        tables = self.tables
        if not tables.is_street[members[0]]:
            return []
        rates = []
        for level in range(tables.hotel_level + 1):
            total = 0.0
            for s in members:
                rent = 2 * tables.rents[s][0] if level == 0 else tables.rent_at(s, level)
                total += self.freq[s] * rent
            rates.append(total)
        return rates

    def _sale_losses(self, space: int) -> list[float]:
        """``freq * (rent_at(level) - rent_at(level - 1))`` for levels 1 to the hotel
        (index 0 unused); empty for a space without rents."""
        tables = self.tables
        if not tables.is_street[space]:
            return []
        return [0.0] + [
            self.freq[space] * (tables.rent_at(space, lvl) - tables.rent_at(space, lvl - 1))
            for lvl in range(1, tables.hotel_level + 1)
        ]

    def _build_gains(self, space: int) -> list[float]:
        tables = self.tables
        if not tables.is_street[space]:
            return []
        return [
            self.freq[space]
            * (tables.rent_at(space, low + 1) - (tables.rent_at(space, low) if low else 0))
            for low in range(tables.hotel_level)
        ]

    def rent_now(
        self, space: int, owner: ReadOnly[int], level: ReadOnly[int], mortgaged: ReadOnly[bool]
    ) -> int:
        """The rent a visitor owes on ``space`` now (utilities: at the mean roll of 7)."""
        holder = owner[space]
        if holder < 0 or mortgaged[space]:
            return 0
        tables = self.tables
        members = tables.members[space]
        if tables.is_street[space]:
            built = level[space]
            if built:
                return tables.rent_at(space, built)
            for other in members:
                if owner[other] != holder or mortgaged[other]:
                    return tables.rents[space][0]
            return 2 * tables.rents[space][0]
        count = 0
        for other in members:
            if owner[other] == holder:
                count += 1
        if tables.is_railroad[space]:
            return tables.railroad_rents[count - 1]
        return MEAN_ROLL * tables.utility_multipliers[count - 1]

    def _group_plans(self, group: int) -> list[Plan]:
        """The plans of a street group by ``low << len(members) | at_low``: its lowest
        level, and the bits (in the group's order) of its streets at that level."""
        tables = self.tables
        members = tables.groups[group]
        if not tables.is_street_group[group]:
            return []
        cost = tables.house_cost[members[0]]
        plans = []
        for low in range(tables.hotel_level + 1):
            for at_low in range(1 << len(members)):
                lowest = [s for i, s in enumerate(members) if at_low >> i & 1]
                # The lowest streets, most visited first, and the rent the first k of
                # them gain (none to build on when they have hotels).
                spaces = (
                    tuple([s for s in self.by_freq[group] if s in lowest])
                    if low < tables.hotel_level
                    else ()
                )
                gains = [0.0]
                for s in spaces:
                    gains.append(gains[-1] + self.build_gain[s][low])
                plans.append((cost, spaces, gains))
        return plans

    def build_plan(self, group: int, level: ReadOnly[int]) -> tuple[int, Plan]:
        """The lowest building level of the street group ``group`` by ``level`` (per
        space), and the :data:`Plan` of building one level more on it evenly."""
        members = self.tables.groups[group]
        low = self.tables.hotel_level
        at_low = 0
        for i in range(len(members)):
            built = level[members[i]]
            if built < low:
                low, at_low = built, 1 << i
            elif built == low:
                at_low |= 1 << i
        return low, self.build_plans[group][low << len(members) | at_low]

    def build_cost(self, group: int, level: int) -> int:
        """What houses up to ``level`` on every street of a group cost."""
        members = self.tables.groups[group]
        return self.tables.house_cost[members[0]] * len(members) * level


class Valuation:
    """Money values of holdings, with a level's parameters.

    ``horizon``: the rounds of rent a holding is credited with; ``target``: the building
    level a complete group is valued at; ``threat``: the share of a rival's complete group's
    rent (over the horizon) counted against us, scaled by :meth:`threat_share` (0: rivals'
    sets are ignored); ``hope``: the
    share of a complete group's value credited to a partial holding nobody else blocks.
    """

    def __init__(
        self, facts: BoardFacts, horizon: float, target: int, threat: float, hope: float
    ) -> None:
        self.facts = facts
        self.horizon = horizon
        self.target = min(target, facts.tables.hotel_level)
        self.threat = threat
        self.hope = hope
        self._complete_values = [[UNKNOWN] * OPPONENTS_KEPT for _ in facts.tables.groups]
        """``complete_value`` by group and number of opponents (UNKNOWN: not yet)."""
        self.alike_memo: dict[Any, Any] = {}
        """Trade valuations by the seats' standing, whoever they are (trading.py)."""
        self.gains_memo: dict[Any, tuple[tuple[int, ...], dict[int, Any]]] = {}
        """Trade valuations by offer, then by the state of the groups it touches (with
        the spaces of those groups), see trading.py."""
        self._touched: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
        self._turns = [self.rounds(n) * n if n else 0.0 for n in range(OPPONENTS_KEPT)]
        """``rounds(n) * n`` by number of opponents n (0: unused), worked out once."""

    def members_touched(self, give: tuple[int, ...], take: tuple[int, ...]) -> tuple[int, ...]:
        """Every space of the groups that deeds ``give`` and ``take`` belong to."""
        key = (give, take)
        members = self._touched.get(key)
        if members is None:
            facts = self.facts
            groups = sorted(
                {facts.tables.group_of[s] for s in give} | {facts.tables.group_of[s] for s in take}
            )
            members = remember(
                self._touched,
                key,
                tuple(s for g in groups for s in facts.tables.groups[g]),
                TRADES_KEPT,
            )
        return members

    def complete_value(self, group: int, opponents: int) -> float:
        """Rent over the horizon of a complete, unbuilt street group, net of building."""
        known = self._complete_values[group]
        if 0 <= opponents < OPPONENTS_KEPT and known[opponents] != UNKNOWN:
            return known[opponents]
        facts = self.facts
        rates = facts.rate[group]
        turns = self.rounds(opponents) * opponents
        value = max(
            turns * rates[level] - facts.build_cost(group, level)
            for level in range(self.target + 1)
        )
        if 0 <= opponents < OPPONENTS_KEPT:
            known[opponents] = value
        return value

    def threat_value(self, group: int, opponents: int = 1) -> float:
        """Rent we expect to pay over the horizon to a rival owning the complete group."""
        rates = self.facts.rate[group]
        return self.threat_share(opponents) * self.rounds(opponents) * rates[self.target]

    def threat_share(self, opponents: int) -> float:
        """The share of a rival's rent that counts against us. With one opponent none:
        the game is zero-sum and a trade's fairness (we gain at least as much as the
        rival) already says everything; with more, a rival's set hurts the others too,
        and it is the rank that counts, so the share shrinks with each opponent."""
        return self.threat * (opponents - 1) / (opponents * opponents)

    def rounds(self, opponents: int) -> float:
        """The horizon in rounds: ``horizon`` with three or more opponents, longer with
        fewer (games between fewer players last more rounds)."""
        return self.horizon * max(1.0, FULL_TABLE / opponents)

    def group_value(
        self,
        group: int,
        seat: int,
        owner: ReadOnly[int],
        mortgaged: ReadOnly[bool],
        opponents: int,
        change: dict[int, int] = NO_CHANGE,
    ) -> float:
        """The worth to ``seat`` of a group's ownership (``change`` overrides owners)."""
        facts = self.facts
        if facts.tables.is_street_group[group]:
            return self._street_value(group, seat, owner, mortgaged, opponents, change)
        members = facts.tables.groups[group]
        mine = 0
        others: dict[int, int] = {}
        assets = 0.0
        for s in members:
            holder = change.get(s, owner[s]) if change else owner[s]
            if holder == seat:
                mine += 1
                price = facts.tables.price[s]
                assets += price * 0.45 if mortgaged[s] else price
            elif holder >= 0:
                others[holder] = others.get(holder, 0) + 1
        turns = self.rounds(opponents) * opponents
        counted = self._count_income(group, mine, turns)
        if self.threat:
            for count in others.values():
                rounds = self.rounds(opponents)
                share = self.threat_share(opponents)
                counted -= share * self._count_income(group, count, rounds)
        return assets + counted

    def _street_value(
        self,
        group: int,
        seat: int,
        owner: ReadOnly[int],
        mortgaged: ReadOnly[bool],
        opponents: int,
        change: dict[int, int],
    ) -> float:
        """:meth:`group_value` of a street group, in one pass over its streets: the deeds
        held, the single rents over the horizon, a share of the complete group's value
        for a holding nobody else blocks, and (with ``threat``) the rent a rival holding
        the whole group would charge. No count per rival is needed: only whether one
        rival holds the whole group matters for a street."""
        facts = self.facts
        members = facts.tables.groups[group]
        size = len(members)
        if 0 < opponents < OPPONENTS_KEPT:
            turns = self._turns[opponents]
        else:
            turns = self.rounds(opponents) * opponents
        mine = 0
        assets = 0.0
        income = 0.0
        held_by_others = 0
        rival = -1
        one_rival = True
        changed = bool(change)
        for s in members:
            holder = change.get(s, owner[s]) if changed else owner[s]
            if holder == seat:
                mine += 1
                price = facts.tables.price[s]
                assets += price * 0.45 if mortgaged[s] else price * 1.0  # a float: native
                income += turns * facts.single_rate[s]
            elif holder >= 0:
                held_by_others += 1
                if rival < 0:
                    rival = holder
                elif holder != rival:
                    one_rival = False
        if mine == size:
            return assets + self.complete_value(group, opponents)
        if mine and not held_by_others:
            income += self.hope * self.complete_value(group, opponents) * mine / size
        if self.threat and held_by_others == size and one_rival:
            income -= self.threat_value(group, opponents)
        return assets + income

    def _count_income(self, group: int, count: int, turns: float) -> float:
        """Railroads and utilities: rent of ``count`` owned, over ``turns``."""
        if not count:
            return 0.0
        facts = self.facts
        members = facts.tables.groups[group]
        mean_freq = sum(facts.freq[s] for s in members) / len(members)
        if facts.tables.is_railroad_group[group]:
            rent = facts.tables.railroad_rents[count - 1]
        else:
            rent = MEAN_ROLL * facts.tables.utility_multipliers[count - 1]
        return turns * mean_freq * count * rent

    def change_value(
        self,
        seat: int,
        owner: ReadOnly[int],
        mortgaged: ReadOnly[bool],
        opponents: int,
        change: dict[int, int],
    ) -> float:
        """How much ``seat`` gains (in money) when the owners in ``change`` take over."""
        group_of = self.facts.tables.group_of
        first = -1
        touched: Iterable[int] = ()
        for s in change:
            group = group_of[s]
            if first < 0:
                first, touched = group, (group,)  # one group, the commonest trade: no set
            elif group != first:
                touched = {group_of[s] for s in change}
                break
        is_street_group = self.facts.tables.is_street_group
        total = 0.0
        for group in touched:
            if is_street_group[group]:  # straight to _street_value: group_value passes it on
                after = self._street_value(group, seat, owner, mortgaged, opponents, change)
                before = self._street_value(group, seat, owner, mortgaged, opponents, NO_CHANGE)
            else:
                after = self.group_value(group, seat, owner, mortgaged, opponents, change)
                before = self.group_value(group, seat, owner, mortgaged, opponents)
            total += after - before
        return total


def shared_valuation(
    facts: BoardFacts, horizon: float, target: int, threat: float, hope: float
) -> Valuation:
    """The :class:`Valuation` with these weights on this board, one for every player
    that values with them, in this game and the next ones. Its values depend only on
    the weights and the holdings asked about, so what one player worked out serves the
    others: above all a trade's gains, which the proposer and then the partner weigh,
    and which come back in game after game."""
    key = (horizon, target, threat, hope)
    valuation = facts.valuations.get(key)
    if valuation is None:
        valuation = facts.valuations[key] = Valuation(facts, horizon, target, threat, hope)
    return valuation


def _most_visited_first(spaces: list[int], freq: tuple[float, ...]) -> tuple[int, ...]:
    """``spaces`` by landing frequency, highest first, ties in their order: what
    ``sorted(spaces, key=lambda s: -freq[s])`` gives, by insertion into a list of a few
    streets (sorting with a key function calls back into Python for every street)."""
    ordered: list[int] = []
    for s in spaces:
        i = len(ordered)
        while i and freq[ordered[i - 1]] < freq[s]:
            i -= 1
        ordered.insert(i, s)
    return tuple(ordered)
