"""The *expert* computer player: the hard player, plus search where it matters.

At the decisions that shape a game — buying or declining a property, answering a trade
offer, leaving jail or staying — it compares the candidate answers by determinised
Monte Carlo rollouts over ``Game.clone()``:

* each rollout first *determinises* what the player cannot know: the card decks are
  shuffled anew (their order is hidden) and the dice get a fresh seed, so the search
  never peeks at the real deck order or the future rolls;
* the same determinisations are used for every candidate (common random numbers), so
  the comparison's noise is small;
* from there every seat is played by the ``hard`` level for ``horizon`` turns (or to the
  end); a rollout scores the expert's share of the win if the game ended, else its share
  of the net worth of the players still in.

All other decisions are the hard player's. ``rollouts`` bounds the work per candidate;
``budget`` (seconds, 0 = none) stops the search early, so people can play it: with the
defaults a decision takes well under a second on average (docs/bots.md).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from monopoly.core.actions import Action
from monopoly.core.game import Game
from monopoly.core.state import BUY, JAIL, TRADE, Decision
from monopoly.core.view import PlayerView

from .base import play
from .hard import HardBot

SEARCHED = (BUY, TRADE, JAIL)


class ExpertBot(HardBot):
    """Hard, with determinised rollouts at buy, trade-answer and jail decisions."""

    def __init__(
        self,
        seed: int = 0,
        rollouts: int = 8,
        horizon: int = 60,
        budget: float = 0.0,
    ) -> None:
        super().__init__(seed)
        self.rollouts = rollouts
        self.horizon = horizon
        self.budget = budget
        self.search_rng = random.Random(seed ^ 0x5EA4C4)
        self.searches = 0

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        choice = super().decide(view, legal)
        decision = view.decision
        if (
            decision is None
            or decision.kind not in SEARCHED
            or len(legal) < 2
            or choice not in legal
        ):
            return choice  # a free action or a forced answer: the hard player's
        return self.search(view, decision, legal, choice)

    def search(
        self, view: PlayerView, decision: Decision, legal: Sequence[Action], default: Action
    ) -> Action:
        """The candidate with the best mean rollout score (ties: the hard choice)."""
        game: Game = view._game  # the search copies it and hides what the seat cannot know
        candidates = [default, *(a for a in legal if a != default)]
        totals = [0.0] * len(candidates)
        deadline = time.monotonic() + self.budget if self.budget > 0 else 0.0
        self.searches += 1
        for _ in range(self.rollouts):
            seed = self.search_rng.randrange(2**31)
            for i, action in enumerate(candidates):
                totals[i] += self.rollout(game, view.seat, action, seed)
            if deadline and time.monotonic() > deadline:
                break
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

    def rollout(self, game: Game, seat: int, action: Action, seed: int) -> float:
        copy = determinised(game, seed)
        copy.apply(action)
        limit = copy.turn + self.horizon
        copy.rules = copy.rules.with_options(turn_limit=min(limit, copy.rules.turn_limit or limit))
        bots = [HardBot(seed + s) for s in range(copy.players)]
        play(copy, bots, max_actions=20_000, checked=False)
        return score(copy, seat)


def determinised(game: Game, seed: int) -> Game:
    """A copy of ``game`` with the hidden parts drawn anew: deck orders and dice."""
    copy = game.clone()
    copy.collect_events = False
    rng = random.Random(seed)
    for deck in copy.decks.values():
        cards = list(deck)
        rng.shuffle(cards)
        deck.clear()
        deck.extend(cards)
    copy.chance.rng.seed(seed)
    copy.chance.script = []
    copy.chance.position = 0
    return copy


def score(game: Game, seat: int) -> float:
    """The seat's share of the win (game over) or of the net worth still in play."""
    if game.over:
        return 1.0 / len(game.winners) if seat in game.winners else 0.0
    if not game.active[seat]:
        return 0.0
    total = sum(game.net_worth(s) for s in game.active_seats())
    return game.net_worth(seat) / total if total > 0 else 0.0
