"""The baseline: MaskablePPO (sb3-contrib, torch on the CPU) on the Gymnasium env in core mode.

    pip install .[train]
    python examples/maskable_ppo.py --timesteps 200000 --seed 0

One learner heads-up against ``normal`` (official rules, classic); the environment's
``core`` mode gives it the frequent decisions and ``expert`` plays its trades and rent
claims. Reward: +1 for a win, with potential-based shaping by the share of the net
worth (``--shaping``). The masks come from ``env.action_masks()``, which MaskablePPO
calls. It prints the loss of every update; ``--out`` saves the model (default: the
system's temporary directory, never the working directory).
"""

from __future__ import annotations

import argparse
import math
import tempfile
from pathlib import Path
from typing import Any

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback

from monopoly.rl.gym_env import MonopolyGymEnv


class LossPrinter(BaseCallback):
    """Prints the loss of each update (read before the next update's rollout)."""

    def __init__(self) -> None:
        super().__init__()
        self.losses: list[float] = []

    def _on_rollout_start(self) -> None:
        self._take()

    def _on_training_end(self) -> None:
        self._take()

    def _take(self) -> None:
        loss = self.logger.name_to_value.get("train/loss")
        if loss is not None and len(self.losses) < self.model._n_updates // self.model.n_epochs:
            self.losses.append(float(loss))
            print(f"update {len(self.losses)}: loss {loss:.4f}", flush=True)

    def _on_step(self) -> bool:
        return True


def make_env(seed: int, shaping: float) -> MonopolyGymEnv:
    env = MonopolyGymEnv(opponents=["normal"], mode="core", helper="expert", shaping=shaping)
    env.reset(seed=seed)
    return env


def train(timesteps: int, seed: int, n_steps: int, shaping: float) -> tuple[Any, list[float]]:
    torch.set_num_threads(1)  # a shared machine: one core
    model = MaskablePPO(
        "MlpPolicy",
        make_env(seed, shaping),
        n_steps=n_steps,
        batch_size=min(64, n_steps),
        n_epochs=4,
        learning_rate=3e-4,
        seed=seed,
        verbose=0,
    )
    printer = LossPrinter()
    model.learn(total_timesteps=timesteps, callback=printer, log_interval=10**9)
    return model, printer.losses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=200_000)
    parser.add_argument("--n-steps", type=int, default=2048, help="steps per update")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--shaping", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()))
    args = parser.parse_args()
    model, losses = train(args.timesteps, args.seed, args.n_steps, args.shaping)
    path = args.out / "monopoly_maskable_ppo.zip"
    model.save(path)
    finite = all(math.isfinite(loss) for loss in losses)
    print(f"{len(losses)} updates, losses finite: {finite}; model saved to {path}")


if __name__ == "__main__":
    main()
