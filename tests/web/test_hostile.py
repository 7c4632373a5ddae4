"""Hostile and careless clients over real HTTP and WebSockets: floods, odd input, other
sites. Each test reproduces a finding of the server's security review (issue 10)."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidMessage, InvalidStatus
from websockets.sync.client import connect

from monopoly.web import session as session_module
from monopoly.web.limits import Limits
from monopoly.web.session import ServerConfig

from .conftest import ROBOT_LIMITS
from .servers import (
    ANN_AND_BOTS,
    WAIT,
    Player,
    ServerProcess,
    ServerThread,
    create_game,
    join_game,
    simple_answer,
    start_game,
)
from .test_play import play_to_the_end

REFUSED = (InvalidStatus, InvalidMessage, ConnectionClosed, OSError)
"""What a client sees of a connection closed as it opens."""
HUMAN_AND_BOT = [{"type": "human"}, {"type": "bot", "level": "random"}]
JSON = {"content-type": "application/json"}


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[ServerThread]:
    """A server with the default limits (the `server` fixture lets robots run fast)."""
    config = ServerConfig(bot_delay=0, testing=True)
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as running:
        yield running


def started_game(base: str, seats: list[dict[str, Any]] = ANN_AND_BOTS) -> tuple[str, str]:
    created = create_game(base, seats)
    start_game(base, created["game_id"], created["seat_token"])
    return created["game_id"], created["seat_token"]


def drain(player: Player) -> tuple[list[dict[str, Any]], int | None]:
    """Everything the server still sends, and the close code once it closes."""
    messages = []
    try:
        while True:
            messages.append(json.loads(player.ws.recv(timeout=WAIT)))
    except ConnectionClosed as closed:
        return messages, closed.rcvd.code if closed.rcvd else None
    except TimeoutError:
        return messages, None


# ---------------------------------------------------------------------- finding 1: floods
def test_a_sync_flood_is_refused_bounded_and_stalls_no_other_game(guarded: ServerThread) -> None:
    watched, _ = started_game(guarded.base)
    other, token = started_game(guarded.base)
    flooder = Player(guarded.base, watched)
    flooder.expect("state")
    ann = Player(guarded.base, other, token)
    sent = 0
    try:
        for _ in range(5000):
            flooder.send({"type": "sync"})
            sent += 1
    except ConnectionClosed:
        pass
    started = time.monotonic()
    ann.act(simple_answer(ann.my_turn()))
    ann.expect("state")
    assert time.monotonic() - started < 3.0, "another game stalled behind the flood"

    hub = guarded.app.state.hub
    limits = Limits()
    for session in hub.sessions.values():
        for client in session.clients:
            assert client.queue.qsize() <= limits.queue_messages
    messages, code = drain(flooder)
    states = [m for m in messages if m["type"] == "state"]
    errors = [m for m in messages if m["type"] == "error"]
    burst = int(limits.message_rates["sync"][1])
    assert len(states) <= burst + 2, "the flood was answered"
    assert errors and errors[0]["code"] == "rate_limited"
    assert "sync" in errors[0]["message"] and "wait" in errors[0]["message"]
    assert len(errors) == 1, "a flooder is told once, not answered per message"
    assert code == 1008, "the flooder's connection is closed"
    assert ann.next_message() == {"type": "pong"}
    ann.close()


class SilentClient:
    """A WebSocket client that sends but never reads (a raw socket with a tiny buffer)."""

    def __init__(self, base: str, game_id: str) -> None:
        port = int(base.rsplit(":", 1)[1])
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect(("127.0.0.1", port))
        self.sock.settimeout(WAIT)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET /ws/games/{game_id} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        assert self.sock.recv(12) == b"HTTP/1.1 101"

    def send(self, message: dict[str, Any]) -> None:
        data, mask = json.dumps(message).encode(), os.urandom(4)
        assert len(data) < 126
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(data))
        self.sock.sendall(bytes([0x81, 0x80 | len(data)]) + mask + masked)

    def read_to_the_close(self) -> tuple[int, bytes | None]:
        """Read until the server's close frame or the end of the connection; returns the
        bytes read and the close frame's code and reason (None: the server gave up the
        close handshake and cut the connection — as dropped as the frame says)."""
        data = b""
        while not (found := re.search(rb"\x88[\x02-\x7d](\x03[\xe8-\xff][ -~]*)$", data)):
            try:
                chunk = self.sock.recv(65536)
            except ConnectionResetError:  # closed with our unread messages in its buffer
                return len(data), None
            if not chunk:
                return len(data), None
            data += chunk
        return len(data), found.group(1)


def test_a_client_that_does_not_read_is_dropped_with_bounded_memory(tmp_path: Path) -> None:
    limits = Limits(queue_messages=5, message_rates={"sync": (1e6, 1e6), "hello": (1, 3)})
    config = ServerConfig(bot_delay=0, testing=True, limits=limits)
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as server:
        game_id, _ = started_game(server.base)
        silent = SilentClient(server.base, game_id)
        silent.send({"type": "hello", "token": None})
        with contextlib.suppress(OSError):  # the server may close before all are sent
            for _ in range(3000):
                silent.send({"type": "sync"})
        received, close = silent.read_to_the_close()
        assert close is None or (close[:2] == (1008).to_bytes(2, "big") and b"too slow" in close)
        assert received < 3000 * 3000, "the server stopped sending to a client that reads nothing"
        hub = server.app.state.hub
        assert all(not session.clients for session in hub.sessions.values())
        watcher = Player(server.base, game_id)  # the game serves others as before
        assert watcher.expect("state")["full"] is True
        watcher.close()


def test_all_connections_of_one_address_share_a_limit(guarded: ServerThread) -> None:
    game_id, _ = started_game(guarded.base)
    limits = Limits()
    burst = limits.message_rates["sync"][1]
    connections = int(limits.address_factor) + 2
    players = [Player(guarded.base, game_id) for _ in range(connections)]
    for player in players:
        player.expect("state")
    limited = 0
    for player in players:
        for _ in range(int(burst)):
            player.send({"type": "sync"})
        for _ in range(int(burst)):
            message = player.recv()
            if message["type"] == "error":
                assert message["code"] == "rate_limited"
                limited += 1
                break
    assert limited >= 1, "no connection was over its own limit, but the address was"
    for player in players:
        player.close()


def test_the_per_address_limits_are_set_on_the_command_line(tmp_path: Path) -> None:
    """--connections-per-address caps one address's open sockets (behind a proxy or for a
    load test it is raised); the connection over the cap is closed as it opens."""
    db = tmp_path / "games.sqlite3"
    with ServerProcess(db, "--connections-per-address", "2", "--address-factor", "1") as server:
        game_id, _ = started_game(server.base)
        first, second = Player(server.base, game_id), Player(server.base, game_id)
        with pytest.raises(REFUSED):
            Player(server.base, game_id)
        second.close()
        deadline = time.monotonic() + WAIT
        while True:  # the closed socket's place is free again once the server has seen it go
            try:
                third = Player(server.base, game_id)
                break
            except REFUSED:
                assert time.monotonic() < deadline, "the freed place was not given back"
                time.sleep(0.1)
        assert third.expect("state")["state_id"] >= 0
        first.close()
        third.close()


def test_a_long_game_syncs_by_delta(server: ServerThread, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_module, "LOG_TAIL", 30)
    game_id, token = started_game(server.base)
    ann = Player(server.base, game_id, token)
    play_to_the_end(ann)
    ann.send({"type": "sync", "log_from": 0})
    first = ann.expect("state")
    total = first["log_total"]
    assert total > 60 and first["log_from"] == 0 and len(first["log"]) == total

    ann.send({"type": "sync"})
    tail = ann.expect("state")
    assert tail["log_from"] == total - 30 and tail["log"] == first["log"][-30:]
    ann.send({"type": "sync", "log_from": total})
    nothing_new = ann.expect("state")
    assert nothing_new["log"] == [] and nothing_new["game"] == first["game"]
    ann.send({"type": "sync", "log_from": -1})
    assert ann.expect("error")["code"] == "bad_message"
    ann.close()


# ---------------------------------------------------------------------- finding 5: Host
def test_links_never_come_from_the_host_header(tmp_path: Path) -> None:
    """A name the server answers to (here given with ``allowed_hosts``) still never
    makes its links: they come from where it listens."""
    config = ServerConfig(allowed_hosts=("games.example",), limits=ROBOT_LIMITS)
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as server:
        body = {"seats": HUMAN_AND_BOT, "name": "Ann", "token": "cat"}
        named = {**JSON, "host": "games.example"}
        created = httpx.post(f"{server.base}/api/games", content=json.dumps(body), headers=named)
        assert created.status_code == 201
        game_id = created.json()["game_id"]
        assert created.json()["invite_url"] == f"{server.base}/?join={game_id}"
        lobby = httpx.get(f"{server.base}/api/games/{game_id}", headers={"host": "games.example"})
        assert lobby.status_code == 200 and "games.example" not in lobby.text


def test_links_use_the_public_url(tmp_path: Path) -> None:
    config = ServerConfig(public_url="https://monopoly.example.org/play")
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as server:
        body = {"seats": HUMAN_AND_BOT, "name": "Ann", "token": "cat"}
        created = httpx.post(f"{server.base}/api/games", json=body).json()
        assert created["watch_url"] == (
            f"https://monopoly.example.org/play/?watch={created['game_id']}"
        )


# ---------------------------------------------------------------------- finding 6: seed
def test_seed_and_position_need_the_testing_option(tmp_path: Path) -> None:
    body: dict[str, Any] = {"seats": HUMAN_AND_BOT, "name": "Ann", "token": "cat"}
    position = {"players": [{"cash": 5}, {}], "turn": 0}
    with ServerThread(str(tmp_path / "a.sqlite3"), ServerConfig()) as server:
        for chosen in ({"seed": 7}, {"position": position}):
            refused = httpx.post(f"{server.base}/api/games", json={**body, **chosen})
            assert refused.status_code == 422
            assert refused.json()["error"]["code"] == "testing_only"
            assert "--testing" in refused.json()["error"]["message"]
        assert httpx.get(f"{server.base}/api/games").json()["games"] == []
        plain = httpx.post(f"{server.base}/api/games", json=body).json()
        assert plain["game"]["test_setup"] == []


def test_a_rigged_game_says_so_to_everyone_who_joins(server: ServerThread) -> None:
    position = {"players": [{"cash": 5}, {}], "turn": 0}
    seats = [{"type": "human"}, {"type": "human"}]
    created = create_game(server.base, seats, position=position)
    assert created["game"]["test_setup"] == ["seed", "position"]
    listed = httpx.get(f"{server.base}/api/games").json()["games"]
    assert listed[0]["test_setup"] == ["seed", "position"]
    bob = join_game(server.base, created["game_id"], "Bob", "boot")
    assert bob["game"]["test_setup"] == ["seed", "position"]
    watcher = Player(server.base, created["game_id"])
    assert watcher.welcome["test_setup"] == ["seed", "position"]
    watcher.close()


# ---------------------------------------------------------------------- finding 7: bodies
def test_large_bodies_are_refused_without_reading_them(guarded: ServerThread) -> None:
    url = f"{guarded.base}/api/games"
    big = b'{"name": "' + b"x" * 200_000 + b'"}'
    response = httpx.post(url, content=big, headers=JSON)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "body_too_large"

    def stream() -> Iterator[bytes]:  # no Content-Length: the server counts
        yield b'{"name": "'
        for _ in range(100):
            yield b"y" * 10_000
        yield b'"}'

    chunked = httpx.post(url, content=stream(), headers=JSON)
    assert chunked.status_code == 413
    assert httpx.get(f"{guarded.base}/api/health").json() == {"status": "ok"}


def test_errors_do_not_echo_what_was_sent(guarded: ServerThread) -> None:
    long_name = "N" * 20_000
    body = {"seats": HUMAN_AND_BOT, "name": long_name, "token": "cat"}
    response = httpx.post(f"{guarded.base}/api/games", json=body)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "bad_name"
    assert len(response.text) < 400 and "N" * 100 not in response.text
    game_id, _ = started_game(guarded.base)
    watcher = Player(guarded.base, game_id)
    watcher.send({"type": "x" * 50_000})
    error = watcher.expect("error")
    assert error["code"] == "unknown_type" and len(error["message"]) < 300
    watcher.close()


# ---------------------------------------------------------------------- finding 8: quotas
def test_game_creation_is_limited_per_address(tmp_path: Path) -> None:
    burst = int(Limits().create_rate[1])
    slow = Limits(create_rate=(0.01, burst))  # the default burst; no refill during the test
    config = ServerConfig(limits=slow)
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as server:
        body = {"seats": [{"type": "human"}] * 2, "name": "Ann", "token": "cat"}
        url = f"{server.base}/api/games"
        codes = [httpx.post(url, json=body).status_code for _ in range(burst + 5)]
        assert codes[:burst] == [201] * burst
        assert set(codes[burst:]) == {429}
        refused = httpx.post(url, json=body).json()
        assert refused["error"]["code"] == "rate_limited"
        assert "wait" in refused["error"]["message"]
        listed = httpx.get(url, params={"limit": 200}).json()["games"]
        assert len(listed) == burst


def test_the_lobby_list_is_paged(server: ServerThread) -> None:
    two = [{"type": "human"}, {"type": "human"}]
    made = [create_game(server.base, two)["game_id"] for _ in range(25)]
    full = create_game(server.base, two)
    join_game(server.base, full["game_id"], "Bob", "boot")
    seen: list[str] = []
    offset: int | None = 0
    pages = 0
    while offset is not None:
        page = httpx.get(f"{server.base}/api/games", params={"limit": 10, "offset": offset})
        data = page.json()
        assert len(data["games"]) <= 10
        seen += [game["game_id"] for game in data["games"]]
        offset = data["next_offset"]
        pages += 1
    assert pages == 3
    assert seen == list(reversed(made)), "newest first, each open game once, no full game"
    assert create_game(server.base, HUMAN_AND_BOT)["game_id"] not in [
        game["game_id"] for game in httpx.get(f"{server.base}/api/games").json()["games"]
    ], "a game without a free seat is not listed"
    too_many = httpx.get(f"{server.base}/api/games", params={"limit": 100_000})
    assert too_many.status_code == 422 and too_many.json()["error"]["code"] == "bad_page"


# ---------------------------------------------------------------------- findings 10-12
ODD_MESSAGES = [
    ("[" * 30_000 + "]" * 30_000, "bad_json"),
    ('{"type": "action", "state_id": 1' + "0" * 5000 + "}", "bad_json"),
    ('{"type": "action", "state_id": 0, "action": {"act": "\\ud800"}}', "bad_json"),
    ('{"type": "hello\\udfff"}', "bad_json"),
    ('{"type": "action", "state_id": NaN}', "bad_json"),
    (
        '{"type": "action", "state_id": 0, "action": {"act": "bid", "amount": 1' + "0" * 25 + "}}",
        "bad_json",
    ),
]


@pytest.mark.parametrize(("text", "code"), ODD_MESSAGES)
def test_parser_edge_cases_get_an_error_and_keep_the_connection(
    server: ServerThread, text: str, code: str
) -> None:
    game_id, token = started_game(server.base)
    ann = Player(server.base, game_id, token)
    before = ann.expect("state")
    ann.send_raw(text)
    error = ann.expect("error")
    assert error["code"] == code and error["state_id"] == before["state_id"]
    assert ann.next_message() == {"type": "pong"}, "the connection and its sender live on"
    ann.close()


def test_a_huge_amount_in_an_action_is_refused_by_the_rules(server: ServerThread) -> None:
    game_id, token = started_game(server.base)
    ann = Player(server.base, game_id, token)
    state = ann.my_turn()
    for amount in (10**17, -(10**17)):
        ann.act({"act": "bid", "amount": amount})
        error = ann.expect("error")
        assert error["code"] in ("illegal_action", "bad_action")
        assert error["state_id"] == state["state_id"]
    assert ann.next_message() == {"type": "pong"}
    ann.close()


def test_lone_surrogates_in_a_body_are_refused(server: ServerThread) -> None:
    body = '{"seats": [{"type": "human"}, {"type": "human"}], "name": "\\ud800", "token": "cat"}'
    response = httpx.post(f"{server.base}/api/games", content=body, headers=JSON)
    assert response.status_code == 422 and response.json()["error"]["code"] == "bad_request"


def test_websockets_from_other_sites_are_refused(server: ServerThread) -> None:
    game_id, _ = started_game(server.base)
    url = server.base.replace("http://", "ws://") + f"/ws/games/{game_id}"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin="http://evil.example", open_timeout=WAIT)  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    with connect(url, origin=server.base, open_timeout=WAIT) as same_site:  # type: ignore[arg-type]
        same_site.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(same_site.recv(timeout=WAIT))["type"] == "welcome"


def test_json_is_accepted_only_as_application_json(server: ServerThread) -> None:
    body = json.dumps({"seats": HUMAN_AND_BOT, "name": "Ann", "token": "cat"})
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        response = httpx.post(
            f"{server.base}/api/games", content=body, headers={"content-type": kind}
        )
        assert response.status_code == 415, kind
        assert response.json()["error"]["code"] == "unsupported_media_type"
    assert httpx.get(f"{server.base}/api/games").json()["games"] == []


def test_every_answer_has_security_headers_and_nothing_from_a_cdn(server: ServerThread) -> None:
    for path in ("/", "/api/health", "/api/games/nope", "/js/main.js"):
        headers = httpx.get(f"{server.base}{path}").headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], path
        assert "script-src 'self'" in headers["content-security-policy"], path
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
    assert httpx.get(f"{server.base}/api/docs").status_code == 404
    static = Path(session_module.__file__).parent / "static"
    for file in [*static.rglob("*.html"), *static.rglob("*.js"), *static.rglob("*.css")]:
        text = file.read_text(encoding="utf-8")
        assert "//cdn" not in text and "https://" not in text, file


def test_the_access_log_names_requests_but_no_secrets(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "games.sqlite3") as server:
        created = create_game(server.base, HUMAN_AND_BOT)
        game_id, token = created["game_id"], created["seat_token"]
        start_game(server.base, game_id, token)
        Player(server.base, game_id, token).close()
        server.process.terminate()
        assert server.process.stdout is not None
        output = server.process.stdout.read()
    assert '"POST /api/games" 201' in output
    assert f'"POST /api/games/{game_id}/start" 200' in output
    assert f'"WS /ws/games/{game_id}" 101' in output
    assert token not in output


@pytest.mark.browser  # Chromium (the other browser tests are the test_e2e_ modules)
def test_the_browser_game_runs_under_the_content_security_policy(server: ServerThread) -> None:
    from .test_e2e_game import chromium, open_seat

    created = create_game(server.base, ANN_AND_BOTS)
    start_game(server.base, created["game_id"], created["seat_token"])
    with chromium() as browser:
        page = browser.new_page(bypass_csp=False)
        console: list[str] = []
        page.on("console", lambda message: console.append(message.text))
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        open_seat(page, server.base, created["game_id"], created["seat_token"])
        page.locator("#decision [data-act='roll']:not([disabled])").first.click(timeout=WAIT * 1e3)
        page.locator("#log li").first.wait_for(timeout=WAIT * 1e3)
        page.locator(".space[data-space='39']").wait_for(timeout=WAIT * 1e3)
        page.close()
    assert errors == []
    assert not [line for line in console if "Content Security Policy" in line], console
