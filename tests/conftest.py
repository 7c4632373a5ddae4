"""Markers by what a test needs, so that ``./test --quick`` can leave those tests out:
``postgres`` (a PostgreSQL server), ``browser`` (Chromium via Playwright) and ``compiled``
(compiling the package with mypyc)."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "postgres_server" in fixtures:
            item.add_marker(pytest.mark.postgres)
        if item.path.name.startswith("test_e2e_"):
            item.add_marker(pytest.mark.browser)
