"""The compiled hot path (``scripts/build-fast.sh``, mypyc) plays exactly the same games
as the pure Python package: same winners, lengths, landings and rent, for every rule set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FAST = ROOT / "build" / "fast"
RUN_FIELDS = (
    "seconds",
    "games_per_second",
    "player_turns_per_second",
    "rolls_per_second",
    "backend",
    "workers",
)


@pytest.fixture(scope="module")
def compiled() -> Path:
    subprocess.run([str(ROOT / "scripts" / "build-fast.sh")], check=True, timeout=900)
    return FAST


def simulate(pythonpath: Path | None, *args: str, workers: int = 1) -> dict[str, object]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    result = subprocess.run(
        [sys.executable, "-m", "monopoly", "simulate", "--workers", str(workers), "--json", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=600,
        check=True,
    )
    summary: dict[str, object] = json.loads(result.stdout)
    for how_it_ran in RUN_FIELDS:  # timings and the worker count, not the games
        summary.pop(how_it_ran, None)
    return summary


def test_the_compiled_copy_is_really_compiled(compiled: Path) -> None:
    probe = "import monopoly.core.game as g, monopoly.bots.hard as h; print(g.__file__, h.__file__)"
    env = {**os.environ, "PYTHONPATH": str(compiled)}
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
    ).stdout.split()
    assert all(path.endswith(".so") and path.startswith(str(compiled)) for path in out), out


@pytest.mark.parametrize("rules", ["standard", "short", "speed", "short+speed"])
def test_compiled_and_pure_play_the_same_games(compiled: Path, rules: str) -> None:
    args = (
        "--games",
        "40",
        "--players",
        "3",
        "--bots",
        "hard,normal,easy",
        "--rules",
        rules,
        "--seed",
        "5",
    )
    assert simulate(compiled, *args) == simulate(None, *args)


def test_the_compiled_copy_runs_in_worker_processes(compiled: Path) -> None:
    """Everything a worker process receives must pickle under the compiled copy too."""
    args = ("--games", "24", "--bots", "normal", "--seed", "9")
    assert simulate(compiled, *args, workers=2) == simulate(None, *args)
