"""The engine's own shuffle deals the orders ``random.shuffle`` deals: the records and
golden games of older versions replay unchanged."""

from __future__ import annotations

import random

import pytest

from monopoly.core.chance import shuffled


@pytest.mark.parametrize("size", [0, 1, 2, 3, 16, 28, 100])
def test_shuffled_gives_the_library_order_and_draws_the_same_numbers(size: int) -> None:
    items = tuple(f"card{i}" for i in range(size))
    for seed in range(50):
        ours, theirs = random.Random(seed), random.Random(seed)
        expected = list(items)
        theirs.shuffle(expected)
        assert shuffled(ours, items) == tuple(expected)
        assert ours.random() == theirs.random()  # the generators went on in step
