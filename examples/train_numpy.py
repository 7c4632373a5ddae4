"""Learn to beat `easy` heads-up with numpy alone (cross-entropy method).

    pip install ".[rl]"
    python examples/train_numpy.py                 # about 10-20 minutes on one core
    python examples/train_numpy.py --iterations 3  # a quick look

The policy is tiny and readable: one preference weight per kind of action (roll, buy,
decline, each bid template, build, build a row, mortgage, each trade template, …) plus
two weights that make spending depend on cash in hand. At each decision it takes the
legal id with the highest score. The cross-entropy method samples weight vectors from a
Gaussian, plays each against `easy` in the Gymnasium environment, keeps the best ones
and refits the Gaussian to them. Fitness is the win share plus a small net-worth
shaping (see docs/rl.md), averaged over a few games with common seeds.

At the end it plays fresh games against `easy` with the learnt weights and with a
uniformly random masked policy, and prints both win rates. This script is documented
but not run in CI (it takes minutes, not seconds).
"""

from __future__ import annotations

import argparse

import numpy as np

from monopoly.rl.catalogue import CATALOGUE
from monopoly.rl.gym_env import MonopolyGymEnv
from monopoly.rl.observation import MONEY_SCALE, OBS_LAYOUT

SPLIT_BLOCKS = ("jail", "bid")
"""Blocks whose ids get a weight each (the others share one weight per block)."""
SPENDING = ("buy", "bid", "build", "build_row", "unmortgage", "trade_buy", "trade_buy_high")


def kinds() -> tuple[np.ndarray, int]:
    """For every id, the index of its weight."""
    index = np.zeros(CATALOGUE.size, dtype=np.int64)
    names: dict[str, int] = {}
    for action_id in range(CATALOGUE.size):
        block, i = CATALOGUE.split(action_id)
        key = f"{block}{i}" if block in SPLIT_BLOCKS else block
        index[action_id] = names.setdefault(key, len(names))
    return index, len(names)


KIND, KINDS = kinds()
SPENDS = np.array([CATALOGUE.split(i)[0] in SPENDING for i in range(CATALOGUE.size)])
PARAMS = KINDS + 2


def act(theta: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> int:
    cash = obs[OBS_LAYOUT["seats"][0] + 2] * MONEY_SCALE / 1000.0  # my cash, in thousands
    scores = theta[KIND] + SPENDS * (theta[KINDS] + theta[KINDS + 1] * cash)
    scores = np.where(mask.astype(bool), scores, -np.inf)
    return int(np.argmax(scores))


def play(policy: object, seeds: list[int], shaping: float = 0.0) -> float:
    total = 0.0
    env = MonopolyGymEnv(opponents=["easy"], shaping=shaping, max_steps=3000)
    rng = np.random.default_rng(0)
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            mask = info["action_mask"]
            if policy is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = act(policy, obs, mask)  # type: ignore[arg-type]
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
    return total / len(seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=12)
    parser.add_argument("--population", type=int, default=16)
    parser.add_argument("--elite", type=int, default=4)
    parser.add_argument("--games", type=int, default=6, help="games per candidate")
    parser.add_argument("--test-games", type=int, default=100)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    mean, std = np.zeros(PARAMS), np.full(PARAMS, 1.0)
    for iteration in range(args.iterations):
        seeds = [int(s) for s in rng.integers(0, 2**31, args.games)]
        population = mean + std * rng.standard_normal((args.population, PARAMS))
        fitness = np.array([play(theta, seeds, shaping=0.5) for theta in population])
        elite = population[np.argsort(fitness)[-args.elite :]]
        mean, std = elite.mean(axis=0), elite.std(axis=0) + 0.05
        print(f"iteration {iteration + 1}: best {fitness.max():.3f}, mean {fitness.mean():.3f}")
    test = list(range(10_000, 10_000 + args.test_games))
    learnt, random_rate = play(mean, test), play(None, test)
    print(f"win share against easy over {args.test_games} new games:")
    print(f"  learnt weights  {learnt:.3f}")
    print(f"  random policy   {random_rate:.3f}")
    np.save("monopoly_cem_weights.npy", mean)


if __name__ == "__main__":
    main()
