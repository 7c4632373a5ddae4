"""A computer player that picks legal actions at random (with a little sense).

It exists so that whole games run (tests, demonstrations, benchmarks); the real
computer players are built on the same interface (:mod:`monopoly.bots.base`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from monopoly.core.actions import (
    Action,
    Bid,
    Build,
    DeclareBankruptcy,
    Mortgage,
    ProposeTrade,
    SellBuilding,
    Unmortgage,
)
from monopoly.core.game import Game
from monopoly.core.state import BID, BUY, JAIL, RAISE_CASH, ROLL, TRADE
from monopoly.core.view import PlayerView

from .base import play

__all__ = ["RandomBot", "play"]


class RandomBot:
    """Chooses uniformly among legal answers, with a few biases that keep games short:
    it buys most properties, builds now and then, and only sells or mortgages in debt."""

    def __init__(self, seed: int = 0, trade_rate: float = 0.02) -> None:
        self.rng = random.Random(seed)
        self.trade_rate = trade_rate

    def choose(self, game: Game, seat: int) -> Action:
        """Convenience for scripts: decide for ``seat`` on ``game`` directly."""
        return self.decide(PlayerView(game, seat), game.decision_actions())

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        decision = view.decision
        assert decision is not None
        seat = decision.seat
        rng = self.rng
        kind = decision.kind
        if kind == RAISE_CASH:
            return self._raise_cash(view, seat)
        if kind in (ROLL, JAIL) and rng.random() < 0.3:
            extra = self._extra(view, seat)
            if extra is not None:
                return extra
        if kind == BID:
            low, high = view.bid_range()
            space = decision.space
            worth = view.board.spaces[space].price if space >= 0 else 100
            ceiling = min(high, worth + worth // 2)
            if low > ceiling or rng.random() < 0.4:
                return legal[0]  # pass
            return Bid(seat, rng.randint(low, ceiling))
        if kind == BUY and len(legal) == 2:
            return legal[0] if rng.random() < 0.8 else legal[1]
        if kind == TRADE:
            return legal[0] if rng.random() < 0.3 else legal[-1]
        return rng.choice(legal)

    def _raise_cash(self, view: PlayerView, seat: int) -> Action:
        options: list[Action] = [
            a for a in view.free_actions(seat) if isinstance(a, SellBuilding | Mortgage)
        ]
        if not options:
            return DeclareBankruptcy(seat)
        return self.rng.choice(options)

    def _extra(self, view: PlayerView, seat: int) -> Action | None:
        rng = self.rng
        if rng.random() < self.trade_rate:
            offer = self._trade(view, seat)
            if offer is not None:
                return offer
        options = [a for a in view.free_actions(seat) if isinstance(a, Build | Unmortgage)]
        if options and view.cash[seat] > 300:
            return rng.choice(options)
        return None

    def _trade(self, view: PlayerView, seat: int) -> Action | None:
        rng = self.rng
        others = [s for s in view.active_seats() if s != seat]
        partner = rng.choice(others)
        mine = [s for s in view.properties_of(seat) if not _built(view, s)]
        theirs = [s for s in view.properties_of(partner) if not _built(view, s)]
        if not theirs:
            return None
        take = (rng.choice(theirs),)
        give = (rng.choice(mine),) if mine and rng.random() < 0.7 else ()
        cash = rng.randint(0, min(view.cash[seat], 300))
        offer = ProposeTrade(seat, partner, give=give, give_cash=cash, take=take)
        return offer if view.is_legal(offer) else None


def _built(view: PlayerView, space: int) -> bool:
    group = view.board.groups[view.board.spaces[space].group]
    return any(view.level[s] for s in group)
