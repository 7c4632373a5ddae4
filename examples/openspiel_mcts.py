"""OpenSpiel's MCTS bot playing MONOPOLY against a random player.

    pip install ".[openspiel]"
    python examples/openspiel_mcts.py            # plain MCTS
    python examples/openspiel_mcts.py --ismcts   # information-set MCTS

The game is registered with explicit chance nodes (dice, shuffles), so OpenSpiel's own
`MCTSBot` searches it unchanged: chance nodes are sampled by their probabilities, and
random rollouts evaluate the leaves. `max_turns` keeps playouts short (the richest
player wins at the limit); it still takes a few minutes, every simulation being a
random game to that limit. Plain MCTS clones the true state, deck order included: it
searches with knowledge no player has. With ``--ismcts`` OpenSpiel's information-set
MCTS searches worlds drawn with ``resample_from_infostate`` instead (the unseen cards in
a random order), keyed by the player's information state: a fair player.
"""

from __future__ import annotations

import sys

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import monopoly.rl.openspiel  # noqa: F401  (registers "python_monopoly")


def main() -> None:
    game = pyspiel.load_game("python_monopoly", {"players": 2, "max_turns": 16, "trades": False})
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    if "--ismcts" in sys.argv:
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=8, random_state=rng)
    else:
        bot = mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            action = bot.step(state)
            print("search:", state.action_to_string(0, action))
            state.apply_action(action)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    print("returns (search, random):", state.returns())


if __name__ == "__main__":
    main()
