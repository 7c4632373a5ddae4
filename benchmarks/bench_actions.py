"""The server's CPU per action over real WebSockets, with the load generator's own CPU
beside it (the issue's "cheaper actions" and "500 games on 2 processes").

    .venv/bin/python benchmarks/bench_actions.py [--games 200] [--seconds 60]
        [--workers 1] [--db postgresql://…] [--bot-delay 0.8] [--warmup 15]

Starts ``monopoly serve`` (a fresh SQLite file, or with ``--db`` a fresh schema of that
PostgreSQL database, dropped at the end; ``--workers`` above 1 needs PostgreSQL) and, in
a process of its own, a load generator like ``benchmarks/locustfile.py`` but lighter (one
asyncio loop, orjson): ``--games`` people, each creating a game of a person and three
easy computer players (short rules, 60-turn limit), answering each of her decisions at
once over a WebSocket that asks for deltas, and starting a new game 0.5-1.5 s after one
ends; one spectator for every ``--spectators-every`` games watches a running game for
20 s at a time. After ``--warmup`` seconds it measures for ``--seconds``:

- the actions made (every seat's, counted from the ``state_id`` each person's
  connection sees) and the server's CPU (the serving process and its workers, from
  /proc) per action;
- the generator's CPU (its process) and the local PostgreSQL server's (all its
  processes: on a shared server that includes other users' work);
- the person's action→state time (from sending an action to the state it caused);
- broken delta chains (a delta whose base is not the message before it: must be 0);
- the load average at the start and the end.

Ctrl-C stops early and prints what was measured. Figures are in docs/server.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from bench_crowd import (
    answer,
    cpu_seconds,
    database,
    percentile,
    server_log,
    stop_server,
    wait_until_served,
)
from rich.progress import Progress
from websockets.asyncio.client import connect

GAME = {
    "name": "Load",
    "token": "cat",
    "seats": [{"type": "human"}] + [{"type": "bot", "level": "easy"}] * 3,
    "rules": {"preset": "short", "options": {"turn_limit": 60}},
}
WATCH_FOR = 20.0
"""Seconds a spectator watches one game before it picks another."""


@dataclass
class Tally:
    """What the generator saw while measuring."""

    measuring: bool = False
    actions: int = 0
    messages: int = 0
    broken: int = 0
    games: int = 0
    failures: int = 0
    latencies: list[float] = field(default_factory=list)


class Table:
    """One connection's view of the delta chain: each delta's base must be the message
    before it."""

    def __init__(self, tally: Tally) -> None:
        self.tally = tally
        self.seq: int | None = None

    def read(self, text: str | bytes) -> dict[str, Any]:
        message: dict[str, Any] = orjson.loads(text)
        if self.tally.measuring:
            self.tally.messages += 1
        kind = message["type"]
        if kind == "delta":
            if message["base"] != self.seq:
                self.tally.broken += 1
            self.seq = message["seq"]
        elif kind == "state":
            self.seq = message.get("seq")
        return message


async def play_games(base: str, tally: Tally, running: list[str], stop: asyncio.Event) -> None:
    """One person: create a game, play it to its end, rest, again."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while not stop.is_set():
            try:
                await play_one(http, base, tally, running, stop)
            except Exception:  # a refused or dropped connection: counted, then go on
                tally.failures += 1
            await asyncio.sleep(random.uniform(0.5, 1.5))


async def play_one(
    http: httpx.AsyncClient, base: str, tally: Tally, running: list[str], stop: asyncio.Event
) -> None:
    created = (await http.post("/api/games", json=GAME)).json()
    game_id, token = created["game_id"], created["seat_token"]
    url = base.replace("http://", "ws://") + f"/ws/games/{game_id}"
    async with connect(url, max_size=2**22, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "deltas": True}))
        await http.post(f"/api/games/{game_id}/start", json={"seat_token": token})
        running.append(game_id)
        try:
            await play_on(ws, tally, stop)
        finally:
            running.remove(game_id)
    if tally.measuring:
        tally.games += 1


async def play_on(ws: Any, tally: Tally, stop: asyncio.Event) -> None:
    table = Table(tally)
    seen = 0
    sent_id, sent_at = -1, None
    while not stop.is_set():
        message = table.read(await asyncio.wait_for(ws.recv(), 60))
        kind = message["type"]
        if kind == "game_over":
            return
        if kind == "error":
            sent_at = None
            continue
        if kind not in ("state", "delta"):
            continue
        state_id = message["state_id"]
        if tally.measuring:
            tally.actions += state_id - seen
            if sent_at is not None and state_id > sent_id:
                tally.latencies.append(time.perf_counter() - sent_at)
        seen = state_id
        if sent_at is not None and state_id <= sent_id:
            continue
        sent_at = None
        decision = message["decision"]
        if decision and decision["seat"] == message["seat"]:
            action = answer(message)
            if action is not None:
                sent_id, sent_at = state_id, time.perf_counter()
                request = {"type": "action", "state_id": state_id, "action": action}
                await ws.send(orjson.dumps(request).decode())


async def watch_games(base: str, tally: Tally, running: list[str], stop: asyncio.Event) -> None:
    """One spectator: watch a running game for a while, then another."""
    while not stop.is_set():
        await asyncio.sleep(random.uniform(1, 2))
        if not running:
            continue
        url = base.replace("http://", "ws://") + f"/ws/games/{random.choice(running)}"
        try:
            async with connect(url, max_size=2**22, open_timeout=60) as ws:
                await ws.send(json.dumps({"type": "hello", "token": None, "deltas": True}))
                table = Table(tally)
                until = time.monotonic() + WATCH_FOR
                while not stop.is_set() and time.monotonic() < until:
                    message = table.read(await asyncio.wait_for(ws.recv(), 60))
                    if message["type"] == "game_over":
                        break
        except Exception:
            tally.failures += 1


def generate(base: str, args: argparse.Namespace, pipe: Any) -> None:
    """The load generator's process: says ``start`` on ``pipe`` when the measuring begins
    and sends its figures when it ends."""

    async def run() -> None:
        tally, running, stop = Tally(), [], asyncio.Event()
        tasks = []
        for index in range(args.games):
            tasks.append(asyncio.create_task(play_games(base, tally, running, stop)))
            if args.spectators_every and index % args.spectators_every == 0:
                tasks.append(asyncio.create_task(watch_games(base, tally, running, stop)))
            await asyncio.sleep(0.05)  # ramp up at 20 games a second, as the load test
        await asyncio.sleep(args.warmup)
        tally.measuring = True
        before = time.process_time()
        pipe.send("start")
        await asyncio.sleep(args.seconds)
        tally.measuring = False
        cpu = time.process_time() - before
        pipe.send("end")
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        pipe.send((tally, cpu))

    asyncio.run(run())


def postgres_cpu() -> float:
    """CPU seconds of the local PostgreSQL server's processes so far."""
    found = subprocess.run(["pgrep", "-x", "postgres"], capture_output=True, text=True).stdout
    ticks = 0
    for pid in found.split():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def start_server(db: str, port: int, args: argparse.Namespace) -> subprocess.Popen[str]:
    command = [
        str(Path(sys.executable).parent / "monopoly"),
        "serve",
        *("--port", str(port), "--db", db, "--bot-delay", str(args.bot_delay)),
        *("--workers", str(args.workers), "--create-rate", "1000", "--address-factor", "1000"),
        *("--connections-per-address", "100000", "--address-hellos", "100000"),
        "--no-access-log",
    ]
    return subprocess.Popen(command, stdout=server_log(), stderr=subprocess.STDOUT, text=True)


def measure(args: argparse.Namespace, base: str, server_pid: int) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    generator = context.Process(target=generate, args=(base, args, theirs))
    generator.start()
    with Progress(transient=True) as progress:
        ramp = progress.add_task("games start, then warm up", total=None)
        while not ours.poll(1.0):
            progress.advance(ramp)
        ours.recv()
        load_before = os.getloadavg()
        server_before, pg_before = cpu_seconds(server_pid), postgres_cpu()
        started = time.monotonic()
        measuring = progress.add_task("measuring", total=args.seconds)
        while not ours.poll(1.0):
            progress.update(measuring, completed=time.monotonic() - started)
        ours.recv()
    server_cpu = cpu_seconds(server_pid) - server_before
    pg_cpu = postgres_cpu() - pg_before
    elapsed = time.monotonic() - started
    load_after = os.getloadavg()
    tally, generator_cpu = ours.recv()
    generator.join(30)
    actions = max(1, tally.actions)
    latencies = tally.latencies
    return {
        "games": args.games,
        "workers": args.workers,
        "db": "postgresql" if args.db and args.db.startswith("postgresql") else "sqlite",
        "seconds": round(elapsed, 1),
        "load_average_start_end": [round(load_before[0], 2), round(load_after[0], 2)],
        "actions": tally.actions,
        "actions_per_s": round(tally.actions / elapsed),
        "server_cpu_s": round(server_cpu, 2),
        "server_cpu_per_action_ms": round(server_cpu / actions * 1e3, 3),
        "generator_cpu_s": round(generator_cpu, 2),
        "generator_cpu_per_action_ms": round(generator_cpu / actions * 1e3, 3),
        "postgres_cpu_s": round(pg_cpu, 2),
        "action_to_state_ms": {
            "count": len(latencies),
            "p50": round(percentile(latencies, 0.5) * 1e3, 1),
            "p95": round(percentile(latencies, 0.95) * 1e3, 1),
            "p99": round(percentile(latencies, 0.99) * 1e3, 1),
            "max": round(max(latencies, default=float("nan")) * 1e3, 1),
        },
        "games_finished": tally.games,
        "messages_received": tally.messages,
        "broken_delta_chains": tally.broken,
        "failures": tally.failures,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (200)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured seconds (60)")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds before (15)")
    parser.add_argument("--workers", type=int, default=1, help="server processes (1)")
    parser.add_argument("--db", default=None, help="postgresql://… (default: a SQLite file)")
    parser.add_argument("--bot-delay", type=float, default=0.8, help="the server's (0.8)")
    parser.add_argument("--spectators-every", type=int, default=4, help="games per spectator")
    parser.add_argument("--port", type=int, default=8767)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))  # the server is stopped too
    with database(args.db, "actions") as db:
        server = start_server(db, args.port, args)
        base = f"http://127.0.0.1:{args.port}"
        try:
            wait_until_served(base, server)
            print(json.dumps(measure(args, base, server.pid), indent=2))
        finally:
            stop_server(server)


if __name__ == "__main__":
    main()
