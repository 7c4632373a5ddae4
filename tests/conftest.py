"""Markers by what a test needs, so that ``./test --quick`` can leave those tests out:
``postgres`` (a PostgreSQL server), ``browser`` (Chromium via Playwright), ``compiled``
(compiling the package with mypyc) and ``slow`` (the long randomized runs: they are most
of the suite's time and rarely the first to find a slip)."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import product
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression

SLOW_MODULES = frozenset(
    {
        "tests/core/test_invariants.py",  # thousands of random games on every board
        "tests/rl/test_envs.py",  # random masked play through the RL environments
        "tests/rl/test_examples.py",  # trains a small policy
        "tests/sim/test_ray_backend.py",  # starts a Ray cluster
        "tests/sim/test_ray_client.py",
        "tests/web/test_faults.py",  # servers killed and restarted
    }
)


def module_markers(path: Path, root: Path) -> set[str]:
    """The markers every test of the module at ``path`` gets from where it is."""
    markers: set[str] = set()
    if path.name.startswith("test_e2e_"):
        markers.add("browser")
    if path.relative_to(root).as_posix() in SLOW_MODULES:
        markers.add("slow")
    return markers


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A module whose every test ``-m`` leaves out, whatever markers its tests carry
    besides, is not imported at all (so the quick loop's workers do not load Ray or
    Playwright for nothing)."""
    text = config.getoption("markexpr")
    markers = (
        module_markers(collection_path, config.rootpath) if collection_path.is_file() else set()
    )
    if not text or not markers:
        return None
    expression = Expression.compile(text)
    others = sorted(set(re.findall(r"[\w.-]+", text)) - {"and", "or", "not"} - set(markers))
    for chosen in product((False, True), repeat=len(others)):
        carried = markers | {name for name, on in zip(others, chosen, strict=True) if on}
        if expression.evaluate(carrying(carried)):
            return None
    return True


def carrying(markers: set[str]) -> Callable[..., bool]:
    """The matcher of a test that carries exactly ``markers``."""
    return lambda name, **_: name in markers


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "postgres_server" in fixtures:
            item.add_marker(pytest.mark.postgres)
        for marker in module_markers(item.path, item.config.rootpath):
            item.add_marker(marker)
