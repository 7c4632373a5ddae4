"""The *easy* computer player: plays like a beginner.

It buys what it lands on if it keeps a small reserve, bids at most the printed price,
builds one house at a time when it has plenty of cash, never offers trades and accepts
one only when it clearly gains and gives nobody a set, pays its way out of jail when it
has the money, and raises cash by mortgaging first (cheapest deed first), selling houses
last.
"""

from __future__ import annotations

from collections.abc import Sequence

from monopoly.core.actions import Action, Build, Mortgage, ProposeTrade, SellBuilding, UseJailCard
from monopoly.core.state import Decision
from monopoly.core.view import PlayerView

from .player import LevelPlayer

RESERVE = 100
BUILD_CASH = 500
JAIL_CASH = 250


class EasyBot(LevelPlayer):
    """A beginner: buys with a small reserve, builds a little, never proposes trades."""

    def cash_reserve(self, view: PlayerView, seat: int) -> int:
        return RESERVE

    def turn_actions(self, view: PlayerView, seat: int) -> Action | None:
        cash = view.cash[seat]
        if cash < BUILD_CASH:
            return None
        build = self.build_action(view, seat, cash - BUILD_CASH, self.facts.tables.hotel_level)
        if isinstance(build, Build) and len(build.spaces) > 1:
            return Build(seat, build.spaces[:1])  # one house at a time
        return build

    def jail(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        for action in legal:
            if isinstance(action, UseJailCard):
                return action
        if len(legal) > 1 and view.cash[decision.seat] >= JAIL_CASH:
            return legal[1]
        return legal[0]

    def buy(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        price = self.facts.tables.price[decision.space]
        if len(legal) == 2 and view.cash[decision.seat] - price >= RESERVE:
            return legal[0]
        return legal[-1]

    def bid_ceiling(self, view: PlayerView, decision: Decision) -> int:
        facts = self.facts
        assert facts is not None
        cash = view.cash[decision.seat] - RESERVE
        if decision.space < 0:
            return 0
        return min(cash, facts.tables.price[decision.space] * 3 // 4)

    def cheapest_cash(self, view: PlayerView, seat: int) -> Action | None:
        """Mortgage the cheapest deed it can; sell houses only when nothing is left."""
        facts = self.facts
        assert facts is not None
        owner, level, mortgaged = view.owner, view.level, view.mortgaged
        sale: Action | None = None
        for s in sorted(facts.tables.properties, key=lambda s: facts.tables.price[s]):
            if owner[s] != seat:
                continue
            group = facts.tables.groups[facts.tables.group_of[s]]
            if not mortgaged[s] and not any(level[m] for m in group):
                return Mortgage(seat, s)
            if sale is None and level[s] and level[s] == max(level[m] for m in group):
                sale = SellBuilding(seat, s)
        return sale

    def answer_trade(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        offer: ProposeTrade = decision.data
        if len(legal) == 1 or any(self._completes(view, offer.seat, s) for s in offer.take):
            return legal[-1]
        facts = self.facts
        assert facts is not None
        given = sum(facts.tables.price[s] for s in offer.take) + offer.take_cash
        received = sum(facts.tables.price[s] for s in offer.give) + offer.give_cash
        return legal[0] if received >= 1.5 * given + 50 else legal[-1]
