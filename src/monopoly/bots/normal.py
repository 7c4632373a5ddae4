"""The *normal* computer player: sound, simple heuristics.

It buys what it can afford above a fixed reserve (or what completes a set), bids up to
a value (more for a set it would complete or block), builds on its monopolies while it
keeps the reserve, raises cash by the sale or mortgage that costs it least, leaves jail
while many properties are unowned, and offers cash for the last streets of its sets. It
judges trades by its own gain only (it does not weigh what its rivals gain).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from monopoly.core.actions import Action, ProposeTrade, Unmortgage, UseJailCard
from monopoly.core.memo import CounterMemo
from monopoly.core.state import Decision
from monopoly.core.view import PlayerView

from .manners import OfferMemory
from .player import LevelPlayer
from .trading import Candidate, offer_gains, set_offers, trade_groups, unbuilt
from .valuation import Valuation, shared_valuation

TRADE_RETRY_TURNS: Final = 15
TRADE_ATTEMPTS: Final = 3


class NormalBot(LevelPlayer):
    """Sound heuristics with a fixed cash reserve."""

    reserve = 150
    horizon = 10.0
    threat = 0.0
    hope = 0.2
    target_level = 3
    swaps = False
    first_share = 0.5
    """The share of a trade's joint gain a first offer keeps (0.5: an even split)."""
    leave_jail_unowned = 6

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.valuation: Valuation  # set by start_game()
        self._offered: dict[tuple[int, tuple[int, ...]], tuple[int, int]] = {}
        self.manners = OfferMemory()
        """The offers made this game: none made again unless something changed."""
        self._trade_turn = -1
        self._fruitless: CounterMemo[int] = CounterMemo(0)
        """By ``deeds_version``: the spare cash of the last search for offers that found
        none (forgotten at each offer)."""
        self._candidates_kept: CounterMemo[tuple[bool, list[Candidate]]] = CounterMemo((False, []))
        """By ``deeds_version`` and, while some group has an answer, ``buildings_version``:
        whether some group has one, and :meth:`_candidates`."""

    def start_game(self, view: PlayerView) -> None:
        assert self.facts is not None
        self.valuation = shared_valuation(
            self.facts, self.horizon, self.target_level, self.threat, self.hope
        )
        self._offered = {}
        self.manners.clear()
        self._trade_turn = -1
        self._fruitless.forget()

    # ------------------------------------------------------------------ before rolling
    def turn_actions(self, view: PlayerView, seat: int) -> Action | None:
        reserve = self.cash_reserve(view, seat)
        cash = view.cash[seat]
        if cash > reserve:
            spare = cash - reserve
            build_from, lift_from = self.least_costs(view, seat)
            if spare >= build_from:  # else nothing is affordable: no plan to weigh
                build = self.build_action(view, seat, spare, self.facts.tables.hotel_level)
                if build is not None:
                    return build
            if spare - 100 >= lift_from:
                lift = self.unmortgage_action(view, seat, spare - 100)
                if lift is not None:
                    return lift
        return self.propose_trade(view, seat, cash - reserve)

    def propose_trade(self, view: PlayerView, seat: int, spare: int) -> Action | None:
        """At most one search a turn, and none while nothing changed since a search found
        nothing (checked and noted here, without further calls: this runs at every
        turn's start); then :meth:`_choose_offer`. ``spare``: the cash above our
        reserve, what a search may spend (the caller has the reserve at hand)."""
        turn = view.turn
        if self._trade_turn == turn:
            return None
        self._trade_turn = turn
        deeds = view.deeds_version
        fruitless = self._fruitless
        if fruitless.holds(view, seat, deeds) and spare < fruitless.answer + 100:
            return None
        if spare >= 1 or self.swaps:  # without swaps every offer pays cash, 1 to ``spare``
            candidates = self._candidates(view, seat)
            if candidates:  # else no group a trade could complete: nothing to search
                offer = self._choose_offer(view, seat, spare, candidates)
                if offer is not None:
                    return offer
        # Nothing found. The search only read the game: the deeds are still ``deeds``.
        fruitless.keep(view, seat, deeds, 0, 0, spare)
        return None

    def _choose_offer(
        self, view: PlayerView, seat: int, spare: int, candidates: list[Candidate]
    ) -> Action | None:
        """The best legal offer for one of the ``candidates`` (:func:`set_candidates`), the
        same one at most every few turns and 3 times (None: there is none)."""

        # The turn of this search: propose_trade keeps it (view.turn is a call).
        def share(key: Candidate) -> float:
            partner, take = key
            if not self.manners.may_offer(view, seat, partner, take):
                return 0.0
            return self._share(key)

        offers = set_offers(self.valuation, view, seat, spare, self.swaps, share, candidates)
        for _gain, offer in offers:
            if view.is_legal(offer):
                self._offering(view, offer, self._trade_turn)
                return offer
        return None

    def _offering(self, view: PlayerView, offer: ProposeTrade, turn: int) -> None:
        """Count the attempt at this (partner, take) and note it in :attr:`manners`; a
        new search may follow."""
        self.manners.note(view, offer)
        key = (offer.partner, offer.take)
        attempts = self._offered.get(key, (0, 0))[0]
        self._offered[key] = (attempts + 1, turn)
        self._fruitless.forget()

    def _candidates(self, view: PlayerView, seat: int) -> list[Candidate]:
        """:func:`set_candidates`, kept while no deed changes (and, while some group has
        an answer, no building: buildings matter only there)."""
        kept = self._candidates_kept
        deeds = view.deeds_version
        buildings = view.buildings_version if kept.answer[0] else -1
        if kept.holds(view, seat, deeds, buildings):
            return kept.answer[1]
        tables = self.facts.tables
        found = trade_groups(tables, view.owner, seat)
        now = unbuilt(tables, view.level, found)
        buildings = view.buildings_version if found else -1
        return kept.keep(view, seat, deeds, buildings, 0, (bool(found), now))[1]

    def _share(self, key: tuple[int, tuple[int, ...]]) -> float:
        """The share of a trade's joint gain to keep this turn (the search's), by earlier
        attempts at the same (partner, take): the first offers keep ``first_share``,
        later ones split evenly, retried only after a while and at most
        ``TRADE_ATTEMPTS`` times (0: not now)."""
        attempts, last = self._offered.get(key, (0, -TRADE_RETRY_TURNS))
        if attempts >= TRADE_ATTEMPTS:
            return 0.0
        turn = self._trade_turn
        if attempts == 1 and self.first_share > 0.5:
            return 0.5 if turn - last >= 1 else 0.0
        if turn - last < TRADE_RETRY_TURNS:
            return 0.0
        return self.first_share if attempts == 0 else 0.5

    # ------------------------------------------------------------------ decisions
    def cash_reserve(self, view: PlayerView, seat: int) -> int:
        return self.reserve

    def jail(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        if self.wants_to_leave_jail(view, decision.seat):
            for action in legal:
                if isinstance(action, UseJailCard):
                    return action
            if len(legal) > 1 and view.cash[decision.seat] - 50 >= self.cash_reserve(
                view, decision.seat
            ):
                return legal[1]  # pay the fine
        return legal[0]

    def wants_to_leave_jail(self, view: PlayerView, seat: int) -> bool:
        return self.unowned(view) >= self.leave_jail_unowned

    def unowned(self, view: PlayerView) -> int:
        """How many title deeds the Bank still holds."""
        held = 0
        for seat in range(view.players):
            held += len(view.deeds[seat])
        return len(self.facts.tables.properties) - held

    def buy(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        seat, space = decision.seat, decision.space
        spare = view.cash[seat] - self.facts.tables.price[space]
        if spare >= self.cash_reserve(view, seat) or self._completes(view, seat, space):
            return legal[0]
        return legal[1]

    def bid_ceiling(self, view: PlayerView, decision: Decision) -> int:
        facts = self.facts
        assert facts is not None
        seat, space = decision.seat, decision.space
        cash = view.cash[seat]
        if space < 0:
            return min(self.house_price(view, seat), cash - self.cash_reserve(view, seat))
        price = facts.tables.price[space]
        if self._completes(view, seat, space):
            worth = price * 3 // 2
        elif self._completes_for_rival(view, seat, space):
            worth = price * 5 // 4
        else:
            worth = price * 9 // 10
        limit = cash - self.cash_reserve(view, seat) // 2
        return worth if worth < limit else limit  # not min(): a dear call

    def house_price(self, view: PlayerView, seat: int) -> int:
        facts = self.facts
        assert facts is not None
        groups = self.complete_groups(view, seat)
        return max((facts.tables.house_cost[facts.tables.groups[g][0]] for g in groups), default=0)

    def _completes_for_rival(self, view: PlayerView, seat: int, space: int) -> bool:
        facts = self.facts
        assert facts is not None
        owner = view.owner
        holder = -1  # the one owner of the group's other streets, -1: none yet
        for s in facts.tables.groups[facts.tables.group_of[space]]:
            if s != space:
                if owner[s] < 0 or (holder >= 0 and owner[s] != holder):
                    return False  # an unowned street, or two owners
                holder = owner[s]
        return holder >= 0 and holder != seat

    def mortgage_received(
        self, view: PlayerView, decision: Decision, legal: Sequence[Action]
    ) -> Action:
        seat = decision.seat
        if isinstance(legal[0], Unmortgage):
            cost = self.facts.tables.lift_cost[decision.space]
            if view.cash[seat] - cost >= self.cash_reserve(view, seat):
                return legal[0]
        return legal[-1]

    def answer_trade(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        offer: ProposeTrade = decision.data
        _theirs, mine = offer_gains(self.valuation, view, offer)
        if mine > 10 and self._affordable(view, decision.seat, offer):
            return legal[0]
        return legal[-1]

    def _affordable(self, view: PlayerView, seat: int, offer: ProposeTrade) -> bool:
        """Paying the cash asked must leave half the reserve."""
        return view.cash[seat] - offer.take_cash >= self.cash_reserve(view, seat) // 2 or (
            offer.take_cash == 0
        )
