"""OpenSpiel states clone through the engine's own copy: equal, independent, searchable."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from monopoly.rl.openspiel import WorthEvaluator, random_playout


def _played(game: pyspiel.Game, moves: int, seed: int) -> pyspiel.State:
    return random_playout(game.new_initial_state(), moves, random.Random(seed))


def test_clone_is_equal_and_independent() -> None:
    game = pyspiel.load_game("python_monopoly", {"players": 3, "rules": "speed"})
    for seed in range(3):
        state = _played(game, 400, seed)
        twin = state.clone()
        assert str(twin) == str(state)
        assert twin.history() == state.history()
        for player in range(3):
            assert twin.information_state_string(player) == state.information_state_string(player)
            assert twin.observation_tensor(player) == state.observation_tensor(player)
        before = (str(state), state.history(), state.information_state_string(0))
        rng = random.Random(seed)
        for _ in range(200):  # play the clone on; the original must not move
            if twin.is_terminal():
                break
            if twin.is_chance_node():
                twin.apply_action(rng.choice(twin.chance_outcomes())[0])
            else:
                twin.apply_action(rng.choice(twin.legal_actions()))
        assert (str(state), state.history(), state.information_state_string(0)) == before


def test_mcts_with_the_worth_evaluator_picks_a_legal_action() -> None:
    game = pyspiel.load_game("python_monopoly", {"players": 2})
    state = _played(game, 300, 1)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    evaluator = WorthEvaluator(10, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 30, evaluator, random_state=np.random.RandomState(0))
    assert bot.step(state) in state.legal_actions()
