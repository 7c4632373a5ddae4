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

The installed package is the compiled build; ``PYTHONPATH=src`` runs the pure-Python sources.
The random agents pick among the masked ids with Python's ``random`` (their own cost is
included, and small). Each rate is given by the wall clock and by the process's CPU time
(``time.process_time``), which a shared machine's load disturbs far less; the load
average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import random
import time
import timeit
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from monopoly.core.rules import RuleSet


@dataclass
class Timing:
    """How many units took how long: by the wall clock and in CPU time."""

    units: int
    wall: float
    cpu: float

    def rates(self, unit: str) -> str:
        per_cpu = self.cpu / max(self.units, 1) * 1e6
        return (
            f"{self.units / self.wall:10.0f} {unit}/s (wall), {self.units / self.cpu:8.0f} {unit}/s"
            f" of CPU time ({per_cpu:.1f} us CPU per {unit.removesuffix('s')})"
        )


def timed(run: Callable[[], int]) -> Timing:
    wall, cpu = time.perf_counter(), time.process_time()
    units = run()
    return Timing(units, time.perf_counter() - wall, time.process_time() - cpu)


def pick(rng: random.Random, mask: np.ndarray) -> int:
    """A uniformly random masked id."""
    ids = np.flatnonzero(mask)
    return int(ids[rng.randrange(len(ids))])


def bench_aec(steps: int, players: int, rules: RuleSet) -> Timing:
    from monopoly.rl.aec_env import raw_env

    env = raw_env(players=players, rules=rules)
    rng = random.Random(0)

    def run() -> int:
        done = 0
        episode = 0
        while done < steps:
            env.reset(seed=episode)
            episode += 1
            for _agent in env.agent_iter():
                obs, _r, terminated, truncated, _i = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                env.step(pick(rng, obs["action_mask"]))
                done += 1
                if done >= steps:
                    break
        return done

    return timed(run)


def bench_gym(steps: int, players: int, rules: RuleSet) -> Timing:
    from monopoly.rl.gym_env import MonopolyGymEnv

    env = MonopolyGymEnv(opponents=["normal"] * (players - 1), rules=rules)
    rng = random.Random(0)

    def run() -> int:
        done = 0
        _obs, info = env.reset(seed=0)
        while done < steps:
            _obs, _r, terminated, truncated, info = env.step(pick(rng, info["action_mask"]))
            done += 1
            if terminated or truncated:
                _obs, info = env.reset()
        return done

    return timed(run)


def bench_core(episodes: int, players: int, rules: RuleSet) -> tuple[Timing, float]:
    """Player-turns and learner steps per player-turn in core mode."""
    from monopoly.rl.gym_env import MonopolyGymEnv

    env = MonopolyGymEnv(opponents=["normal"] * (players - 1), rules=rules, mode="core")
    rng = random.Random(0)
    steps = 0

    def run() -> int:
        nonlocal steps
        turns = 0
        for episode in range(episodes):
            _obs, info = env.reset(seed=episode)
            done = False
            while not done:
                _obs, _r, terminated, truncated, info = env.step(pick(rng, info["action_mask"]))
                steps += 1
                done = terminated or truncated
            turns += env.game.turn
        return turns

    timing = timed(run)
    return timing, steps / timing.units


def bench_openspiel_search(players: int, rules: str, decisions: int) -> tuple[float, float, Timing]:
    """Milliseconds per state clone (the best of five rounds, by the wall clock and in
    CPU time) and the MCTS decisions made (100 simulations each)."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from monopoly.rl.openspiel import WorthEvaluator, random_playout  # registers the game

    game = pyspiel.load_game("python_monopoly", {"players": players, "rules": rules})
    states = [
        random_playout(game.new_initial_state(), 300 + 200 * k, random.Random(k)) for k in range(5)
    ]
    # the best of five rounds of 100 clones per state: the machine is shared
    clones = {
        clock: sum(min(timeit.repeat(s.clone, timer=clock, number=100, repeat=5)) for s in states)
        / (100 * len(states))
        * 1000
        for clock in (time.perf_counter, time.process_time)
    }
    evaluator = WorthEvaluator(20, np.random.RandomState(0))
    bot = mcts.MCTSBot(game, 2.0, 100, evaluator, random_state=np.random.RandomState(0))

    def run() -> int:
        made = 0
        for state in states:
            if made >= decisions:
                break
            if state.is_terminal() or state.is_chance_node():  # type: ignore[attr-defined]
                continue
            bot.step(state)
            made += 1
        return made

    return clones[time.perf_counter], clones[time.process_time], timed(run)


def bench_openspiel(steps: int, players: int, rules: str) -> tuple[Timing, int]:
    import pyspiel

    import monopoly.rl.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_monopoly", {"players": players, "rules": rules})
    rng = random.Random(0)
    chance = 0

    def run() -> int:
        nonlocal chance
        done = 0
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
        return done

    return timed(run), chance


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
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"{args.steps} steps each, {args.players} players, rules {rules.describe()}")
    print(f"load average (1, 5, 15 min) at the start: {load}")
    if args.only in (None, "aec"):
        print(f"PettingZoo AEC   {bench_aec(args.steps, args.players, rules).rates('steps')}")
    if args.only in (None, "gym"):
        print(f"Gymnasium        {bench_gym(args.steps, args.players, rules).rates('steps')}")
    if args.only in (None, "openspiel"):
        timing, chance = bench_openspiel(args.steps, args.players, args.rules)
        print(f"OpenSpiel        {timing.rates('steps')} (+{chance} chance nodes)")
    if args.only in (None, "core"):
        timing, per_turn = bench_core(args.episodes, args.players, rules)
        print(f"Gymnasium core   {timing.rates('player-turns')} ({per_turn:.2f} steps a turn)")
    if args.only in (None, "search"):
        wall_ms, cpu_ms, mcts = bench_openspiel_search(args.players, args.rules, 3)
        print(f"OpenSpiel clone  {wall_ms:10.3f} ms (wall), {cpu_ms:.3f} ms of CPU time")
        print(
            f"OpenSpiel MCTS   {mcts.wall / mcts.units:10.2f} s (wall), "
            f"{mcts.cpu / mcts.units:.2f} s of CPU time per decision (100 simulations)"
        )
    print(f"load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
