"""Real servers and clients for the web tests: uvicorn on a free port, httpx, websockets.

``ServerThread`` runs the app in a thread of the test process; ``ServerProcess`` runs
``monopoly serve`` as a separate process (for restarts). ``Player`` is one WebSocket
connection speaking docs/protocol.md.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import uvicorn
from websockets.sync.client import ClientConnection, connect

from monopoly.web.app import create_app
from monopoly.web.connections import ServerSettings
from monopoly.web.session import ServerConfig

WAIT = 10.0
"""Seconds to wait for a message that must come (a failing test stops here)."""


def free_port() -> int:
    """A TCP port nobody listens on now (for a process started on a chosen port)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class ServerThread:
    """The app served by uvicorn on 127.0.0.1 (or ``host``) and a free port, in a thread."""

    def __init__(
        self,
        db: str,
        config: ServerConfig,
        forwarded_allow_ips: str | None = None,
        host: str = "127.0.0.1",
    ) -> None:
        self.app = create_app(db, config)
        self.host = host
        self.server = uvicorn.Server(
            ServerSettings(self.app, host, 0, forwarded_allow_ips=forwarded_allow_ips)
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.base = ""

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + WAIT
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "server did not start"
            time.sleep(0.01)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.base = f"http://{f'[{self.host}]' if ':' in self.host else self.host}:{port}"
        self.app.state.hub.listen_url = self.base + "/"  # as `monopoly serve` does
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(WAIT)


class ServerProcess:
    """``monopoly serve`` in its own process; ``kill()`` stops it without any goodbye."""

    def __init__(self, db: Path | str, *extra: str) -> None:
        monopoly = Path(sys.executable).parent / "monopoly"  # the installed command
        command = [str(monopoly), "serve", "--port", "0"]
        self.process = subprocess.Popen(
            [*command, "--db", str(db), "--bot-delay", "0", "--testing", *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self.base = ""
        self.banner = ""

    def __enter__(self) -> ServerProcess:
        assert self.process.stdout is not None
        deadline = time.monotonic() + WAIT * 2
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            self.banner += line
            found = re.search(r"http://127\.0\.0\.1:\d+", line)
            if found:
                self.base = found.group(0)
                return self
            assert line, f"the server stopped: {self.banner}"
        raise AssertionError(f"no address printed: {self.banner}")

    def _output_so_far(self) -> str:
        """What the server printed and nobody read yet, without waiting for more (a
        worker that outlived its parent may still hold the pipe open)."""
        assert self.process.stdout is not None
        os.set_blocking(self.process.stdout.fileno(), False)
        return self.process.stdout.read() or ""

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(WAIT)

    def __exit__(self, error: type[BaseException] | None, *exc: object) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(WAIT)
        if self.process.stdout:
            if error is not None and not self.process.stdout.closed:
                print(f"server output:\n{self.banner}{self._output_so_far()[-20_000:]}")
            self.process.stdout.close()


# ---------------------------------------------------------------------- lobby helpers
BOTS_GAME: dict[str, Any] = {
    "edition": "classic",
    "language": "en",
    "rules": {"preset": "short", "options": {"turn_limit": 40}},
    "name": "Ann",
    "token": "cat",
    "seed": 7,
}


def create_game(base: str, seats: list[dict[str, Any]], **changes: Any) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/games", json={**BOTS_GAME, "seats": seats, **changes})
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def join_game(base: str, game_id: str, name: str, token: str) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/games/{game_id}/join", json={"name": name, "token": token})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def start_game(base: str, game_id: str, seat_token: str) -> None:
    response = httpx.post(f"{base}/api/games/{game_id}/start", json={"seat_token": seat_token})
    assert response.status_code == 200, response.text


# ---------------------------------------------------------------------- a WebSocket player
class Player:
    """One WebSocket connection: says hello (with a seat token, or none to watch; with
    ``deltas``, asking for them: each ``delta`` is applied by the ``jsonpatch`` library
    and seen as the whole ``state`` it stands for, marked ``"delta": True``)."""

    def __init__(
        self,
        base: str,
        game_id: str,
        token: str | None = None,
        deltas: bool = False,
        greet: bool = True,
    ) -> None:
        url = base.replace("http://", "ws://") + f"/ws/games/{game_id}"
        self._stack = ExitStack()
        self.ws: ClientConnection = self._stack.enter_context(connect(url, open_timeout=WAIT))
        self.state: dict[str, Any] | None = None
        self.seen: list[dict[str, Any]] = []
        self.table: dict[str, Any] | None = None
        self.seq: int | None = None
        if greet:
            self.send({"type": "hello", "token": token, **({"deltas": True} if deltas else {})})
            self.welcome = self.expect("welcome")

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def send_raw(self, text: str | bytes) -> None:
        self.ws.send(text)

    def recv(self, timeout: float = WAIT) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if message["type"] == "delta":
            assert self.table is not None and message["base"] == self.seq, "a delta without base"
            game = jsonpatch.apply_patch(self.table, message["patch"])
            message = {**message, "type": "state", "full": False, "log": None, "game": game}
            message["delta"] = True
        self.seen.append(message)
        if message["type"] == "state":
            self.state, self.table, self.seq = message, message["game"], message.get("seq")
        return message

    def expect(self, kind: str, timeout: float = WAIT) -> dict[str, Any]:
        """Read messages until one of ``kind`` comes."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if message["type"] == kind:
                return message

    def next_message(self) -> dict[str, Any]:
        """Prove nothing else is queued for this client: a ping's pong must come next."""
        self.send({"type": "ping"})
        return self.recv()

    def wait_for(self, check: Any, timeout: float = WAIT) -> dict[str, Any]:
        """Read states until ``check(state)`` holds; returns that state."""
        deadline = time.monotonic() + timeout
        if self.state is not None and check(self.state):
            return self.state
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if message["type"] == "state" and check(message):
                return message

    def my_turn(self) -> dict[str, Any]:
        """Wait until this seat must decide (or may raise cash); returns the state."""
        return self.wait_for(lambda s: s["decision"] and s["decision"]["seat"] == s["seat"])

    def act(self, action: dict[str, Any], state_id: int | None = None) -> None:
        assert self.state is not None
        sid = self.state["state_id"] if state_id is None else state_id
        self.send({"type": "action", "state_id": sid, "action": action})

    def close(self) -> None:
        self._stack.close()


ANN_AND_BOTS = [
    {"type": "human"},
    {"type": "bot", "level": "random"},
    {"type": "bot", "level": "random"},
]


def ann_in_a_game(base: str, moves: int = 0) -> tuple[str, str, Player]:
    """Create a game of Ann and ANN_AND_BOTS' computer players, connect Ann, start it and
    let her make ``moves`` plain moves: the game's id, her seat token, her connection."""
    created = create_game(base, ANN_AND_BOTS)
    game_id, token = created["game_id"], created["seat_token"]
    ann = Player(base, game_id, token)
    start_game(base, game_id, token)
    for _ in range(moves):
        ann.act(simple_answer(ann.my_turn()))
        ann.expect("state")
    return game_id, token, ann


def simple_answer(state: dict[str, Any]) -> dict[str, Any]:
    """A person's plain play: the first answer, else sell or mortgage to raise cash."""
    if state["decision_actions"]:
        answer: dict[str, Any] = state["decision_actions"][0]
        return answer
    raising = [a for a in state["free_actions"] if a["act"] in ("sell", "mortgage")]
    assert raising, f"nothing to do in {state['decision']}"
    return raising[0]
