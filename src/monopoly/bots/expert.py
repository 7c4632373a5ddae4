"""The *expert* computer player: tuned judgement, plus optional search where it matters.

Its judgement is :class:`~monopoly.bots.judge.ExpertJudge`: hard's player with the
weights that won in simulation against ``hard`` (building to hotels, trades aimed at
what the partner accepts; see judge.py and docs/bots.md). That is the whole registered
level: it decides in microseconds.

With ``rollouts`` > 0 it also searches: at the decisions named in ``searched`` (by
default answering a trade offer, the rare decision that moves sets between players) it
compares the candidate answers by determinised Monte Carlo rollouts over
``Game.clone()``:

* each rollout first *determinises* what the player cannot know: the card decks are
  shuffled anew (their order is hidden) and the dice get a fresh seed, so the search
  never peeks at the real deck order or the future rolls;
* the same determinisations are used for every candidate (common random numbers), and
  the search leaves the judge's answer only when the paired gain is clear of the
  noise (more than ``margin`` and ``z`` standard errors): a first version that took
  the best mean of a few noisy rollouts won only 0.077 of 300 games against three
  `hard` players;
* from there the expert's seat is played by its judge and every other seat by the
  ``hard`` level (the opponent model) for ``rollout_turns`` turns (or
  to the end); a rollout scores the expert's share of the win if the game ended, else its share
  of the net worth of the players still in.

All other decisions are the judge's. ``rollouts`` and ``rollout_turns`` bound the
work per candidate; ``budget`` (seconds, 0 = none) stops a search early, so people can
play it. The search did not add measurable strength against ``hard`` (docs/bots.md), so
the registered level runs without it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from monopoly.core.actions import Action
from monopoly.core.game import Game
from monopoly.core.state import TRADE, Decision, DecisionKind
from monopoly.core.view import PlayerView

from .base import play
from .hard import HardBot
from .judge import ExpertJudge

SEARCHED = (TRADE,)


class ExpertBot:
    """The expert's judgement, with optional determinised rollouts at the ``searched``
    decision kinds.

    It holds its judge rather than being one: the judge may be compiled
    (``setup.py``), and compiled classes take no interpreted subclasses."""

    def __init__(
        self,
        seed: int = 0,
        rollouts: int = 0,
        rollout_turns: int = 60,
        budget: float = 0.0,
        z: float = 2.0,
        margin: float = 0.02,
        searched: Sequence[DecisionKind] = SEARCHED,
    ) -> None:
        self.judge = ExpertJudge(seed)
        self.searched = tuple(searched)
        self.rollouts = rollouts
        self.rollout_turns = rollout_turns
        self.budget = budget
        self.z = z
        self.margin = margin
        self.overrides = 0
        """How often the search chose another answer than the judge's."""
        self.search_rng = random.Random(seed ^ 0x5EA4C4)
        self.searches = 0

    def interject(self, view: PlayerView) -> Action | None:
        return self.judge.interject(view)

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        choice = self.judge.decide(view, legal)
        decision = view.decision
        if (
            self.rollouts <= 0
            or decision is None
            or decision.kind not in self.searched
            or len(legal) < 2
            or choice not in legal
        ):
            return choice  # a free action or a forced answer: the judge's
        return self.search(view, decision, legal, choice)

    def search(
        self, view: PlayerView, decision: Decision, legal: Sequence[Action], default: Action
    ) -> Action:
        """Another answer than the judge's only when the rollouts show it better
        beyond their noise: its mean paired gain must exceed ``margin`` and ``z``
        standard errors (rollout scores are noisy; following noise would be worse than
        the judge's answer)."""
        others = [a for a in legal if a != default]
        gains: list[list[float]] = [[] for _ in others]
        deadline = time.monotonic() + self.budget if self.budget > 0 else 0.0
        self.searches += 1
        for _ in range(self.rollouts):
            seed = self.search_rng.randrange(2**31)
            base = self.rollout(view, default, seed)
            for i, action in enumerate(others):
                gains[i].append(self.rollout(view, action, seed) - base)
            if deadline and time.monotonic() > deadline:
                break
        best, best_gain = default, 0.0
        for action, paired in zip(others, gains, strict=True):
            gain = confident_gain(paired, self.z, self.margin)
            if gain > best_gain:
                best, best_gain = action, gain
        if best is not default:
            self.overrides += 1
        return best

    def rollout(self, view: PlayerView, action: Action, seed: int) -> float:
        """Play ``action`` in a game the seat cannot tell from the real one, then the
        judge (for the seat) against hard for ``rollout_turns`` turns; the seat's score."""
        seat = view.seat
        copy = view.sample_game(seed)
        copy.apply(action)
        limit = copy.turn + self.rollout_turns
        copy.rules = copy.rules.with_options(turn_limit=min(limit, copy.rules.turn_limit or limit))
        bots: list[HardBot] = [
            ExpertJudge(seed + s) if s == seat else HardBot(seed + s) for s in range(copy.players)
        ]
        play(copy, bots, max_actions=20_000)
        return score(copy, seat)


def confident_gain(paired: list[float], z: float, margin: float) -> float:
    """The mean of paired gains if it beats both ``margin`` and ``z`` standard errors,
    else 0 (no evidence of a gain)."""
    n = len(paired)
    if n < 2:
        return 0.0
    mean = sum(paired) / n
    spread = (sum((g - mean) ** 2 for g in paired) / (n - 1)) ** 0.5
    if mean > margin and mean > z * spread / n**0.5:
        return mean
    return 0.0


def score(game: Game, seat: int) -> float:
    """The seat's share of the win (a real end) or of the net worth still in play (the
    horizon reached: a win-or-lose verdict there would only add noise)."""
    if game.over and game.end_reason != "limit":  # the rollout's horizon is no real end
        return 1.0 / len(game.winners) if seat in game.winners else 0.0
    if not game.active[seat]:
        return 0.0
    total = sum(game.net_worth(s) for s in game.active_seats())
    return game.net_worth(seat) / total if total > 0 else 0.0
