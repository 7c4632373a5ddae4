"""The channel between server processes when the database connections fail: a game owned
by one process, watched by spectators (taking deltas, as the browser does) through the
other, while the owner's sending connection is killed, the other's listening connection
is killed, or the owner's sending connection stalls until its queue to the other
process is full. Each spectator never applies a delta to a table it did not have, gets
the later changes in order, and ends with the table a fresh client gets (cluster.py,
outbox.py)."""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import jsonpatch
import psycopg
from websockets.asyncio.client import ClientConnection, connect

from .servers import ServerProcess, create_game, simple_answer
from .stalling_proxy import StallingProxy
from .test_cluster import ANN_AND_STEADY_BOTS, LONGER, owner_proc

SPECTATORS = 3
BOUND = 20
"""The owner's queue to the other process in the stall test, in messages."""


class Spectator:
    """A spectator taking deltas: each applied (by ``jsonpatch``) to the table it has,
    unless made on another (``broken``); the changes (``state_id`` of each delta or
    state that is not whole) and the whole states it got, in order."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.table: dict[str, Any] | None = None
        self.seq: int | None = None
        self.state_id: int | None = None
        self.changes: list[int] = []
        self.wholes: list[int] = []
        self.broken = 0
        self.greeted = asyncio.Event()

    async def watch(self) -> None:
        async with connect(self.url, max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": None, "deltas": True}))
            async for text in ws:
                self._take(json.loads(text))

    def _take(self, message: dict[str, Any]) -> None:
        if message["type"] == "lobby":
            self.greeted.set()
        elif message["type"] == "delta":
            if self.table is None or message["base"] != self.seq:
                self.broken += 1
                return
            self.table = jsonpatch.apply_patch(self.table, message["patch"])
            self._changed(message, whole=False)
        elif message["type"] == "state":
            self.table = message["game"]
            self._changed(message, whole=message["full"] is True)

    def _changed(self, message: dict[str, Any], whole: bool) -> None:
        self.seq, self.state_id = message.get("seq"), message["state_id"]
        (self.wholes if whole else self.changes).append(message["state_id"])


class Ann:
    """Ann, seated, on the owner: answers her decisions (the game waits for her between)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.changes: list[int] = []
        self.waiting: dict[str, Any] | None = None
        """The state that asks her to decide, not answered yet."""

    async def play(self, decisions: int) -> None:
        """Answer ``decisions`` decisions; return when the next one is asked."""
        while True:
            if self.waiting is not None:
                if not decisions or self.waiting["game"]["over"]:
                    return
                action = {"type": "action", "state_id": self.waiting["state_id"]}
                await self.ws.send(json.dumps({**action, "action": simple_answer(self.waiting)}))
                self.waiting, decisions = None, decisions - 1
            message = json.loads(await asyncio.wait_for(self.ws.recv(), 20))
            if message["type"] == "state":
                self.changes.append(message["state_id"])
                decision = message["decision"]
                if decision and decision["seat"] == 0:
                    self.waiting = message


Fault = Callable[["Table"], Awaitable[None]]


class Table:
    """A game on the owner with Ann there, spectators on the other process."""

    def __init__(self, owner: str, other: str, game_id: str) -> None:
        self.other_ws = "ws://" + other.removeprefix("http://") + f"/ws/games/{game_id}"
        self.owner_ws = "ws://" + owner.removeprefix("http://") + f"/ws/games/{game_id}"
        self.spectators = [Spectator(self.other_ws) for _ in range(SPECTATORS)]
        self.ann: Ann | None = None
        self.fault_at = 0
        """How many changes Ann had when the fault began."""

    async def everyone_has_anns_last(self) -> None:
        assert self.ann is not None
        last = self.ann.changes[-1]
        while any(s.state_id != last for s in self.spectators):
            await asyncio.sleep(0.05)

    async def fresh_table(self) -> dict[str, Any]:
        """The table a client connecting now to the other process gets."""
        async with connect(self.other_ws, max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": None, "deltas": True}))
            while (message := json.loads(await asyncio.wait_for(ws.recv(), 20)))["type"] != "state":
                pass
        assert self.ann is not None and message["state_id"] == self.ann.changes[-1]
        game: dict[str, Any] = message["game"]
        return game


async def _play_through(table: Table, token: str, fault: Fault) -> dict[str, Any]:
    """Ann plays a few decisions, the fault, she plays on: the table a fresh client gets."""
    tasks = [asyncio.create_task(s.watch()) for s in table.spectators]
    try:
        await asyncio.wait_for(asyncio.gather(*(s.greeted.wait() for s in table.spectators)), 20)
        async with connect(table.owner_ws, max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            table.ann = Ann(ws)
            await ws.send(json.dumps({"type": "ping"}))  # the start below comes after the hello
            await asyncio.wait_for(_pong(ws), 20)
            await _start(table.owner_ws, token)
            await table.ann.play(4)
            await asyncio.wait_for(table.everyone_has_anns_last(), 20)
            table.fault_at = len(table.ann.changes)
            await fault(table)
            await table.ann.play(6)
            await asyncio.wait_for(table.everyone_has_anns_last(), 30)
            return await table.fresh_table()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _pong(ws: ClientConnection) -> None:
    while json.loads(await ws.recv())["type"] != "pong":
        pass


async def _start(owner_ws: str, token: str) -> None:
    import httpx

    base = "http://" + owner_ws.removeprefix("ws://").split("/ws/")[0]
    game_id = owner_ws.rsplit("/", 1)[1]
    async with httpx.AsyncClient() as http:
        started = await http.post(f"{base}/api/games/{game_id}/start", json={"seat_token": token})
    assert started.status_code == 200, started.text


def _terminate(db: str, application_name: str) -> int:
    """End the PostgreSQL connections of that name, as an administrator or a restart
    does: how many there were."""
    with psycopg.connect(db, autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
            (application_name,),
        ).fetchall()
    return len(rows)


def _a_game_on(owner: ServerProcess, other: ServerProcess, db: str) -> tuple[str, str, str, str]:
    """A game owned by ``owner`` (Ann and two steady computer players): its id, Ann's
    seat token, and the names of the owner and the other process."""
    own_game = create_game(other.base, [{"type": "human"}, {"type": "human"}])["game_id"]
    other_proc = owner_proc(db, own_game)
    created = create_game(owner.base, ANN_AND_STEADY_BOTS, rules=LONGER)
    owner_name = owner_proc(db, created["game_id"])
    assert other_proc is not None and owner_name not in (None, other_proc)
    assert owner_name is not None
    return created["game_id"], created["seat_token"], owner_name, other_proc


def _output(server: ServerProcess) -> str:
    server.process.terminate()
    assert server.process.stdout is not None
    return server.process.stdout.read()


def _check_spectators(table: Table, fresh: dict[str, Any], every_change: bool) -> None:
    """No delta on a table the spectator did not have; with ``every_change``, every change
    after the fault, in order; else the changes after the last whole state; in the end
    the table a fresh client gets."""
    assert table.ann is not None
    later = table.ann.changes[table.fault_at :]
    assert len(later) >= 6
    for spectator in table.spectators:
        assert spectator.broken == 0, "a delta on a table the spectator did not have"
        assert spectator.changes == sorted(set(spectator.changes)), "in order, each once"
        if every_change:
            assert spectator.changes[-len(later) :] == later, "every change after the fault"
        else:
            assert spectator.wholes, "a whole state after the fault"
            resynced = spectator.wholes[-1]
            assert resynced >= table.ann.changes[table.fault_at - 1], "a whole state after it"
            after = [i for i in table.ann.changes if i > resynced]
            assert [i for i in spectator.changes if i > resynced] == after
        assert spectator.table == fresh, "the table a fresh client gets"


def _kill_mid_game(db: str, connection: str) -> tuple[Table, dict[str, Any], str]:
    """Play through the end of the owner's ``send`` connection or the other process's
    ``listen`` connection by PostgreSQL: the table, a fresh client's table at the end,
    and the log of the process whose connection it was."""
    with ServerProcess(db, "--cluster") as owner, ServerProcess(db, "--cluster") as other:
        game_id, token, owner_name, other_name = _a_game_on(owner, other, db)
        table = Table(owner.base, other.base, game_id)
        name = owner_name if connection == "send" else other_name

        async def kill(table: Table) -> None:
            assert _terminate(db, f"monopoly {connection} {name}") == 1

        fresh = asyncio.run(_play_through(table, token, kill))
        log = _output(owner if connection == "send" else other)
    return table, fresh, log


def test_the_owners_sending_connection_is_opened_again_and_nothing_is_lost(
    postgres_url: str,
) -> None:
    """The owner's connection that sends to the other process is ended by PostgreSQL
    mid-game: the owner opens a new one and the spectators there get every later change."""
    table, fresh, log = _kill_mid_game(postgres_url, "send")
    _check_spectators(table, fresh, every_change=True)
    assert log.count("messages to other processes fail") == 1, log
    assert log.count("messages to other processes go through again") == 1


def test_the_listening_connection_is_opened_again_and_the_spectators_resync(
    postgres_url: str,
) -> None:
    """The other process's listening connection is ended mid-game (what the owner sent
    meanwhile is lost: PostgreSQL keeps nothing for a channel nobody listens to): it
    listens again, its spectators get a whole state and every change after it."""
    table, fresh, log = _kill_mid_game(postgres_url, "listen")
    _check_spectators(table, fresh, every_change=False)
    assert log.count("listening to other processes broke") == 1, log
    assert log.count("listening to other processes again") == 1


class LogReader:
    """The lines a server prints, read as they come."""

    def __init__(self, server: ServerProcess) -> None:
        self.lines: list[str] = []
        assert server.process.stdout is not None
        self._stdout = server.process.stdout
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for line in self._stdout:
            self.lines.append(line)

    def text(self) -> str:
        return "".join(self.lines)


def test_the_owners_queue_to_another_process_is_bounded_and_the_spectators_resync(
    postgres_url: str,
) -> None:
    """The owner's sending connection stalls (its network stops carrying bytes) while
    the game goes on: its queue to the other process stops at the bound, drops what
    waits, and once the connection moves again the spectators there start again from a
    whole state and follow the game."""
    db = postgres_url
    with StallingProxy(db, marker=b"monopoly send ") as proxy:
        limit = ["--process-queue-messages", str(BOUND)]
        with (
            ServerProcess(proxy.url, "--cluster", *limit) as owner,
            ServerProcess(db, "--cluster") as other,
        ):
            game_id, token, _, _ = _a_game_on(owner, other, db)
            table = Table(owner.base, other.base, game_id)
            log = LogReader(owner)

            async def stall_until_the_bound(table: Table) -> None:
                proxy.stall()
                assert table.ann is not None
                for _ in range(60):
                    if "wait beyond the bound" in log.text():
                        break
                    await table.ann.play(1)
                assert "wait beyond the bound" in log.text()
                proxy.flow()

            fresh = asyncio.run(_play_through(table, token, stall_until_the_bound))
            owner.process.terminate()
            owner.process.wait(10)
    assert proxy.stalled_connections >= 1
    _check_spectators(table, fresh, every_change=False)
    text = log.text()
    assert text.count("wait beyond the bound") == 1, text
    went = re.search(r"go through again: (\d+) dropped at the bound \(at most (\d+) messages", text)
    assert went is not None, text
    dropped, held = int(went.group(1)), int(went.group(2))
    assert dropped > 0 and held <= BOUND, (dropped, held)
