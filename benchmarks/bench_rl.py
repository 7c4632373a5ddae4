"""RL environment throughput: environment steps per second (one agent decision each).

    .venv/bin/python benchmarks/bench_rl.py                 # all three interfaces
    .venv/bin/python benchmarks/bench_rl.py --steps 50000 --players 4

* PettingZoo AEC: every seat an agent choosing uniformly among its masked ids; a step
  is one ``env.step`` (``env.last()`` with the observation and mask included).
* Gymnasium: one learner choosing uniformly among its masked ids against ``normal``
  players; a step is one ``env.step`` (the computer players' moves inside it).
* OpenSpiel: uniform random playouts; a step is one player action (chance nodes are
  sampled too and counted separately).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from monopoly.core.rules import RuleSet


def bench_aec(steps: int, players: int, rules: RuleSet) -> float:
    from monopoly.rl.aec_env import raw_env

    env = raw_env(players=players, rules=rules)
    rng = np.random.default_rng(0)
    done = 0
    episode = 0
    start = time.perf_counter()
    while done < steps:
        env.reset(seed=episode)
        episode += 1
        for _agent in env.agent_iter():
            obs, _r, terminated, truncated, _i = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done += 1
            if done >= steps:
                break
    return done / (time.perf_counter() - start)


def bench_gym(steps: int, players: int, rules: RuleSet) -> float:
    from monopoly.rl.gym_env import MonopolyGymEnv

    env = MonopolyGymEnv(opponents=["normal"] * (players - 1), rules=rules)
    rng = np.random.default_rng(0)
    done = 0
    start = time.perf_counter()
    _obs, info = env.reset(seed=0)
    while done < steps:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _obs, _r, terminated, truncated, info = env.step(action)
        done += 1
        if terminated or truncated:
            _obs, info = env.reset()
    return done / (time.perf_counter() - start)


def bench_openspiel(steps: int, players: int, rules: str) -> tuple[float, int]:
    import pyspiel

    import monopoly.rl.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_monopoly", {"players": players, "rules": rules})
    rng = random.Random(0)
    done = chance = 0
    start = time.perf_counter()
    while done < steps:
        state = game.new_initial_state()
        while not state.is_terminal() and done < steps:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                weights = [p for _, p in outcomes]
                state.apply_action(rng.choices([o for o, _ in outcomes], weights)[0])
                chance += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                done += 1
    return done / (time.perf_counter() - start), chance


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20_000, help="steps per interface")
    parser.add_argument("--players", type=int, default=4, help="players per game (4)")
    parser.add_argument("--rules", default="standard", help="rule set (standard)")
    parser.add_argument("--only", choices=("aec", "gym", "openspiel"), help="one interface")
    args = parser.parse_args(argv)
    rules = RuleSet.named(args.rules)
    print(f"{args.steps} steps each, {args.players} players, rules {rules.describe()}")
    if args.only in (None, "aec"):
        print(f"PettingZoo AEC   {bench_aec(args.steps, args.players, rules):10.0f} steps/s")
    if args.only in (None, "gym"):
        print(f"Gymnasium        {bench_gym(args.steps, args.players, rules):10.0f} steps/s")
    if args.only in (None, "openspiel"):
        rate, chance = bench_openspiel(args.steps, args.players, args.rules)
        print(f"OpenSpiel        {rate:10.0f} player steps/s ({chance} chance nodes)")


if __name__ == "__main__":
    main()
