"""Engine throughput: complete games between RandomBots in one process.

    .venv/bin/python benchmarks/bench_engine.py --games 200 --players 4 --rules standard
    .venv/bin/python benchmarks/bench_engine.py --games 50 --profile

Events are not collected (``game.collect_events = False``) and actions are applied
unchecked (``play(..., checked=False)``): the fast path a simulation would use.
Prints games/s, player-turns/s, actions/s and the mean number of turns per game; ``--profile``
runs the same games under cProfile and prints the top 25 functions by own time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections import Counter

from monopoly.bots.random_bot import RandomBot, play
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet


def run(
    games: int, players: int, rules: RuleSet, edition: str, seed: int
) -> tuple[int, int, Counter[str]]:
    """Play ``games`` complete games; returns turns and actions in total, and end reasons."""
    turns = actions = 0
    reasons: Counter[str] = Counter()
    for i in range(games):
        game = Game.new(players, edition, rules, seed=seed + i)
        game.collect_events = False
        bots = [RandomBot(seed * 1000 + i * 10 + s) for s in range(players)]
        before = len(game.record)
        play(game, bots, checked=False)
        if not game.over:
            raise SystemExit(f"game {i} (seed {seed + i}) did not end")
        turns += game.turn
        reasons[game.end_reason] += 1
        actions += sum(1 for entry in game.record[before:] if entry[0] == "action")
    return turns, actions, reasons


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games to play (200)")
    parser.add_argument("--players", type=int, default=4, help="players per game (4)")
    parser.add_argument(
        "--rules", default="standard", help="rule set: standard, short, speed, short+speed"
    )
    parser.add_argument("--edition", default="classic", help="edition key (classic)")
    parser.add_argument("--turn-limit", type=int, default=1000, help="turn limit, 0: none")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (1)")
    parser.add_argument("--profile", action="store_true", help="cProfile: top 25 by tottime")
    args = parser.parse_args(argv)
    rules = RuleSet.named(args.rules, turn_limit=args.turn_limit)

    profiler = cProfile.Profile() if args.profile else None
    start = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    turns, actions, reasons = run(args.games, args.players, rules, args.edition, args.seed)
    if profiler is not None:
        profiler.disable()
    elapsed = time.perf_counter() - start

    print(
        f"{args.games} games, {args.players} players, rules {rules.describe()}"
        f" (turn limit {args.turn_limit or 'none'}), edition {args.edition}, seed {args.seed}"
    )
    print(f"time        {elapsed:10.2f} s{' (profiled)' if profiler else ''}")
    print(f"games/s     {args.games / elapsed:10.1f}")
    print(f"player-turns/s {turns / elapsed:7.0f}")
    print(f"actions/s   {actions / elapsed:10.0f}")
    print(f"player-turns/game {turns / args.games:4.1f}")
    print("ended by    " + ", ".join(f"{k} {v}" for k, v in reasons.most_common()))
    if profiler is not None:
        print()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
