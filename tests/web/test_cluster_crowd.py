"""A streamed game over several processes: a crowd of spectators connected through a
process that does not own the game gets every change, in order, from one message per
change to that process (not one per spectator), and the player there is not held
behind the crowd (cluster.py, fanout.py)."""

from __future__ import annotations

import asyncio
import itertools
import json
from functools import partial
from typing import Any

import httpx
import psycopg
from websockets.asyncio.client import ClientConnection, connect

from monopoly.web.client import Client
from monopoly.web.cluster import PIECE, Cluster, Proxy, _parts, numbers_of, spans
from monopoly.web.fanout import SLICE

from .servers import ServerProcess, create_game, simple_answer
from .test_cluster import ANN_AND_STEADY_BOTS, LONGER, notified, owner_proc
from .test_fanout import _nothing, served_before_a_player_is_read

SPECTATORS = 60
ANNS_DECISIONS = 10
SYNCS = 5


class Watcher:
    """A spectator (taking deltas, as the browser does, unless told): the changes it
    was sent, the states it got (whole ones too) and whether each delta was made on the
    table it had. One that ``syncs`` asks for the whole table again after every third
    change, :data:`SYNCS` times (the burst a connection may ask for at once)."""

    def __init__(self, url: str, deltas: bool = True, syncs: bool = False) -> None:
        self.url = url
        self.deltas, self.syncs = deltas, syncs
        self.changes: list[int] = []
        self.states: list[tuple[int, bool]] = []
        """Each state's ``state_id`` and whether it was whole (``full``)."""
        self.broken = 0
        self.seq: int | None = None
        self.greeted = asyncio.Event()

    async def watch(self) -> None:
        async with connect(self.url, max_size=None) as ws:
            hello = {"type": "hello", "token": None, "deltas": self.deltas}
            await ws.send(json.dumps(hello))
            async for text in ws:
                message = json.loads(text)
                if message["type"] == "lobby":
                    self.greeted.set()
                elif message["type"] in ("delta", "state"):
                    await self._state(ws, message)

    async def _state(self, ws: ClientConnection, message: dict[str, Any]) -> None:
        if message["type"] == "delta":
            self.broken += message["base"] != self.seq
        self.seq = message.get("seq")
        full = message.get("full") is True
        self.states.append((message["state_id"], full))
        if not full:
            self.changes.append(message["state_id"])
            if self.syncs and len(self.changes) % 3 == 0 and len(self.changes) <= 3 * SYNCS:
                await ws.send(json.dumps({"type": "sync"}))


async def _play(ws: ClientConnection, decisions: int) -> list[int]:
    """Ann answers ``decisions`` of her decisions and waits for the next: the changes
    she was sent meanwhile (the game then waits for her)."""
    changes: list[int] = []
    while True:
        message = json.loads(await ws.recv())
        if message["type"] != "state":
            continue
        changes.append(message["state_id"])
        decision = message["decision"]
        if decision and decision["seat"] == 0:
            if not decisions or message["game"]["over"]:
                return changes
            decisions -= 1
            action = {"type": "action", "state_id": message["state_id"]}
            await ws.send(json.dumps({**action, "action": simple_answer(message)}))


Watched = tuple[list[int], list[Watcher], Watcher, list[str]]
"""Ann's changes, the crowd on the other process, a watcher on the owner, and the
payloads of the NOTIFYs to the other process meanwhile."""


async def _watch_a_game(
    bases: tuple[str, str], game: tuple[str, str], db: str, proc: str
) -> Watched:
    """60 spectators and Ann on the other process (``proc``), one watcher on the owner
    (the game stays there), while Ann plays a few of her decisions."""
    (owner, other), (game_id, token) = bases, game
    ws_url = "ws://" + other.removeprefix("http://") + f"/ws/games/{game_id}"
    watchers = [Watcher(ws_url, syncs=True), Watcher(ws_url, deltas=False)]
    watchers += [Watcher(ws_url) for _ in range(SPECTATORS - len(watchers))]
    at_owner = Watcher("ws://" + owner.removeprefix("http://") + f"/ws/games/{game_id}")
    crowd = [*watchers, at_owner]
    tasks = [asyncio.create_task(watcher.watch()) for watcher in crowd]
    try:
        await asyncio.wait_for(asyncio.gather(*(w.greeted.wait() for w in crowd)), 20)
        async with connect(ws_url, max_size=None) as ann:
            await ann.send(json.dumps({"type": "hello", "token": token}))
            listener = await psycopg.AsyncConnection.connect(db, autocommit=True)
            await listener.execute(f"LISTEN monopoly_{proc}")  # what the other process gets
            start = f"{other}/api/games/{game_id}/start"
            started = await asyncio.to_thread(httpx.post, start, json={"seat_token": token})
            assert started.status_code == 200, started.text
            changes = await asyncio.wait_for(_play(ann, ANNS_DECISIONS), 60)

            async def everyone_has_the_last() -> None:
                while any(not w.states or w.states[-1][0] != changes[-1] for w in crowd):
                    await asyncio.sleep(0.05)

            await asyncio.wait_for(everyone_has_the_last(), 20)
            await asyncio.sleep(0.3)  # nothing more comes: the game waits for Ann
            payloads = [n.payload async for n in listener.notifies(timeout=0.5)]
            await listener.close()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return changes, watchers, at_owner, payloads


def test_a_crowd_on_another_process_gets_every_change_from_one_notify_each(
    postgres_url: str,
) -> None:
    db = postgres_url
    with ServerProcess(db, "--cluster") as owner, ServerProcess(db, "--cluster") as other:
        own_game = create_game(other.base, [{"type": "human"}, {"type": "human"}])["game_id"]
        proc = owner_proc(db, own_game)  # the other process's name: its channel
        created = create_game(owner.base, ANN_AND_STEADY_BOTS, rules=LONGER)
        game_id, token = created["game_id"], created["seat_token"]
        first_owner = owner_proc(db, game_id)
        assert proc is not None and first_owner not in (None, proc)
        changes, watchers, at_owner, payloads = asyncio.run(
            _watch_a_game((owner.base, other.base), (game_id, token), db, proc)
        )
        assert owner_proc(db, game_id) == first_owner, "the game stayed with its owner"
    assert len(changes) > ANNS_DECISIONS
    for watcher in [*watchers, at_owner]:
        assert watcher.changes == changes, "every change, once, in order"
        assert watcher.broken == 0, "each delta on the table before it"
    syncing = watchers[0]
    assert sum(full for _, full in syncing.states) >= 3, "the spectator synced meanwhile"
    for (before, _), (after, full) in itertools.pairwise(syncing.states):
        assert after >= before if full else after > before, "never an older table"
    messages = notified(payloads)
    # One message per change for the whole crowd there (and the start's lobby and
    # presence), not one per spectator and change (61 per change before), each with a
    # text per kind of connection, whatever their number: Ann's, the deltas, the whole
    # states, the syncing spectator's delta on its own table; in NOTIFYs of up to 8000
    # bytes each.
    to_everyone = [(message, count) for message, count in messages if message["k"] == "all"]
    assert len(changes) <= len(to_everyone) <= len(changes) + 3, (len(to_everyone), len(changes))
    assert max(len(message["m"]) for message, _ in to_everyone) <= 4
    notifies = sum(count for _, count in to_everyone)
    assert notifies <= 5 * len(changes), (notifies, len(changes))
    to_one = [m["t"] for m, _ in messages if m["k"] == "out" and '"full":true' not in m["t"]]
    assert len(to_one) <= 3, to_one  # besides the syncing spectator's whole tables


async def _relay_while_a_player_writes(cluster: Cluster) -> tuple[int, list[str], list[Client]]:
    """The owner's change for Ann and 4 slices of spectators, all connected here, while
    Ann's next message waits on a socket: how many spectators had their change when it
    was read, and what Ann and the spectators got."""
    ann_sent: list[str] = []

    async def to_ann(text: str) -> None:
        ann_sent.append(text)

    ann = Client(to_ann)
    spectators = [Client(_nothing) for _ in range(4 * SLICE)]
    for conn, client in enumerate([ann, *spectators], start=1):
        cluster.proxies[conn] = Proxy("g", client, "127.0.0.1")
    pump = asyncio.get_running_loop().create_task(ann.pump())
    crowd = [["the crowd's change", None, spans(list(range(2, 2 + 4 * SLICE)))]]
    message = {"k": "all", "g": "g", "m": [*crowd, ["Ann's change", 0, spans([1])]]}
    relay = partial(cluster._receive, message)
    try:
        served = await served_before_a_player_is_read(spectators, relay)
    finally:
        ann.close()
        await pump
    return served, ann_sent, spectators


def test_the_receiving_process_sends_to_its_player_first_and_its_crowd_in_slices(
    postgres_url: str,
) -> None:
    """On the process the crowd is connected to, the owner's message goes to the player
    at once and to the spectators a slice at a time: the player's next message is read
    after one slice at most."""
    cluster = Cluster(None, postgres_url)  # type: ignore[arg-type]  # no games of its own
    try:
        served, ann_got, spectators = asyncio.run(_relay_while_a_player_writes(cluster))
    finally:
        cluster.stop()
    assert ann_got == ["Ann's change"]
    assert served <= SLICE, f"the player waited for {served} spectators, not one slice"
    assert all(c.queue.get_nowait() == "the crowd's change" for c in spectators)
    assert all(c.seat is None for c in spectators)


def test_connection_numbers_go_as_runs() -> None:
    numbers = [7, 3, 4, 5, 12, 6, 13, 40]
    assert spans(numbers) == [3, 5, 12, 2, 40, 1]
    assert numbers_of(spans(numbers)) == sorted(numbers)
    assert spans(list(range(1, 1001))) == [1, 1000]  # a crowd that came together
    assert numbers_of([]) == []


def test_a_long_payload_goes_in_pieces_that_postgresql_takes() -> None:
    """Each piece, its text escaped again, stays below NOTIFY's 8000 bytes, even for a
    text of nothing but quotes; put together, the pieces are the payload."""
    for payload in ['"' * 20_000, json.dumps({"t": json.dumps({"a": "ä" * 9000})}), "x" * 7901]:
        parts = _parts(payload)
        assert all(len(part) <= PIECE < 8000 - 100 for part in parts)
        assert "".join(json.loads(part) for part in parts) == payload
    assert len(_parts("x" * 20_000)) == 3
