"""Self-play tools: any policy as a computer player, an opponent pool for the Gymnasium
environment, and vectorised environments.

A *policy* is any callable ``policy(observation, mask) -> action id`` over the
observation vector (:mod:`monopoly.rl.observation`) and the 0/1 mask of the catalogue
(:mod:`monopoly.rl.catalogue`) — a trained network's ``predict``, a numpy function.

>>> from monopoly.rl.selfplay import OpponentPool, PolicyBot
>>> pool = OpponentPool(["normal", "hard"], seats=3)
>>> pool.add(lambda seed: PolicyBot(my_policy))        # a snapshot of the learner
>>> env = MonopolyGymEnv(opponents=pool, mode="core")    # three drawn at every reset
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np

from monopoly.bots.base import Bot, make_bot
from monopoly.core.actions import Action, Mortgage, SellBuilding
from monopoly.core.game import Game
from monopoly.core.state import BID, RAISE_CASH
from monopoly.core.view import PlayerView

from .catalogue import CATALOGUE, SIZE, mask_of
from .observation import observe

Policy = Callable[[np.ndarray, np.ndarray], int]
Member = str | Bot | Callable[[int], Bot]
"""A pool member: a level name or ``module:Class``, a bot object (shared by the games
it plays), or a factory ``seed -> bot`` (a fresh bot for every game)."""


def decision_mask(view: PlayerView, legal: Sequence[Action]) -> np.ndarray:
    """The mask of the ids that answer ``view``'s pending decision (as in the ``core``
    mode without building): the answers the engine lists, the bid templates, and in a
    debt the sales and mortgages that raise the cash."""
    decision = view.decision
    if decision is not None and decision.kind == RAISE_CASH:
        legal = [
            *legal,
            *(a for a in view.free_actions() if isinstance(a, SellBuilding | Mortgage)),
        ]
    ids = [i for action in legal if (i := CATALOGUE.id_of(action, view)) is not None]
    if decision is not None and decision.kind == BID:
        # the view answers what the templates read (bid range, board): a game's reader
        ids.extend(CATALOGUE._bid_templates(cast(Game, view), decision))
    return mask_of(ids)


class PolicyBot:
    """A computer player that asks ``policy`` for each of its decisions; it plays like
    any level (simulator, terminal, browser, ladder). An id the rules refuse now is
    answered like any computer player's illegal answer (the seat driver reports it)."""

    def __init__(self, policy: Policy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        mask = decision_mask(view, legal)
        action_id = int(self.policy(observe(view), mask))
        if not 0 <= action_id < SIZE:
            raise ValueError(f"policy {self.name!r} chose id {action_id}, outside 0..{SIZE - 1}")
        action = CATALOGUE.action(cast(Game, view), view.seat, action_id)
        if action is None:
            raise ValueError(f"policy {self.name!r} chose {CATALOGUE.describe(action_id)}")
        return action


class OpponentPool:
    """Opponents for the Gymnasium environment, drawn anew at every ``reset``: ``seats``
    of them from ``members`` (with replacement, by ``weights``). Add snapshots of the
    learner as it trains (:meth:`add`) for self-play against its past selves."""

    def __init__(
        self, members: Sequence[Member], seats: int = 1, weights: Sequence[float] | None = None
    ) -> None:
        if not members:
            raise ValueError("an opponent pool needs at least one member")
        if not 1 <= seats <= 7:
            raise ValueError(f"seats must be 1..7, got {seats}")
        if weights is not None and len(weights) != len(members):
            raise ValueError("give one weight per member")
        self.seats = seats
        self.members: list[Member] = []
        self.weights: list[float] = []
        for i, member in enumerate(members):
            self.add(member, 1.0 if weights is None else weights[i])

    def add(self, member: Member, weight: float = 1.0) -> None:
        if weight <= 0:
            raise ValueError(f"a member's weight must be above 0, got {weight}")
        if isinstance(member, str):
            make_bot(member)  # an unknown level fails now, not at a reset
        self.members.append(member)
        self.weights.append(weight)

    def draw(self, rng: random.Random) -> list[str | Bot]:
        """The opponents of one game (factories called with a seed from ``rng``)."""
        chosen = rng.choices(self.members, self.weights, k=self.seats)
        return [_made(member, rng) for member in chosen]


def _made(member: Member, rng: random.Random) -> str | Bot:
    if isinstance(member, str) or hasattr(member, "decide"):
        return cast("str | Bot", member)
    return member(rng.randrange(2**31))


def make_vector_env(count: int, asynchronous: bool = False, **kwargs: Any) -> Any:
    """``count`` Gymnasium environments (``MonopolyGymEnv(**kwargs)``) stepped as one
    (``gymnasium.vector``; the masks come in ``infos["action_mask"]``, one row each).
    ``asynchronous=True`` runs each in its own process."""
    import gymnasium as gym

    from .gym_env import MonopolyGymEnv

    makers = [lambda: MonopolyGymEnv(**kwargs) for _ in range(count)]
    if asynchronous:
        return gym.vector.AsyncVectorEnv(makers)
    return gym.vector.SyncVectorEnv(makers)
