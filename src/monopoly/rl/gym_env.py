"""The Gymnasium single-agent environment: one learner against chosen computer players.

>>> import gymnasium as gym
>>> from monopoly.rl.gym_env import MonopolyGymEnv
>>> e = MonopolyGymEnv(opponents=["easy", "normal", "hard"])
>>> obs, info = e.reset(seed=3)
>>> obs, reward, terminated, truncated, info = e.step(e.action_space.sample(info["action_mask"]))

``opponents`` is a list of levels (names, ``module:Class`` or bot objects) or an
:class:`~monopoly.rl.selfplay.OpponentPool`, which draws them anew at every reset.
The learner's seat is ``seat`` (default: drawn from the reset seed, so a policy sees
every seat). The observation is the vector of :mod:`monopoly.rl.observation`; the mask
of legal ids is ``info["action_mask"]`` and :meth:`action_masks` (the name that
masked-PPO libraries call). Rewards are those of :mod:`monopoly.rl.aec_env`. With
``out_of_turn=True`` (the default) the learner also gets out-of-turn windows when the
opponents' turns start (building, mortgaging, trading; ``done`` ends the window).

An id outside the mask changes nothing and is answered with reward
``illegal_reward`` (default 0) and ``info["illegal"] = True``; the learner moves again.
This keeps unmasked samplers (and ``gymnasium.utils.env_checker``) safe.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from monopoly.bots.base import Bot
from monopoly.core.game import Game
from monopoly.core.records import record_of
from monopoly.core.rules import RuleSet
from monopoly.core.view import PlayerView

from .catalogue import SIZE, mask_of
from .driver import (
    DEFAULT_MAX_TURNS,
    Driver,
    IllegalAction,
    check_driver_options,
    worth_share,
)
from .observation import OBS_HIGH, OBS_SIZE, Observer, observe_dict
from .selfplay import OpponentPool


class MonopolyGymEnv(gym.Env[np.ndarray, int]):
    """One learner seat against computer players; see the module docstring."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 (gymnasium declares it so)

    def __init__(
        self,
        opponents: Sequence[str | Bot] | OpponentPool = ("normal",),
        edition: str = "classic",
        rules: RuleSet | str = "standard",
        language: str = "en",
        seat: int | None = None,
        shaping: float = 0.0,
        loss_reward: float = 0.0,
        illegal_reward: float = 0.0,
        max_steps: int = 20_000,
        max_free_actions: int = 8,
        trades: bool = True,
        out_of_turn: bool = True,
        render_mode: str | None = None,
        mode: str = "full",
        helper: str = "normal",
        max_turns: int = DEFAULT_MAX_TURNS,
    ) -> None:
        self.pool: OpponentPool | None = None
        self.opponents: list[str | Bot] = []
        if isinstance(opponents, OpponentPool):
            self.pool = opponents
        else:
            self.opponents = list(opponents)
        self.players = (self.pool.seats if self.pool else len(self.opponents)) + 1
        Game.new(self.players, edition, rules, 0, language)  # fail now on a bad set-up
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}, got {seat}")
        self.config = (edition, rules, language)
        self.fixed_seat = seat
        self.shaping = shaping
        self.loss_reward = loss_reward
        self.illegal_reward = illegal_reward
        self.max_steps = max_steps
        self.max_free_actions = max_free_actions
        self.trades = trades
        self.out_of_turn = out_of_turn
        self.render_mode = render_mode
        self.mode = mode
        self.helper = helper
        self.max_turns = max_turns
        check_driver_options(mode, helper, max_turns)
        self.observation_space = spaces.Box(0.0, OBS_HIGH, (OBS_SIZE,), np.float32)
        self.action_space = spaces.Discrete(SIZE)  # type: ignore[assignment]
        self._seeds = random.Random()
        self.driver: Driver | None = None
        self.seat = 0
        self._observer = Observer()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds.seed(seed)
        game_seed = self._seeds.randrange(2**31)
        self.seat = self.fixed_seat if self.fixed_seat is not None else game_seed % self.players
        others = iter(self.pool.draw(self._seeds) if self.pool else self.opponents)
        bots = {s: next(others) for s in range(self.players) if s != self.seat}
        edition, rules, language = self.config
        game = Game.new(self.players, edition, rules, game_seed, language)
        self.driver = Driver(
            game,
            bots,
            game_seed,
            self.max_free_actions,
            self.trades,
            self.out_of_turn,
            mode=self.mode,
            helper=self.helper,
            max_turns=self.max_turns,
        )
        self.steps = 0
        self._potential = worth_share(game, self.seat)
        return self._observation(), self._info()

    @property
    def game(self) -> Game:
        assert self.driver is not None, "call reset() first"
        return self.driver.game

    def _observation(self) -> np.ndarray:
        driver = self.driver
        assert driver is not None
        seat = self.seat
        return self._observer.observe(
            driver.views[seat], driver.claim_seat == seat, driver.window_seat == seat
        )

    def action_masks(self) -> np.ndarray:
        moves = self.driver is not None and self.driver.to_move() == self.seat
        return mask_of(self.driver.legal_ids(self.seat) if self.driver and moves else ())

    def _info(self, illegal: bool = False) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "illegal": illegal, "seat": self.seat}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        driver = self.driver
        assert driver is not None, "call reset() first"
        game = driver.game
        if driver.stopped is not None or not game.active[self.seat]:
            raise RuntimeError("the episode has ended: call reset()")
        self.steps += 1  # illegal steps count too: every episode ends
        try:
            driver.step(int(action))
        except IllegalAction:
            truncated = self.steps >= self.max_steps
            return self._observation(), self.illegal_reward, False, truncated, self._info(True)
        reward = 0.0
        if self.shaping:
            now = worth_share(game, self.seat)
            reward += self.shaping * (now - self._potential)
            self._potential = now
        terminated = game.over or not game.active[self.seat]
        if terminated:
            won = game.over and self.seat in game.winners
            reward += 1.0 / len(game.winners) if won else self.loss_reward
        truncated = not terminated and (
            self.steps >= self.max_steps or driver.stopped == "turn_limit"
        )
        return self._observation(), reward, terminated, truncated, self._info()

    def state_dict(self) -> dict[str, Any]:
        """The dict form of the learner's observation."""
        driver = self.driver
        assert driver is not None
        seat = self.seat
        return observe_dict(
            PlayerView(driver.game, seat), driver.claim_seat == seat, driver.window_seat == seat
        )

    def record(self) -> dict[str, Any]:
        """The episode so far as a replayable game record."""
        return record_of(self.game)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.driver is None:
            return None
        game = self.game
        return f"turn {game.turn}: cash {game.cash}, positions {game.position}"


gym.register("monopoly/Monopoly-v0", entry_point="monopoly.rl.gym_env:MonopolyGymEnv")
