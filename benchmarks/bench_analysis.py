"""Analysis speed: a trade's advice, and a whole 150-turn game's win-chance chart.

    ./run --version && .venv/bin/python benchmarks/bench_analysis.py
    .venv/bin/python benchmarks/bench_analysis.py --only advice --rollouts 600 --workers 2

The targets (issue 26): the advice in at most 2 s with an interval of at most ±3 points
on each side's change, and the chart of a 150-turn game in at most 60 s on all cores.
Measure the compiled build (the one users run): the installed package, not src/.
Each line says how many rollouts and turns it played, so numbers from a loaded machine
can be read as rollouts per second.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time
from pathlib import Path

from monopoly.analysis import Pool, RolloutSettings, analyse_game, trade_advice
from monopoly.analysis.advice import ADVICE_HORIZON
from monopoly.bots.base import make_bot, play
from monopoly.core.actions import ProposeTrade
from monopoly.core.game import Game
from monopoly.core.records import record_of
from monopoly.core.rules import RuleSet


def orange_offer() -> tuple[Game, ProposeTrade]:
    """Heads-up, every group split, seat 0 with two oranges and $2,000; it offers $1 for
    the third (the position of the blunder test)."""
    board = Game.new(2).board
    properties = {
        str(space): {"owner": index % 2}
        for spaces in board.groups.values()
        for index, space in enumerate(spaces)
    }
    properties["19"] = {"owner": 1}
    position = {"players": [{"cash": 2000}, {"cash": 2000}], "properties": properties}
    game = Game.new(["Ann", "Bob"], seed=4, position=position)
    return game, ProposeTrade(0, partner=1, give_cash=1, take=(19,))


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and its live worker processes (Linux):
    what a run costs whatever else shares the cores."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = time.process_time()
    for child in multiprocessing.active_children():
        fields = Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def bench_advice(pool: Pool, settings: RolloutSettings, budget: float) -> None:
    """The advice with the default target (±3 points) and the given time budget (0: as
    long as the target takes). CPU time divided by the workers is what the wall time
    would be on quiet cores."""
    game, offer = orange_offer()
    cpu, start = cpu_seconds(), time.perf_counter()
    advice = trade_advice(game, offer, settings, pool, budget=budget)
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    changes = ", ".join(f"{game.names[s]} {advice.change[s].points()}" for s in range(2))
    widest = max(c.half_width for c in advice.change) * 100
    print(
        f"advice: {seconds:.2f} s ({cpu:.2f} CPU s, {cpu / pool.workers:.2f} s on "
        f"{pool.workers} quiet cores), {2 * advice.without.rollouts} rollouts "
        f"(horizon {settings.horizon}, {pool.workers} workers): {changes}; "
        f"widest interval ±{widest:.1f} points; load average {os.getloadavg()[0]:.1f}"
    )


def long_game(turns: int, seed: int) -> dict[str, object]:
    """A four-player expert game stopped at ``turns`` player-turns (the richest wins)."""
    rules = RuleSet.named("standard", turn_limit=turns)
    for attempt in range(seed, seed + 50):
        game = Game.new(4, rules=rules, seed=attempt)
        play(game, [make_bot("expert", attempt * 10 + s) for s in range(4)])
        if game.turn >= turns:
            return record_of(game)
    raise RuntimeError(f"no game of {turns} turns among 50 seeds")


def bench_chart(pool: Pool, settings: RolloutSettings, turns: int, seed: int) -> None:
    record = long_game(turns, seed)
    start = time.perf_counter()
    analysis = analyse_game(record, settings, pool, decisions=False)
    seconds = time.perf_counter() - start
    widest = max(c.half_width for p in analysis.points for c in p.chances.chances) * 100
    print(
        f"chart: {seconds:.1f} s for {len(analysis.points)} turns x {settings.rollouts} "
        f"rollouts (horizon {settings.horizon}, {pool.workers} workers); "
        f"{len(analysis.points) * settings.rollouts / seconds:.0f} rollouts/s; "
        f"widest interval ±{widest:.1f} points"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=("advice", "chart"), default=None)
    parser.add_argument("--rollouts", type=int, default=0, help="per alternative / point")
    parser.add_argument("--advice-horizon", type=int, default=ADVICE_HORIZON)
    parser.add_argument("--budget", type=float, default=0.0, help="advice seconds (0: none)")
    parser.add_argument("--horizon", type=int, default=120, help="of the chart's rollouts")
    parser.add_argument("--turns", type=int, default=150)
    parser.add_argument("--workers", type=int, default=None, help="default: all cores")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with Pool(args.workers) as pool:
        if args.only in (None, "advice"):
            rollouts = args.rollouts or 4000
            settings = RolloutSettings(horizon=args.advice_horizon, rollouts=rollouts)
            bench_advice(pool, settings, args.budget)
        if args.only in (None, "chart"):
            rollouts = args.rollouts or 50
            settings = RolloutSettings(horizon=args.horizon, rollouts=rollouts)
            bench_chart(pool, settings, args.turns, args.seed)


if __name__ == "__main__":
    main()
