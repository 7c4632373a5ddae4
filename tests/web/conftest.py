"""Fixtures of the web tests: a live server on a fresh SQLite file, PostgreSQL URLs."""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from monopoly.web.limits import Limits, default_message_rates
from monopoly.web.session import ServerConfig
from monopoly.web.storage import database_url

from .servers import ServerThread

ABSENCE = 0.4
"""The tests' absence timeout in seconds (the server's default is 60)."""
ROBOT_LIMITS = Limits(
    message_rates={kind: (1000.0, 1000.0) for kind in default_message_rates()},
    create_rate=(1000.0, 1000.0),
    address_rates={},
)
"""Test clients send as fast as they can: the rate limits have tests of their own."""
POSTGRES_VARIABLE = "MONOPOLY_TEST_POSTGRES_URL"
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    config = ServerConfig(bot_delay=0, absence_timeout=ABSENCE, testing=True, limits=ROBOT_LIMITS)
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as running:
        yield running


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The URL of a PostgreSQL database for the storage tests.

    ``./test`` installs PostgreSQL when missing, starts a throwaway server
    (``scripts/start-test-postgres.sh``) and sets the variable; a plain ``pytest`` run
    starts that server itself if PostgreSQL is installed, and fails clearly if not.
    """
    url = os.environ.get(POSTGRES_VARIABLE)
    if url:
        return url
    if not Path("/usr/lib/postgresql").is_dir() or shutil.which("runuser") is None:
        pytest.fail(
            "PostgreSQL is not installed: run ./test (it installs it), or as root "
            "apt-get install postgresql"
        )
    script = REPO / "scripts" / "start-test-postgres.sh"
    output = subprocess.run([script], capture_output=True, text=True, check=True).stdout
    return output.strip().rsplit("=", 1)[1]


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh schema of the test database per test (tests run in parallel)."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(database_url(postgres_server))
    with admin.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    separator = "&" if "?" in postgres_server else "?"
    yield f"{postgres_server}{separator}options=-csearch_path%3D{schema}"
    with admin.begin() as connection:
        connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    admin.dispose()
