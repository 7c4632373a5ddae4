"""The ``learned`` level: a small trained network that plays the core-mode decisions.

The network (:class:`MaskedMLP`, numpy only: no torch is needed to play) reads the
observation vector of :mod:`monopoly.rl.observation` and scores every id of the
catalogue; the level plays the best-scored id of the mask. Its weights ship with the
package (``policies/learned.npz``) and are made by :mod:`monopoly.rl.train`.

Like the environments' ``core`` mode (:mod:`monopoly.rl.driver`), the network takes the
frequent decisions — roll, jail, buy or decline, bids, raising cash, the Speed Die and
shortage choices — and may build, sell, mortgage and lift mortgages before it rolls
(at most ``max_free_actions`` a turn, as in the environment). A built-in level, the
*helper* (``expert`` by default), plays the rest for it: it answers trade offers,
offers trades when the network has chosen to roll (after its building, as ``expert``
does; at most ``MAX_OFFERS`` a turn: the network is asked again after each), claims
rent, and
answers the decisions whose ids came after the network's catalogue version (the shipped
network scores the 746 ids of version 2: a hotel's breakdown, version 3, is the
helper's).

Any policy file trained for the core mode plays the same way: ``make_bot`` takes a
path ending in ``.npz`` as a level (``monopoly ladder my-policy.npz``).
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import cast

import numpy as np

from monopoly.bots.base import Bot
from monopoly.core.actions import Action
from monopoly.core.game import Game
from monopoly.core.state import JAIL, ROLL, TRADE
from monopoly.core.view import PlayerView

from .catalogue import CATALOGUE, SIZE, mask_of
from .driver import Helper
from .observation import OBS_SIZE, observe

DEFAULT_HELPER = "expert"
DEFAULT_MAX_FREE_ACTIONS = 40
"""Free actions (building, selling, mortgaging, lifting) a turn at most: enough for
`expert` to build up every set it owns in one turn (the environment's default of 8 cuts
it off), and a bound on a network that would mortgage and lift the same deed forever."""
OLDEST_SIZE = CATALOGUE.DONE + 1
"""How many ids the oldest catalogue a policy file may be trained on had (version 2)."""
MAX_OFFERS = 4
"""Trade offers the helper may make a turn at most."""
POLICY_FORMAT = 1
"""The policy file's format: ``w0, b0, w1, b1, ...`` (float arrays of the layers, ReLU
between them), ``format``, ``obs_size`` and ``actions`` (checked on load)."""


class PolicyFileError(ValueError):
    """A policy file that cannot be read or does not fit the catalogue."""


class MaskedMLP:
    """A multilayer perceptron over the observation whose outputs score the ids."""

    def __init__(self, layers: Sequence[tuple[np.ndarray, np.ndarray]]) -> None:
        if not layers:
            raise PolicyFileError("a policy needs at least one layer")
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
        self.actions: int = self.layers[-1][0].shape[1]
        """The ids it scores: the first ``actions`` of the catalogue (an earlier version's
        policy scores that version's ids; it never chooses the ids added since)."""
        if self.layers[0][0].shape[0] != OBS_SIZE or not OLDEST_SIZE <= self.actions <= SIZE:
            raise PolicyFileError(
                f"the layers map {self.layers[0][0].shape[0]} inputs to {self.actions} ids; "
                f"the catalogue needs {OBS_SIZE} -> {OLDEST_SIZE}..{SIZE}"
            )

    @classmethod
    def load(cls, path: str | Path) -> MaskedMLP:
        try:
            with np.load(path) as data:
                arrays = {name: data[name] for name in data.files}
        except (OSError, ValueError) as error:
            raise PolicyFileError(f"cannot read the policy file {str(path)!r}: {error}") from None
        if int(arrays.get("format", -1)) != POLICY_FORMAT:
            raise PolicyFileError(f"{str(path)!r} is not a policy file of format {POLICY_FORMAT}")
        count = sum(1 for name in arrays if name.startswith("w"))
        return cls([(arrays[f"w{i}"], arrays[f"b{i}"]) for i in range(count)])

    def save(self, path: str | Path) -> None:
        """Write the weights (as float16: the file ships with the package)."""
        arrays: dict[str, np.ndarray] = {
            "format": np.array(POLICY_FORMAT),
            "obs_size": np.array(OBS_SIZE),
            "actions": np.array(self.actions),
        }
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"] = w.astype(np.float16)
            arrays[f"b{i}"] = b.astype(np.float16)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    def scores(self, observation: np.ndarray) -> np.ndarray:
        x = observation.astype(np.float32)
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                x = np.maximum(x, 0.0)
        return x

    def __call__(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """The best-scored id of the mask (a :data:`~monopoly.rl.selfplay.Policy`)."""
        scores = self.scores(observation)
        scored = mask[: self.actions].astype(bool)
        return int(np.flatnonzero(scored)[np.argmax(scores[scored])])


def packaged_policy() -> Path:
    """The ``learned`` level's weights, shipped with the package."""
    return Path(str(resources.files("monopoly") / "policies" / "learned.npz"))


def core_mask(view: PlayerView, free: bool) -> np.ndarray:
    """The core-mode mask of the seat's pending decision (as the environment's ``core``
    mode lists it): with ``free``, building, selling, mortgaging and lifting mortgages
    before the roll too."""
    decision = view.decision
    free = free and decision is not None and decision.kind in (ROLL, JAIL)
    # the view answers everything the catalogue reads of a game
    return mask_of(CATALOGUE.legal_ids(cast(Game, view), view.seat, free, trades=False))


class CoreModeBot:
    """A computer player that plays like a core-mode agent: ``choose(view, mask)``
    picks the id of each of its core decisions; the helper level plays its trades and
    rent claims. The base of :class:`LearnedBot` (and of the training's recorder)."""

    def __init__(
        self,
        seed: int = 0,
        helper: str | Bot = DEFAULT_HELPER,
        max_free_actions: int = DEFAULT_MAX_FREE_ACTIONS,
    ) -> None:
        self.helper = Helper(helper, seed)
        self.max_free_actions = max_free_actions
        self._turn = -1
        self._free_used = 0
        self._offers = 0

    def choose(self, view: PlayerView, mask: np.ndarray) -> int:
        raise NotImplementedError

    def can_choose(self, mask: np.ndarray) -> bool:
        """Whether :meth:`choose` can pick from ``mask`` (else the helper decides)."""
        return bool(mask.any())

    def interject(self, view: PlayerView) -> Action | None:
        return self.helper.interject(view)

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        decision = view.decision
        assert decision is not None
        if decision.kind == TRADE:
            return self.helper.decide(view, legal)
        if view.turn != self._turn:
            self._turn, self._free_used, self._offers = view.turn, 0, 0
        mask = core_mask(view, self._free_used < self.max_free_actions)
        if not self.can_choose(mask):
            return self.helper.decide(view, legal)
        action_id = self.choose(view, mask)
        if not mask[action_id]:
            raise ValueError(f"{CATALOGUE.describe(action_id)} is not in the core-mode mask")
        action = CATALOGUE.action(cast(Game, view), view.seat, action_id)
        assert action is not None, CATALOGUE.describe(action_id)
        if action not in legal:
            self._free_used += 1
        elif decision.kind in (ROLL, JAIL) and self._offers < MAX_OFFERS:
            # before the roll, when the building is done: the helper's trade offers
            self._offers += 1
            offer = self.helper.offer(view)
            if offer is not None and view.is_legal(offer):
                return offer
        return action


class LearnedBot(CoreModeBot):
    """The ``learned`` level (or any core-mode policy file): see the module docstring."""

    def __init__(
        self,
        seed: int = 0,
        policy: str | Path | MaskedMLP | None = None,
        helper: str | Bot = DEFAULT_HELPER,
    ) -> None:
        super().__init__(seed, helper)
        if not isinstance(policy, MaskedMLP):
            policy = MaskedMLP.load(policy if policy is not None else packaged_policy())
        self.policy = policy

    def choose(self, view: PlayerView, mask: np.ndarray) -> int:
        return self.policy(observe(view), mask)

    def can_choose(self, mask: np.ndarray) -> bool:
        return bool(mask[: self.policy.actions].any())
