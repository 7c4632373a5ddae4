"""Self-play tools: a policy as a computer player, the opponent pool, vector envs."""

from __future__ import annotations

import random

import numpy as np
import pytest

from monopoly.bots.base import BotError, make_bot, play
from monopoly.bots.driver import BadAnswerError
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from monopoly.rl.catalogue import CATALOGUE
from monopoly.rl.gym_env import MonopolyGymEnv
from monopoly.rl.observation import OBS_SIZE
from monopoly.rl.selfplay import OpponentPool, PolicyBot, make_vector_env


def _random_policy(seed: int):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    return lambda obs, mask: int(rng.choice(np.flatnonzero(mask)))


def test_policy_bot_plays_whole_games_like_a_level() -> None:
    rules = RuleSet.named("speed", turn_limit=300)
    for seed in range(4):
        game = Game.new(3, "classic", rules, seed)
        bots = [PolicyBot(_random_policy(seed)), make_bot("normal", 1), make_bot("easy", 2)]
        play(game, bots)  # strict: any refused answer would raise
        assert game.over


def test_policy_bot_sees_its_decision_in_the_mask() -> None:
    seen: list[set[str]] = []

    def cautious(obs: np.ndarray, mask: np.ndarray) -> int:
        assert obs.shape == (OBS_SIZE,)
        ids = np.flatnonzero(mask)
        seen.append({CATALOGUE.split(int(i))[0] for i in ids})
        return int(ids[0])

    game = Game.new(2, "classic", RuleSet.named("standard", turn_limit=60), 4)
    play(game, [PolicyBot(cautious), make_bot("normal", 3)])
    blocks = set().union(*seen)
    assert {"roll", "buy", "decline"} <= blocks
    assert not blocks & {"trade_buy", "trade_sell", "unmortgage", "build", "done"}


def test_policy_choosing_a_refused_id_is_reported() -> None:
    game = Game.new(2, "classic", "standard", 1)
    bad = PolicyBot(lambda obs, mask: CATALOGUE.id("buy"), name="buyer")
    with pytest.raises(BadAnswerError, match="seat 0"):
        play(game, [bad, make_bot("normal", 1)])
    with pytest.raises(ValueError, match="outside"):
        PolicyBot(lambda obs, mask: 10_000).decide(
            __import__("monopoly.core.view", fromlist=["PlayerView"]).PlayerView(
                Game.new(2, "classic", "standard", 1), 0
            ),
            [],
        )


def test_opponent_pool_draws_new_opponents_each_reset() -> None:
    made: list[int] = []

    def snapshot(seed: int) -> PolicyBot:
        made.append(seed)
        return PolicyBot(_random_policy(seed), name="snapshot")

    pool = OpponentPool(["easy", "normal"], seats=2)
    pool.add(snapshot, weight=2.0)
    env = MonopolyGymEnv(opponents=pool, mode="core", max_turns=30)
    assert env.players == 3
    line_ups = set()
    for episode in range(8):
        env.reset(seed=episode)
        assert env.driver is not None
        line_ups.add(tuple(sorted(type(b).__name__ for b in env.driver.bots.values())))
    assert len(line_ups) > 2
    assert made and len(set(made)) == len(made), "a fresh snapshot bot for every game"
    with pytest.raises(BotError):
        OpponentPool(["grandmaster"])
    with pytest.raises(ValueError, match="seats"):
        OpponentPool(["easy"], seats=0)


def test_vector_env_steps_several_games_with_their_masks() -> None:
    envs = make_vector_env(3, opponents=["normal", "easy"], mode="core", max_turns=40)
    obs, infos = envs.reset(seed=5)
    assert obs.shape == (3, OBS_SIZE)
    rng = random.Random(0)
    episodes_done = 0
    ended = np.zeros(3, dtype=bool)
    for _ in range(300):
        masks = infos["action_mask"]
        assert masks.shape[0] == 3
        # an ended game has an empty mask; its next step only resets it (gymnasium's
        # next-step autoreset), whatever the action
        assert ((masks.sum(axis=1) == 0) == ended).all()
        actions = [rng.choice(list(np.flatnonzero(row)) or [0]) for row in masks]
        obs, _rewards, terminated, truncated, infos = envs.step(np.array(actions))
        assert not infos["illegal"].any()
        ended = terminated | truncated
        episodes_done += int(ended.sum())
    envs.close()
    assert episodes_done > 0
