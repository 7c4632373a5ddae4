"""Trade advice: what a trade does to each side's chance to win.

The trade carried out (proposed and accepted) and no trade are played on the same
rollouts; each seat's change is the paired difference of its scores. Asked while the
partner's answer is pending, the two alternatives are accepting and rejecting.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from monopoly.core.actions import AcceptTrade, ProposeTrade, RejectTrade
from monopoly.core.errors import IllegalActionError
from monopoly.core.game import Game
from monopoly.core.state import TRADE

from .estimates import Estimate, WinChances, paired
from .rollout import RolloutSettings
from .runner import Alternatives, Pool


@dataclass(frozen=True, slots=True)
class TradeAdvice:
    """The trade's effect: each seat's chance with and without it, and the change."""

    offer: ProposeTrade
    without: WinChances
    with_trade: WinChances
    change: tuple[Estimate, ...]

    def for_seat(self, seat: int) -> Estimate:
        return self.change[seat]

    def to_json(self) -> dict[str, Any]:
        return {
            "offer": self.offer.to_json(),
            "without": self.without.to_json(),
            "with_trade": self.with_trade.to_json(),
            "change": [estimate.to_json() for estimate in self.change],
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
) -> TradeAdvice:
    """What ``offer`` does to every seat's win chance at ``game``'s position."""
    settings = settings or RolloutSettings()
    alternatives = trade_alternatives(game, offer)
    accepted, declined = (pool or Pool()).run(game, alternatives, settings)
    names = tuple(game.names)
    change = tuple(
        paired([s[seat] for s in accepted], [s[seat] for s in declined])
        for seat in range(game.players)
    )
    return TradeAdvice(
        offer,
        WinChances.from_scores(names, declined),
        WinChances.from_scores(names, accepted),
        change,
    )
