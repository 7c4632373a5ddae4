"""Estimates from rollout scores: means with 95 % confidence intervals.

A chance is the mean score of its rollouts; its interval is the normal one,
``mean ± 1.96 · s / √n`` (``s`` the scores' sample standard deviation). Two alternatives
played on the same dice are compared by their *paired* differences, rollout by rollout:
the dice that both share cancel, so the difference's interval is much narrower than
either chance's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from monopoly.sim.texts import Texts

Z95 = 1.96


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean and the half-width of its 95 % confidence interval (both 0..1 scale)."""

    mean: float
    half_width: float

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def points(self, texts: Texts) -> str:
        """``"62.4 ± 2.1"``: the estimate in percentage points, written as ``texts``'
        language writes numbers ("62,4 ± 2,1" in German)."""
        return f"{texts.number(100 * self.mean, 1)} ± {texts.number(100 * self.half_width, 1)}"

    def to_json(self) -> dict[str, float]:
        return {"mean": round(self.mean, 5), "half_width": round(self.half_width, 5)}


def estimate(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` with its 95 % interval (at least two values)."""
    n = len(values)
    if n < 2:
        raise ValueError(f"an estimate needs at least 2 values, got {n}")
    mean = math.fsum(values) / n
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return Estimate(mean, Z95 * math.sqrt(variance / n))


def paired(first: Sequence[float], second: Sequence[float]) -> Estimate:
    """The mean of ``first[i] - second[i]``: two alternatives on the same dice."""
    return estimate([a - b for a, b in zip(first, second, strict=True)])


@dataclass(frozen=True, slots=True)
class WinChances:
    """Each seat's chance to win a position, from ``rollouts`` rollouts."""

    names: tuple[str, ...]
    chances: tuple[Estimate, ...]
    rollouts: int

    @classmethod
    def from_scores(cls, names: Sequence[str], scores: Sequence[Sequence[float]]) -> WinChances:
        """From one score list per rollout (a score per seat)."""
        per_seat = [[rollout[seat] for rollout in scores] for seat in range(len(names))]
        return cls(tuple(names), tuple(estimate(s) for s in per_seat), len(scores))

    def __getitem__(self, seat: int) -> Estimate:
        return self.chances[seat]

    def leader(self) -> int:
        """The seat with the highest chance."""
        return max(range(len(self.chances)), key=lambda seat: self.chances[seat].mean)

    def to_json(self) -> dict[str, Any]:
        return {
            "rollouts": self.rollouts,
            "players": [
                {"seat": seat, "name": name, **self.chances[seat].to_json()}
                for seat, name in enumerate(self.names)
            ],
        }
