"""Train the ``learned`` level: ``python -m monopoly.rl.train --out runs/learned``.

Needs the ``train`` extra (``pip install .[train]``: torch on the CPU). The recipe,
reproducible from ``--seed`` on a 2-core machine in well under two hours:

1. **Behaviour cloning.** ``expert`` plays heads-up games against ``normal``, ``hard``
   and ``expert`` as a core-mode player (:class:`~monopoly.rl.learned.CoreModeBot`,
   with ``expert`` as the helper for trades and rent claims, as the level plays);
   each of its core decisions is recorded: the observation, the mask and the id it
   chose. A small network (:class:`~monopoly.rl.learned.MaskedMLP`) learns to pick
   that id (cross-entropy of the softmax over the masked ids).
2. **DAgger rounds** (``--rounds``): the network itself plays the next games, and
   ``expert`` labels the states *it* reaches; the network trains on all data so far.
   A cloned player drifts into states its teacher never showed it; this teaches it
   what to do there.

After every round the network is written (``round-N.npz``) and plays
``--eval-games`` seat-rotated heads-up games against ``normal``: those win shares are
the learning curve (``curve.json``, ``curve.png``). The last network is ``policy.npz``;
copy it to ``src/monopoly/policies/learned.npz`` to ship it. Ctrl-C stops the run
with every finished round kept.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, cast

import numpy as np
import typer
from rich.console import Console
from rich.progress import Progress

from monopoly.bots.base import Bot, make_bot, play
from monopoly.core.actions import Action, Build
from monopoly.core.game import Game
from monopoly.core.view import PlayerView
from monopoly.sim.matches import TournamentSetup, play_chunk, wilson_interval

from .catalogue import CATALOGUE, SIZE
from .learned import CoreModeBot, MaskedMLP
from .observation import OBS_SIZE, observe

TEACHER = "expert"
OPPONENTS = ("normal", "normal", "hard", "expert")
"""The recorded games' opponents (drawn per game): mostly the level to beat."""
MAX_LEGAL = 96
"""The most ids a core-mode mask holds that the data keeps (more are cut: rare)."""

console = Console()


@dataclass
class Samples:
    """Recorded core decisions: observations, their masks (as id lists padded with
    -1) and the teacher's ids."""

    obs: list[np.ndarray] = field(default_factory=list)
    legal: list[np.ndarray] = field(default_factory=list)
    label: list[int] = field(default_factory=list)

    def add(self, observation: np.ndarray, mask: np.ndarray, label: int) -> None:
        ids = np.full(MAX_LEGAL, -1, dtype=np.int16)
        legal = np.flatnonzero(mask)[:MAX_LEGAL]
        ids[: len(legal)] = legal
        self.obs.append(observation.astype(np.float16))
        self.legal.append(ids)
        self.label.append(label)

    def __len__(self) -> int:
        return len(self.label)


class Recorder(CoreModeBot):
    """A core-mode player that records what the teacher would choose at each of its
    core decisions, and plays the teacher's choice, or (with a ``student``) the
    student's."""

    def __init__(self, seed: int, samples: Samples, student: MaskedMLP | None = None) -> None:
        super().__init__(seed, TEACHER)
        self.teacher = make_bot(TEACHER, seed)
        self.samples = samples
        self.student = student

    def choose(self, view: PlayerView, mask: np.ndarray) -> int:
        observation = observe(view)
        label = self._teacher_id(view, mask)
        if label is not None:
            self.samples.add(observation, mask, label)
        if self.student is not None:
            return self.student(observation, mask)
        if label is not None:
            return label
        return _first_answer(view, mask)

    def _teacher_id(self, view: PlayerView, mask: np.ndarray) -> int | None:
        """The teacher's id, if its choice is a core-mode id of the mask (a trade offer
        or a building outside the roll's decision is not: it goes unrecorded)."""
        action: Action = self.teacher.decide(view, view.decision_actions())
        for action_id in core_ids(view, action):
            if mask[action_id]:
                return action_id
        return None


def core_ids(view: PlayerView, action: Action) -> list[int]:
    """The ids that play ``action``, best first. ``expert`` buys several houses in one
    request (``Build`` on some streets of a group); the catalogue has one id for a
    whole row, so a part of a row is played one house at a time (the teacher is asked
    again after each)."""
    action_id = CATALOGUE.id_of(action, view)
    if isinstance(action, Build) and len(action.spaces) > 1:
        singles = [CATALOGUE.id("build", space) for space in action.spaces]
        return singles if action_id is None else [action_id, *singles]
    return [] if action_id is None else [action_id]


def _first_answer(view: PlayerView, mask: np.ndarray) -> int:
    """An answer to the pending decision from the mask (the roll before building)."""
    for action in view.decision_actions():
        action_id = CATALOGUE.id_of(action, view)
        if action_id is not None and mask[action_id]:
            return action_id
    return int(np.flatnonzero(mask)[0])


def record_games(
    games: int, seed: int, samples: Samples, student: MaskedMLP | None, progress: Progress
) -> None:
    """Play ``games`` heads-up games with a recorder in a seat drawn per game."""
    rng = random.Random(seed)
    task = progress.add_task(f"recording {games} games", total=games)
    for _ in range(games):
        game_seed = rng.randrange(2**31)
        seat = rng.randrange(2)
        opponent = make_bot(rng.choice(OPPONENTS), game_seed + 1)
        recorder = Recorder(game_seed, samples, student)
        bots = cast(list[Bot], [recorder, opponent] if seat == 0 else [opponent, recorder])
        game = Game.new(2, "classic", "standard", seed=game_seed)
        game.collect_events = False
        play(game, bots)
        progress.advance(task)
    progress.remove_task(task)


def fit(
    samples: Samples, hidden: int, epochs: int, seed: int, progress: Progress
) -> tuple[MaskedMLP, list[float]]:
    """Train a fresh network on all samples; its weights and the loss of each epoch."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    obs = torch.from_numpy(np.stack(samples.obs))
    legal = torch.from_numpy(np.stack(samples.legal).astype(np.int64))
    label = torch.tensor(samples.label, dtype=torch.int64)
    model = torch.nn.Sequential(
        torch.nn.Linear(OBS_SIZE, hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden),
        torch.nn.ReLU(),
        torch.nn.Linear(hidden, SIZE),
    )
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-3)
    batch = 512
    generator = torch.Generator().manual_seed(seed)
    losses: list[float] = []
    task = progress.add_task(f"training on {len(samples)} decisions", total=epochs)
    for _ in range(epochs):
        order = torch.randperm(len(label), generator=generator)
        total = 0.0
        for start in range(0, len(order), batch):
            rows = order[start : start + batch]
            loss = _masked_loss(model(obs[rows].float()), legal[rows], label[rows])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += loss.item() * len(rows)
        losses.append(total / len(order))
        progress.advance(task)
    progress.remove_task(task)
    linears = [m for m in model if isinstance(m, torch.nn.Linear)]
    layers = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linears]
    return MaskedMLP(layers), losses


def _masked_loss(scores: Any, legal: Any, label: Any) -> Any:
    """Cross-entropy of the softmax over the mask's ids only."""
    import torch

    mask = torch.zeros_like(scores, dtype=torch.bool)
    rows = torch.arange(len(legal)).unsqueeze(1).expand_as(legal)
    keep = legal >= 0
    mask[rows[keep], legal[keep]] = True
    masked = scores.masked_fill(~mask, -1e9)
    return torch.nn.functional.cross_entropy(masked, label)


def win_share(policy_path: Path, games: int, seed: int) -> tuple[float, float, float]:
    """The policy's seat-rotated heads-up win share against ``normal``, with its 95 %
    Wilson interval (as ``monopoly tournament --players 2 --bots FILE,normal``)."""
    from monopoly.core.rules import RuleSet

    setup = TournamentSetup(
        2, (str(policy_path), "normal"), RuleSet.named("standard"), "classic", seed
    )
    wins = 0.0
    for outcome in play_chunk((setup, 0, games)):
        seat = outcome.seats.index(str(policy_path))
        if seat in outcome.winners:
            wins += 1.0 / len(outcome.winners)
    low, high = wilson_interval(wins, games)
    return wins / games, low, high


def rounds_of(
    out: Path, games: int, rounds: int, seed: int
) -> Iterator[tuple[int, Samples, MaskedMLP | None]]:
    """The recording schedule: round 0 records the teacher, each later one the last
    network (its file)."""
    samples = Samples()
    student: MaskedMLP | None = None
    for number in range(rounds + 1):
        yield number, samples, student
        student = MaskedMLP.load(out / f"round-{number}.npz")


def train(
    out: Path,
    seed: int = 0,
    games: int = 600,
    rounds: int = 2,
    epochs: int = 8,
    hidden: int = 256,
    eval_games: int = 200,
    on_round: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """The whole recipe (module docstring); the learning curve, one entry a round."""
    out.mkdir(parents=True, exist_ok=True)
    curve: list[dict[str, Any]] = []
    started = time.monotonic()
    with Progress(console=console) as progress:
        for number, samples, student in rounds_of(out, games, rounds, seed):
            record_games(games, seed * 1000 + number, samples, student, progress)
            policy, losses = fit(samples, hidden, epochs, seed + number, progress)
            path = out / f"round-{number}.npz"
            policy.save(path)
            policy.save(out / "policy.npz")
            share, low, high = win_share(path, eval_games, seed + 7919)
            entry = {
                "round": number,
                "games_recorded": games * (number + 1),
                "decisions": len(samples),
                "losses": losses,
                "win_share_vs_normal": share,
                "ci95": [low, high],
                "eval_games": eval_games,
                "minutes": (time.monotonic() - started) / 60,
            }
            curve.append(entry)
            (out / "curve.json").write_text(json.dumps(curve, indent=2))
            console.print(
                f"round {number}: {len(samples)} decisions, loss {losses[-1]:.3f}, "
                f"win share vs normal {share:.3f} [{low:.3f}, {high:.3f}]"
            )
            if on_round is not None:
                on_round(entry)
    draw_curve(curve, out / "curve.png")
    return curve


def draw_curve(curve: list[dict[str, Any]], path: Path) -> None:
    """The learning curve: training loss per epoch and win share per round."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    epoch = 0
    for entry in curve:
        xs = list(range(epoch, epoch + len(entry["losses"])))
        left.plot(xs, entry["losses"], marker=".", label=f"round {entry['round']}")
        epoch += len(entry["losses"])
    left.set_xlabel("epoch (all rounds)")
    left.set_ylabel("cross-entropy vs expert's choice")
    left.set_title("behaviour cloning loss")
    left.legend()
    rounds = [e["round"] for e in curve]
    shares = [e["win_share_vs_normal"] for e in curve]
    errors = [
        [s - e["ci95"][0] for s, e in zip(shares, curve, strict=True)],
        [e["ci95"][1] - s for s, e in zip(shares, curve, strict=True)],
    ]
    right.errorbar(rounds, shares, yerr=errors, marker="o", capsize=4)
    right.axhline(0.5, color="grey", linestyle=":")
    right.axhline(0.55, color="red", linestyle="--", label="target CI low 0.55")
    right.set_xlabel("round (0: cloning, then DAgger)")
    right.set_ylabel("heads-up win share vs normal (95 % CI)")
    right.set_title("learned vs normal")
    right.set_xticks(rounds)
    right.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def main(
    out: Annotated[Path, typer.Option(help="Directory for checkpoints and the curve")] = Path(
        "runs/learned"
    ),
    seed: Annotated[int, typer.Option(help="Seed of everything (games and training)")] = 0,
    games: Annotated[int, typer.Option(help="Games recorded per round")] = 600,
    rounds: Annotated[int, typer.Option(help="DAgger rounds after the cloning round")] = 2,
    epochs: Annotated[int, typer.Option(help="Training epochs per round")] = 8,
    hidden: Annotated[int, typer.Option(help="Width of the two hidden layers")] = 256,
    eval_games: Annotated[int, typer.Option(help="Games against normal per round")] = 200,
) -> None:
    """Train the learned level (see the module docstring)."""
    try:
        train(out, seed, games, rounds, epochs, hidden, eval_games)
    except KeyboardInterrupt:
        console.print(f"stopped: the finished rounds are in {out}")


if __name__ == "__main__":
    typer.run(main)
