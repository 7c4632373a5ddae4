"""The compiled build (mypyc, made by ``pip install .``) plays exactly the same games as the
pure Python build: same winners, lengths, landings and rent, for every rule set.

Both run from one installed package: the compiled modules, and their ``.py`` sources with
``MONOPOLY_PURE=1``. Under ``./test`` that is the package in ``.venv``; where the installed
package is not compiled (development runs on ``src/``), the package is built into
``build/test-compiled`` first."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.compiled, pytest.mark.xdist_group("compiled")]

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "build" / "test-compiled"
RUN_FIELDS = (
    "seconds",
    "games_per_second",
    "player_turns_per_second",
    "rolls_per_second",
    "backend",
    "workers",
    "build",
)


def version(env: dict[str, str]) -> str:
    return subprocess.run(
        [sys.executable, "-m", "monopoly", "--version"],
        capture_output=True, text=True, env=env, cwd=ROOT, check=True, timeout=120,
    ).stdout  # fmt: skip


@pytest.fixture(scope="module")
def compiled() -> dict[str, str]:
    """The environment of a process that runs the compiled build."""
    env = {key: value for key, value in os.environ.items() if key != "MONOPOLY_PURE"}
    env.pop("PYTHONPATH", None)
    if "compiled (mypyc" in version(env):
        return env
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--upgrade", "--target",
         str(TARGET), str(ROOT)],
        check=True, timeout=1800,
    )  # fmt: skip
    env["PYTHONPATH"] = str(TARGET)
    return env


@pytest.fixture(scope="module")
def pure(compiled: dict[str, str]) -> dict[str, str]:
    """The same package, made to run its pure Python modules."""
    return {**compiled, "MONOPOLY_PURE": "1"}


def simulate(env: dict[str, str], *args: str, workers: int = 1) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-m", "monopoly", "simulate", "--workers", str(workers), "--json", *args],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=600, check=True,
    )  # fmt: skip
    summary: dict[str, object] = json.loads(result.stdout)
    for how_it_ran in RUN_FIELDS:  # timings, the worker count and the build, not the games
        summary.pop(how_it_ran, None)
    return summary


def test_each_build_says_which_it_is(compiled: dict[str, str], pure: dict[str, str]) -> None:
    assert "compiled (mypyc" in version(compiled)
    assert "pure Python (MONOPOLY_PURE=1)" in version(pure)
    probe = "import monopoly.core.game as g, monopoly.bots.hard as h; print(g.__file__, h.__file__)"
    for env, suffix in ((compiled, ".so"), (pure, ".py")):
        files = subprocess.run(
            [sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True
        ).stdout.split()
        assert all(path.endswith(suffix) for path in files), files


@pytest.mark.parametrize("rules", ["standard", "short", "speed", "short+speed"])
def test_compiled_and_pure_play_the_same_games(
    compiled: dict[str, str], pure: dict[str, str], rules: str
) -> None:
    args = ("--games", "40", "--players", "3", "--bots", "hard,normal,easy", "--rules", rules,
            "--seed", "5")  # fmt: skip
    assert simulate(compiled, *args) == simulate(pure, *args)


def test_the_compiled_build_runs_in_worker_processes(
    compiled: dict[str, str], pure: dict[str, str]
) -> None:
    """Everything a worker process receives must pickle under the compiled build too."""
    args = ("--games", "24", "--bots", "normal", "--seed", "9")
    assert simulate(compiled, *args, workers=2) == simulate(pure, *args)


def test_compiled_and_pure_rl_masks_and_observations_agree(
    compiled: dict[str, str], pure: dict[str, str]
) -> None:
    """The RL mask and observation (compiled modules too) are the same in both builds,
    and in each the kept ones equal fresh ones (tests/rl/test_mask.py checks that)."""
    probe = "from tests.rl.test_mask import digest; print(digest())"
    digests = [run_python(env, probe) for env in (compiled, pure)]
    assert digests[0] == digests[1] and len(digests[0].strip()) == 64


def run_python(env: dict[str, str], code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, env=env, cwd=ROOT, check=True, timeout=600,
    ).stdout  # fmt: skip


def test_compiled_and_pure_servers_send_the_same_messages(
    compiled: dict[str, str], pure: dict[str, str]
) -> None:
    """The server's per-action messages (narration, notes, the table and its patch, the
    seat's answers: compiled modules too) are the same texts in both builds."""
    probe = "from tests.web.test_messages_digest import digest; print(digest())"
    digests = [run_python(env, probe) for env in (compiled, pure)]
    assert digests[0] == digests[1] and len(digests[0].strip()) == 64
