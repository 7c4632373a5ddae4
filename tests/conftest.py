"""Markers by what a test needs, so that ``./test --quick`` can leave those tests out:
``postgres`` (a PostgreSQL server), ``browser`` (Chromium via Playwright), ``compiled``
(compiling the package with mypyc) and ``slow`` (the long randomized runs: they are most
of the suite's time and rarely the first to find a slip)."""

from __future__ import annotations

import pytest

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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "postgres_server" in fixtures:
            item.add_marker(pytest.mark.postgres)
        if item.path.name.startswith("test_e2e_"):
            item.add_marker(pytest.mark.browser)
        if item.path.relative_to(item.config.rootpath).as_posix() in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
