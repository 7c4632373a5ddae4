"""Several server processes over one PostgreSQL: each game has one owner at a time.

A process owns a game while it holds a PostgreSQL advisory lock on the game's id (on one
connection per process: if the process dies, its connection closes and its locks go
with it). Only the owner changes and stores the game. A player may connect to any
process: if the game is owned elsewhere, the process passes the player's messages to the
owner and the owner's messages back, both by PostgreSQL ``NOTIFY`` on the receiving
process's channel (payloads in pieces below PostgreSQL's 8000-byte limit). Lobby
requests (look, join, start) go to the owner the same way. Every half second a process
tries to take the games its players are connected to and the running games nobody owns:
when an owner dies, another process takes its games over within a second, loads them
from the database (everything a client saw was stored first) and greets the players
again with a full state.

A game follows its players: when every seated player of a game is connected to one other
process and nobody is connected to the owner itself, the owner hands the game over to
that process (it stops, releases the lease and says so), so the players' messages stop
travelling through PostgreSQL. Messages that reach the old owner after the move are sent
back to their process and played there, in order, once it has taken the game.

A message to everyone at the game (a change, the presence, a chat line) goes to another
process once for all the connections there (:class:`ProcessRelay`): the owner makes each
connection's text as for its own (fanout.py: a change's delta once per base) and sends
each different text once, with the connections that get it; the receiving process sends
it on with the owner's own fan-out (:func:`~.fanout.to_everyone`): its players at once,
its spectators in slices. Whatever goes to one process leaves in the order it was sent
(:meth:`Cluster.post`), and the receiving process keeps that order per connection: a
spectator's own messages wait behind the changes still queued for the crowd there.

The way between two processes fails now and then: the database restarts, an
administrator ends a connection, the network stalls. Every message to a process waits
in that process's outbox (outbox.py), numbered, until a NOTIFY carried it; the outbox is
bounded, and what it drops at the bound it reports as ``lost``. A broken sending
connection is opened again (waiting longer after each failure) and the message sent
again: the receiver drops a number it had. A broken listening connection is opened
again too, but what was sent meanwhile is gone (PostgreSQL keeps nothing for a channel
nobody listens to). So after any loss — ``lost``, a number skipped, or a new listening
connection — the connections between the two processes start again from whole states:
the receiving process drops the owner's messages to its connections to that owner's
games (no delta on a table they did not have) and asks for them again (``resync``); the
owner answers with ``whole`` and, in the same turn of the game, each connection's whole
state (:meth:`~.session.GameSession.send_whole`). The receiver's own connections to the
sender's games get their whole state likewise: an action of theirs may have been lost,
and they act again on what they see.

The lease connection itself may break too: PostgreSQL then releases all the process's
locks at once. Its action writes are fenced by the owners' table (storage.py's
``FENCED_STATEMENT``: a write of a game whose row names another process is refused),
and the process, finding its lease connection broken, gives up every game it owned as
a hand-over does (its clients connect again) and opens a new one. An owner ends the
connections of a receiving process that is gone (none of its connections to the
database left).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg import sql

from . import protocol
from .client import Client
from .fanout import Message, SpectatorFanout, text_for, to_everyone
from .limits import Limits
from .lobby import ApiError
from .outbox import Outbox

if TYPE_CHECKING:
    from .hub import Hub
    from .session import GameSession

log = logging.getLogger("monopoly.web")

PAYLOAD = 7900
"""Bytes of one NOTIFY's payload at most (PostgreSQL's limit is 8000)."""
PIECE = 7800
"""Characters of a piece of a longer payload, JSON-escaped again in the piece's own
message (the rest of that message stays below PAYLOAD's last 100 bytes)."""
WATCH = 0.5
"""Seconds between two looks for games to take over."""
RPC_TIMEOUT = 10.0
PEERS_EVERY = 10.0
"""Seconds between two looks for processes that are gone
(:meth:`Cluster._forget_gone_processes`)."""
HANDOVER_GRACE = 5.0
"""Seconds a process leaves a game it handed over to the new owner (no taking it back)."""
SEND_TIMEOUT = 10.0
"""Seconds a message's NOTIFYs may take before the sending connection counts as broken."""
CONNECT_TIMEOUT = 10
"""Seconds to open a connection to PostgreSQL (the sending or the listening one)."""
RETRY_FIRST = 0.05
RETRY_LONGEST = 5.0
"""Seconds between two tries to open a broken connection again: from the first, doubled
each time, up to the longest."""
KEEPALIVES = {
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 6,
}
"""TCP keepalives of the sending and the listening connection (libpq's parameters): a
connection whose network went away silently is found broken within about 40 seconds."""


class Backoff:
    """The waits between tries to open a broken connection again: :data:`RETRY_FIRST`,
    doubled after each failure, up to :data:`RETRY_LONGEST`."""

    def __init__(self) -> None:
        self.delay = RETRY_FIRST

    async def wait(self) -> None:
        """Wait before the next try (longer than before the last)."""
        await asyncio.sleep(self.delay)
        self.delay = min(self.delay * 2, RETRY_LONGEST)

    def reset(self) -> None:
        """A try succeeded: the next failure waits the shortest time again."""
        self.delay = RETRY_FIRST


class LeaseUnavailable(ApiError):
    """The lease connection is broken and not open again yet: nothing can be taken or
    looked up in the owners' table (a client is asked to try again soon)."""

    def __init__(self, problem: str) -> None:
        super().__init__(
            503, "game_moving", "the server is reconnecting to the database: try again soon"
        )
        self.problem = problem


LEASE_TABLE = "CREATE TABLE IF NOT EXISTS monopoly_owners (game_id text PRIMARY KEY, proc text)"


def prepare_lease_table(url: str) -> None:
    """Make the owners' table (``serve --workers`` does it once before its workers start)."""
    url = url.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(url, autocommit=True) as connection:
        _create_lease_table(connection)


def _create_lease_table(connection: psycopg.Connection[Any]) -> None:
    """Make the owners' table if it is not there, one process at a time: two processes
    of a ``--cluster`` started together on a new database both found it missing, and
    the second one's CREATE failed (PostgreSQL's IF NOT EXISTS does not wait for the
    other's)."""
    with connection.transaction():
        connection.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [LEASE_TABLE])
        connection.execute(LEASE_TABLE)


async def _close_quietly(connection: psycopg.AsyncConnection[Any] | None) -> None:
    """Close a connection that failed (closing it may fail too)."""
    if connection is not None:
        with contextlib.suppress(Exception):
            await connection.close()


def _parts(payload: str) -> list[str]:
    """``payload`` in parts, each a JSON string of at most :data:`PIECE` characters
    (escaped again, the quotes of the texts inside it take two characters each)."""
    parts, start = [], 0
    while start < len(payload):
        size = PIECE
        while len(part := json.dumps(payload[start : start + size])) > PIECE:
            size = size * PIECE // len(part) - 1
        parts.append(part)
        start += size
    return parts


def _type_of(text: str) -> str | None:
    """A client message's type, if it can be read (the game checks it properly)."""
    try:
        message = json.loads(text)
    except ValueError:
        return None
    kind = message.get("type") if isinstance(message, dict) else None
    return kind if isinstance(kind, str) else None


class Elsewhere(Exception):
    """The game is owned by another process."""


def spans(numbers: list[int]) -> list[int]:
    """``numbers`` as runs, flat: the first number and the length of each run (a crowd
    that came together has consecutive connection numbers: a few runs for all)."""
    runs: list[int] = []
    for number in sorted(numbers):
        if runs and runs[-2] + runs[-1] == number:
            runs[-1] += 1
        else:
            runs += [number, 1]
    return runs


def numbers_of(runs: list[int]) -> list[int]:
    """The numbers of :func:`spans`' runs."""
    return [n for i in range(0, len(runs), 2) for n in range(runs[i], runs[i] + runs[i + 1])]


async def _never_sent(text: str) -> None:
    raise AssertionError("a remote connection's messages go to its process")


class RemoteClient(Client):
    """On the owner: a connection of another process. What is sent to it goes at once,
    in order, to its process (behind what went there before)."""

    relay: ProcessRelay

    def __init__(self, relay: ProcessRelay, conn: int, address: str, limits: Limits) -> None:
        super().__init__(_never_sent, address, limits)
        self.relay = relay
        self.conn = conn

    def send_text(self, text: str) -> None:
        if not self.dropped:
            message = {"k": "out", "c": self.conn, "s": self.seat, "t": text}
            self.relay.cluster.post(self.relay.proc, message)


class ProcessRelay:
    """On the owner: the way to the connections of one other process (see fanout.Relay)."""

    def __init__(self, cluster: Cluster, proc: str) -> None:
        self.cluster = cluster
        self.proc = proc

    def send(self, game_id: str, message: Message, clients: list[Client]) -> None:
        """One message to the process: each different text once, with its connections
        and their seat (there the players get it at once, the spectators in slices)."""
        groups: dict[tuple[str, int | None], list[int]] = {}
        for client in clients:
            text = text_for(client, message)
            if text is not None:
                assert isinstance(client, RemoteClient)
                groups.setdefault((text, client.seat), []).append(client.conn)
        if groups:
            texts = [[text, seat, spans(conns)] for (text, seat), conns in groups.items()]
            self.cluster.post(self.proc, {"k": "all", "g": game_id, "m": texts})


@dataclass
class Proxy:
    """A local WebSocket connection to a game owned by another process."""

    game_id: str
    client: Client
    """The connection here (served by the game's owner, or by this process once it has
    taken the game over)."""
    address: str
    hello: str | None = None
    owner: str | None = None
    """The process this connection's messages go to."""
    local: GameSession | None = None
    """Set when this process has taken the game over: the connection is served here."""
    bounced: list[str] = field(default_factory=list)
    """Messages the old owner sent back after the game moved, to play here in order."""
    greeting: bool = False
    """Sending the bounced messages on is under way."""
    arriving: bool = False
    """The game is being taken over here: the old owner's late messages are dropped and
    bounced ones wait for the take-over, which plays them after the hello."""
    stale: bool = False
    """Messages from the owner to this connection may have been lost: the owner's
    messages are dropped until it says that the whole state comes (``whole``)."""

    async def drain(self, audience: SpectatorFanout | None, seconds: float = 1.0) -> None:
        """Wait (a little) until the owner's messages still queued here are sent, so a
        take-over's welcome never overtakes an older state."""
        deadline = time.monotonic() + seconds
        while (self.client.sending or (audience is not None and audience.busy)) and (
            time.monotonic() < deadline
        ):
            await asyncio.sleep(0.005)


@dataclass
class Remote:
    """On the owner: a player connected to another process."""

    game_id: str
    client: RemoteClient
    incoming: asyncio.Queue[str | None]
    tasks: list[asyncio.Task[None]]
    current: str | None = None
    """The message being handled (waiting for the game's lock), if any."""
    hello: str | None = None
    """The hello that opened it: the connection's process may say it again (two of
    its tasks can each find that the game has a new owner and greet it)."""


class Cluster:
    def __init__(self, hub: Hub, url: str, limits: Limits | None = None) -> None:
        self.hub = hub
        self.limits = limits or Limits()
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self.proc = secrets.token_hex(6)
        self.channel = f"monopoly_{self.proc}"
        self._lease = self._open_lease()
        self._lease_lock = threading.Lock()
        _create_lease_table(self._lease)
        self.owned: set[str] = set()
        self.proxies: dict[int, Proxy] = {}
        self.remotes: dict[tuple[str, int], Remote] = {}
        self.relays: dict[str, ProcessRelay] = {}
        """The way to each other process's connections to our games."""
        self.audiences: dict[str, SpectatorFanout] = {}
        """The spectators here of each game owned by another process."""
        self.pieces: dict[str, list[str]] = {}
        """The pieces of a payload so far, by the process sending it."""
        self._outboxes: dict[str, Outbox] = {}
        """The messages waiting to be sent to each other process."""
        self._turns: deque[str] = deque()
        """The processes whose messages wait, in turn (each sends one, then goes last)."""
        self._sender: asyncio.Task[None] | None = None
        self._post_failing = False
        self._heard: dict[str, int] = {}
        """The number of the last message heard from each other process."""
        self.replies: dict[int, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self._send: psycopg.AsyncConnection[Any] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.taking: set[str] = set()
        """Games whose take-over is under way."""
        self.taken: set[str] = set()
        """Games taken over since this process last gave them up."""
        self.handed: dict[str, float] = {}
        """Games this process handed over (or lost with its lease), and when (see
        HANDOVER_GRACE)."""
        self._lease_doubt = asyncio.Event()
        self._lease_open = asyncio.Event()
        """Set while the lease connection is believed to work (cleared from the moment a
        statement finds it broken until a new one is open)."""
        self._lease_open.set()
        self._peers_looked = time.monotonic()
        self._missing: set[str] = set()
        """Processes with connections here that had no connection to the database at
        the last look."""

    # ------------------------------------------------------------------ leases
    def _open_lease(self) -> psycopg.Connection[Any]:
        """The connection holding this process's advisory locks, named ``lease`` in
        PostgreSQL, with TCP keepalives (see :meth:`_connect`)."""
        return psycopg.connect(self._conninfo("lease"), autocommit=True)

    def _lease_answers(self) -> bool:
        """Whether the lease connection works (a round trip finds a broken one)."""
        with self._lease_lock:
            try:
                self._lease.execute("SELECT 1")
            except psycopg.Error:
                return False
        return True

    def lease_in_doubt(self) -> None:
        """A write was refused as not ours: look at the lease connection now."""
        self._lease_doubt.set()

    async def _keep_lease(self) -> None:
        """If the lease connection broke, PostgreSQL gave up all our locks at once:
        stop serving every game we owned (another process may take it over any moment)
        and open a new lease connection, waiting longer after each failure."""
        if await asyncio.to_thread(self._lease_answers):
            self._lease_open.set()
            return
        self._lease_open.clear()
        log.warning(
            "the lease connection broke: this process gives up its %d games "
            "and opens a new connection",
            len(self.owned),
        )
        for game_id in list(self.owned):
            await self._give_up(game_id)
        backoff = Backoff()
        while True:
            try:
                connection = await asyncio.to_thread(self._open_lease)
            except psycopg.Error:
                await backoff.wait()
                continue
            with self._lease_lock:
                broken, self._lease = self._lease, connection
            with contextlib.suppress(Exception):
                broken.close()
            self._lease_open.set()
            log.info("the lease connection is open again")
            return

    async def _give_up(self, game_id: str) -> None:
        """Stop serving a game whose lease is gone, as a hand-over does: our clients
        are told to connect again, the other processes' connections' unanswered messages
        go back, and their processes are told to take the game (one will)."""
        self.owned.discard(game_id)  # first: nothing more of it is stored here
        self.taken.discard(game_id)
        self.handed[game_id] = time.monotonic()  # no taking it back at once
        processes = set()
        session = self.hub.sessions.get(game_id)
        if session is not None:
            async with session.lock:
                processes = await self._stop_here(game_id, session)
                for client in list(session.clients):
                    if not isinstance(client, RemoteClient):
                        client.drop("the game is changing servers: connect again")
        for proc in processes:
            self.post(proc, {"k": "moved", "g": game_id})

    def _lease_sql(self, query: str, *args: Any) -> list[Any]:
        with self._lease_lock, self._lease.cursor() as cursor:
            cursor.execute(query, args)
            return cursor.fetchall() if cursor.description else []

    async def _on_lease(self, query: str, *args: Any) -> list[Any]:
        """The rows of a statement on the lease connection. While that connection is
        broken, wait (up to :data:`RPC_TIMEOUT`) for the new one; a statement that
        finds it broken has it looked at at once and raises :class:`LeaseUnavailable`
        (the locks went with it, so a statement meant for them is not made again on the
        new connection)."""
        try:
            await asyncio.wait_for(self._lease_open.wait(), RPC_TIMEOUT)
        except TimeoutError:
            raise LeaseUnavailable("the lease connection is not open again yet") from None
        try:
            return await asyncio.to_thread(self._lease_sql, query, *args)
        except psycopg.OperationalError as error:
            self._lease_open.clear()
            self.lease_in_doubt()
            raise LeaseUnavailable(str(error)) from error

    async def acquire(self, game_id: str) -> bool:
        """Take the game's lease if it is free (or ours); remember that we own it. If
        the lease connection turns out broken, once more on the new one."""
        if game_id in self.owned:
            return True
        try:
            return await self._try_lock(game_id)
        except LeaseUnavailable:
            return await self._try_lock(game_id)

    async def _try_lock(self, game_id: str) -> bool:
        rows = await self._on_lease("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", game_id)
        if not rows[0][0]:
            return False
        await self._claimed(game_id)
        return True

    async def _claimed(self, game_id: str) -> None:
        """We hold one more advisory lock on the game: keep exactly one (they count up
        when two of our tasks take it at once) and record that we own it."""
        if game_id in self.owned:
            await self._unlock(game_id)
            return
        self.owned.add(game_id)
        try:
            await self._on_lease(
                "INSERT INTO monopoly_owners VALUES (%s, %s) "
                "ON CONFLICT (game_id) DO UPDATE SET proc = excluded.proc",
                game_id,
                self.proc,
            )
        except LeaseUnavailable:
            self.owned.discard(game_id)  # the lock went with the broken connection
            raise

    async def release(self, game_id: str) -> None:
        if game_id in self.owned:
            self.owned.discard(game_id)
            await self._unlock(game_id)

    async def _unlock(self, game_id: str) -> None:
        if game_id not in self.owned:
            self.taken.discard(game_id)
        with contextlib.suppress(LeaseUnavailable):  # a broken lease holds no lock
            await self._on_lease("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", game_id)

    async def owner_of(self, game_id: str) -> str | None:
        """The process owning the game (once more on a new lease connection if the
        lease turns out broken)."""
        query = "SELECT proc FROM monopoly_owners WHERE game_id = %s"
        try:
            rows = await self._on_lease(query, game_id)
        except LeaseUnavailable:
            rows = await self._on_lease(query, game_id)
        return rows[0][0] if rows else None

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        self._send = await self._connect("send")
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._watch())]

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            self._lease.close()

    async def _listen(self) -> None:
        """Receive the other processes' messages; when the listening connection breaks,
        open a new one (waiting longer each time) and start every connection between this
        process and the others again from whole states: PostgreSQL does not keep the
        messages sent while nobody listened."""
        backoff, broken = Backoff(), False
        while True:
            try:
                async with await self._connect("listen") as connection:
                    channel = sql.Identifier(self.channel)
                    await connection.execute(sql.SQL("LISTEN {}").format(channel))
                    if broken:
                        log.info("listening to other processes again: connections resync")
                        self._lost_all()
                    backoff.reset()
                    broken = False
                    async for notice in connection.notifies():
                        await self._receive_payload(notice.payload)
            except Exception as error:
                if not broken:
                    log.warning(
                        "listening to other processes broke (%s): opening a new connection",
                        str(error).strip() or type(error).__name__,
                    )
                broken = True
            await backoff.wait()

    async def _receive_payload(self, payload: str) -> None:
        try:
            await self._receive(json.loads(payload))
        except Exception:
            log.exception("a message between server processes failed")

    async def _watch(self) -> None:
        """Take over the games whose owner is gone: those our players are connected to,
        and running games nobody owns (their computer players must go on)."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._lease_doubt.wait(), WATCH)
            self._lease_doubt.clear()
            try:
                await self._keep_lease()
                await self._forget_gone_processes()
                await self._look_at_forwarded_games()
                await self._hand_over_followed_games()
                free = await self._on_lease(
                    "WITH running AS MATERIALIZED (SELECT id FROM games "
                    "WHERE status = 'running' AND NOT (id = ANY(%s))) "
                    "SELECT id FROM running WHERE pg_try_advisory_lock(hashtextextended(id, 0))",
                    [*self.owned, *self._recently_handed()],
                )
                for (game_id,) in free:
                    await self._claimed(game_id)  # also records the owner for proxies
                    await self._take_over(game_id)
            except LeaseUnavailable:
                continue  # the next look opens the lease again (logged there)
            except Exception:
                log.exception("looking for games to take over failed")

    async def _forget_gone_processes(self) -> None:
        """End the connections of processes that died (killed, their machine gone): a
        process's connections to the database end with it, so one that had none at two
        looks :data:`PEERS_EVERY` apart is gone (a live one opens a broken connection
        again within seconds). Its connections would otherwise stay here for ever: seen
        as present, keeping their game in memory. Were it alive after all, its players'
        next message comes back to it and it greets the owner again."""
        moment = time.monotonic()
        if moment - self._peers_looked < PEERS_EVERY:
            return
        self._peers_looked = moment
        connected = {proc for proc, _ in self.remotes}
        if not connected:
            self._missing.clear()
            return
        rows = await self._on_lease(
            "SELECT DISTINCT split_part(application_name, ' ', 3) FROM pg_stat_activity "
            "WHERE application_name LIKE %s",
            "monopoly %",
        )
        absent = connected - {proc for (proc,) in rows}
        for proc in absent & self._missing:
            log.warning("process %s is gone: its connections here are ended", proc)
            for key in [key for key in self.remotes if key[0] == proc]:
                self._remote_gone(*key)
            self._heard.pop(proc, None)
        self._missing = absent - self._missing

    async def _look_at_forwarded_games(self) -> None:
        """Take the games our connections are forwarded for whose owner is gone; follow
        those another process took. One query each for all of them: a query per game
        every half second cost the process more than its spectators' messages."""
        forwarded = list({p.game_id for p in self.proxies.values() if p.local is None})
        if not forwarded:
            return
        ours = {game_id for game_id in forwarded if game_id in self.owned}
        candidates = [game_id for game_id in forwarded if game_id not in ours]
        rows: list[Any] = []
        if candidates:
            rows = await self._on_lease(
                "SELECT id FROM unnest(%s::text[]) AS id "
                "WHERE pg_try_advisory_lock(hashtextextended(id, 0))",
                candidates,
            )
        claimed = {game_id for (game_id,) in rows}
        for game_id in claimed:
            await self._claimed(game_id)
        for game_id in ours | claimed:
            if game_id in claimed or self._forwarded(game_id):  # still: not served here yet
                await self._take_over(game_id)
        ours |= claimed
        others = [game_id for game_id in forwarded if game_id not in ours]
        if not others:
            return
        owners = dict(
            await self._on_lease(
                "SELECT game_id, proc FROM monopoly_owners WHERE game_id = ANY(%s)",
                others,
            )
        )
        for game_id in others:
            if self._forwarded(game_id):
                await self._follow(game_id, owners.get(game_id))

    async def _follow_owner(self, game_id: str, again: bool = False) -> None:
        """Another process took the game over: greet it again for our connections
        (``again``: even if it is the owner we knew, which dropped them)."""
        await self._follow(game_id, await self.owner_of(game_id), again)

    async def _follow(self, game_id: str, owner: str | None, again: bool = False) -> None:
        for conn, proxy in list(self.proxies.items()):
            if proxy.game_id == game_id and not proxy.local and (again or proxy.owner != owner):
                proxy.stale = proxy.stale and proxy.owner == owner  # a new owner: a welcome
                proxy.owner = owner
                if owner not in (None, self.proc):  # ours: the take-over serves it here
                    await self._greet_owner(conn, proxy)

    async def _forward(self, conn: int, proxy: Proxy, text: str) -> None:
        assert proxy.owner is not None
        message = {"k": "in", "p": self.proc, "c": conn, "g": proxy.game_id, "a": proxy.address}
        self.post(proxy.owner, {**message, "t": text})

    async def _take_over(self, game_id: str) -> None:
        """Serve the game here: load it, let its computers move, and serve our
        connections to it locally (once: a take-over already under way is not repeated)."""
        if game_id in self.taking:
            return
        self.taking.add(game_id)
        try:
            await self._load_and_serve(game_id)
        finally:
            self.taking.discard(game_id)

    async def _load_and_serve(self, game_id: str) -> None:
        self.hub.broken.pop(game_id, None)
        session = await self.hub.get(game_id)
        if game_id not in self.taken:  # once per ownership, not at every later look
            self.taken.add(game_id)
            log.info("this process took game %s over", game_id)
        async with session.lock:
            session.kick_bots()
        for proxy in [p for p in self.proxies.values() if p.game_id == game_id and not p.local]:
            proxy.arriving = True
            await proxy.drain(self.audiences.get(game_id))
            client = proxy.client
            client.seat = None  # the hello below says who it is here
            session.pins += 1
            proxy.local = session  # the hello below takes the lock first
            if proxy.hello is not None:
                await session.handle(client, proxy.hello)
            await self._play_bounced_here(proxy)
        self._forget_audience(game_id)

    def _forwarded(self, game_id: str) -> bool:
        return any(p.game_id == game_id and p.local is None for p in self.proxies.values())

    # ------------------------------------------------------------------ following players
    def _recently_handed(self) -> list[str]:
        moment = time.monotonic()
        for game_id, when in list(self.handed.items()):
            if moment - when > HANDOVER_GRACE:
                del self.handed[game_id]
        return list(self.handed)

    async def _hand_over_followed_games(self) -> None:
        for game_id in list(self.owned):
            session = self.hub.sessions.get(game_id)
            target = None if session is None else self._players_process(game_id, session)
            if session is not None and target is not None:
                await self._hand_over(game_id, session, target)

    def _players_process(self, game_id: str, session: GameSession) -> str | None:
        """The one other process all of this game's connections come through when its
        seated players are all there; None while anyone is connected here or the seated
        players are spread over processes (or the game is in use otherwise)."""
        remotes = [
            (key[0], remote) for key, remote in self.remotes.items() if remote.game_id == game_id
        ]
        if not remotes or session.pins != len(remotes):
            return None  # nobody remote, or a lobby request is using the game
        remote_clients = {id(remote.client) for _, remote in remotes}
        if any(id(client) not in remote_clients for client in session.clients):
            return None
        players = {proc for proc, remote in remotes if remote.client.seat is not None}
        return players.pop() if len(players) == 1 and self.proc not in players else None

    async def _hand_over(self, game_id: str, session: GameSession, target: str) -> None:
        """Stop the game here (between two actions), give up its lease and tell
        ``target``; what its connections sent meanwhile goes back to their process."""
        async with session.lock:
            if self.hub.sessions.get(game_id) is not session or game_id not in self.owned:
                return
            self.owned.discard(game_id)  # first: what arrives from now on goes back
            await self._stop_here(game_id, session)
            self.handed[game_id] = time.monotonic()
            await self._unlock(game_id)
        self.post(target, {"k": "moved", "g": game_id})
        log.info("game %s moved to process %s, where its players are", game_id, target)

    async def _stop_here(self, game_id: str, session: GameSession) -> set[str]:
        """Under the game's lock: stop serving it here and send the unanswered messages
        of other processes' connections back; the processes they came from."""
        session.stop()
        if self.hub.sessions.get(game_id) is session:
            del self.hub.sessions[game_id]
        processes = set()
        for key in [key for key, remote in self.remotes.items() if remote.game_id == game_id]:
            processes.add(key[0])
            await self._bounce_unanswered(key, self.remotes.pop(key))
        return processes

    async def _bounce_unanswered(self, key: tuple[str, int], remote: Remote) -> None:
        """End a remote connection here; send its unanswered messages back."""
        remote.client.dropped = "the game moved to another process"
        unanswered = [remote.current] if remote.current is not None else []
        while not remote.incoming.empty():
            text = remote.incoming.get_nowait()
            if text is not None:
                unanswered.append(text)
        remote.tasks[-1].cancel()  # the message loop
        proc, conn = key
        for text in unanswered:
            self.post(proc, {"k": "bounce", "c": conn, "t": text})

    async def _moved_here(self, game_id: str) -> None:
        """The old owner handed the game to us: take it now rather than at the next look."""
        try:
            if await self.acquire(game_id):
                await self._take_over(game_id)
            else:  # someone else was quicker: greet whoever has it now
                await self._follow_owner(game_id, again=True)
        except Exception:
            log.exception("taking over game %s failed", game_id)

    def _bounced(self, conn: int, text: str) -> None:
        proxy = self.proxies.get(conn)
        if proxy is None or text == proxy.hello:  # the hello is said again anyway
            return
        proxy.bounced.append(text)
        if not proxy.greeting:
            proxy.greeting = True
            asyncio.get_running_loop().create_task(self._send_bounced(conn, proxy))

    async def _send_bounced(self, conn: int, proxy: Proxy) -> None:
        """Play the bounced messages here if the game came here, else greet its owner
        again and send them there (one such task per connection at a time)."""
        try:
            if proxy.arriving:  # the take-over plays them (after its hello) if not yet
                if proxy.local is not None:
                    await self._play_bounced_here(proxy)
                return
            proxy.owner = await self.owner_of(proxy.game_id)
            if proxy.owner in (None, self.proc) or proxy.local is not None:
                return  # the next look (or the take-over) sends them
            await self._greet_owner(conn, proxy)
        finally:
            proxy.greeting = False

    async def _play_bounced_here(self, proxy: Proxy) -> None:
        assert proxy.local is not None
        for text in self._take_bounced(proxy):
            await proxy.local.handle(proxy.client, text)

    async def _greet_owner(self, conn: int, proxy: Proxy) -> None:
        """Say the connection's hello to its (new) owner, then send what came back. A
        connection that has not said hello gets the game's answer to that: hello_first
        (sent on, those messages would only come back again)."""
        texts = self._take_bounced(proxy)
        if proxy.hello is None:
            for text in texts:
                refused = protocol.error_message(protocol.hello_first(), None, _type_of(text))
                proxy.client.send(refused)
            return
        await self._forward(conn, proxy, proxy.hello)
        for text in texts:
            await self._forward(conn, proxy, text)

    @staticmethod
    def _take_bounced(proxy: Proxy) -> list[str]:
        texts, proxy.bounced = proxy.bounced, []
        return texts

    # ------------------------------------------------------------------ sending
    async def _notify_payload(self, proc: str, payload: str) -> None:
        """One NOTIFY to ``proc``, or its pieces in a row when it is longer than PostgreSQL
        takes (``payload`` is ASCII: json.dumps escapes the rest, bytes = characters);
        the sending connection is opened first if it is not open (it is closed when a
        NOTIFY fails or takes longer than :data:`SEND_TIMEOUT`)."""
        pieces = [payload]
        if len(payload) > PAYLOAD:
            parts = _parts(payload)
            pieces = [
                f'{{"k":"piece","p":"{self.proc}","i":{i},"n":{len(parts)},"t":{part}}}'
                for i, part in enumerate(parts)
            ]
        channel = f"monopoly_{proc}"
        if self._send is None or self._send.closed:
            self._send = await self._connect("send")
        try:
            async with asyncio.timeout(SEND_TIMEOUT):
                for piece in pieces:
                    await self._send.execute("SELECT pg_notify(%s, %s)", (channel, piece))
        except BaseException:
            connection, self._send = self._send, None
            await _close_quietly(connection)
            raise

    async def _connect(self, role: str) -> psycopg.AsyncConnection[Any]:
        """A connection of this process's ``role`` (``send``, ``listen``)."""
        return await psycopg.AsyncConnection.connect(self._conninfo(role), autocommit=True)

    def _conninfo(self, role: str) -> str:
        """A connection of ``role`` (``lease``, ``send``, ``listen``), named so in
        PostgreSQL (``pg_stat_activity.application_name``), with TCP keepalives so a
        connection whose network went away is found out."""
        return psycopg.conninfo.make_conninfo(
            self.url,
            application_name=f"monopoly {role} {self.proc}",
            connect_timeout=CONNECT_TIMEOUT,
            **KEEPALIVES,
        )

    def post(self, proc: str, message: dict[str, Any]) -> None:
        """Send ``message`` to ``proc`` after what was posted to it before."""
        outbox = self._outboxes.get(proc)
        if outbox is None:
            outbox = self._outboxes[proc] = Outbox(self.proc, proc, self.limits)
        if not outbox:
            self._turns.append(proc)
        if not outbox.put(message):
            self._at_the_bound(outbox)
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(self._send_posted())

    def _at_the_bound(self, outbox: Outbox) -> None:
        """An outbox dropped what waited: logged once until a message goes through."""
        if not outbox.warned:
            outbox.warned = True
            log.warning(
                "messages to process %s wait beyond the bound (%d messages, %d bytes): "
                "dropped; its connections start again from whole states",
                outbox.receiver,
                self.limits.process_queue_messages,
                self.limits.process_queue_bytes,
            )

    async def _send_posted(self) -> None:
        """Send what was posted, in order per process, taking turns between processes."""
        try:
            while self._turns:
                outbox = self._outboxes[self._turns.popleft()]
                if not outbox.waiting:
                    continue
                payload = outbox.take()
                await self._send_until_through(outbox, payload)
                outbox.sent(payload)
                if outbox:
                    self._turns.append(outbox.receiver)
        finally:
            self._sender = None

    async def _send_until_through(self, outbox: Outbox, payload: str) -> None:
        """Send ``payload``; while the database or the connection fails, open a new
        connection and send it again (the receiver drops it if it had it), waiting longer
        each time, until it goes through or the outbox dropped it at its bound. The
        failure is logged once, and once that messages go through again."""
        backoff = Backoff()
        while outbox.sending is payload:
            try:
                await self._notify_payload(outbox.receiver, payload)
            except Exception as error:
                if not self._post_failing:
                    log.warning(
                        "messages to other processes fail (%s): opening a new connection",
                        str(error).strip() or type(error).__name__,
                    )
                self._post_failing = True
                await backoff.wait()
                continue
            self._went_through(outbox)
            return

    def _went_through(self, outbox: Outbox) -> None:
        if self._post_failing:
            self._post_failing = False
            log.info("messages to other processes go through again")
        if outbox.warned:
            outbox.warned = False
            dropped, (messages, size) = outbox.went_through()
            log.info(
                "messages to process %s go through again: %d dropped at the bound "
                "(at most %d messages, %d bytes waited)",
                outbox.receiver,
                dropped,
                messages,
                size,
            )

    def relay(self, proc: str) -> ProcessRelay:
        """The way to the connections of process ``proc``."""
        relay = self.relays.get(proc)
        if relay is None:
            relay = self.relays[proc] = ProcessRelay(self, proc)
        return relay

    # ------------------------------------------------------------------ receiving
    async def _receive(self, message: dict[str, Any]) -> None:
        kind = message["k"]
        if kind != "piece" and not self._in_order(message):
            return
        if kind == "all":
            self._to_everyone_here(message)
        elif kind == "out":
            self._to_one_here(message)
        elif kind == "piece":
            await self._piece(message)
        elif kind == "in":
            await self._remote_message(message)
        elif kind == "bounce":
            self._bounced(message["c"], message["t"])
        elif kind == "moved":
            asyncio.get_running_loop().create_task(self._moved_here(message["g"]))
        elif kind == "bye":
            self._remote_gone(message["p"], message["c"])
        elif kind == "rpc":
            asyncio.get_running_loop().create_task(self._answer_rpc(message))
        elif kind == "reply":
            future = self.replies.pop(message["r"], None)
            if future is not None and not future.done():
                future.set_result(message)
        elif kind == "lost":
            self._lost_from(message["f"])
        elif kind == "resync":
            self._resync_remotes(message["f"], numbers_of(message["c"]))
        elif kind == "whole":
            self._whole_comes(message["f"], numbers_of(message["c"]))

    def _in_order(self, message: dict[str, Any]) -> bool:
        """Whether ``message`` is new (not one sent again after its sender's connection
        broke); a number skipped means messages from its sender were lost."""
        sender, number = message.get("f"), message.get("q")
        if sender is None or not isinstance(number, int):
            return True  # not numbered (a test speaking for a process)
        last = self._heard.get(sender)
        if last is not None and number <= last:
            return False
        self._heard[sender] = number
        if last is not None and number != last + 1:
            log.warning("messages from process %s were lost: connections resync", sender)
            self._lost_from(sender)
        return True

    # ------------------------------------------------------------------ after a loss
    def _lost_all(self) -> None:
        """Messages from any other process may have been lost (nobody listened here)."""
        self._heard.clear()
        self.pieces.clear()
        others = {proxy.owner for proxy in self.proxies.values() if proxy.local is None}
        others |= {proc for proc, _ in self.remotes}
        for proc in others - {None, self.proc}:
            assert proc is not None
            self._lost_from(proc)

    def _lost_from(self, proc: str) -> None:
        """Messages from ``proc`` may have been lost: its messages to our connections to
        its games (they wait for a whole state, asked for here) and our connections'
        messages to our games (an action of theirs may be lost: they get the whole
        state, as after an action lost with its owner, and act again)."""
        conns = []
        for conn, proxy in self.proxies.items():
            if proxy.owner == proc and proxy.local is None and not proxy.arriving:
                proxy.stale = True
                conns.append(conn)
        if conns:
            self.post(proc, {"k": "resync", "c": spans(conns)})
        self._resync_remotes(proc, [conn for other, conn in self.remotes if other == proc])

    def _resync_remotes(self, proc: str, conns: list[int]) -> None:
        """Send the connections ``conns`` of process ``proc`` to our games their whole
        state, after a ``whole`` that lets them take our messages again."""
        games: dict[str, list[RemoteClient]] = {}
        for conn in conns:
            remote = self.remotes.get((proc, conn))
            if remote is not None and remote.game_id in self.owned:
                games.setdefault(remote.game_id, []).append(remote.client)
        missing = set(conns) - {client.conn for clients in games.values() for client in clients}
        if missing:  # gone, or not ours: nothing comes but the word to stop waiting
            self.post(proc, {"k": "whole", "c": spans(sorted(missing))})
        for game_id, clients in games.items():
            asyncio.get_running_loop().create_task(self._send_whole(proc, game_id, clients))

    async def _send_whole(self, proc: str, game_id: str, clients: list[RemoteClient]) -> None:
        """Between two changes of the game: the word that a whole state comes, then it."""
        try:
            session = await self.hub.get(game_id)
            async with session.lock:
                self.post(proc, {"k": "whole", "c": spans([client.conn for client in clients])})
                session.send_whole([c for c in clients if c.greeted and not c.dropped])
        except Exception:
            log.exception("sending game %s whole to process %s failed", game_id, proc)

    def _whole_comes(self, proc: str, conns: list[int]) -> None:
        """The owner's next messages to ``conns`` start from a whole state."""
        for conn in conns:
            proxy = self.proxies.get(conn)
            if proxy is not None and proxy.owner == proc:
                proxy.stale = False

    async def _piece(self, message: dict[str, Any]) -> None:
        """A piece of a longer payload (a process sends a payload's pieces in a row)."""
        sender = message["p"]
        if message["i"] == 0:
            self.pieces[sender] = []
        parts = self.pieces.get(sender)
        if parts is None:
            return  # its first piece came before this process listened
        parts.append(message["t"])
        if message["i"] == message["n"] - 1:
            del self.pieces[sender]
            await self._receive(json.loads("".join(parts)))

    def _served_for_owner(self, conn: int) -> Proxy | None:
        """The connection ``conn`` if the game's owner serves it (None if it is gone, or
        served here now: the old owner's late messages are stale)."""
        proxy = self.proxies.get(conn)
        if proxy is None or proxy.local is not None or proxy.arriving or proxy.stale:
            return None
        return proxy

    def _audience(self, game_id: str) -> SpectatorFanout:
        """The spectators here of a game owned elsewhere (no game lock here: never held)."""
        audience = self.audiences.get(game_id)
        if audience is None:
            audience = self.audiences[game_id] = SpectatorFanout(asyncio.Lock())
        return audience

    def _to_everyone_here(self, message: dict[str, Any]) -> None:
        """The owner's message to everyone, for our connections: each text to its
        players at once and its spectators in slices, as the owner sends to its own."""
        for text, seat, runs in message["m"]:
            clients = []
            for conn in numbers_of(runs):
                proxy = self._served_for_owner(conn)
                if proxy is not None:
                    proxy.client.seat = seat
                    clients.append(proxy.client)
            if clients:  # else late: they are gone, or served here now
                to_everyone(text, clients, self._audience(message["g"]))

    def _to_one_here(self, message: dict[str, Any]) -> None:
        """The owner's message to one of our connections: a player's at once, a
        spectator's behind the changes still queued for the spectators here."""
        proxy = self._served_for_owner(message["c"])
        if proxy is not None:
            proxy.client.seat = message["s"]
            to_everyone(message["t"], [proxy.client], self._audience(proxy.game_id))

    def _forget_audience(self, game_id: str) -> None:
        """Nobody here is served by the game's owner any more."""
        if not self._forwarded(game_id):
            audience = self.audiences.pop(game_id, None)
            if audience is not None:
                audience.stop()

    async def _remote_message(self, message: dict[str, Any]) -> None:
        key = (message["p"], message["c"])
        remote = self.remotes.get(key)
        if remote is None:
            if message["g"] not in self.owned or _type_of(message["t"]) != "hello":
                # No longer ours, or a connection that greeted an earlier owner: back to
                # its process, which greets the owner first and then sends it again.
                self.post(key[0], {"k": "bounce", "c": key[1], "t": message["t"]})
                return
            session = await self.hub.get(message["g"])
            proc, conn = key
            address, limits = message.get("a", ""), self.hub.config.limits
            client = RemoteClient(self.relay(proc), conn, address, limits)
            incoming: asyncio.Queue[str | None] = asyncio.Queue()
            session.pins += 1
            remote = Remote(message["g"], client, incoming, [], hello=message["t"])
            serving = asyncio.get_running_loop().create_task(self._serve_remote(session, remote))
            remote.tasks = [serving]
            self.remotes[key] = remote
        elif message["t"] == remote.hello:
            return  # greeted twice: the connection is open here already
        remote.incoming.put_nowait(message["t"])

    async def _serve_remote(self, session: GameSession, remote: Remote) -> None:
        try:
            while (text := await remote.incoming.get()) is not None:
                remote.current = text
                await session.handle(remote.client, text)
                remote.current = None
        finally:
            session.leave(remote.client)
            remote.client.close()
            session.pins -= 1
            # A cancelled task keeps its CancelledError, whose traceback holds this
            # frame: with the remote still holding the task, that was a cycle that kept
            # the game in memory until a garbage collection.
            remote.tasks.clear()

    def _remote_gone(self, proc: str, conn: int) -> None:
        remote = self.remotes.pop((proc, conn), None)
        if remote is not None:
            remote.incoming.put_nowait(None)

    # ------------------------------------------------------------------ a proxied player
    async def serve_proxy(self, websocket: Any, game_id: str, client: Client) -> None:
        """Serve a WebSocket whose game another process owns (until it is taken over);
        ``client`` sends to it (its pump runs meanwhile)."""
        conn = next(self._ids)
        proxy = Proxy(game_id, client, client.address)
        self.proxies[conn] = proxy
        proxy.owner = await self.owner_of(game_id)
        try:
            while not client.dropped:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                if not isinstance(text, str):
                    continue
                if proxy.hello is None and '"hello"' in text:
                    proxy.hello = text
                if proxy.local is not None:
                    await proxy.local.handle(client, text)
                elif proxy.owner is not None:
                    await self._forward(conn, proxy, text)
        finally:
            self.proxies.pop(conn, None)
            if proxy.local is not None:
                proxy.local.leave(client)
                proxy.local.pins -= 1
            else:
                self._forget_audience(game_id)
                if proxy.owner is not None:
                    self.post(proxy.owner, {"k": "bye", "p": self.proc, "c": conn})

    # ------------------------------------------------------------------ lobby requests
    async def call(self, game_id: str, op: str, body: object) -> dict[str, Any]:
        """Run a lobby request on the game's owner; its answer (or ApiError)."""
        owner = await self.owner_of(game_id)
        if owner is None:
            raise ApiError(503, "game_moving", "the game is changing servers: try again")
        request = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.replies[request] = future
        message = {"k": "rpc", "p": self.proc, "r": request, "g": game_id, "op": op}
        self.post(owner, {**message, "b": body})
        try:
            reply = await asyncio.wait_for(future, RPC_TIMEOUT)
        except TimeoutError:
            self.replies.pop(request, None)
            raise ApiError(
                503, "game_moving", "the game's server does not answer: try again"
            ) from None
        if reply["s"] != 200:
            raise ApiError(reply["s"], reply["e"]["code"], reply["e"]["message"])
        answer: dict[str, Any] = reply["j"]
        return answer

    async def _answer_rpc(self, message: dict[str, Any]) -> None:
        from .app import lobby_operation

        reply: dict[str, Any] = {"k": "reply", "r": message["r"], "s": 200}
        try:
            if message["g"] not in self.owned:
                raise ApiError(503, "game_moving", "the game is changing servers: try again")
            reply["j"] = await lobby_operation(self.hub, message["g"], message["op"], message["b"])
        except ApiError as error:
            reply.update(s=error.status, e={"code": error.code, "message": error.message})
        text = json.dumps(reply)
        if len(text) > 7000:  # a lobby answer is a few kB; never more than one piece
            reply = {"k": "reply", "r": message["r"], "s": 503}
            reply["e"] = {"code": "too_large", "message": "the answer is too large"}
        self.post(message["p"], reply)
