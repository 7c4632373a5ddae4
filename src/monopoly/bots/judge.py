"""The expert's judgement without search: hard's player with better-tuned judgement.

:class:`ExpertJudge` is the fast part of the ``expert`` level (:mod:`.expert` adds
search on top). What it changes against ``hard`` was found by simulation (docs/bots.md,
``scripts/tune-expert.py``):

* **trades aimed at what the partner accepts**: it models the partner as ``hard`` values
  things (``partner`` valuation) and builds its offers so that they pass that test —
  an even split of the joint gain *by the partner's reckoning* — then picks, among
  cash offers and deed swaps, the one worth most by its *own* valuation, which credits
  a complete set with a longer horizon; an offer it judges worse than keeping the
  deeds it does not make;
* **answers by its own valuation**: it accepts when it gains and the proposer does not
  gain much more (``accept_ratio``), by its own reckoning;
* **a leaner reserve and faster building**: the cash it keeps follows the rent a rival
  could charge on the next roll, scaled (``reserve_share``), so houses go up sooner;
* auction bids and buying follow its own valuation (the longer horizon).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from monopoly.core.actions import Action, ProposeTrade
from monopoly.core.state import Decision
from monopoly.core.view import PlayerView

from .hard import EARLY_UNOWNED, RESERVE_FLOOR, SAFE_TURN_RENT, HardBot
from .trading import offer_gains
from .valuation import Valuation


class ExpertJudge(HardBot):
    """Hard's player with a longer valuation horizon, partner-aware trades and a
    leaner reserve (the parameters are class attributes, tuned by simulation)."""

    horizon = 8.0
    threat = 0.6
    hope = 0.25
    build_to = 5
    """The building level its sets are valued at and built to from spare cash (capped
    at the hotel): hotels, where hard stops at three houses."""
    reserve_share = 1.0
    """The share of hard's cash reserve kept (below 1: build sooner)."""
    accept_ratio = 1.0
    """Accept an offer when our gain is at least this share of the proposer's."""
    min_trade_gain = 0.0
    """Our least gain, by our own valuation, for an offer we make."""
    partner_trades = True
    """Offers split evenly by the partner's (hard's) valuation, chosen by ours."""
    safe_turn_rent = SAFE_TURN_RENT
    """Expected rent per turn outside jail above which it stays in jail."""
    early_unowned = EARLY_UNOWNED
    """Unowned properties from which on it leaves jail at once (to buy)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.partner: Valuation  # hard's valuation, set by start_game()

    def start_game(self, view: PlayerView) -> None:
        self.target_level = min(self.build_to, self.facts.hotel_level)
        super().start_game(view)
        self.partner = Valuation(
            self.facts, HardBot.horizon, HardBot.target_level, HardBot.threat, HardBot.hope
        )

    # ------------------------------------------------------------------ the reserve
    def cash_reserve(self, view: PlayerView, seat: int) -> int:
        reserve = super().cash_reserve(view, seat)
        if self.reserve_share == 1.0:
            return reserve
        return max(RESERVE_FLOOR, int(reserve * self.reserve_share))

    def wants_to_leave_jail(self, view: PlayerView, seat: int) -> bool:
        if self.unowned(view) >= self.early_unowned:
            return True
        return self.expected_rent_per_turn(view, seat) < self.safe_turn_rent

    # ------------------------------------------------------------------ trades
    def propose_trade(self, view: PlayerView, seat: int) -> Action | None:
        if not self.partner_trades:
            return super().propose_trade(view, seat)
        turn = view.turn
        if self._trade_turn == turn:
            return None
        self._trade_turn = turn
        spare = view.cash[seat] - self.cash_reserve(view, seat)
        holdings = (view, view.deeds_version)
        fruitless = self._fruitless
        if fruitless is not None and fruitless[0] == holdings and spare < fruitless[1] + 100:
            return None
        candidates = self._candidates(view, seat)
        best: tuple[float, ProposeTrade] | None = None
        for partner, missing in candidates:
            attempts, last = self._offered.get((partner, missing), (0, -1000))
            if attempts >= 3 or turn - last < 10:
                continue
            found = self.best_offer(view, seat, partner, missing, spare)
            if found is not None and (best is None or found[0] > best[0]):
                best = found
        if best is None or not view.is_legal(best[1]):
            self._fruitless = (holdings, spare)
            return None
        offer = best[1]
        key = (offer.partner, offer.take)
        attempts = self._offered.get(key, (0, 0))[0]
        self._offered[key] = (attempts + 1, turn)
        self._fruitless = None
        return offer

    def best_offer(
        self, view: PlayerView, seat: int, partner: int, take: tuple[int, ...], spare: int
    ) -> tuple[float, ProposeTrade] | None:
        """The offer for ``take`` that the partner's valuation calls fair (an even split)
        and ours values most: cash alone, or one of our deeds plus or minus cash."""
        facts = self.facts
        owner, level = view.owner, view.level
        taken_group = facts.group_of[take[0]]
        gives: list[tuple[int, ...]] = [()]
        for deed in facts.properties:
            if owner[deed] != seat or facts.group_of[deed] == taken_group:
                continue
            if any(level[s] for s in facts.groups[facts.group_of[deed]]):
                continue
            gives.append((deed,))
        best: tuple[float, ProposeTrade] | None = None
        for give in gives:
            trial = ProposeTrade(seat, partner, give=give, take=take)
            mine_h, theirs_h = offer_gains(self.partner, view, trial)
            pay = math.ceil((mine_h - theirs_h) / 2)  # the even split by hard's reckoning
            if theirs_h + pay <= 0 or pay > spare or -pay > view.cash[partner]:
                continue
            offer = ProposeTrade(
                seat, partner, give=give, give_cash=max(0, pay), take=take, take_cash=max(0, -pay)
            )
            mine, _theirs = offer_gains(self.valuation, view, offer)
            if mine <= self.min_trade_gain:
                continue
            if best is None or mine > best[0]:
                best = (mine, offer)
        return best

    def answer_trade(self, view: PlayerView, decision: Decision, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        offer: ProposeTrade = decision.data
        seat = decision.seat
        theirs, mine = offer_gains(self.valuation, view, offer)
        fair = mine > 0 and mine + 2 >= self.accept_ratio * theirs
        if fair and self._affordable(view, seat, offer):
            return legal[0]
        return super().answer_trade(view, decision, legal)
