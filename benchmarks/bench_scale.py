"""Simulator throughput by backend and number of workers (the scale note in
docs/simulator.md).

    .venv/bin/python benchmarks/bench_scale.py --games 400 --workers 1,2
    .venv/bin/python benchmarks/bench_scale.py --backends ray --address auto

Plays the same seeded games (4 x ``normal``, standard rules) on the local process pool
and on Ray with each worker count, and prints games/s and player-turns/s. Without
``--address`` a Ray instance is started on this machine with as many CPUs as the largest
worker count (and shut down at the end). The time runs from the first chunk handed out
to the last result: it includes starting the pool's processes or Ray's workers, not
starting Ray itself.
"""

from __future__ import annotations

import argparse

from monopoly.sim.runner import SimConfig, run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games per run (400)")
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--backends", default="local,ray", help="local, ray or both")
    parser.add_argument("--address", default=None, help="Ray cluster (default: start one)")
    parser.add_argument("--seed", type=int, default=1, help="simulation seed (1)")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.workers.split(",")]
    backends = args.backends.split(",")
    print(f"{args.games} games, 4 x normal, standard rules, seed {args.seed}")
    print()
    print("| backend | workers | seconds | games/s | player-turns/s |")
    print("|---|---|---|---|---|")
    if "local" in backends:  # before Ray starts: no forking of a process running Ray
        for workers in counts:
            measure(args, "local", workers)
    if "ray" in backends:
        import ray

        ray.init(
            address=args.address,
            num_cpus=None if args.address else max(counts),
            include_dashboard=False,
            log_to_driver=False,
        )
        try:
            for workers in counts:
                measure(args, "ray", workers)
        finally:
            ray.shutdown()


def measure(args: argparse.Namespace, backend: str, workers: int) -> None:
    config = SimConfig.create(
        args.games, 4, bots=["normal"], seed=args.seed, workers=workers, backend=backend
    )
    summary = run(config)
    seconds = summary.seconds
    print(
        f"| {backend} | {workers} | {seconds:.2f} | {summary.games / seconds:,.1f} "
        f"| {sum(summary.turns) / seconds:,.0f} |",
        flush=True,
    )


if __name__ == "__main__":
    main()
