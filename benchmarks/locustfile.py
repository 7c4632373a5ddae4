"""Load test of ``monopoly serve`` with Locust: games with computer players and spectators.

Run by hand (not part of ./test). Locust and what it brings (gevent, Flask) are pinned in
``requirements-load.lock``, which ``benchmarks/load.sh`` installs into ``.venv`` itself
(or by hand: ``.venv/bin/pip install -r requirements-load.lock``). Then, with a server
running::

    ./run serve --port 8765 --db /tmp/load.sqlite3 --create-rate 1000 --no-access-log \\
        --address-factor 1000 --connections-per-address 100000
    .venv/bin/locust -f benchmarks/locustfile.py --headless -H http://127.0.0.1:8765 \\
        -u 100 -r 10 -t 60s --csv /tmp/load

Each ``Player`` creates one game (one person and three computer players; the server's
``--bot-delay`` paces the computers), plays the person's decisions at once and starts a
new game when one ends — so ``-u`` is the number of concurrent games. A ``Spectator``
(one in ``SPECTATORS + 1`` users) watches a running game. Reported as requests:

- ``WS action->state``: from sending an action to receiving the state it caused, for the
  acting connection (the server stores the action first, then broadcasts);
- ``WS spectator gap``: the longest pause between two states a spectator saw (a stall);
- ``POST /api/games`` etc.: the lobby calls.

Like the browser, every connection asks for deltas (``"deltas": true`` in its hello) and
applies each one's JSON Patch to the table it keeps; messages are parsed with orjson.
"""

from __future__ import annotations

import gc
import json
import random
import time
from typing import Any

import gevent
import orjson
from locust import HttpUser, between, events, task
from websockets.sync.client import connect

SEATS = [{"type": "human"}] + [{"type": "bot", "level": "easy"}] * 3
RULES = {"preset": "short", "options": {"turn_limit": 60}}
SPECTATORS = 4
"""One user in SPECTATORS + 1 watches instead of playing."""
WAIT = 30.0
RUNNING: list[str] = []
"""Games being played now (spectators pick one)."""
FREEZE_EVERY = 1.0
"""Seconds between two ``gc.freeze()`` in the load generator (see ``_short_collections``)."""


@events.test_start.add_listener
def _short_collections(**_: Any) -> None:
    """Keep Locust's own garbage collections short: every user's table is a few thousand
    dicts and lists, and a full collection of them all paused every user for 0.3-0.8 s
    (ten times in 300 s at 500 games), which Locust counted as the response time of
    every request under way. Frozen objects are skipped by the collector (reference
    counting still frees them); only cyclic garbage that was frozen stays, a few MB per
    run of minutes."""
    gc.freeze()

    def freeze_again() -> None:
        while True:
            gevent.sleep(FREEZE_EVERY)
            gc.freeze()

    gevent.spawn(freeze_again)


def report(name: str, started: float, length: int, error: Exception | None = None) -> None:
    events.request.fire(
        request_type="WS",
        name=name,
        response_time=(time.perf_counter() - started) * 1000,
        response_length=length,
        exception=error,
        context={},
    )


class Table:
    """The game table a connection keeps: whole from a ``state``, patched by a ``delta``."""

    def __init__(self) -> None:
        self.game: dict[str, Any] | None = None
        self.seq: int | None = None

    def read(self, text: str | bytes) -> dict[str, Any]:
        """The next message; a delta is applied (and then read as the state it stands for)."""
        message: dict[str, Any] = orjson.loads(text)
        if message["type"] == "state":
            self.game, self.seq = message["game"], message.get("seq")
        elif message["type"] == "delta":
            if self.game is None or message["base"] != self.seq:
                raise RuntimeError(f"a delta on base {message['base']}, not {self.seq}")
            for op in message["patch"]:
                patch(self.game, op)
            self.seq = message["seq"]
            message["type"], message["game"] = "state", self.game
        return message


def patch(game: dict[str, Any], op: dict[str, Any]) -> None:
    """Apply one JSON Patch operation (RFC 6902) in place: the server sends add, remove
    and replace on keys and list indexes (docs/protocol.md)."""
    *keys, last = [k.replace("~1", "/").replace("~0", "~") for k in op["path"][1:].split("/")]
    node: Any = game
    for key in keys:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        index = len(node) if last == "-" else int(last)
        if op["op"] == "add":
            node.insert(index, op["value"])
        elif op["op"] == "remove":
            del node[index]
        else:
            node[index] = op["value"]
    elif op["op"] == "remove":
        del node[last]
    else:
        node[last] = op["value"]


def answer(state: dict[str, Any]) -> dict[str, Any] | None:
    """A person's plain play: the first answer, else raise cash by selling or mortgaging."""
    if state["decision_actions"]:
        chosen: dict[str, Any] = state["decision_actions"][0]
        return chosen
    raising = [a for a in state["free_actions"] if a["act"] in ("sell", "mortgage")]
    return raising[0] if raising else None


class Player(HttpUser):
    weight = SPECTATORS
    wait_time = between(0.5, 1.5)

    @task
    def play_a_game(self) -> None:
        body = {"name": "Load", "token": "cat", "seats": SEATS, "rules": RULES}
        with self.client.post("/api/games", json=body, catch_response=True) as response:
            if response.status_code != 201:
                response.failure(f"create: {response.status_code} {response.text[:80]}")
                return
            created = response.json()
        game_id, token = created["game_id"], created["seat_token"]
        ws_url = self.host.replace("http", "ws", 1) + f"/ws/games/{game_id}"
        with connect(ws_url, open_timeout=WAIT, max_size=2**22) as ws:
            ws.send(json.dumps({"type": "hello", "token": token, "deltas": True}))
            start = {"seat_token": token}
            self.client.post(f"/api/games/{game_id}/start", json=start, name="/api/games/start")
            RUNNING.append(game_id)
            try:
                self._play(ws)
            finally:
                RUNNING.remove(game_id)

    def _play(self, ws: Any) -> None:
        sent_at: float | None = None
        sent_id = -1
        deadline = time.monotonic() + 600
        table = Table()
        while time.monotonic() < deadline:
            message = table.read(ws.recv(timeout=WAIT))
            kind = message["type"]
            if kind == "game_over":
                return
            if kind == "error":
                if sent_at is not None:
                    report("action->state", sent_at, 0, RuntimeError(message["code"]))
                    sent_at = None
                continue
            if kind != "state":
                continue
            if sent_at is not None and message["state_id"] > sent_id:
                report("action->state", sent_at, len(message["events"]))
                sent_at = None
            decision = message["decision"]
            if sent_at is None and decision and decision["seat"] == message["seat"]:
                action = answer(message)
                if action is not None:
                    sent_id = message["state_id"]
                    sent_at = time.perf_counter()
                    ws.send(json.dumps({"type": "action", "state_id": sent_id, "action": action}))


class Spectator(HttpUser):
    weight = 1
    wait_time = between(1, 2)

    @task
    def watch(self) -> None:
        if not RUNNING:
            return
        game_id = random.choice(RUNNING)
        ws_url = self.host.replace("http", "ws", 1) + f"/ws/games/{game_id}"
        with connect(ws_url, open_timeout=WAIT, max_size=2**22) as ws:
            ws.send(json.dumps({"type": "hello", "token": None, "deltas": True}))
            table = Table()
            last = time.perf_counter()
            longest = 0.0
            until = time.monotonic() + 20
            while time.monotonic() < until:
                try:
                    message = table.read(ws.recv(timeout=WAIT))
                except TimeoutError:
                    break
                now = time.perf_counter()
                if message["type"] == "state":
                    longest = max(longest, now - last)
                    last = now
                if message["type"] == "game_over":
                    break
            events.request.fire(
                request_type="WS",
                name="spectator gap",
                response_time=longest * 1000,
                response_length=0,
                exception=None,
                context={},
            )
