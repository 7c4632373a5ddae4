"""OpenSpiel: the game registered with explicit chance nodes, run by OpenSpiel's own
tools (its random simulation test, MCTS) and checked against the engine."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")  # the optional extra .[openspiel]

from open_spiel.python.algorithms import mcts  # noqa: E402

import monopoly.rl.openspiel  # noqa: E402, F401  (registers the game)
from monopoly.core.actions import Roll  # noqa: E402
from monopoly.core.game import Game  # noqa: E402
from monopoly.core.outcomes import dice_outcomes  # noqa: E402
from monopoly.core.records import record_of, replay  # noqa: E402
from monopoly.rl.catalogue import CATALOGUE  # noqa: E402


def _play(state: object, rng: random.Random) -> tuple[int, int]:
    chance = moves = 0
    while not state.is_terminal():  # type: ignore[attr-defined]
        if state.is_chance_node():  # type: ignore[attr-defined]
            outcomes = state.chance_outcomes()  # type: ignore[attr-defined]
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
            chance += 1
        else:
            action = rng.choice(state.legal_actions())  # type: ignore[attr-defined]
            moves += 1
        state.apply_action(action)  # type: ignore[attr-defined]
    return chance, moves


@pytest.mark.parametrize(
    ("params"),
    [
        {"players": 2, "max_turns": 40},
        {"players": 3, "rules": "short+speed", "edition": "zelda", "max_turns": 40},
    ],
)
def test_random_playouts_match_the_engine(params: dict[str, object]) -> None:
    """Every legal OpenSpiel action is one the engine takes; the engine game that
    results replays from its record to the same end, and OpenSpiel's returns name
    the engine's winners."""
    game = pyspiel.load_game("python_monopoly", params)
    state = game.new_initial_state()
    assert state.is_chance_node()  # the decks are shuffled first
    chance, moves = _play(state, random.Random(1))
    assert chance > 10 and moves > 50
    engine = state.game
    assert engine.over
    again = replay(json.loads(json.dumps(record_of(engine))))
    assert again.winners == engine.winners and again.cash == engine.cash
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0)
    assert [s for s, r in enumerate(returns) if r > 0] == list(engine.winners)


def test_dice_chance_node_has_the_engine_outcomes() -> None:
    """Rolling is a chance node of 36 rolls at 1/36; choosing (2, 4) moves 6 spaces (from
    GO to Oriental Avenue: no card to move the token on)."""
    game = pyspiel.load_game("python_monopoly", {"players": 2})
    state = game.new_initial_state()
    step = 0
    while state.is_chance_node():  # shuffles and the turn-order rolls (no ties: they differ)
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[step % len(outcomes)][0])
        step += 1
    seat = state.current_player()
    assert state.legal_actions()[0] == CATALOGUE.id("roll")
    before = state.game.position[seat]
    state.apply_action(CATALOGUE.id("roll"))
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36 and all(p == pytest.approx(1 / 36) for _, p in outcomes)
    index = [roll for roll, _ in dice_outcomes(False)].index((2, 4))
    state.apply_action(index)
    assert not state.is_chance_node()
    assert state.game.position[seat] == before + 6
    assert state.game.last_roll[:2] == (2, 4)


def test_speed_die_probabilities_are_exact() -> None:
    odds = dict(dice_outcomes(True))
    assert len(odds) == 180 and sum(odds.values()) == 1
    assert odds[(1, 1, 5)] == Fraction(2, 216)  # Mr. Monopoly is on two faces
    assert odds[(1, 1, 4)] == Fraction(1, 216)


def test_engine_chance_outcomes_view_changes_nothing() -> None:
    game = Game.new(2, "classic", "standard", 3)
    before = json.dumps(record_of(game))
    event = game.chance_outcomes(Roll(game.decision.seat))
    assert event is not None and event.kind == "dice" and len(event.outcomes()) == 36
    assert json.dumps(record_of(game)) == before


def test_openspiel_random_sim_test() -> None:
    game = pyspiel.load_game("python_monopoly", {"players": 2, "max_turns": 10})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_openspiel_mcts_bot_plays_legal_moves() -> None:
    game = pyspiel.load_game("python_monopoly", {"players": 2, "max_turns": 6})
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 3, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 12:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 12 or state.game.over
