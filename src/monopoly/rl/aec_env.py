"""The PettingZoo AEC environment: one agent per seat not played by a built-in level.

>>> from monopoly.rl import env
>>> e = env(players=4, edition="zelda", rules="speed", bots={3: "hard"})
>>> e.reset(seed=7)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(
...         obs["action_mask"])
...     e.step(action)

Observations are dicts ``{"observation": float32[OBS_SIZE], "action_mask": int8[SIZE]}``
(see :mod:`monopoly.rl.observation` and :mod:`monopoly.rl.catalogue`); ``infos[agent]``
holds the dict form of the observation under ``"state"`` when ``dict_infos=True``.

Out of turn (R-BUILD-1, R-TRADE-1; ``out_of_turn=True``, the default): when a game turn
starts, each other agent seat that could build, sell, mortgage, lift a mortgage or
offer a trade gets a window to do so before the turn's first move, in play order, and
ends it with the id ``done`` (see :mod:`monopoly.rl.driver`). ``reset(options={"game":
game})`` starts from a given engine game (a position, a loaded record) instead.

Rewards (``docs/rl.md``): at the end of the game each winner gets ``1 / len(winners)``
(a shared win when a limit ends the game with equal fortunes), every other seat
``loss_reward`` (default 0), a seat going bankrupt at that moment. With
``shaping=c > 0`` every seat also gets ``c × (φ(after) − φ(before))`` for each step,
where φ is its share of the total net worth of the players still in the game: a
potential-based shaping, so it leaves the best policy unchanged (Ng et al. 1999) and
sums to ``c × (final share − starting share)`` over an episode.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from monopoly.bots.base import Bot
from monopoly.core.game import Game
from monopoly.core.records import record_of
from monopoly.core.rules import RuleSet
from monopoly.core.view import PlayerView

from .catalogue import CATALOGUE, SIZE, mask_of
from .driver import DEFAULT_MAX_TURNS, Driver, check_driver_options, worth_share
from .observation import OBS_HIGH, OBS_SIZE, Observer, observe_dict


def observation_space() -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, OBS_HIGH, (OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (SIZE,), np.int8),
        }
    )


class MonopolyEnv(AECEnv):  # type: ignore[misc]
    """A MONOPOLY game as an AEC environment; see the module docstring."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "monopoly_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        edition: str = "classic",
        rules: RuleSet | str = "standard",
        language: str = "en",
        bots: Mapping[int, str | Bot] | None = None,
        shaping: float = 0.0,
        loss_reward: float = 0.0,
        max_steps: int = 20_000,
        max_free_actions: int = 8,
        trades: bool = True,
        out_of_turn: bool = True,
        dict_infos: bool = False,
        render_mode: str | None = None,
        mode: str = "full",
        helper: str = "normal",
        max_turns: int = DEFAULT_MAX_TURNS,
    ) -> None:
        super().__init__()
        check_driver_options(mode, helper, max_turns)
        self.mode = mode
        self.helper = helper
        self.max_turns = max_turns
        self.config = (players, edition, rules, language)
        self.bot_specs = dict(bots or {})
        Game.new(players, edition, rules, 0, language)  # fail now on a bad set-up
        if len(self.bot_specs) >= players:
            raise ValueError("at least one seat must be left to an agent")
        self.shaping = shaping
        self.loss_reward = loss_reward
        self.max_steps = max_steps
        self.max_free_actions = max_free_actions
        self.trades = trades
        self.out_of_turn = out_of_turn
        self.dict_infos = dict_infos
        self.render_mode = render_mode
        self.seat_of = {f"player_{s}": s for s in range(players) if s not in self.bot_specs}
        self._agent_of = {s: a for a, s in self.seat_of.items()}
        self.possible_agents = list(self.seat_of)
        self.observation_spaces = {a: observation_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(SIZE) for a in self.possible_agents}
        self._observers = {a: Observer() for a in self.possible_agents}
        self._seed_source = random.Random()
        self.driver: Driver | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = self._seed_source.randrange(2**31)
        else:
            self._seed_source.seed(seed)
        players, edition, rules, language = self.config
        game = (options or {}).get("game") or Game.new(players, edition, rules, seed, language)
        if game.players != players:
            raise ValueError(f"options['game'] has {game.players} players, not {players}")
        self.driver = Driver(
            game,
            self.bot_specs,
            seed,
            self.max_free_actions,
            self.trades,
            self.out_of_turn,
            mode=self.mode,
            helper=self.helper,
            max_turns=self.max_turns,
        )
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.steps = 0
        self._potential = {a: worth_share(game, s) for a, s in self.seat_of.items()}
        self._after_move()

    @property
    def game(self) -> Game:
        assert self.driver is not None, "call reset() first"
        return self.driver.game

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat_of[agent]
        driver = self.driver
        assert driver is not None, "call reset() first"
        view = driver.views[seat]  # the seat's view of the game, kept by the driver
        moves = agent == self.agent_selection and not (
            self.terminations.get(agent) or self.truncations.get(agent)
        )
        return {
            "observation": self._observers[agent].observe(
                view, driver.claim_seat == seat, driver.window_seat == seat
            ),
            "action_mask": mask_of(driver.legal_ids(seat) if moves else ()),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is still playing: give an action id")
        driver = self.driver
        assert driver is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.steps += 1  # a refused id (IllegalAction) counts too
        driver.step(int(action))
        self._after_move()
        self._accumulate_rewards()
        self._deads_step_first()

    def _after_move(self) -> None:
        """Rewards, ends and the next agent after a move (or the reset)."""
        game = self.game
        if self.shaping:
            for agent, seat in self.seat_of.items():
                if agent in self.rewards:
                    now = worth_share(game, seat)
                    self.rewards[agent] += self.shaping * (now - self._potential[agent])
                    self._potential[agent] = now
        for agent, seat in self.seat_of.items():
            if agent not in self.terminations or self.terminations[agent]:
                continue
            if game.over:
                winners = game.winners
                share = 1.0 / len(winners) if seat in winners else self.loss_reward
                self.rewards[agent] += share
                self.terminations[agent] = True
            elif not game.active[seat]:
                self.rewards[agent] += self.loss_reward
                self.terminations[agent] = True
        limited = self.steps >= self.max_steps or (
            self.driver is not None and self.driver.stopped == "turn_limit"
        )
        if not game.over and limited:
            for agent in self.agents:
                self.truncations[agent] = True
        if self.dict_infos:
            for agent in self.agents:
                seat = self.seat_of[agent]
                assert self.driver is not None
                self.infos[agent] = {
                    "state": observe_dict(
                        PlayerView(game, seat),
                        self.driver.claim_seat == seat,
                        self.driver.window_seat == seat,
                    )
                }
        seat = self.driver.to_move() if self.driver else -1
        mover = self._agent_of.get(seat)
        if mover is not None and mover in self.terminations:
            self.agent_selection = mover
        elif self.agents:
            self.agent_selection = self.agents[0]

    # ------------------------------------------------------------------ extras
    def legal_ids(self) -> list[int]:
        """The ids legal for the agent to move now."""
        assert self.driver is not None, "call reset() first"
        return self.driver.legal_ids()

    def record(self) -> dict[str, Any]:
        """The episode so far as a game record (``monopoly replay`` plays it back)."""
        return record_of(self.game)

    def describe(self, action_id: int) -> str:
        return CATALOGUE.describe(action_id)

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.driver is None:
            return None
        game = self.game
        lines = [f"turn {game.turn}, decision {game.decision}"]
        for seat in range(game.players):
            lines.append(
                f"seat {seat}: cash {game.cash[seat]} on {game.position[seat]}"
                f"{'' if game.active[seat] else ' (bankrupt)'}"
            )
        return "\n".join(lines)

    def close(self) -> None:
        self.driver = None


def raw_env(**kwargs: Any) -> MonopolyEnv:
    return MonopolyEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment with PettingZoo's order-enforcing wrapper."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))
