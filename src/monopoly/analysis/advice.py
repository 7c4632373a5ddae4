"""Trade advice: what a trade does to each side's chance to win.

The trade carried out (proposed and accepted) and no trade are played on the same
rollouts; each seat's change is the paired difference of its scores. Asked while the
partner's answer is pending, the two alternatives are accepting and rejecting.

Advice is wanted at once, before a player answers: it runs in batches (sequential
stopping) until every seat's change is known to ``target`` (±3 points by default) or
``budget`` seconds have passed. Its interval is the paired difference's: both
alternatives are played on the same rollouts' dice and decks, so the luck they share
cancels. Its rollouts look only :data:`ADVICE_HORIZON` player-turns ahead, then the
fallback model scores the position (fallback.py): the model is itself a fitted chance to
win, so a short look-ahead estimates the same chance as a long one (docs/analysis.md
shows the check) with far less spread from rollout to rollout than a won-or-lost end.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any

from monopoly.core.actions import AcceptTrade, ProposeTrade, RejectTrade
from monopoly.core.errors import IllegalActionError
from monopoly.core.game import Game
from monopoly.core.state import TRADE

from .estimates import Estimate, WinChances, paired
from .rollout import RolloutSettings
from .runner import Alternatives, Pool, Scores

ADVICE_HORIZON = 4
"""Player-turns a trade's rollouts play before the fallback model scores them: on the
benchmark's trade the change at 4 turns agrees with the change at 120 within the
intervals (docs/analysis.md), at a third of the spread of 30 turns."""
TARGET = 0.03
BUDGET = 2.0
BATCH = 50
"""Rollouts per alternative in each batch (the advice stops after the first batch that
reaches the target)."""


@dataclass(frozen=True, slots=True)
class TradeAdvice:
    """The trade's effect: each seat's chance with and without it, and the change."""

    offer: ProposeTrade
    without: WinChances
    with_trade: WinChances
    change: tuple[Estimate, ...]
    seconds: float = 0.0

    def for_seat(self, seat: int) -> Estimate:
        return self.change[seat]

    def to_json(self) -> dict[str, Any]:
        return {
            "offer": self.offer.to_json(),
            "without": self.without.to_json(),
            "with_trade": self.with_trade.to_json(),
            "change": [estimate.to_json() for estimate in self.change],
            "rollouts": self.without.rollouts,
            "seconds": round(self.seconds, 3),
        }


def trade_alternatives(game: Game, offer: ProposeTrade) -> Alternatives:
    """(the trade carried out, no trade) at ``game``'s position. Raises
    :class:`IllegalActionError` for an offer the rules refuse now."""
    decision = game.decision
    pending = decision is not None and decision.kind is TRADE and decision.data == offer
    if pending:
        return ((AcceptTrade(offer.partner),), (RejectTrade(offer.partner),))
    reason = game.problem(offer)
    if reason:
        raise IllegalActionError(offer, reason)
    return ((offer, AcceptTrade(offer.partner)), ())


def trade_advice(
    game: Game,
    offer: ProposeTrade,
    settings: RolloutSettings | None = None,
    pool: Pool | None = None,
    target: float = TARGET,
    budget: float = BUDGET,
) -> TradeAdvice:
    """What ``offer`` does to every seat's win chance at ``game``'s position: batches of
    rollouts until each change's 95 % half-width is at most ``target``, ``budget``
    seconds have passed (0: no limit) or ``settings.rollouts`` are played."""
    settings = settings or RolloutSettings(horizon=ADVICE_HORIZON, rollouts=2000)
    alternatives = trade_alternatives(game, offer)
    pool = pool or Pool()
    started = time.perf_counter()
    accepted: Scores = []
    declined: Scores = []
    while len(accepted) < settings.rollouts:
        size = min(max(BATCH, 2 * pool.workers), settings.rollouts - len(accepted))
        batch = replace(settings, first=settings.first + len(accepted), rollouts=max(2, size))
        more_accepted, more_declined = pool.run(game, alternatives, batch)
        accepted += more_accepted
        declined += more_declined
        change = _change(game, accepted, declined)
        elapsed = time.perf_counter() - started
        if max(c.half_width for c in change) <= target or (budget and elapsed >= budget):
            break
    names = tuple(game.names)
    return TradeAdvice(
        offer,
        WinChances.from_scores(names, declined),
        WinChances.from_scores(names, accepted),
        _change(game, accepted, declined),
        time.perf_counter() - started,
    )


def _change(game: Game, accepted: Scores, declined: Scores) -> tuple[Estimate, ...]:
    return tuple(
        paired([s[seat] for s in accepted], [s[seat] for s in declined])
        for seat in range(game.players)
    )
