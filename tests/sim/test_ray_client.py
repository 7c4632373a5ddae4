"""`--address ray://host:port`: the simulator as a Ray client of a cluster it did not start.

A head node is started the way docs/simulator.md tells (``ray start --head`` with its
client server, token authentication on) in its own process group and temporary folder;
`monopoly simulate` runs in a separate process as a client and must play the same games
as the local backend.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

from monopoly.sim.backends import BackendError, RayBackend
from monopoly.sim.stats import TIMING_KEYS

from ..web.servers import free_port

BIN = Path(sys.executable).parent
pytestmark = pytest.mark.xdist_group("ray")
"""One Ray instance at a time: ./test runs the Ray modules on one test worker."""


def wait_for_port(port: int, head: subprocess.Popen[str], seconds: float = 90) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert head.poll() is None, "the Ray head stopped"
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.3)
    raise AssertionError("the Ray client server did not open its port")


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[tuple[str, dict[str, str]]]:
    """A one-node cluster (2 CPUs) with token authentication; yields (address, env)."""
    env = {
        **os.environ,
        "RAY_AUTH_MODE": "token",
        "RAY_AUTH_TOKEN": secrets.token_hex(16),
        "RAY_USAGE_STATS_ENABLED": "0",
        # a loaded test machine starts the head's client server slowly: wait longer
        "RAY_CLIENT_INITIAL_CONNECTION_TIMEOUT_S": "20",
        "RAY_CLIENT_MAX_CONNECTION_TIMEOUT_S": "40",
    }
    for attempt in range(3):
        head, client_port, folder = _start_head(env)
        try:
            wait_for_port(client_port, head)
        except AssertionError:
            # A port chosen free was taken by another process before the head bound it
            # (the other test worker's servers open ports all the time): try new ones.
            _stop_head(head, folder)
            if attempt == 2:
                raise
            continue
        break
    try:
        yield f"ray://127.0.0.1:{client_port}", env
    finally:
        _stop_head(head, folder)


def _free_port_range(count: int) -> int:
    """The first of ``count`` consecutive free ports below the kernel's ephemeral range
    (32768 and up), where no outgoing connection of another test takes one meanwhile."""
    rng = random.Random()
    while True:
        first = rng.randrange(20_000, 32_000 - count)
        if all(_can_bind(port) for port in range(first, first + count)):
            return first


def _can_bind(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _start_head(env: dict[str, str]) -> tuple[subprocess.Popen[str], int, str]:
    """A Ray head on ports chosen free; returns it, its client server's port, its folder."""
    client_port, gcs_port = free_port(), free_port()
    workers = _free_port_range(41)
    # Every port the head would otherwise take by default (the dashboard agent's 52365,
    # ...) chosen free, so another Ray instance on the machine cannot stop it.
    ports = {
        option: str(free_port())
        for option in (
            "--node-manager-port", "--object-manager-port", "--metrics-export-port",
            "--dashboard-agent-listen-port", "--dashboard-agent-grpc-port",
            "--runtime-env-agent-port",
        )
    }  # fmt: skip
    folder = tempfile.mkdtemp(prefix="ray", dir="/tmp")
    command = [
        str(BIN / "ray"), "start", "--head", "--block", "--num-cpus", "2",
        "--port", str(gcs_port), "--ray-client-server-port", str(client_port),
        "--min-worker-port", str(workers), "--max-worker-port", str(workers + 40),
        "--include-dashboard", "false", "--object-store-memory", str(80 * 1024 * 1024),
        "--temp-dir", folder, "--disable-usage-stats",
        *[part for option, port in ports.items() for part in (option, port)],
    ]  # fmt: skip
    head = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    return head, client_port, folder


def _stop_head(head: subprocess.Popen[str], folder: str) -> None:
    """Stop the head and every process it started (its session), then remove its folder."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(head.pid, signal.SIGTERM)
    try:
        head.wait(10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)
        head.wait(30)
    shutil.rmtree(folder, ignore_errors=True)


def simulate(*args: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    common = ["--games", "12", "--seed", "41", "--rules", "speed", "--json"]
    done = subprocess.run(
        [str(BIN / "monopoly"), "simulate", *common, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


def test_a_ray_client_plays_the_same_games_as_the_local_backend(
    ray_cluster: tuple[str, dict[str, str]],
) -> None:
    address, env = ray_cluster
    on_cluster = simulate("--backend", "ray", "--address", address, env=env)
    local = simulate("--workers", "1")
    assert on_cluster["backend"] == "ray" and on_cluster["workers"] == 2
    assert on_cluster["games"] == 12 and on_cluster["player_turns_per_second"] > 0
    for key in (*TIMING_KEYS, "backend", "workers"):
        on_cluster.pop(key, None)
        local.pop(key, None)
    assert on_cluster == local


def test_a_client_without_the_cluster_token_gets_a_clear_error(
    ray_cluster: tuple[str, dict[str, str]],
) -> None:
    address, env = ray_cluster
    wrong = {**env, "RAY_AUTH_TOKEN": "not-the-token"}
    wrong |= {
        "RAY_CLIENT_INITIAL_CONNECTION_TIMEOUT_S": "2",
        "RAY_CLIENT_MAX_CONNECTION_TIMEOUT_S": "2",
    }
    done = subprocess.run(
        [
            str(BIN / "monopoly"),
            "simulate",
            "--games",
            "2",
            "--backend",
            "ray",
            "--address",
            address,
        ],
        env=wrong,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode != 0
    assert f"cannot start Ray on {address}" in done.stderr
    assert "RAY_AUTH_MODE=token" in done.stderr


class FlakyHead:
    """Stands in for the ``ray`` module: ``init`` fails with ``failures`` first."""

    def __init__(self, *failures: ConnectionError) -> None:
        self.failures = list(failures)
        self.inits = 0
        self.shutdowns = 0

    def is_initialized(self) -> bool:
        return False

    def init(self, **options: Any) -> None:
        self.inits += 1
        if self.failures:
            raise self.failures.pop(0)

    def shutdown(self) -> None:
        self.shutdowns += 1

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 3.0}


def test_a_client_asks_again_when_the_head_could_not_start_its_server() -> None:
    """Ray's proxy sometimes fails to start the server process it runs for each client
    (on a busy head); the simulator connects again instead of giving up."""
    failed = ConnectionAbortedError(
        "Initialization failure from server:\nRuntimeError: Starting Ray client server failed."
    )
    backend = RayBackend(None, "ray://127.0.0.1:10001")
    head = FlakyHead(failed, failed)
    backend.ray = head
    with mock.patch("time.sleep"), backend as entered:
        assert entered.workers == 3  # connected at the third try
    assert (head.inits, head.shutdowns) == (3, 2 + 1)  # the last on leaving


def test_a_client_gives_up_at_once_on_other_errors_and_after_three_tries() -> None:
    refused = FlakyHead(ConnectionError("the token was not accepted"))
    backend = RayBackend(None, "ray://127.0.0.1:10001")
    backend.ray = refused
    with pytest.raises(BackendError, match="the token was not accepted"):
        backend.__enter__()
    assert refused.inits == 1
    failed = ConnectionAbortedError("Initialization failure from server: zombie")
    always = FlakyHead(failed, failed, failed, failed)
    backend.ray = always
    with mock.patch("time.sleep"), pytest.raises(BackendError, match="zombie"):
        backend.__enter__()
    assert always.inits == 3
