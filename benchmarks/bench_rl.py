"""RL environment throughput: environment steps per second (one agent decision each).

    .venv/bin/python benchmarks/bench_rl.py                 # all three interfaces
    .venv/bin/python benchmarks/bench_rl.py --steps 50000 --players 4

* PettingZoo AEC: every seat an agent choosing uniformly among its masked ids; a step
  is one ``env.step`` (``env.last()`` with the observation and mask included).
* Gymnasium: one learner choosing uniformly among its masked ids against ``normal``
  players; a step is one ``env.step`` (the computer players' moves inside it).
* OpenSpiel: uniform random playouts; a step is one player action (chance nodes are
  sampled too and counted separately).
* Core mode: the Gymnasium learner in ``mode="core"``; the honest unit is player-turns
  per second (every seat's turns, the computer players' included), with the learner's
  steps per player-turn.
* OpenSpiel clone: milliseconds per ``state.clone()`` of mid-game states, and seconds
  per decision of open_spiel's Python ``MCTSBot`` with 100 simulations
  (``WorthEvaluator``: 20-step random rollouts valued by net-worth share).

Run the compiled build with ``PYTHONPATH=build/fast`` first (``scripts/build-fast.sh``).
"""

from __future__ import annotations

import argparse
import random
import time
import timeit

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


def bench_core(episodes: int, players: int, rules: RuleSet) -> tuple[float, float]:
    """Player-turns per second and learner steps per player-turn in core mode."""
    from monopoly.rl.gym_env import MonopolyGymEnv

    env = MonopolyGymEnv(opponents=["normal"] * (players - 1), rules=rules, mode="core")
    rng = np.random.default_rng(0)
    steps = turns = 0
    start = time.perf_counter()
    for episode in range(episodes):
        _obs, info = env.reset(seed=episode)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _obs, _r, terminated, truncated, info = env.step(action)
            steps += 1
            done = terminated or truncated
        turns += env.game.turn
    return turns / (time.perf_counter() - start), steps / turns


def bench_openspiel_search(players: int, rules: str, decisions: int) -> tuple[float, float]:
    """Milliseconds per state clone, seconds per MCTS decision (100 simulations)."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from monopoly.rl.openspiel import WorthEvaluator, random_playout  # registers the game

    game = pyspiel.load_game("python_monopoly", {"players": players, "rules": rules})
    states = [
        random_playout(game.new_initial_state(), 300 + 200 * k, random.Random(k)) for k in range(5)
    ]
    # the best of five rounds of 100 clones per state: the machine is shared
    per_state = [min(timeit.repeat(s.clone, number=100, repeat=5)) / 100 for s in states]
    clone_ms = sum(per_state) / len(per_state) * 1000
    evaluator = WorthEvaluator(20, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 100, evaluator, random_state=np.random.RandomState(0))
    made = 0
    start = time.perf_counter()
    for state in states:
        if made >= decisions:
            break
        if state.is_terminal() or state.is_chance_node():  # type: ignore[attr-defined]
            continue
        bot.step(state)
        made += 1
    return clone_ms, (time.perf_counter() - start) / max(made, 1)


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
    parser.add_argument(
        "--only", choices=("aec", "gym", "core", "openspiel", "search"), help="one part"
    )
    parser.add_argument("--episodes", type=int, default=20, help="core-mode episodes (20)")
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
    if args.only in (None, "core"):
        turns, per_turn = bench_core(args.episodes, args.players, rules)
        print(f"Gymnasium core   {turns:10.0f} player-turns/s ({per_turn:.2f} steps a turn)")
    if args.only in (None, "search"):
        clone_ms, mcts_s = bench_openspiel_search(args.players, args.rules, 3)
        print(f"OpenSpiel clone  {clone_ms:10.3f} ms; MCTS 100 simulations {mcts_s:.2f} s/decision")


if __name__ == "__main__":
    main()
