"""This engine beside two public Monopoly simulators, in player-turns per second.

    .venv/bin/python benchmarks/bench_peers.py                  # whatever is present
    .venv/bin/python benchmarks/bench_peers.py --games 300
    .venv/bin/python benchmarks/bench_peers.py --instructions 45  # valgrind, see below

A *player-turn* is one turn of one player with all its decisions (a turn with doubles is
one turn). Games per second flatter an engine whose players end games quickly, so the
table puts player-turns per second beside them, by the wall clock and per CPU second
(the fairer figure on a shared machine).

The peers are never a dependency and none of their code is in this repository. Fetch
them into ``peers/`` (ignored by git), or point ``--peers`` at another folder::

    git clone --depth 1 https://github.com/gamescomputersplay/monopoly \\
        peers/gamescomputersplay-monopoly
    git clone --depth 1 https://github.com/richard-shepherd/monopyly peers/monopyly

Each engine plays in a fresh interpreter, one process, with its own computer players:
this project's ``normal`` level x 4 (standard rules, turn limit 1000; the installed
package as compiled by ``pip install .`` / ``./run``, and its pure Python modules with
``MONOPOLY_PURE=1``); gamescomputersplay/monopoly's four standard players
(its game log off, up to 1000 rounds); monopyly's four sample AIs (Generous Daddy,
LazyBones, Mean Daddy, Sophie; up to 500 rounds). Turns are counted by wrapping each
peer's per-turn function from outside (a roll again after doubles is not a new turn).

``--instructions N`` counts instructions per player-turn instead, under valgrind (as
``bench_instructions.py`` does for this engine): each harness runs for 5 and for N games,
and the difference in instructions is divided by the difference in player-turns, so
start-up and imports cancel out. The count does not depend on what else the machine
runs, which the wall clock on a shared virtual machine does (single runs of the same
code vary by ±15 % there); it does not weigh cache misses, which it cannot see.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

OURS = """
import json, sys, time
from monopoly.sim.runner import SimConfig, run
config = SimConfig.create(int(sys.argv[1]), 4, bots=["normal"], seed=1, workers=1)
cpu = time.process_time()
summary = run(config)
print(json.dumps({"games": summary.games, "turns": sum(summary.turns),
                  "wall": summary.seconds, "cpu": time.process_time() - cpu}))
"""

GAMESCOMPUTERSPLAY = """
import json, pathlib, random, sys, tempfile, time
sys.path.insert(0, ".")
from monopoly.log_settings import LogSettings
LogSettings.KEEP_GAME_LOG = False
LogSettings.BANKRUPTCIES_PATH = pathlib.Path(tempfile.mkdtemp()) / "bankruptcies.tsv"
from monopoly.core import game as game_module
from monopoly.core.player import Player
turns = 0
make_a_move = Player.make_a_move
def counted(self, *args):
    global turns
    if self.had_doubles == 0:  # a roll after doubles calls it again within the turn
        turns += 1
    return make_a_move(self, *args)
Player.make_a_move = counted
games = int(sys.argv[1])
rng = random.Random(0)
pairs = [(i + 1, rng.getrandbits(32)) for i in range(games)]
wall, cpu = time.perf_counter(), time.process_time()
for pair in pairs:
    game_module.monopoly_game(pair)
print(json.dumps({"games": games, "turns": turns,
                  "wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}))
"""

MONOPYLY = """
import json, os, random, sys, time, warnings
warnings.simplefilter("ignore", DeprecationWarning)
import imp
time.clock = time.perf_counter  # gone since Python 3.8; monopyly times its AIs with it
sys.path.insert(0, ".")
from monopyly import Game, PlayerAIBase
from monopyly.utility import ai_loader
ais = []
for folder in sorted(os.listdir("SampleAIs")):
    package = imp.load_package(folder, "SampleAIs/" + folder)
    ais.extend(ai_loader._find_derived_classes(package, PlayerAIBase))
ais = sorted(ais, key=lambda ai: ai.get_name())[:4]
turns = 0
play_one_turn = Game.play_one_turn
def counted(self, player):
    global turns
    turns += 1
    return play_one_turn(self, player)
Game.play_one_turn = counted
games = int(sys.argv[1])
random.seed(0)
wall, cpu = time.perf_counter(), time.process_time()
for _ in range(games):
    game = Game()
    for number, ai in enumerate(ais):
        game.add_player((ai, number))
    game.play_game()
print(json.dumps({"games": games, "turns": turns,
                  "wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}))
"""

PEERS = {
    "gamescomputersplay-monopoly": (
        "gamescomputersplay/monopoly (pure Python)",
        GAMESCOMPUTERSPLAY,
    ),
    "monopyly": ("richard-shepherd/monopyly (pure Python)", MONOPYLY),
}


def environment(extra: dict[str, str]) -> dict[str, str]:
    """This process's environment without a PYTHONPATH or build choice, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MONOPOLY_PURE")}
    return {**env, **extra}


def measure(code: str, games: int, cwd: Path, extra: dict[str, str]) -> dict[str, float]:
    """Run one harness in a fresh interpreter; its last output line is the JSON result."""
    env = environment(extra)
    done = subprocess.run(
        [sys.executable, "-c", code, str(games)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"failed in {cwd}:\n{done.stderr[-2000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def instructions_per_turn(code: str, games: int, cwd: Path, extra: dict[str, str]) -> float:
    """Instructions per player-turn of a harness, by two runs under valgrind."""
    counts = [_counted(code, n, cwd, extra) for n in (BASE_GAMES, games)]
    (base, base_turns), (total, turns) = counts
    return (total - base) / (turns - base_turns)


BASE_GAMES = 5
"""The short run whose count is taken off (start-up, imports, the first games)."""


def _counted(code: str, games: int, cwd: Path, extra: dict[str, str]) -> tuple[int, int]:
    """(instructions, player-turns) of one run of ``games`` games under valgrind."""
    env = environment(extra)
    valgrind = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
    ]
    done = subprocess.run(
        [*valgrind, sys.executable, "-c", code, str(games)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or refs is None:
        raise RuntimeError(f"failed in {cwd}:\n{done.stderr[-2000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return int(refs.group(1).replace(",", "")), int(result["turns"])


def row(name: str, result: dict[str, float]) -> str:
    games, turns = result["games"], result["turns"]
    return (
        f"| {name} | {games:.0f} | {turns / games:,.0f} | {games / result['wall']:,.1f} "
        f"| {turns / result['wall']:,.0f} | {turns / result['cpu']:,.0f} |"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per engine (200)")
    parser.add_argument("--peers", type=Path, default=ROOT / "peers", help="folder of the peers")
    parser.add_argument(
        "--instructions", type=int, metavar="N", help="instructions per player-turn (valgrind)"
    )
    parser.add_argument(
        "--pythonpath",
        metavar="DIR",
        help="run this project from a build installed there (pip install --target DIR .)",
    )
    args = parser.parse_args(argv)
    ours = {"PYTHONPATH": args.pythonpath} if args.pythonpath else {}
    installed = subprocess.run(
        [sys.executable, "-m", "monopoly", "--version"],
        env=environment(ours), capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    print(f"installed: {installed}")
    engines: list[tuple[str, str, Path, dict[str, str]]] = [
        ("this project, compiled (mypyc), 4 x normal", OURS, ROOT, ours),
        ("this project, pure Python, 4 x normal", OURS, ROOT, {**ours, "MONOPOLY_PURE": "1"}),
    ]
    if "compiled (mypyc" not in installed:
        print("note: the installed package is not compiled (./run installs it compiled)")
        engines.pop(0)
    for folder, (name, code) in PEERS.items():
        where = args.peers / folder
        if where.is_dir():
            engines.append((name, code, where, {}))
        else:
            print(f"note: {where} not found; {name} left out (see this script's docstring)")
    if args.instructions:
        games = f"{BASE_GAMES} and {args.instructions} games"
        print(f"instructions per player-turn under valgrind, runs of {games}")
        print()
        print("| engine | instructions per player-turn |")
        print("|---|---|")
        for name, code, cwd, extra in engines:
            count = instructions_per_turn(code, args.instructions, cwd, extra)
            print(f"| {name} | {count:,.0f} |", flush=True)
        return
    print(f"{args.games} games each, one process; player-turns/s by the wall clock and per CPU s")
    print()
    print("| engine | games | player-turns/game | games/s | player-turns/s | per CPU s |")
    print("|---|---|---|---|---|---|")
    for name, code, cwd, extra in engines:
        print(row(name, measure(code, args.games, cwd, extra)), flush=True)


if __name__ == "__main__":
    main()
