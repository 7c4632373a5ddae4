"""A random agent through the PettingZoo AEC environment.

    pip install ".[rl]"
    python examples/pettingzoo_random.py [record.json]

Three random agents and one `hard` computer player play a Speed Die game on the Zelda
board; every agent picks uniformly among the ids its action mask allows, also in the
out-of-turn windows other seats get when a turn starts. The episode is saved as a game
record (to the path given, else a file in the system's temporary directory) that
`monopoly replay <file>` plays back.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

import numpy as np

from monopoly.rl import env
from monopoly.rl.catalogue import CATALOGUE


def main() -> None:
    game_env = env(players=4, edition="zelda", rules="speed", bots={3: "hard"})
    game_env.reset(seed=7)
    rng = np.random.default_rng(7)
    steps = 0
    totals: dict[str, float] = {}
    for agent in game_env.agent_iter():
        obs, reward, terminated, truncated, _info = game_env.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            game_env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        if steps < 10:
            print(f"{agent}: {CATALOGUE.describe(action)}")
        game_env.step(action)
        steps += 1
    game = game_env.unwrapped.game
    print(f"{steps} agent steps, {game.turn} turns, winners {game.winners} ({game.end_reason})")
    print("rewards:", totals)
    path = (
        sys.argv[1]
        if len(sys.argv) > 1
        else os.path.join(tempfile.gettempdir(), "random_game.json")
    )
    with open(path, "w", encoding="utf-8") as out:
        json.dump(game_env.unwrapped.record(), out)
    print(f"saved {path}")


if __name__ == "__main__":
    main()
