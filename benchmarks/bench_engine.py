"""Engine throughput: complete games between RandomBots in one process.

    .venv/bin/python benchmarks/bench_engine.py --games 200 --players 4 --rules standard
    .venv/bin/python benchmarks/bench_engine.py --games 50 --profile
    .venv/bin/python benchmarks/bench_engine.py --games 1000 --replay normal

Events are not collected (``game.collect_events = False``), and the players' answers from
the legal list are applied without a second check, as in every game the seat driver plays.
Prints games/s, player-turns/s, actions/s and the mean number of turns per game; ``--profile``
runs the same games under cProfile and prints the top 25 functions by own time.

``--replay LEVEL`` splits the simulator's time between the rules and the players: it
plays the games of ``monopoly simulate --bots LEVEL`` (seed 1), then plays each game
again from its record's actions with no player at all (the engine lists each decision's
answers and carries out the recorded action, as the simulator's loop does), checks that
every replay ends as the game did, and prints player-turns/s of both. The second figure
is the engine's speed on those games: what an agent that decides in no time would see.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections import Counter

from monopoly.bots.base import make_bot
from monopoly.bots.random_bot import RandomBot, play
from monopoly.core.actions import Action
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from monopoly.sim.runner import (
    SimConfig,
    bot_seed,
    game_seed,
    lineup,
    paused_gc,
    play_game,
    player_names,
)


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
        play(game, bots)
        if not game.over:
            raise SystemExit(f"game {i} (seed {seed + i}) did not end")
        turns += game.turn
        reasons[game.end_reason] += 1
        actions += sum(1 for entry in game.record[before:] if entry[0] == "action")
    return turns, actions, reasons


def replay_split(games: int, level: str, rules: str, turn_limit: int) -> None:
    """Time the simulator's games of ``level`` with their players, then the engine alone."""
    config = SimConfig.create(
        games, 4, rules=rules, bots=[level], seed=1, workers=1, turn_limit=turn_limit
    )
    turns = 0
    start = time.perf_counter()
    for index in range(games):
        turns += play_game(config, index).turns
    with_players = time.perf_counter() - start
    engine_alone = 0.0
    for index in range(games):
        original = _new_game(config, index)  # the same game again, kept for its actions
        levels = lineup(config.bots, config.players, index)
        seed = game_seed(config.seed, index)
        play(original, [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(levels)])
        actions = [entry[1] for entry in original.record if entry[0] == "action"]
        game = _new_game(config, index)
        with paused_gc():  # as play_game plays
            start = time.perf_counter()
            _replay(game, actions)
            engine_alone += time.perf_counter() - start
        if (game.turn, game.winners, game.cash) != (original.turn, original.winners, original.cash):
            raise SystemExit(f"the replay of game {index + 1} ended differently")
    print(f"{games} games of 4 x {level}, rules {rules}, {turns / games:.1f} player-turns/game")
    print(f"with the players   {turns / with_players:10,.0f} player-turns/s")
    print(f"engine alone       {turns / engine_alone:10,.0f} player-turns/s")
    print(f"engine's share     {engine_alone / with_players:10.0%}")


def _new_game(config: SimConfig, index: int) -> Game:
    """Game ``index`` of ``config`` before its first action, as the simulator makes it."""
    levels = lineup(config.bots, config.players, index)
    game = Game.new(
        player_names(levels), config.edition, config.rules, game_seed(config.seed, index)
    )
    game.collect_events = False
    return game


def _replay(game: Game, actions: list[Action]) -> None:
    """Carry out ``actions`` in order, listing each decision's answers as the loop does."""
    decision = game.decision
    for action in actions:
        assert decision is not None
        game.answers(decision)
        decision = game.carry_out(action, decision)


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
    parser.add_argument(
        "--replay", metavar="LEVEL", help="the engine's share of a level's games (see above)"
    )
    args = parser.parse_args(argv)
    if args.replay:
        replay_split(args.games, args.replay, args.rules, args.turn_limit)
        return
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
