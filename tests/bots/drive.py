"""Helpers for the bot tests: bots playing a game with every action checked."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from monopoly.bots.base import Bot, make_bot, offer_claims
from monopoly.core.actions import Action
from monopoly.core.game import Game
from monopoly.core.view import PlayerView

LEVELS = ("easy", "normal", "hard", "expert", "learned")


def bots_for(levels: Sequence[str], seed: int = 0) -> list[Bot]:
    return [make_bot(level, seed * 10 + seat) for seat, level in enumerate(levels)]


def step(game: Game, bots: Sequence[Bot], views: Sequence[PlayerView]) -> Action:
    """Ask the deciding seat's bot and apply its action (checked: illegal raises)."""
    if game.claims:
        offer_claims(game, bots, views)
    decision = game.decision
    assert decision is not None
    action = bots[decision.seat].decide(views[decision.seat], game.decision_actions())
    game.apply(action)
    return action


def play_checked(
    game: Game,
    bots: Sequence[Bot],
    max_actions: int = 200_000,
    until: Callable[[Game], bool] | None = None,
    seen: list[tuple[str, Action]] | None = None,
) -> Game:
    """Play with every action checked; ``seen`` collects (decision kind, action)."""
    views = [PlayerView(game, seat) for seat in range(game.players)]
    for _ in range(max_actions):
        if game.decision is None or (until is not None and until(game)):
            break
        kind = game.decision.kind
        action = step(game, bots, views)
        if seen is not None:
            seen.append((kind, action))
    return game
