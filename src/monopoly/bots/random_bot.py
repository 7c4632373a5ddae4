"""A computer player that picks legal actions at random (with a little sense).

It exists so that whole games run (tests, demonstrations, benchmarks); the real
computer players are built on the same interface.
"""

from __future__ import annotations

import random

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


class RandomBot:
    """Chooses uniformly among legal answers, with a few biases that keep games short:
    it buys most properties, builds now and then, and only sells or mortgages in debt."""

    def __init__(self, seed: int = 0, trade_rate: float = 0.02) -> None:
        self.rng = random.Random(seed)
        self.trade_rate = trade_rate

    def choose(self, game: Game, seat: int) -> Action:
        decision = game.decision
        assert decision is not None and decision.seat == seat
        rng = self.rng
        kind = decision.kind
        if kind == RAISE_CASH:
            return self._raise_cash(game, seat)
        if kind in (ROLL, JAIL) and rng.random() < 0.3:
            extra = self._extra(game, seat)
            if extra is not None:
                return extra
        if kind == BID:
            low, high = game.bid_range()
            space = decision.space
            worth = game.board.spaces[space].price if space >= 0 else 100
            ceiling = min(high, worth + worth // 2)
            if low > ceiling or rng.random() < 0.4:
                return game.decision_actions()[0]  # pass
            return Bid(seat, rng.randint(low, ceiling))
        actions = game.decision_actions()
        if kind == BUY and len(actions) == 2:
            return actions[0] if rng.random() < 0.8 else actions[1]
        if kind == TRADE:
            return actions[0] if rng.random() < 0.3 else actions[-1]
        return rng.choice(actions)

    def _raise_cash(self, game: Game, seat: int) -> Action:
        options: list[Action] = [
            a for a in game.free_actions(seat) if isinstance(a, SellBuilding | Mortgage)
        ]
        if not options:
            return DeclareBankruptcy(seat)
        return self.rng.choice(options)

    def _extra(self, game: Game, seat: int) -> Action | None:
        rng = self.rng
        if rng.random() < self.trade_rate:
            offer = self._trade(game, seat)
            if offer is not None:
                return offer
        options = [a for a in game.free_actions(seat) if isinstance(a, Build | Unmortgage)]
        if options and game.cash[seat] > 300:
            return rng.choice(options)
        return None

    def _trade(self, game: Game, seat: int) -> Action | None:
        rng = self.rng
        others = [s for s in game.active_seats() if s != seat]
        partner = rng.choice(others)
        mine = [s for s in game.properties_of(seat) if not _built(game, s)]
        theirs = [s for s in game.properties_of(partner) if not _built(game, s)]
        if not theirs:
            return None
        take = (rng.choice(theirs),)
        give = (rng.choice(mine),) if mine and rng.random() < 0.7 else ()
        cash = rng.randint(0, min(game.cash[seat], 300))
        offer = ProposeTrade(seat, partner, give=give, give_cash=cash, take=take)
        return offer if game.is_legal(offer) else None


def _built(game: Game, space: int) -> bool:
    group = game.board.groups[game.board.spaces[space].group]
    return any(game.level[s] for s in group)


def play(
    game: Game,
    bots: dict[int, RandomBot] | list[RandomBot],
    max_actions: int = 200_000,
    checked: bool = True,
) -> Game:
    """Let computer players play ``game`` to its end (or ``max_actions``)."""
    for _ in range(max_actions):
        decision = game.decision
        if decision is None:
            break
        action = bots[decision.seat].choose(game, decision.seat)
        if checked:
            game.apply(action)
        else:
            game.apply_unchecked(action)
    return game
