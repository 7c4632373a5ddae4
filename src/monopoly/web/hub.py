"""All games of one server process: loading, creating, listing and unloading them.

:meth:`Hub.get` is the one place that loads a game: it runs on the event loop and holds a
lock per game id while the database is read (in a worker thread), so two requests for a
game that is not in memory yet get the same :class:`GameSession`. Games that nobody uses
leave memory after a while and load again on the next request. A game whose stored record
cannot be read is reported (``game_damaged`` and on ``/api/health``) instead of taking
the server down.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError, OperationalError

from monopoly.bots.base import LEVELS, make_bot
from monopoly.core.game import Game
from monopoly.core.records import replay

from .cluster import Cluster, Elsewhere
from .computer import STANDIN_PREFERENCE, registered_levels
from .lobby import ApiError, NewGame, new_game_id, new_secret
from .origins import Origins
from .session import GameSession, ServerConfig
from .storage import (
    LogWrite,
    NotOwner,
    Problem,
    SeatData,
    StorageFailure,
    Store,
    StoredGame,
    classify_problem,
    describe_error,
    hash_secret,
    now,
    refused_as_not_owner,
)
from .texts import level_name, text

if TYPE_CHECKING:
    from .analysis import AnalysisService

log = logging.getLogger("monopoly.web")

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
BROKEN_RETRY = 30.0
"""Seconds before a game that could not be loaded is tried again."""


@dataclass
class Health:
    problem: Problem | None
    damaged_games: list[str]


@dataclass
class BrokenGame:
    problem: str
    since: float


class Hub:
    """All games of the server, loaded from the store on demand."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store = store
        self.config = config
        self.sessions: dict[str, GameSession] = {}
        self.levels = registered_levels()
        self.standin_level = self._standin_level(config.standin_level)
        self.listen_url = "http://127.0.0.1:8000/"
        """Where the server listens (set once it does); links use ``config.public_url``
        if given, else this — never a request's Host header."""
        self.origins = Origins(
            config.host, config.public_url, config.allowed_hosts, config.allowed_origins
        )
        """The Host headers and web origins this server answers."""
        self.broken: dict[str, BrokenGame] = {}
        self.analyses: AnalysisService | None = None
        """The analysis pool (set by the app): games with "advice on" use it."""
        self.storage_error: str | None = None
        """The last failed write (cleared by the next good one)."""
        self._reported_problem: str | None = None
        self.connections: Counter[str] = Counter()
        """Open WebSocket connections per address."""
        from .limits import RateLimiter

        self.limiter = RateLimiter()
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._writers = ThreadPoolExecutor(store.writers, thread_name_prefix="monopoly-write")
        """SQLite takes one writer at a time: writing from one thread avoids its lock
        waits (its busy handler sleeps up to 100 ms at a time); PostgreSQL takes several."""
        self._appends: list[tuple[LogWrite, asyncio.Future[None]]] = []
        """Record entries waiting to be written together (see :meth:`append_log`)."""
        self._batches = 0
        """Group commits under way (at most ``store.batches``)."""
        self.cluster: Cluster | None = None
        """Set when several processes share the (PostgreSQL) database."""
        if config.cluster:
            if not store.url.startswith("postgresql"):
                raise ValueError("several server processes need a PostgreSQL database")
            self.cluster = Cluster(self, store.url, config.limits)
            store.fence = self.cluster.proc  # its action writes store only the games it owns

    @property
    def public_url(self) -> str:
        url = self.config.public_url or self.listen_url
        return url if url.endswith("/") else url + "/"

    def _standin_level(self, wanted: str | None) -> str:
        if wanted is not None:
            make_bot(wanted)  # fail early on an unknown level
            return wanted
        return next(level for level in (*STANDIN_PREFERENCE, *self.levels) if level in LEVELS)

    # ------------------------------------------------------------------ storage
    async def write(self, call: Callable[..., Any], *args: Any) -> Any:
        """Run one store call (in a worker thread, or its twin on the event loop, see
        :meth:`Store.on_loop`); a failure is remembered for /api/health
        and raised as :class:`StorageFailure`. Callers hold their game's lock, so one
        game's writes stay in order."""
        on_loop = self.store.on_loop(call)
        if on_loop is not None:
            return await self._stored(on_loop(*args))
        loop = asyncio.get_running_loop()
        return await self._stored(loop.run_in_executor(self._writers, partial(call, *args)))

    async def _stored(self, write: Awaitable[Any]) -> Any:
        try:
            answer = await write
        except Exception as error:  # any database failure: the caller rolls back
            if refused_as_not_owner(error):
                if self.cluster is not None:
                    self.cluster.lease_in_doubt()  # the lease may be gone: look at it now
                raise NotOwner("the game belongs to another server process now") from error
            self.storage_error = describe_error(error)
            log.warning("a write to the database failed: %s", self.storage_error)
            raise StorageFailure(self.storage_error) from error
        self.storage_error = None
        return answer

    async def append_log(self, write: LogWrite) -> None:
        """Store one game's new record entries (raises :class:`StorageFailure`).

        The writes that wait meanwhile — one per game at most, as each game waits for
        its own — go to the database together, one transaction per batch (a group
        commit): under load this saves most of the per-write cost. A batch that breaks a
        constraint is written again game by game, so only that game's write fails.
        """
        future = asyncio.get_running_loop().create_future()
        self._appends.append((write, future))
        self._start_batches()
        await future

    def _start_batches(self) -> None:
        if self._appends and self._batches < self.store.batches:
            self._batches += 1
            asyncio.get_running_loop().create_task(self._write_batch())

    async def _write_batch(self) -> None:
        """Write what waits when this task runs (all that came in the meantime)."""
        batch, self._appends = self._appends, []
        try:
            if not batch:
                return
            try:
                await self.write(self.store.append_logs, [write for write, _ in batch])
                results: list[StorageFailure | None] = [None] * len(batch)
            except StorageFailure as failure:
                if len(batch) == 1 or not isinstance(failure.__cause__, IntegrityError):
                    results = [failure] * len(batch)  # the database itself fails: all do
                else:
                    results = [await self._write_one(write) for write, _ in batch]
            for (_, future), result in zip(batch, results, strict=True):
                if future.done():
                    continue
                if result is None:
                    future.set_result(None)
                else:
                    future.set_exception(result)
        finally:
            self._batches -= 1
            self._start_batches()

    async def _write_one(self, write: LogWrite) -> StorageFailure | None:
        try:
            await self.write(self.store.append_logs, [write])
        except StorageFailure as failure:
            return failure
        return None

    async def read(self, call: Callable[..., Any], *args: Any) -> Any:
        """Run one store query in a worker thread; failures are a 503 for the request."""
        try:
            return await asyncio.to_thread(call, *args)
        except Exception as error:  # any database failure
            problem = describe_error(error)
            log.warning("a read from the database failed: %s", problem)
            raise ApiError(
                503, "storage_unavailable", "the database cannot be read: try again soon"
            ) from None

    async def health(self) -> Health:
        """What ``/api/health`` says: the database's problem (the last failed write's if
        the database answers now) in words without internals, the damaged games. Each
        new problem's details go to the log once."""
        described = await asyncio.to_thread(self.store.problem) or self.storage_error
        if described is not None and described != self._reported_problem:
            log.warning("health: the database has a problem: %s", described)
        self._reported_problem = described
        problem = None if described is None else classify_problem(described)
        return Health(problem, sorted(self.broken))

    # ------------------------------------------------------------------ games
    async def get(self, game_id: str) -> GameSession:
        """The game ``game_id``, loading it from the store if it is not in memory."""
        session = self.sessions.get(game_id)
        if session is not None:
            return session
        if not GAME_ID.fullmatch(game_id):
            raise ApiError(404, "unknown_game", "there is no such game")
        self._refuse_if_broken(game_id)
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                session = self.sessions.get(game_id)
                if session is None:
                    session = self.sessions.setdefault(game_id, await self._load(game_id))
                    # Whoever loads a running game (a connection, a lobby request, a
                    # take-over) lets its computer players go on from where it stopped.
                    session.kick_bots()
        finally:
            if not lock.locked():
                self._loading.pop(game_id, None)
        return session

    @asynccontextmanager
    async def use(self, game_id: str) -> AsyncIterator[GameSession]:
        """The game, kept in memory while the caller works with it."""
        session = await self.get(game_id)
        session.pins += 1
        try:
            yield session
        finally:
            session.pins -= 1
            session.last_used = time.monotonic()

    def _refuse_if_broken(self, game_id: str) -> None:
        broken = self.broken.get(game_id)
        if broken is not None and time.monotonic() - broken.since < BROKEN_RETRY:
            raise ApiError(
                503,
                "game_damaged",
                f"game {game_id} cannot be loaded from the database ({broken.problem}); "
                "the operator has been told",
            )

    async def _load(self, game_id: str) -> GameSession:
        if self.cluster is not None and not await self.cluster.acquire(game_id):
            raise Elsewhere(game_id)
        try:
            stored = await asyncio.to_thread(self.store.load, game_id)
            if stored is None:
                raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
            game = await asyncio.to_thread(_rebuild, stored)
        except ApiError:
            raise
        except OperationalError as error:  # locked, no connection: try again later
            log.warning("game %s cannot be read now: %s", game_id, describe_error(error))
            raise ApiError(
                503, "storage_unavailable", "the database cannot be read: try again soon"
            ) from None
        except Exception as error:  # damaged data: report it, keep serving the others
            problem = describe_error(error)
            log.error("game %s is damaged in the database: %s", game_id, problem)
            self.broken[game_id] = BrokenGame(problem, time.monotonic())
            self._refuse_if_broken(game_id)
            raise
        self.broken.pop(game_id, None)
        return GameSession(self, stored, game)

    async def create(self, request: NewGame) -> tuple[GameSession, str]:
        secret = new_secret()
        seats = [SeatData(kind="human", name=request.name, token=request.token)]
        seats[0].secret_hash = hash_secret(secret)
        for number, seat in enumerate(request.seats[1:], start=2):
            if seat["type"] == "bot":
                level = level_name(request.language, seat["level"])
                name = text(request.language, "bot_name", number=number, level=level)
                seats.append(SeatData(kind="bot", level=seat["level"], name=name))
            else:
                seats.append(SeatData(kind="human"))
        setup = {
            "edition": request.edition,
            "language": request.language,
            "rules": request.rules.to_json(),
            "seed": request.seed,
        }
        if request.position is not None:
            setup["position"] = request.position
        if request.advice:
            setup["advice"] = True
        rules_spec = dict(request.rules_spec)
        if request.test_setup:
            rules_spec["testing"] = list(request.test_setup)
        stored = StoredGame(new_game_id(), "open", setup, rules_spec, now(), seats)
        if self.cluster is not None:
            await self.cluster.acquire(stored.id)
        try:
            await self.write(self.store.create_game, stored)
        except StorageFailure:
            raise ApiError(
                503, "storage_unavailable", "the game could not be stored: try again soon"
            ) from None
        session = GameSession(self, stored, None)
        self.sessions[stored.id] = session
        return session, secret

    async def open_games(self, limit: int, offset: int) -> tuple[list[GameSession], bool]:
        """One page of open games with a free seat, and whether more follow."""
        ids: list[str] = await self.read(self.store.open_game_ids, limit + 1, offset)
        sessions = []
        for game_id in ids[:limit]:
            with contextlib.suppress(ApiError):
                try:
                    session = await self.get(game_id)
                except Elsewhere:  # owned by another process: its stored seats will do
                    stored = await self.read(self.store.load, game_id)
                    if stored is None:
                        continue
                    session = GameSession(self, stored, None)
                if session.has_free_seat():
                    sessions.append(session)
        return sessions, len(ids) > limit

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Restore the running games and start unloading idle ones (in the background,
        so the server answers at once; every load goes through :meth:`get`)."""
        if self.cluster is not None:
            await self.cluster.start()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self.restore()), loop.create_task(self._sweep())]

    async def restore(self) -> None:
        """Load every running game and let its computer players go on."""
        try:
            game_ids = await asyncio.to_thread(self.store.game_ids, "running")
        except Exception as error:  # a damaged or absent database: report, keep serving
            self.storage_error = describe_error(error)
            log.error("the running games cannot be listed: %s", self.storage_error)
            return
        for game_id in game_ids:
            with contextlib.suppress(Exception):  # damaged (get reports it) or elsewhere
                await self.get(game_id)

    async def _sweep(self) -> None:
        idle = self.config.idle_unload
        while True:
            await asyncio.sleep(max(0.05, min(idle, 30.0) / 4))
            await self._unload_idle_games()

    async def _unload_idle_games(self) -> None:
        """Unload what nobody used for a while (a function of its own: the sweep's
        sleeping frame would hold the last game it looked at in memory)."""
        idle = self.config.idle_unload
        moment = time.monotonic()
        for game_id, session in list(self.sessions.items()):
            wait = min(idle, 30.0) if session.status == "over" else idle
            if session.idle() and moment - session.last_used >= wait:
                session.stop()
                del self.sessions[game_id]
                if self.cluster is not None:
                    await self.cluster.release(game_id)

    def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self.cluster is not None:
            self.cluster.stop()
        for session in self.sessions.values():
            session.stop()
        self._writers.shutdown(wait=False)

    # ------------------------------------------------------------------ clients
    def origin_allowed(self, origin: str, host: str | None, secure: bool) -> bool:
        """A browser's WebSocket from another site is refused (cross-site hijacking)."""
        return self.origins.origin_allowed(origin, host, secure, self.public_url)


def _rebuild(stored: StoredGame) -> Game | None:
    """Replay a stored game; the dice go on from a fresh seed (the record keeps them)."""
    if stored.status == "open":
        return None
    game = replay(stored.record(), check_result=False)
    game.reseed(secrets.randbits(64))
    return game
