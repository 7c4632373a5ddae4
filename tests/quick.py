"""Sizes of the randomized runs: the full size in ``./test``, a smaller one in the quick
loop (``./test --quick`` sets ``MONOPOLY_QUICK_TESTS=1``). The quick size still plays
through every edition and rule set the test names, only fewer steps of each."""

from __future__ import annotations

import os

QUICK = os.environ.get("MONOPOLY_QUICK_TESTS") == "1"


def sized(full: int, quick: int) -> int:
    """``full`` in the full run, ``quick`` in the quick loop."""
    return quick if QUICK else full
