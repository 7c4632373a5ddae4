"""A streamed game: one game watched by a crowd of spectators, over real WebSockets.

    .venv/bin/python benchmarks/bench_crowd.py [--spectators 1000] [--seconds 60]
        [--bot-delay 0.3] [--db postgresql://…] [--cluster | --workers N]

Starts ``monopoly serve`` (a fresh SQLite file unless ``--db``), creates one game of a
person and three computer players (short rules), connects the spectators from this one
address (asking for deltas, as the browser does), and plays the person's seat from
another connection, answering each decision at once. It measures:

- for every change (a new ``state_id``), the time from its first arrival at any client
  to its arrival at the last spectator (the server sends a change to all clients in
  one go, so the first arrival is a close lower bound of the change's moment);
- the person's own action→state time;
- that every spectator got every change (each delta's base is the message before it);
- the CPU time of the server process and of this load generator, apart.

With ``--cluster`` (PostgreSQL only) two ``monopoly serve --cluster`` processes run, on
``--port`` and the next port: the game is made on the first, whose person plays there,
and every spectator connects to the second, so the whole crowd gets the game through
the processes' NOTIFY path. ``--workers N`` runs ``serve --workers N`` instead (the
kernel spreads the connections over the workers). The server CPU is that of all its
processes.

The spectators only look at each message's head (numbers found in its text), so the
generator's CPU stays small beside the server's. Figures are in docs/server.md. Every
loop is bounded by ``--seconds``; Ctrl-C stops early and prints what was measured.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import httpx
import psycopg
from rich.progress import Progress
from websockets.asyncio.client import connect

SEATS = [{"type": "human"}] + [{"type": "bot", "level": "easy"}] * 3
GAME = {
    "edition": "classic",
    "language": "en",
    "name": "Streamer",
    "token": "cat",
    "seats": SEATS,
    "rules": {"preset": "short", "options": {"turn_limit": 200}},
}
STATE_ID = re.compile(r'"state_id":(\d+)')
SEQ = re.compile(r'"seq":(\d+)')
BASE = re.compile(r'"base":(\d+)')


@contextmanager
def database(spec: str | None, name: str) -> Iterator[str]:
    """The database a benchmark's server uses: a fresh SQLite file without ``spec``;
    with a ``postgresql://`` URL, a schema of its own, dropped at the end. A server
    restores every running game of its database and lets its computer players go on, so
    the games of earlier runs (stopped mid-game) would play beside the measured ones and
    their CPU would be counted."""
    if not spec:
        yield str(Path(tempfile.mkdtemp()) / f"{name}.sqlite3")
        return
    if not spec.startswith("postgresql"):
        yield spec
        return
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(spec, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
    separator = "&" if "?" in spec else "?"
    try:
        yield f"{spec}{separator}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(spec, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


def cpu_seconds(pid: int) -> float:
    """User and system CPU of a process and its children so far (from /proc)."""
    pids = [pid, *map(int, Path(f"/proc/{pid}/task/{pid}/children").read_text().split())]
    ticks = 0
    for each in pids:
        fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def servers_cpu(pids: list[int]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


class Spectator:
    """One watcher: the arrival time of every change and whether its deltas chain."""

    def __init__(self, arrivals: dict[int, list[float]]) -> None:
        self.arrivals = arrivals
        self.seq: int | None = None
        self.broken = 0
        self.changes = 0
        self.connected = False

    def read(self, text: str) -> None:
        moment = time.perf_counter()
        self.connected = True
        head = text[:40]
        if '"type":"delta"' in head or '"type":"state"' in head:
            found = STATE_ID.search(text)
            if found is None:
                return
            self.arrivals.setdefault(int(found.group(1)), []).append(moment)
            self.changes += 1
            seq = SEQ.findall(text[-40:])
            base = BASE.search(head + text[40:80])
            if '"type":"delta"' in head and (base is None or int(base.group(1)) != self.seq):
                self.broken += 1
            self.seq = int(seq[-1]) if seq else self.seq


async def watch(url: str, spectator: Spectator, stop: asyncio.Event) -> None:
    async with connect(url, max_size=2**24, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None, "deltas": True}))
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), 1.0)
            except TimeoutError:
                continue
            spectator.read(str(text))


async def play(
    url: str, token: str, arrivals: dict[int, list[float]], own: list[float], stop: asyncio.Event
) -> None:
    """The person's seat: answer each decision at once; time action→state."""
    async with connect(url, max_size=2**24) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent: float | None = None
        while not stop.is_set():
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
            except TimeoutError:
                continue
            if message["type"] != "state":
                continue
            moment = time.perf_counter()
            arrivals.setdefault(message["state_id"], []).append(moment)
            if sent is not None:
                own.append(moment - sent)
                sent = None
            action = answer(message)
            if action is not None:
                sent = time.perf_counter()
                await ws.send(
                    json.dumps(
                        {"type": "action", "state_id": message["state_id"], "action": action}
                    )
                )


def play_apart(url: str, token: str, seconds: float, results: Any) -> None:
    """:func:`play` for ``seconds`` in this process; its arrivals and times go back on
    the pipe ``results``."""
    played: dict[int, list[float]] = {}
    own: list[float] = []

    async def play_for_a_while() -> None:
        stop = asyncio.Event()
        asyncio.get_running_loop().call_later(seconds, stop.set)
        await play(url, token, played, own, stop)

    asyncio.run(play_for_a_while())
    results.send((played, own))


def answer(state: dict[str, Any]) -> dict[str, Any] | None:
    decision = state.get("decision")
    if not decision or decision["seat"] != state["seat"]:
        return None
    if state["decision_actions"]:
        chosen: dict[str, Any] = state["decision_actions"][0]
        return chosen
    raising = [a for a in state["free_actions"] if a["act"] in ("sell", "mortgage")]
    return raising[0] if raising else None


def start_server(
    db: str, port: int, bot_delay: float, crowd: int, *extra: str
) -> subprocess.Popen[str]:
    command = [
        str(Path(sys.executable).parent / "monopoly"),
        "serve",
        *("--port", str(port), "--db", db, "--bot-delay", str(bot_delay)),
        *("--connections-per-address", str(crowd + 50), "--address-hellos", str(crowd + 50)),
        "--no-access-log",
        *extra,
    ]
    return subprocess.Popen(command, stdout=server_log(), stderr=subprocess.STDOUT, text=True)


async def run(args: argparse.Namespace, bases: list[str], server_pids: list[int]) -> dict[str, Any]:
    """The person plays on the first server, the spectators watch on the last."""
    base = bases[0]
    created = httpx.post(f"{base}/api/games", json=GAME, timeout=30).json()
    game_id, token = created["game_id"], created["seat_token"]
    url = base.replace("http://", "ws://") + f"/ws/games/{game_id}"
    watch_url = bases[-1].replace("http://", "ws://") + f"/ws/games/{game_id}"
    arrivals: dict[int, list[float]] = {}
    stop = asyncio.Event()
    spectators = [Spectator(arrivals) for _ in range(args.spectators)]
    tasks = []
    with Progress(transient=True) as progress:
        joining = progress.add_task("spectators connect", total=args.spectators)
        for spectator in spectators:
            tasks.append(asyncio.create_task(watch(watch_url, spectator, stop)))
            progress.advance(joining)
            await asyncio.sleep(0.01)
        deadline = time.monotonic() + 120
        while sum(s.connected for s in spectators) + sum(t.done() for t in tasks) < len(tasks):
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
    failed = [task for task in tasks if task.done()]
    if failed:
        print(f"{len(failed)} spectators could not connect: {failed[0].exception()!r}")
    watching = sum(s.connected for s in spectators)
    httpx.post(f"{base}/api/games/{game_id}/start", json={"seat_token": token}, timeout=30)
    server_before, generator_before = servers_cpu(server_pids), time.process_time()
    started = time.monotonic()
    # The person plays from a process of its own: in this one the spectators' messages
    # would hold her connection up (perf_counter is the system's monotonic clock, so
    # both processes' times compare).
    context = multiprocessing.get_context("spawn")
    reader, writer = context.Pipe(duplex=False)
    person = context.Process(target=play_apart, args=(url, token, args.seconds, writer))
    person.start()
    with Progress() as progress:
        measuring = progress.add_task("the game is streamed", total=args.seconds)
        try:
            while time.monotonic() - started < args.seconds:
                await asyncio.sleep(1.0)
                progress.update(measuring, completed=time.monotonic() - started)
        except asyncio.CancelledError:
            pass
    elapsed = time.monotonic() - started
    server_cpu = servers_cpu(server_pids) - server_before
    generator_cpu = time.process_time() - generator_before
    await asyncio.sleep(1.0)  # the last change reaches everyone
    played, own = await asyncio.to_thread(reader.recv)
    person.join(30)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    changes = arrivals
    complete = [sid for sid, times in changes.items() if len(times) >= watching]
    spreads = [max(changes[sid]) - min(changes[sid] + played.get(sid, [])) for sid in complete[:-1]]
    return {
        "spectators": watching,
        "seconds": round(elapsed, 1),
        "changes": len(changes),
        "changes_seen_by_every_spectator": len(complete),
        "broken_delta_chains": sum(s.broken for s in spectators),
        "change_to_last_spectator_ms": {
            "p50": round(percentile(spreads, 0.5) * 1e3, 1),
            "p99": round(percentile(spreads, 0.99) * 1e3, 1),
            "max": round(max(spreads, default=float("nan")) * 1e3, 1),
        },
        "player_action_to_state_ms": {
            "count": len(own),
            "p50": round(percentile(own, 0.5) * 1e3, 1),
            "p99": round(percentile(own, 0.99) * 1e3, 1),
        },
        "server_cpu_s": round(server_cpu, 2),
        "server_cpu_per_change_ms": round(server_cpu / max(1, len(changes)) * 1e3, 2),
        "generator_cpu_s": round(generator_cpu, 2),
    }


def server_log() -> IO[str]:
    """A file for the server's output (a pipe nobody reads would fill up and stop the
    server at its next log line: a cluster logs every game it takes over)."""
    log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (the server writes it while it runs)
        "w", prefix="monopoly-bench-server-", suffix=".log", delete=False
    )
    print(f"server output: {log.name}", file=sys.stderr)
    return log


def stop_server(server: subprocess.Popen[str]) -> None:
    """Stop the server (and its workers): politely, then at once if it takes too long."""
    server.terminate()
    try:
        server.wait(60)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(30)


def wait_until_served(base: str, server: subprocess.Popen[str]) -> None:
    """Wait until the server at ``base`` answers its health check (at most a minute)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            raise SystemExit("the server did not start")
        time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--bot-delay", type=float, default=0.3)
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--db", default=None)
    several = parser.add_mutually_exclusive_group()
    several.add_argument(
        "--cluster", action="store_true", help="two processes: the crowd on the game's non-owner"
    )
    several.add_argument("--workers", type=int, default=0, help="serve --workers N")
    args = parser.parse_args()
    if (args.cluster or args.workers) and not str(args.db).startswith("postgresql"):
        parser.error("--cluster and --workers need --db postgresql://…")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))  # the server is stopped too
    extra: tuple[str, ...] = ()
    if args.cluster or args.workers:
        extra = ("--cluster",) if args.cluster else ("--workers", str(args.workers))
    ports = [args.port, args.port + 1] if args.cluster else [args.port]
    with database(args.db, "crowd") as db:
        servers = [
            start_server(db, port, args.bot_delay, args.spectators, *extra) for port in ports
        ]
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        try:
            for base, server in zip(bases, servers, strict=True):
                wait_until_served(base, server)
            result = asyncio.run(run(args, bases, [server.pid for server in servers]))
            print(json.dumps(result, indent=2))
        finally:
            for server in servers:
                stop_server(server)


if __name__ == "__main__":
    main()
