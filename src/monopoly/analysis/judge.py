"""Decisions judged: the alternatives of a decision compared by the decider's win chance.

Every alternative is played on the same rollouts (common random numbers), and the one
taken is compared with the best by their paired difference. Its **loss** is the best
alternative's win chance minus the taken one's, in percentage points of the deciding
player's chance. The marks, as on a chess analysis board:

=============  ==========================================================
mark           the loss (and its 95 % interval lies above zero)
=============  ==========================================================
inaccuracy     at least :data:`INACCURACY` (2 points)
mistake        at least :data:`MISTAKE` (5 points)
blunder        at least :data:`BLUNDER` (10 points)
=============  ==========================================================

The interval is honoured: a loss whose paired 95 % interval reaches zero is within the
noise of the rollouts and gets no mark, however large its mean.

What counts as the alternatives: the answers to the pending decision (buy or decline,
pay, use a card or roll in jail, accept or reject a trade, pass or bid), and for an action
a player may take at any time (build, sell, mortgage, lift a mortgage, propose a trade)
the action against *not now*: the level plays on from the position as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from monopoly.core.actions import Action, Bid, PassBid
from monopoly.core.game import Game, decisions_answered

from .estimates import Estimate, WinChances, paired
from .rollout import RolloutSettings
from .runner import Alternatives, Pool, Scores

INACCURACY = 0.02
MISTAKE = 0.05
BLUNDER = 0.10


class Mark(StrEnum):
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


def mark_of(loss: Estimate) -> Mark:
    """The mark of a loss (see the table above)."""
    if loss.low <= 0:
        return Mark.GOOD
    for threshold, mark in ((BLUNDER, Mark.BLUNDER), (MISTAKE, Mark.MISTAKE)):
        if loss.mean >= threshold:
            return mark
    return Mark.INACCURACY if loss.mean >= INACCURACY else Mark.GOOD


@dataclass(frozen=True, slots=True)
class Option:
    """One alternative: the actions it applies (none: *not now*) and the win chances
    after it."""

    actions: tuple[Action, ...]
    chances: WinChances

    @property
    def label(self) -> str:
        return " + ".join(str(action) for action in self.actions) or "not now"

    def to_json(self) -> dict[str, Any]:
        return {
            "actions": [action.to_json() for action in self.actions],
            "label": self.label,
            "chances": self.chances.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Judgement:
    """A decision judged: the options compared for ``seat``, the one ``taken``, the
    ``best`` one, the loss of the taken one against it and its mark."""

    seat: int
    options: tuple[Option, ...]
    taken: int
    best: int
    loss: Estimate

    @property
    def mark(self) -> Mark:
        return mark_of(self.loss)

    def chance_of(self, option: int) -> Estimate:
        return self.options[option].chances[self.seat]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "mark": self.mark.value,
            "loss": self.loss.to_json(),
            "taken": self.taken,
            "best": self.best,
            "options": [option.to_json() for option in self.options],
        }


def alternatives_of(game: Game, taken: Action) -> Alternatives:
    """What ``taken`` is compared with: the taken action first, then the other answers to
    the pending decision, or *not now* for an action allowed at any time."""
    decision = game.decision
    if decision is None:
        raise ValueError("the game is over: there is no decision to judge")
    game.check(taken)
    answers = decisions_answered().get(type(taken))
    if answers is None or decision.seat != taken.seat:
        return ((taken,), ())
    others = [a for a in game.decision_actions() if a != taken and not _same_kind_of_bid(a, taken)]
    return ((taken,), *((a,) for a in others))


def _same_kind_of_bid(listed: Action, taken: Action) -> bool:
    """Bids are listed at the lowest amount: a bid taken is judged against passing only."""
    return isinstance(listed, Bid) and isinstance(taken, (Bid, PassBid))


def judge_scores(
    game: Game, alternatives: Alternatives, seat: int, scores: list[Scores]
) -> Judgement:
    """A judgement from the rollouts' scores of ``alternatives`` (the first is taken)."""
    names = tuple(game.names)
    options = tuple(
        Option(actions, WinChances.from_scores(names, rolled))
        for actions, rolled in zip(alternatives, scores, strict=True)
    )
    mine = [[rollout[seat] for rollout in rolled] for rolled in scores]
    best = max(range(len(options)), key=lambda i: options[i].chances[seat].mean)
    loss = paired(mine[best], mine[0]) if best else Estimate(0.0, 0.0)
    return Judgement(seat, options, 0, best, loss)


def judge(
    game: Game,
    taken: Action,
    settings: RolloutSettings | None = None,
    pool: Pool | None = None,
    alternatives: Sequence[Sequence[Action]] | None = None,
) -> Judgement:
    """Judge ``taken`` (legal now) against its alternatives (default:
    :func:`alternatives_of`; given ones are tried after ``taken``)."""
    settings = settings or RolloutSettings()
    if alternatives is None:
        tried = alternatives_of(game, taken)
    else:
        game.check(taken)
        tried = ((taken,), *(tuple(a) for a in alternatives))
    scores = (pool or Pool()).run(game, tried, settings)
    return judge_scores(game, tried, taken.seat, scores)
