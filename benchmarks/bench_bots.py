"""Bot throughput: complete games between computer players in one process.

    .venv/bin/python benchmarks/bench_bots.py                       # 4 normal bots
    .venv/bin/python benchmarks/bench_bots.py --bots hard,normal,easy --players 3
    .venv/bin/python benchmarks/bench_bots.py --games 100 --profile

Events are not collected and actions are applied unchecked (the simulator's fast path).
Prints games/s, turns/s, rolls/s (dice rolls: moves, jail rolls) and actions/s, and the
share of the time spent in the bots' ``decide`` and, per level, the mean seconds per
decision (``--bots expert,hard,hard,hard`` measures the expert's); ``--profile`` runs
the same games under cProfile and prints the top 25 functions by own time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections import Counter

from monopoly.bots.base import Bot, make_bot, play
from monopoly.core.actions import Action, Roll, RollForDoubles
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from monopoly.core.view import PlayerView


class Timed:
    """Wraps a bot and adds up the time its decisions take."""

    def __init__(self, bot: Bot, clock: list[float], level: list[float] | None = None) -> None:
        self.bot = bot
        self.clock = clock
        self.level = level if level is not None else [0.0, 0.0]
        """This level's [seconds, decisions] over all its seats."""
        self.interject = getattr(bot, "interject", None)

    def decide(self, view: PlayerView, legal: list[Action]) -> Action:
        start = time.perf_counter()
        action = self.bot.decide(view, legal)
        spent = time.perf_counter() - start
        self.clock[0] += spent
        self.level[0] += spent
        self.level[1] += 1
        return action


def run(
    games: int,
    lineup: list[str],
    rules: RuleSet,
    seed: int,
    timed: bool,
    per_level: dict[str, list[float]] | None = None,
) -> tuple[int, int, int, Counter[str], float]:
    """Play the games; returns turns, rolls, actions, end reasons and time in bots
    (``per_level`` gets each level's [seconds, decisions])."""
    turns = rolls = actions = 0
    reasons: Counter[str] = Counter()
    clock = [0.0]
    players = len(lineup)
    for i in range(games):
        game = Game.new(players, "classic", rules, seed=seed + i)
        game.collect_events = False
        bots: list[Bot] = [
            make_bot(lineup[(s + i) % players], seed * 1000 + i * 10 + s) for s in range(players)
        ]
        if timed:
            levels = [lineup[(s + i) % players] for s in range(players)]
            tally = per_level if per_level is not None else {}
            bots = [
                Timed(bot, clock, tally.setdefault(level, [0.0, 0.0]))
                for bot, level in zip(bots, levels, strict=True)
            ]
        before = len(game.record)
        play(game, bots)
        turns += game.turn
        reasons[game.end_reason] += 1
        for entry in game.record[before:]:
            if entry[0] == "action":
                actions += 1
                rolls += isinstance(entry[1], Roll | RollForDoubles)
    return turns, rolls, actions, reasons, clock[0]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games to play (200)")
    parser.add_argument("--players", type=int, default=4, help="players per game (4)")
    parser.add_argument("--bots", default="normal", help="levels, repeated to fill the seats")
    parser.add_argument("--rules", default="standard", help="rule set (standard)")
    parser.add_argument("--turn-limit", type=int, default=1000, help="turn limit (1000)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (1)")
    parser.add_argument("--profile", action="store_true", help="cProfile: top 25 by tottime")
    args = parser.parse_args(argv)
    names = args.bots.split(",")
    lineup = [names[i % len(names)] for i in range(args.players)]
    rules = RuleSet.named(args.rules, turn_limit=args.turn_limit)

    profiler = cProfile.Profile() if args.profile else None
    start = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    per_level: dict[str, list[float]] = {}
    turns, rolls, actions, reasons, in_bots = run(
        args.games, lineup, rules, args.seed, timed=profiler is None, per_level=per_level
    )
    if profiler is not None:
        profiler.disable()
    elapsed = time.perf_counter() - start

    print(f"{args.games} games, bots {','.join(lineup)}, rules {rules.describe()}")
    print(f"time        {elapsed:10.2f} s{' (profiled)' if profiler else ''}")
    print(f"games/s     {args.games / elapsed:10.1f}")
    print(f"player-turns/s {turns / elapsed:7.0f}")
    print(f"rolls/s     {rolls / elapsed:10.0f}")
    print(f"actions/s   {actions / elapsed:10.0f}")
    print(f"player-turns/game {turns / args.games:4.1f}")
    if profiler is None:
        print(f"in bots     {100 * in_bots / elapsed:10.1f} % of the time")
        for level, (seconds, decisions) in per_level.items():
            mean = seconds / max(1, decisions)
            print(f"{level:12s}{mean:10.6f} s per decision ({int(decisions)} decisions)")
    print("ended by    " + ", ".join(f"{k} {v}" for k, v in reasons.most_common()))
    if profiler is not None:
        print()
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
