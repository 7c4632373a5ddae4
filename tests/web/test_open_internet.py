"""The server facing the open internet (issue 24): raw TCP connections, slow clients,
forwarded headers, foreign hosts and origins, health without internals, reads during a
locked write, a crowd of spectators behind one address. Each test reproduces the attack
or the failure over real sockets on loopback; every loop is bounded."""

from __future__ import annotations

import base64
import contextlib
import json
import logging
import os
import socket
import struct
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from monopoly.web import connections as connections_module
from monopoly.web.limits import Limits
from monopoly.web.origins import Origins
from monopoly.web.session import ServerConfig

from .conftest import ROBOT_LIMITS
from .servers import (
    ANN_AND_BOTS,
    WAIT,
    Player,
    ServerThread,
    create_game,
    simple_answer,
    start_game,
)
from .test_faults import WriteLock

JSON = {"content-type": "application/json"}
NEW_GAME = {"seats": ANN_AND_BOTS, "name": "Ann", "token": "cat"}


def serve(tmp_path: Path, forwarded_allow_ips: str | None = None, **limits: Any) -> ServerThread:
    config = ServerConfig(bot_delay=0, testing=True, limits=replace(ROBOT_LIMITS, **limits))
    return ServerThread(str(tmp_path / "games.sqlite3"), config, forwarded_allow_ips)


def port_of(server: ServerThread) -> int:
    return int(server.base.rsplit(":", 1)[1])


def raw_socket(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=WAIT)
    return sock


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes the socket within ``within`` seconds (reading what it
    sends meanwhile)."""
    deadline = time.monotonic() + within
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            if not sock.recv(4096):
                return True
        except TimeoutError:
            return False
        except ConnectionResetError:
            return True
    return False


@pytest.fixture
def sockets() -> Iterator[list[socket.socket]]:
    """Raw sockets a test opens; all closed at its end."""
    opened: list[socket.socket] = []
    yield opened
    for sock in opened:
        sock.close()


# ---------------------------------------------------------------------- N1: raw connections
def test_idle_sockets_and_slowloris_are_closed_by_the_header_timeout(
    tmp_path: Path, sockets: list[socket.socket]
) -> None:
    with serve(tmp_path, header_timeout=1.0) as server:
        port = port_of(server)
        idle = [raw_socket(port) for _ in range(30)]
        slow = [raw_socket(port) for _ in range(30)]
        sockets.extend(idle + slow)
        for sock in slow:
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        dripped = 0
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:  # a header line every 0.2 s: never finished
            for sock in slow:
                with contextlib.suppress(OSError):
                    sock.sendall(f"X-Drip-{dripped}: 1\r\n".encode())
            dripped += 1
            time.sleep(0.2)
        assert all(closed_by_server(sock, WAIT) for sock in idle), "an idle socket stayed open"
        assert all(closed_by_server(sock, WAIT) for sock in slow), "a slowloris stayed open"
        # a request that sends its headers in time is answered on a kept-alive connection
        with httpx.Client() as client:
            for _ in range(2):
                assert client.get(f"{server.base}/api/health").json() == {"status": "ok"}
                time.sleep(0.5)


def test_connections_are_capped_per_address_as_they_open_and_counted_in_the_log(
    tmp_path: Path,
    sockets: list[socket.socket],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(connections_module, "REFUSALS_LOGGED_EVERY", 0.5)
    caplog.set_level(logging.INFO)
    with serve(tmp_path, connections_per_address=20) as server:
        port = port_of(server)
        sockets.extend(raw_socket(port) for _ in range(200))
        kept = [sock for sock in sockets if not closed_by_server(sock, 0.05)]
        assert len(kept) == 20, "the cap did not hold at the connection"
        assert not any(closed_by_server(sock, 0.05) for sock in kept)
        # a WebSocket counts too: over the cap it is closed before its handshake
        upgrade = raw_socket(port)
        sockets.append(upgrade)
        with contextlib.suppress(OSError):
            upgrade.sendall(upgrade_request("/ws/games/nothing"))
        assert closed_by_server(upgrade, WAIT)
        kept[0].close()
        time.sleep(0.2)  # the server sees the socket go and frees its place
        assert httpx.get(f"{server.base}/api/health").status_code == 200
        time.sleep(1.0)
    lines = [r for r in caplog.records if "refused" in r.getMessage()]
    assert 1 <= len(lines) <= 4, "one line per refused connection"
    assert all(r.exc_info is None for r in caplog.records), "a traceback was logged"
    counted = sum(int(r.getMessage().split()[1]) for r in lines)
    assert counted >= 181  # 180 raw sockets and the WebSocket (httpx may retry once)


def test_connections_are_capped_in_total(tmp_path: Path, sockets: list[socket.socket]) -> None:
    with serve(tmp_path, connections_per_address=1000, connections_total=30) as server:
        port = port_of(server)
        sockets.extend(raw_socket(port) for _ in range(60))
        kept = [sock for sock in sockets if not closed_by_server(sock, 0.05)]
        assert len(kept) == 30
        for sock in kept:
            sock.close()
        time.sleep(0.2)
        assert httpx.get(f"{server.base}/api/health").status_code == 200


# ---------------------------------------------------------------------- N9: WebSockets
def test_a_websocket_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with serve(tmp_path, hello_timeout=0.5) as server:
        created = create_game(server.base, ANN_AND_BOTS)
        url = server.base.replace("http://", "ws://") + f"/ws/games/{created['game_id']}"
        with connect(url, open_timeout=WAIT) as silent, pytest.raises(ConnectionClosed) as closed:
            silent.recv(timeout=WAIT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        watcher = Player(server.base, created["game_id"])  # one that says hello is served
        time.sleep(1.0)
        watcher.send({"type": "ping"})
        assert watcher.expect("pong")
        watcher.close()


def upgrade_request(path: str) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def masked_frame(first_byte: int, payload: bytes) -> bytes:
    mask = os.urandom(4)
    body = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
    return bytes([first_byte, 0x80 | len(payload)]) + mask + body


def test_an_unfinished_fragmented_message_is_closed(tmp_path: Path) -> None:
    with serve(tmp_path, fragment_timeout=0.5) as server:
        created = create_game(server.base, ANN_AND_BOTS)
        sock = raw_socket(port_of(server))
        sock.sendall(upgrade_request(f"/ws/games/{created['game_id']}"))
        assert sock.recv(12) == b"HTTP/1.1 101"
        sock.sendall(masked_frame(0x81, json.dumps({"type": "hello"}).encode()))
        sock.sendall(masked_frame(0x01, b'{"type": "pi'))  # text, not the last fragment
        data = b""
        deadline = time.monotonic() + WAIT
        while b"\x88" not in data and time.monotonic() < deadline:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        close = data[data.index(b"\x88") :]
        assert struct.unpack("!H", close[2:4])[0] == 1008
        assert closed_by_server(sock, WAIT)
        sock.close()


# ---------------------------------------------------------------------- N3: forwarded headers
def test_forwarded_addresses_are_believed_only_from_named_proxies(tmp_path: Path) -> None:
    """Without --forwarded-allow-ips, X-Forwarded-For cannot get around the per-address
    limits; from a named proxy it is each player's address."""
    body = json.dumps(NEW_GAME)
    for trusted, created_games in ((None, 2), ("127.0.0.1", 5)):
        with serve(tmp_path / str(trusted), trusted, create_rate=(0.001, 2.0)) as server:
            answers = [
                httpx.post(
                    f"{server.base}/api/games",
                    content=body,
                    headers={**JSON, "x-forwarded-for": f"203.0.113.{n}"},
                ).status_code
                for n in range(5)
            ]
        assert answers.count(201) == created_games, (trusted, answers)
        assert answers.count(429) == 5 - created_games


# ---------------------------------------------------------------------- N4/N5: hosts, origins
def test_a_foreign_host_is_refused_without_a_public_url(server: ServerThread) -> None:
    """DNS rebinding: a page of rebind.example whose name now points at 127.0.0.1."""
    port = port_of(server)
    for host in ("rebind.example", f"rebind.example:{port}", "127.0.0.1.rebind.example"):
        answer = httpx.get(f"{server.base}/api/games", headers={"host": host})
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "unknown_host"
        created = httpx.post(f"{server.base}/api/games", json=NEW_GAME, headers={"host": host})
        assert created.status_code == 400
    assert httpx.get(f"{server.base}/api/games").json()["games"] == [], "a game was made"
    for host in (f"127.0.0.1:{port}", f"localhost:{port}"):
        assert httpx.get(f"{server.base}/api/health", headers={"host": host}).status_code == 200
    created = create_game(server.base, ANN_AND_BOTS)
    url = f"ws://rebind.example:{port}/ws/games/{created['game_id']}"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, sock=raw_socket(port), open_timeout=WAIT)
    assert refused.value.response.status_code == 403


def test_hosts_of_a_server_bound_to_every_address() -> None:
    origins = Origins("0.0.0.0", None, (), ())
    assert origins.host_allowed("192.168.1.20:8000") and origins.host_allowed("[::1]:8000")
    assert origins.host_allowed("localhost:8000")
    assert not origins.host_allowed("rebind.example:8000")
    public = Origins("127.0.0.1", "https://monopoly.example.org/", ("games.example",), ())
    assert public.host_allowed("monopoly.example.org") and public.host_allowed("games.example")
    assert not public.host_allowed("other.example.org")


def test_an_https_origin_is_refused_by_an_http_server(server: ServerThread) -> None:
    created = create_game(server.base, ANN_AND_BOTS)
    url = server.base.replace("http://", "ws://") + f"/ws/games/{created['game_id']}"
    https_page = server.base.replace("http://", "https://")
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin=https_page, open_timeout=WAIT)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    with connect(url, origin=server.base, open_timeout=WAIT) as same_site:  # type: ignore[arg-type]
        same_site.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(same_site.recv(timeout=WAIT))["type"] == "welcome"


# ---------------------------------------------------------------------- N6: health
def test_health_says_what_is_wrong_without_internals(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"postgresql://monopoly:secret@127.0.0.1:{port}/nowhere?connect_timeout=2"
    config = ServerConfig(bot_delay=0, limits=ROBOT_LIMITS)
    with ServerThread(url, config) as server:
        health = httpx.get(f"{server.base}/api/health", timeout=WAIT)
    assert health.status_code == 503
    assert health.json()["error"] == {
        "code": "database",
        "problem": "unreachable",
        "message": "the database does not answer",
    }
    for internal in ("127.0.0.1", str(port), "secret", "nowhere", "Error"):
        assert internal not in health.text
    assert any(str(port) in record.getMessage() for record in caplog.records), "not logged"


# ---------------------------------------------------------------------- N2: reads and writes
def test_pings_and_syncs_are_answered_during_a_locked_write(tmp_path: Path) -> None:
    """A game's write waits for SQLite's lock held by another program: its players and
    watchers still get their pongs and, on sync, the state the database has."""
    db = tmp_path / "games.sqlite3"
    config = ServerConfig(bot_delay=0.3, testing=True, limits=ROBOT_LIMITS, db_busy_timeout=WAIT)
    with ServerThread(str(db), config) as server, ExitStack() as stack:
        created = create_game(server.base, [{"type": "human"}, {"type": "human"}], seed=3)
        game_id = created["game_id"]
        ann = Player(server.base, game_id, created["seat_token"])
        stack.callback(ann.close)
        bob_seat = httpx.post(
            f"{server.base}/api/games/{game_id}/join", json={"name": "Bob", "token": "boot"}
        ).json()
        bob = Player(server.base, game_id, bob_seat["seat_token"], deltas=True)
        watcher = Player(server.base, game_id, deltas=True)
        stack.callback(bob.close)
        stack.callback(watcher.close)
        start_game(server.base, game_id, created["seat_token"])
        before = watcher.wait_for(lambda s: s["decision"] is not None)
        mover, other = (ann, bob) if before["decision"]["seat"] == 0 else (bob, ann)
        mover.wait_for(lambda s: s["state_id"] == before["state_id"])
        session = server.app.state.hub.sessions[game_id]
        with WriteLock(db):
            mover.act(simple_answer(mover.my_turn()))
            deadline = time.monotonic() + WAIT
            while not session.lock.locked():  # the action waits for its write
                assert time.monotonic() < deadline
                time.sleep(0.01)
            for reader in (watcher, other):
                reader.send({"type": "ping"})
                assert reader.expect("pong")
                reader.send({"type": "sync"})
                synced = reader.expect("state")
                assert synced["full"] and synced["state_id"] == before["state_id"]
                assert synced["game"] == before["game"]
            assert session.lock.locked(), "the write ended before the reads were answered"
        after = mover.expect("state")
        assert after["state_id"] == before["state_id"] + 1
        assert watcher.expect("state")["state_id"] == after["state_id"], "the delta's base"


# ---------------------------------------------------------------------- N7: a crowd
def test_a_hundred_spectators_behind_one_address_are_admitted(tmp_path: Path) -> None:
    limits = Limits(address_rates={"hello": (2.0, 120.0)})
    config = ServerConfig(bot_delay=0, testing=True, limits=limits)
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as server, ExitStack() as stack:
        created = create_game(server.base, ANN_AND_BOTS)
        start_game(server.base, created["game_id"], created["seat_token"])
        crowd = []
        for _ in range(100):
            watcher = Player(server.base, created["game_id"])
            stack.callback(watcher.close)
            crowd.append(watcher)
        assert all(watcher.expect("state")["full"] for watcher in crowd)
        refused = 0
        for _ in range(60):  # beyond the address's budget: hellos are refused again
            flooder = Player(server.base, created["game_id"], greet=False)
            flooder.send({"type": "hello", "token": None})
            answer = flooder.recv()
            refused += answer["type"] == "error" and answer["code"] == "rate_limited"
            flooder.close()
        assert refused > 0
