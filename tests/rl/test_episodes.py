"""Every episode ends (turn limit, learner out, refused ids count), the ``core``
action-space mode, and the package's ``env`` function after every import."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from monopoly.core.actions import AcceptTrade, ProposeTrade, RejectTrade
from monopoly.core.state import TRADE
from monopoly.rl.aec_env import raw_env
from monopoly.rl.catalogue import CATALOGUE
from monopoly.rl.driver import DEFAULT_MAX_TURNS, Driver
from monopoly.rl.gym_env import MonopolyGymEnv
from tests.scenario import start


def test_env_stays_callable_after_every_rl_import() -> None:
    for module in ("monopoly.rl.gym_env", "monopoly.rl.aec_env", "monopoly.rl.openspiel"):
        importlib.import_module(module)
    import monopoly.rl

    made = monopoly.rl.env(players=2)
    made.reset(seed=1)
    assert made.agents == ["player_0", "player_1"]


def _rich_standoff() -> object:
    """The hang that was reported: two `normal` players with millions each, so nobody
    can go bankrupt in a long time (standard rules have no turn limit)."""
    rich = {"cash": 3_000_000}
    return start({"players": [dict(rich), dict(rich), dict(rich)]}, seed=5)


def test_rich_standoff_is_truncated_at_the_turn_limit() -> None:
    env = raw_env(players=3, bots={1: "normal", 2: "normal"}, max_turns=40)
    env.reset(seed=5, options={"game": _rich_standoff()})
    steps = 0
    for _agent in env.agent_iter(max_iter=10_000):
        _obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(env.legal_ids()[0])
        steps += 1
    game = env.game
    assert not game.over
    assert game.turn == 41, "stopped as turn 41 was about to begin"
    assert env.driver is not None and env.driver.stopped == "turn_limit"
    assert steps < 1000


def test_gym_default_turn_limit_truncates() -> None:
    env = MonopolyGymEnv(opponents=["normal", "normal"])
    assert env.max_turns == DEFAULT_MAX_TURNS == 1000
    env = MonopolyGymEnv(opponents=["normal", "normal"], max_turns=30, seat=0)
    _obs, info = env.reset(seed=2)
    while True:  # the learner always takes the first legal id: a long game
        _obs, _r, terminated, truncated, info = env.step(
            int(np.flatnonzero(info["action_mask"])[0])
        )
        if terminated or truncated:
            break
    assert truncated and not terminated
    assert env.game.turn == 31 and not env.game.over


def test_episode_ends_as_soon_as_the_learner_is_bankrupt() -> None:
    env = MonopolyGymEnv(opponents=["normal", "normal", "normal"])
    rng = np.random.default_rng(0)
    _obs, info = env.reset(seed=11)
    terminated = truncated = False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _obs, reward, terminated, truncated, info = env.step(action)
    assert terminated and reward == 0.0
    assert not env.game.active[env.seat]
    assert not env.game.over, "the computer players were not left to play on"
    assert env.driver is not None and env.driver.stopped == "agents_out"
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_refused_ids_count_toward_truncation() -> None:
    env = MonopolyGymEnv(opponents=["easy"], max_steps=25, seat=0)
    _obs, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    for step in range(1, 26):
        _obs, _r, terminated, truncated, info = env.step(illegal)
        assert info["illegal"] and not terminated
        assert truncated == (step == 25)


def test_core_mode_mask_has_no_trades_and_the_helper_answers_offers() -> None:
    trade_blocks = {"trade_buy", "trade_buy_high", "trade_sell", "accept", "reject", "done"}
    for seed in range(3):
        env = MonopolyGymEnv(opponents=["hard", "normal", "hard"], mode="core", seat=seed)
        rng = np.random.default_rng(seed)
        _obs, info = env.reset(seed=seed)
        while True:
            ids = np.flatnonzero(info["action_mask"])
            assert ids.size, "the learner moves only with a legal id"
            assert not {CATALOGUE.split(int(i))[0] for i in ids} & trade_blocks
            decision = env.game.decision
            assert decision is not None and decision.kind != TRADE
            _obs, _r, terminated, truncated, info = env.step(int(rng.choice(ids)))
            if terminated or truncated:
                break


def test_core_mode_random_agent_takes_few_steps_per_player_turn() -> None:
    env = MonopolyGymEnv(opponents=["normal"] * 3, mode="core")
    rng = np.random.default_rng(1)
    steps = turns = 0
    for episode in range(6):
        _obs, info = env.reset(seed=episode)
        done = False
        while not done:
            _obs, _r, terminated, truncated, info = env.step(
                int(rng.choice(np.flatnonzero(info["action_mask"])))
            )
            steps += 1
            done = terminated or truncated
        turns += env.game.turn
    assert steps / turns <= 4.0


def test_core_mode_helper_offers_and_answers_trades_for_the_agent() -> None:
    """Seat 0 (the agent) holds two of the three light blues, seat 1 the third: before
    the agent's first roll its helper offers to buy the missing one, and the offer
    seat 1 makes back is answered by the helper too; the agent itself only rolls."""
    game = start(
        {
            "players": [{}, {}],
            "properties": {"6": {"owner": 0}, "8": {"owner": 0}, "9": {"owner": 1}},
        },
        seed=3,
    )
    driver = Driver(game, {1: "normal"}, mode="core", helper="hard", max_turns=200)
    assert CATALOGUE.id("roll") in driver.legal_ids()
    driver.step(CATALOGUE.id("roll"))
    actions = [entry[1] for entry in game.record if entry[0] == "action"]
    first = actions[0]
    assert isinstance(first, ProposeTrade) and first.seat == 0 and first.take == (9,)
    assert any(isinstance(a, ProposeTrade) and a.partner == 0 for a in actions)
    assert any(isinstance(a, AcceptTrade | RejectTrade) and a.seat == 0 for a in actions)


def test_bad_mode_and_limits_are_refused() -> None:
    with pytest.raises(ValueError, match="mode"):
        MonopolyGymEnv(mode="lazy")
    with pytest.raises(ValueError, match="max_turns"):
        raw_env(players=2, max_turns=-1)
    with pytest.raises(ValueError, match="unknown bot"):
        MonopolyGymEnv(mode="core", helper="genius")
