"""Simulator throughput: whole games between four computer players, in one process.

    .venv/bin/python benchmarks/bench_sim.py --games 200
    .venv/bin/python benchmarks/bench_sim.py --games 50 --profile

Plays with the ``normal`` level (``random`` if ``normal`` is not registered, and says so),
full standard rules, through the simulator's own loop (``monopoly.sim.runner``: no
events, unchecked answers from the legal list, landings counted). Prints games/s,
player-turns/s (one turn of one player with all its decisions: the engine's
``game.turn``) and rolls/s by the wall clock, and player-turns per CPU second (steadier
on a shared machine); ``--profile`` runs the games under cProfile and prints the top
functions. It measures the build that runs (printed first): the package installed by
``./run`` is compiled; ``MONOPOLY_PURE=1`` (or ``PYTHONPATH=src``) measures pure Python.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time

from monopoly.bots.base import LEVELS, load_levels
from monopoly.build import running
from monopoly.sim.runner import SimConfig, run


def level_to_use(wanted: str) -> str:
    load_levels()
    if wanted in LEVELS:
        return wanted
    print(f"note: level {wanted!r} is not registered yet; using 'random'")
    return "random"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games to play (200)")
    parser.add_argument("--players", type=int, default=4, help="players per game (4)")
    parser.add_argument("--level", default="normal", help="bot level (normal)")
    parser.add_argument("--rules", default="standard", help="rule set (standard)")
    parser.add_argument("--turn-limit", type=int, default=1000, help="turn limit, 0: none")
    parser.add_argument("--seed", type=int, default=1, help="simulation seed (1)")
    parser.add_argument("--profile", action="store_true", help="cProfile: top 30 by tottime")
    args = parser.parse_args(argv)
    level = level_to_use(args.level)
    config = SimConfig.create(
        args.games,
        args.players,
        rules=args.rules,
        bots=[level],
        seed=args.seed,
        workers=1,
        turn_limit=args.turn_limit,
    )
    profiler = cProfile.Profile() if args.profile else None
    if profiler is not None:
        profiler.enable()
    cpu = time.process_time()
    summary = run(config)
    cpu = time.process_time() - cpu
    if profiler is not None:
        profiler.disable()
    seconds = summary.seconds
    print(
        f"{summary.games} games, {args.players} x {level}, rules {config.rules.describe()}"
        f" (turn limit {args.turn_limit or 'none'}), seed {args.seed}, one process"
    )
    print(f"build       {running().describe()}")
    print(f"time        {seconds:10.2f} s{' (profiled)' if profiler else ''}")
    print(f"games/s     {summary.games / seconds:10.1f}")
    print(f"rolls/s     {summary.rolls / seconds:10.0f}")
    print(f"player-turns/s {sum(summary.turns) / seconds:7.0f}")
    print(f"  per CPU s    {sum(summary.turns) / cpu:7.0f}")
    print(f"player-turns/game {sum(summary.turns) / summary.games:4.1f}")
    print("ended by    " + ", ".join(f"{k} {v}" for k, v in summary.end_reasons.most_common()))
    if profiler is not None:
        print()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
