"""The examples run end to end (with tiny settings: the real training run is documented
in docs/rl.md, not repeated here) and write nothing into the directory they run in."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(tmp_path: Path, script: str, *args: str) -> str:
    work, temp = tmp_path / "work", tmp_path / "tmp"
    work.mkdir()
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert list(work.iterdir()) == []  # nothing lands where it runs
    return done.stdout


def test_training_example_trains_saves_and_evaluates(tmp_path: Path) -> None:
    """Tiny settings: one iteration of two candidates; the weights go to the temporary
    directory by default, and ``--load`` evaluates them again."""
    out = _run(
        tmp_path,
        "train_numpy.py",
        *("--iterations", "1", "--population", "2", "--elite", "1", "--games", "2"),
        *("--eval-games", "2"),
    )
    assert "iteration 1:" in out and "learnt weights" in out and "random policy" in out
    saved = tmp_path / "tmp" / "monopoly_cem_weights.npy"
    weights = np.load(saved)
    assert weights.ndim == 1 and weights.size > 20 and np.isfinite(weights).all()
    (tmp_path / "work").rmdir()
    (tmp_path / "tmp").rename(tmp_path / "first")
    out = _run(tmp_path, "train_numpy.py", "--load", str(tmp_path / "first" / saved.name),
               "--eval-games", "2")  # fmt: skip
    assert "iteration" not in out and "learnt weights" in out


def test_pettingzoo_example_saves_a_replayable_record(tmp_path: Path) -> None:
    from monopoly.core.records import replay

    record = tmp_path / "game.json"
    out = _run(tmp_path, "pettingzoo_random.py", str(record))
    assert "agent steps" in out
    game = replay(json.loads(record.read_text(encoding="utf-8")))
    assert game.over


def test_maskable_ppo_baseline_trains_and_its_loss_moves(tmp_path: Path) -> None:
    """The baseline (the ``train`` extra, which ./test installs): MaskablePPO on the
    Gymnasium env in core mode makes four updates of 64 steps; each loss is finite and
    they differ (the policy is learning, not standing still)."""
    out = _run(
        tmp_path,
        "maskable_ppo.py",
        *("--timesteps", "256", "--n-steps", "64", "--out", str(tmp_path)),
    )
    losses = [
        float(line.rsplit(" ", 1)[1]) for line in out.splitlines() if line.startswith("update ")
    ]
    assert len(losses) >= 3
    assert all(np.isfinite(losses)) and len(set(losses)) > 1
    assert (tmp_path / "monopoly_maskable_ppo.zip").stat().st_size > 10_000
