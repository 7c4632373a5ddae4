"""Tune the expert's judgement by simulation: candidates against ``hard``, seats rotated.

    .venv/bin/python scripts/tune-expert.py '{}' '{"build_to": 4}' '{"horizon": 12.0}'
    .venv/bin/python scripts/tune-expert.py --players 2 --games 800 '{"partner_trades": false}'

Each argument is a candidate: JSON overrides of :class:`monopoly.bots.judge.ExpertJudge`'s
class attributes (``build_to``, ``horizon``, ``threat``, ``hope``, ``reserve_share``,
``accept_ratio``, ``min_trade_gain``, ``partner_trades``, ``safe_turn_rent``,
``early_unowned``). Every candidate plays the same seeded games (common random numbers)
as one seat against ``players - 1`` hard players, in this process; it prints the win
share with its 95 % Wilson interval. The defaults of ExpertJudge were chosen this way,
one weight at a time (a coordinate search), on seeds other than the published table's.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from monopoly.bots import base
from monopoly.bots.judge import ExpertJudge
from monopoly.cli.tournament import run_tournament


def candidate(overrides: dict[str, Any]) -> base.BotFactory:
    unknown = [name for name in overrides if not hasattr(ExpertJudge, name)]
    if unknown:
        raise SystemExit(f"ExpertJudge has no weight {', '.join(unknown)}")

    def factory(seed: int) -> ExpertJudge:
        bot = ExpertJudge(seed)
        for name, value in overrides.items():
            setattr(bot, name, value)
        return bot

    return factory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("candidates", nargs="+", help="JSON overrides, one per candidate")
    parser.add_argument("--games", type=int, default=800, help="games per candidate (800)")
    parser.add_argument("--players", type=int, default=4, help="players per game (4)")
    parser.add_argument("--seed", type=int, default=1000, help="seed of the first game (1000)")
    args = parser.parse_args()
    base.load_levels()
    for text in args.candidates:
        overrides = json.loads(text)
        base.register("candidate", candidate(overrides))
        began = time.perf_counter()
        lineup = ["candidate"] + ["hard"] * (args.players - 1)
        result = run_tournament(args.games, args.players, lineup, seed=args.seed, workers=1)
        level = result.to_json()["levels"]["candidate"]
        low, high = level["ci95"]
        print(
            f"{json.dumps(overrides)}: {level['win_rate']:.3f} ({low:.3f}-{high:.3f}) "
            f"of {args.games} games, {args.players} players, "
            f"{time.perf_counter() - began:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
