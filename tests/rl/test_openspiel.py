"""OpenSpiel: the game registered with explicit chance nodes, run by OpenSpiel's own
tools (its random simulation test, MCTS) and checked against the engine."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")  # the optional extra .[openspiel]

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import monopoly.rl.openspiel  # noqa: E402, F401  (registers the game)
from monopoly.core.actions import Roll  # noqa: E402
from monopoly.core.game import Game  # noqa: E402
from monopoly.core.outcomes import dice_outcomes  # noqa: E402
from monopoly.core.records import record_of, replay  # noqa: E402
from monopoly.rl.catalogue import CATALOGUE  # noqa: E402
from monopoly.rl.openspiel import DECK_SLOTS, OBS_SIZE  # noqa: E402


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
    """OpenSpiel's own consistency test; with the information state declared it also
    reads every player's information state string and tensor at every state."""
    game = pyspiel.load_game("python_monopoly", {"players": 2, "max_turns": 10})
    assert game.get_type().provides_information_state_string
    assert game.get_type().provides_information_state_tensor
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def _play_until_cards_seen(seed: int, cards: int) -> object:
    """A two-player game played randomly until ``cards`` cards have been turned up, stopped
    at a player's decision."""
    game = pyspiel.load_game("python_monopoly", {"players": 2, "max_turns": 300})
    state = game.new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node() or sum(len(s) for s in state.seen.values()) < cards:
        assert not state.is_terminal()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    return state


def test_information_state_hides_the_deck_order_and_keeps_cards_seen() -> None:
    """Worlds resampled for a player differ in the order of the unseen cards only: the
    player's information state (string and tensor), observation and legal actions are
    those of the real state, and every card already turned up keeps its place."""
    state = _play_until_cards_seen(3, 4)
    player = state.current_player()
    real = {role: list(deck) for role, deck in state.game.decks.items()}
    sampler = random.Random(5).random
    orders = set()
    for _ in range(6):
        world = state.resample_from_infostate(player, sampler)
        for p in range(2):
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.information_state_tensor(p) == state.information_state_tensor(p)
            assert world.observation_string(p) == state.observation_string(p)
        assert world.legal_actions() == state.legal_actions()
        for role, deck in world.game.decks.items():
            assert sorted(deck) == sorted(real[role])
            for key, true_key in zip(deck, real[role], strict=True):
                if true_key in state.seen[role]:
                    assert key == true_key
        orders.add(tuple(tuple(deck) for deck in world.game.decks.values()))
    assert len(orders) > 1  # the unseen cards really are shuffled
    assert state.game.decks == {r: type(d)(real[r]) for r, d in state.game.decks.items()}


def test_information_state_string_is_the_history_without_shuffles() -> None:
    """The string is a perfect-recall history: the shuffles appear only as ``shuffle ?``,
    the cards turned up by name; players differ only in the first line."""
    state = _play_until_cards_seen(11, 1)
    text = state.information_state_string(0)
    lines = text.splitlines()
    assert lines[0] == "player 0"
    assert state.information_state_string(1).splitlines()[1:] == lines[1:]
    assert "shuffle ?" in lines
    assert not any(line.startswith("shuffle ") and line != "shuffle ?" for line in lines)
    (role, seen), *_ = [(r, s) for r, s in state.seen.items() if s]
    assert f"card {role} {next(iter(seen))}" in lines
    # the tensor: the observation, then each deck's known layout (one card known)
    tensor = np.array(state.information_state_tensor(0))
    decks = tensor[OBS_SIZE:].reshape(2, DECK_SLOTS, DECK_SLOTS + 1)
    assert decks.sum() == sum(len(d) for d in state.game.decks.values())
    assert (decks[..., :DECK_SLOTS].sum()) == sum(len(s) for s in state.seen.values())


def play_bot_moves(game: Any, bot: Any, rng: Any, moves: int) -> None:
    """Let ``bot`` make ``moves`` decisions (chance drawn from ``rng``): each is legal."""
    state = game.new_initial_state()
    made = 0
    while not state.is_terminal() and made < moves:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        made += 1
    assert made == moves or state.game.over


def test_openspiel_ismcts_bot_plays_legal_moves() -> None:
    """OpenSpiel's information-set MCTS (the Python ``ISMCTSBot``: the C++
    ``pyspiel.ISMCTSBot`` cannot resample states of a game written in Python) searches
    worlds drawn with ``resample_from_infostate``."""
    game = pyspiel.load_game("python_monopoly", {"players": 2, "max_turns": 6})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), 2.0, max_simulations=4, random_state=rng
    )
    play_bot_moves(game, bot, rng, 8)


def test_openspiel_mcts_bot_plays_legal_moves() -> None:
    game = pyspiel.load_game("python_monopoly", {"players": 2, "max_turns": 6})
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 2.0, 3, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    play_bot_moves(game, bot, rng, 12)
