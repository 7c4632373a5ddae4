"""The *hard* computer player: decisions by value.

* Colour groups are valued by their return: rent per opponent turn from the long-run
  landing frequencies (:mod:`monopoly.bots.landing`), over a horizon of rounds, after
  paying for houses up to three (where the rent jump makes them pay).
* The cash reserve follows the danger on the board: the highest rent a rival could
  charge on the next roll (and a share of the highest anywhere).
* It buys and bids up to its valuation: what owning the property is worth against a
  rival owning it (so blocking a rival's set counts); in building-shortage auctions, the
  rent one more building brings.
* It builds evenly to three houses on its best-paying groups; beyond that only from
  surplus cash; it mortgages idle deeds to afford the first houses.
* It offers trades that complete its sets with the gain split evenly, and accepts a
  trade only if it gains at least as much as the proposer (both by its valuation,
  which counts the rent a rival's new set would cost it).
* It leaves jail early while properties are unowned, and stays late when the board is
  dangerous.
"""

from __future__ import annotations

from collections.abc import Sequence

from monopoly.core.actions import Action, Mortgage, ProposeTrade, UseJailCard
from monopoly.core.board import BOARD_SIZE
from monopoly.core.memo import CounterMemo
from monopoly.core.state import Decision
from monopoly.core.view import PlayerView

from .normal import NormalBot
from .trading import counter_offer, is_fair_for

DANGER_SHARE_ANYWHERE = 0.25
RESERVE_FLOOR = 60
RICH_MARGIN = 400
"""Cash above the reserve needed before building beyond the target level."""
LIFT_DELAY_TURNS = 10
SAFE_TURN_RENT = 12.0
"""Expected rent per turn outside jail above which a late-game player stays in jail."""
EARLY_UNOWNED = 5


class HardBot(NormalBot):
    """Values groups by their return; reserve, bids, trades and jail by the board."""

    horizon = 8.0
    threat = 0.6
    hope = 0.25
    target_level = 3
    swaps = True
    first_share = 0.8

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._rents: CounterMemo[tuple[list[int], int, float]] = CounterMemo(([], 0, 0.0))
        """By ``deeds_version`` and ``buildings_version``: the rent rivals charge the seat
        on each space, its highest and its mean per turn."""
        self._mortgaged_at: dict[int, int] = {}
        self._countered: set[tuple[int, tuple[int, ...], tuple[int, ...]]] = set()
        """Offers already answered with a counter-offer (answered once only)."""

    def start_game(self, view: PlayerView) -> None:
        super().start_game(view)
        self._rents.forget()
        self._mortgaged_at = {}
        self._countered = set()

    # ------------------------------------------------------------------ the reserve
    def cash_reserve(self, view: PlayerView, seat: int) -> int:
        """The highest rent a rival could charge on the next roll, plus a share of the
        highest rent anywhere (the rolls after): cash to keep at hand."""
        rents, peak, _per_turn = self.rival_rents(view, seat)
        start = view.position[seat]
        nearby = 0
        for step in range(2, 13):
            rent = rents[(start + step) % BOARD_SIZE]
            if rent > nearby:
                nearby = rent
        return max(RESERVE_FLOOR, nearby + int(DANGER_SHARE_ANYWHERE * peak))

    def rival_rents(self, view: PlayerView, seat: int) -> tuple[list[int], int, float]:
        """The rent rivals charge ``seat`` on each space now, its highest and its mean per
        turn (kept until the board changes: owners, buildings or mortgages)."""
        deeds, buildings = view.deeds_version, view.buildings_version
        memo = self._rents
        if memo.holds(view, seat, deeds, buildings):
            return memo.answer
        owner, level, mortgaged = view.owner, view.level, view.mortgaged
        facts = self.facts
        assert facts is not None
        rents = [0] * BOARD_SIZE
        for s in facts.tables.properties:
            if owner[s] >= 0 and owner[s] != seat:
                rents[s] = facts.rent_now(s, owner, level, mortgaged)
        per_turn = sum(f * r for f, r in zip(facts.freq, rents, strict=True))
        return memo.keep(view, seat, deeds, buildings, 0, (rents, max(rents), per_turn))

    def expected_rent_per_turn(self, view: PlayerView, seat: int) -> float:
        """What a turn on the board costs in rent, on average."""
        return self.rival_rents(view, seat)[2]

    # ------------------------------------------------------------------ before rolling
    def turn_actions(self, view: PlayerView, seat: int) -> Action | None:
        facts = self.facts
        assert facts is not None
        reserve = self.cash_reserve(view, seat)
        cash = view.cash[seat]
        spare = cash - reserve
        if spare > 0:
            build = self.build_action(view, seat, spare, self.target_level)
            if build is None and spare > RICH_MARGIN:
                build = self.build_action(view, seat, spare - RICH_MARGIN, facts.tables.hotel_level)
            if build is not None:
                return build
        funding = self.mortgage_to_build(view, seat, spare)
        if funding is not None:
            return funding
        if spare > 100 and not self._wants_houses(view, seat):
            lift = self.unmortgage_action(view, seat, spare - 100)
            if lift is not None:
                return lift
        return self.propose_trade(view, seat, spare)

    def _wants_houses(self, view: PlayerView, seat: int) -> bool:
        facts = self.facts
        assert facts is not None
        level = view.level
        if not view.bank_houses:
            return False
        for group in self.complete_groups(view, seat):
            if min(level[s] for s in facts.tables.groups[group]) < self.target_level:
                return True
        return False

    def mortgage_to_build(self, view: PlayerView, seat: int, spare: int) -> Action | None:
        """Mortgage an idle deed (not in a complete group) to afford houses below three."""
        facts = self.facts
        assert facts is not None
        if not self._wants_houses(view, seat):
            return None
        groups = self.complete_groups(view, seat)
        cheapest = min(facts.tables.house_cost[facts.tables.groups[g][0]] for g in groups)
        if spare >= cheapest:
            return None
        owner, mortgaged, level = view.owner, view.mortgaged, view.level
        whole = {s for g in groups for s in facts.tables.groups[g]}
        best, best_cost = -1, 0.0
        for s in facts.tables.properties:
            if owner[s] != seat or mortgaged[s] or s in whole:
                continue
            if any(level[m] for m in facts.tables.groups[facts.tables.group_of[s]]):
                continue
            cost = self.mortgage_cost(view, seat, s) / max(1, facts.tables.price[s] // 2)
            if best < 0 or cost < best_cost:
                best, best_cost = s, cost
        if best < 0:
            return None
        self._mortgaged_at[best] = view.turn
        return Mortgage(seat, best)

    def lift_candidates(self, view: PlayerView, seat: int) -> list[int]:
        turn = view.turn
        return [
            s
            for s in super().lift_candidates(view, seat)
            if turn - self._mortgaged_at.get(s, -LIFT_DELAY_TURNS) >= LIFT_DELAY_TURNS
        ]

    # ------------------------------------------------------------------ decisions
    def wants_to_leave_jail(self, view: PlayerView, seat: int) -> bool:
        if self.unowned(view) >= EARLY_UNOWNED:
            return True
        return self.expected_rent_per_turn(view, seat) < SAFE_TURN_RENT

    def jail(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        if self.wants_to_leave_jail(view, decision.seat):
            for action in legal:
                if isinstance(action, UseJailCard):
                    return action
            if len(legal) > 1 and view.cash[decision.seat] - 50 >= RESERVE_FLOOR:
                return legal[1]
        return legal[0]

    def value_of(self, view: PlayerView, seat: int, space: int) -> int:
        """What owning the unowned ``space`` is worth to ``seat`` against the rival who
        would profit most from it: the most this player pays for it."""
        if view.board is not self._board:
            self.prepare(view)
        facts = self.facts
        valuation = self.valuation
        owner, mortgaged = view.owner, view.mortgaged
        opponents = self.opponents(view)
        group = facts.tables.group_of[space]
        mine = valuation.group_value(group, seat, owner, mortgaged, opponents, {space: seat})
        worst = mine
        for rival in view.active_seats():
            if rival != seat:
                theirs = valuation.group_value(
                    group, seat, owner, mortgaged, opponents, {space: rival}
                )
                worst = min(worst, theirs)
        return int(mine - worst)

    def buy(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        seat, space = decision.seat, decision.space
        price = self.facts.tables.price[space]
        cash = view.cash[seat]
        if cash - price >= self.cash_reserve(view, seat):
            return legal[0]
        worth = self.value_of(view, seat, space)
        if worth >= price and view.raisable(seat) - price >= self.cash_reserve(view, seat):
            return legal[0]
        return legal[1]

    def bid_ceiling(self, view: PlayerView, decision: Decision) -> int:
        seat, space = decision.seat, decision.space
        cash = view.cash[seat]
        floor = RESERVE_FLOOR
        if space < 0:
            return min(self.building_value(view, seat, decision.data.shortage.hotel), cash - floor)
        return min(self.value_of(view, seat, space), cash - floor)

    def building_value(self, view: PlayerView, seat: int, hotel: bool) -> int:
        """A building won at a shortage auction: the rent it adds on the best street."""
        facts = self.facts
        assert facts is not None
        level, owner = view.level, view.owner
        per_hotel = facts.tables.hotel_level - 1
        opponents = self.opponents(view)
        turns = self.valuation.rounds(opponents) * opponents
        best = 0.0
        for group in self.complete_groups(view, seat):
            members = facts.tables.groups[group]
            low = min(level[s] for s in members)
            for s in members:
                lvl = level[s]
                if owner[s] != seat or lvl != low or (lvl == per_hotel) != hotel:
                    continue
                if lvl >= facts.tables.hotel_level:
                    continue
                gain = facts.freq[s] * (
                    facts.tables.rent_at(s, lvl + 1) - facts.tables.rent_at(s, lvl)
                )
                best = max(best, turns * gain)
        return int(best)

    def answer_trade(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        offer: ProposeTrade = decision.data
        seat = decision.seat
        if is_fair_for(self.valuation, view, offer) and self._affordable(view, seat, offer):
            return legal[0]
        key = (offer.seat, offer.give, offer.take)
        if key not in self._countered:
            self._countered.add(key)
            spare = view.cash[seat] - self.cash_reserve(view, seat)
            counter = counter_offer(self.valuation, view, offer, spare)
            if counter is not None and view.is_legal(counter):
                return counter
        return legal[-1]

    def mortgage_received(
        self, view: PlayerView, decision: Decision, legal: Sequence[Action]
    ) -> Action:
        return super().mortgage_received(view, decision, legal)
