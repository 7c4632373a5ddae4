"""Instructions per player-turn under valgrind: a speed figure that other jobs on the
machine cannot disturb (the same games give the same count, give or take a few hundred).

    .venv/bin/python benchmarks/bench_instructions.py --games 40
    .venv/bin/python benchmarks/bench_instructions.py --games 60 --pythonpath build/compiled
    .venv/bin/python benchmarks/bench_instructions.py --bots hard,normal,easy,normal

Runs the simulator (one process, 4 players, standard rules, seed 1) under
``valgrind --tool=cachegrind`` twice, for one game and for ``--games`` games, and divides
the difference in instructions by the difference in player-turns, so start-up and
imports cancel out (a game played first, outside valgrind, caches every module's
bytecode, so that neither counted run compiles one). Fewer instructions per player-turn
is faster code; compare two versions by pointing ``--pythonpath`` at each (``src``, or a
compiled build: ``.venv/bin/python -m pip install --no-deps --target build/compiled .``).
Needs Debian's valgrind; a run takes about half a second per game.

``--env aec`` or ``--env gym`` counts the RL environments instead: instructions per
environment step of ``benchmarks/bench_rl.py``'s random masked agents (4 players,
standard rules, full mode), from a run of 500 steps and one of ``--steps``.
``--env publish`` counts the game server's work per action in process
(``benchmarks/bench_publish.py``: the computers' moves, the record stored on SQLite, a
player's and a spectator's deltas built and sent), from 500 actions and ``--steps``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GAMES = """
import sys
from monopoly.sim.runner import SimConfig, run
config = SimConfig.create(int(sys.argv[1]), 4, bots=sys.argv[2].split(","), seed=1, workers=1)
print(sum(run(config).turns))
"""


ENV_STEPS = """
import sys
sys.path.insert(0, sys.argv[3])
import bench_rl
from monopoly.core.rules import RuleSet
run = {"aec": bench_rl.bench_aec, "gym": bench_rl.bench_gym}[sys.argv[2]]
print(run(int(sys.argv[1]), 4, RuleSet.named("standard")).units)
"""
PUBLISH = """
import asyncio, sys, tempfile
sys.path.insert(0, sys.argv[3])
import bench_publish
with tempfile.TemporaryDirectory() as folder:
    asyncio.run(bench_publish.bench(int(sys.argv[1]), False, True, folder))
print(sys.argv[1])
"""
FIRST_STEPS = 500


def warm_up(bots: str, pythonpath: Path) -> None:
    """One game outside valgrind first, so that both counted runs find the modules'
    bytecode cached: a module changed since the last run would otherwise be compiled
    in the first counted run only, and its cost would lower the count per turn."""
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    subprocess.run(
        [sys.executable, "-c", GAMES, "1", bots], env=env, check=True, stdout=subprocess.DEVNULL
    )


def count(
    games: int, bots: str, pythonpath: Path, script: str = GAMES, extra: tuple[str, ...] = ()
) -> tuple[int, int]:
    """(instructions, player-turns) of a run of ``games`` games (or of the units the
    ``script`` prints, given ``games`` and ``bots`` and ``extra`` as arguments)."""
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    done = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            "-c",
            script,
            str(games),
            bots,
            *extra,
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if refs is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{done.stderr[-1000:]}")
    return int(refs.group(1).replace(",", "")), int(done.stdout.split()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games to count (40)")
    parser.add_argument("--bots", default="normal", help="levels, one per seat or one for all")
    parser.add_argument(
        "--pythonpath", type=Path, default=ROOT / "src", help="the package to run (src)"
    )
    parser.add_argument(
        "--env",
        choices=("aec", "gym", "publish"),
        help="count RL environment steps, or the server's actions (publish)",
    )
    parser.add_argument("--steps", type=int, default=5000, help="env steps to count (5000)")
    args = parser.parse_args(argv)
    if args.env:
        count_env_steps(args.env, args.steps, args.pythonpath)
        return
    warm_up(args.bots, args.pythonpath)
    base_instructions, base_turns = count(1, args.bots, args.pythonpath)
    instructions, turns = count(args.games, args.bots, args.pythonpath)
    per_turn = (instructions - base_instructions) / (turns - base_turns)
    print(f"{args.pythonpath}, {args.bots}, {args.games} games, {turns} player-turns")
    print(f"instructions per player-turn {per_turn:,.0f}")


def count_env_steps(kind: str, steps: int, pythonpath: Path) -> None:
    """Instructions per environment step, or per action of the server (``publish``:
    ``benchmarks/bench_publish.py``'s games, the computers' moves, the stored record
    entries on SQLite, the player's and a spectator's deltas, uncompressed); the
    start-up cancels out, as above."""
    extra = (str(ROOT / "benchmarks"),)
    script = PUBLISH if kind == "publish" else ENV_STEPS
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    warm = [sys.executable, "-c", script, str(FIRST_STEPS), kind, *extra]
    subprocess.run(warm, env=env, check=True, stdout=subprocess.DEVNULL)
    base_instructions, base_steps = count(FIRST_STEPS, kind, pythonpath, script, extra)
    instructions, done = count(steps, kind, pythonpath, script, extra)
    per_step = (instructions - base_instructions) / (done - base_steps)
    print(f"{pythonpath}, {kind}, {done} steps, instructions per step {per_step:,.0f}")


if __name__ == "__main__":
    main()
