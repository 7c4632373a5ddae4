"""The server's database: games, their seats and their records (SQLAlchemy 2).

SQLite by default (one file), PostgreSQL with a ``postgresql://`` URL (psycopg 3). A
game's record is the JSON of :func:`monopoly.core.records.record_of`, kept as its
``setup`` (on the game's row) plus one row per log entry, appended after every action —
so saving costs the same on the first action and the thousandth.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple

import orjson
import psycopg
from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    create_engine,
    delete,
    event,
    func,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from monopoly.web import DEFAULT_DB


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The record's setup (edition, language, rules, seed; players from the start on)."""
    rules_spec: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The rules as chosen in the lobby: ``{"preset": ..., "options": {...}}``."""
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    """The game's last change: exact for its creation, start and end, within a minute
    while it runs (the server writes the row with an action at most once a minute)."""


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``human`` or ``bot``."""
    level: Mapped[str | None] = mapped_column(String(200), nullable=True)
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The playing piece (an edition token key)."""
    secret_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    """SHA-256 of the seat's secret token; the token itself is never stored."""
    standin: Mapped[bool] = mapped_column(Boolean, default=False)
    """A computer player plays this person's seat while they are away."""


class RecordEntryRow(Base):
    __tablename__ = "record_entries"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)


class StorageFailure(Exception):
    """The database refused a write; the game in memory was not changed by it."""


class NotOwner(StorageFailure):
    """The write was refused: the game belongs to another server process now."""


def refused_as_not_owner(error: BaseException) -> bool:
    """Whether ``error`` is :data:`FENCED_STATEMENT`'s refusal of a game not ours."""
    cause = getattr(error, "orig", None)
    return (
        isinstance(cause, psycopg.errors.NotNullViolation) and cause.diag.column_name == "game_id"
    )


@dataclass
class SeatData:
    kind: str
    level: str | None = None
    name: str | None = None
    token: str | None = None
    secret_hash: str | None = None
    standin: bool = False


@dataclass
class StoredGame:
    """A game as the database holds it."""

    id: str
    status: str
    setup: dict[str, Any]
    rules_spec: dict[str, Any]
    created: datetime
    seats: list[SeatData]
    log: list[dict[str, Any]] = field(default_factory=list)

    def record(self) -> dict[str, Any]:
        """The game's record, as :func:`monopoly.core.records.replay` reads it."""
        return {"format": "monopoly-record", "version": 1, "setup": self.setup, "log": self.log}


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def database_url(spec: str | None) -> str:
    """A SQLAlchemy URL from ``--db``: a URL, a file path, or None for the default file."""
    if not spec:
        spec = str(DEFAULT_DB)
    if spec.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + spec.split("://", 1)[1]
    if "://" in spec:
        return spec
    path = Path(spec).expanduser()
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def now() -> datetime:
    return datetime.now(UTC)


ROWS_PER_INSERT = 500
"""Record entries per insert statement (the drivers' limits on parameters are far)."""


ONE_STATEMENT = (
    "WITH payload AS (SELECT %s::json AS p), "
    "entries AS (INSERT INTO record_entries (game_id, seq, entry) "
    "SELECT e->>0, (e->>1)::int, e->2 FROM payload, json_array_elements(p->0) AS e) "
    "UPDATE games SET status = s->>1, updated = (s->>2)::timestamptz, "
    "result = CASE WHEN json_typeof(s->3) = 'null' THEN NULL ELSE s->3 END "
    "FROM payload, json_array_elements(p->1) AS s WHERE games.id = s->>0"
)
"""PostgreSQL's whole per-action write: the new record entries and the games' statuses
in one statement, all values in one JSON parameter. The text never changes, so the
driver converts it once and the server plans it once (with a placeholder per value, the
driver parsed the long text again at every write, which cost more than the rest of it;
arrays as parameters were dumped value by value in Python)."""
FENCED_STATEMENT = (
    "WITH payload AS (SELECT %s::json AS p), "
    "written AS MATERIALIZED (SELECT e->>0 AS game_id FROM payload, json_array_elements(p->0) e "
    "UNION SELECT s->>0 FROM payload, json_array_elements(p->1) AS s), "
    "owned AS (SELECT o.game_id FROM written JOIN monopoly_owners o USING (game_id), payload "
    "WHERE o.proc = p->>2 FOR SHARE OF o), "
    "entries AS (INSERT INTO record_entries (game_id, seq, entry) "
    "SELECT CASE WHEN e->>0 IN (SELECT game_id FROM owned) THEN e->>0 END, (e->>1)::int, e->2 "
    "FROM payload, json_array_elements(p->0) AS e) "
    "UPDATE games SET status = s->>1, updated = (s->>2)::timestamptz, "
    "result = CASE WHEN json_typeof(s->3) = 'null' THEN NULL ELSE s->3 END "
    "FROM payload, json_array_elements(p->1) AS s "
    "WHERE games.id = s->>0 AND games.id IN (SELECT game_id FROM owned)"
)
""":data:`ONE_STATEMENT` of a server process among several (``Store.fence``): only the
games the owners' table gives to the process (``p->2``) are written. The owners' rows
are locked for the write (FOR SHARE), so a process taking a game over, which writes its
row before it loads the game, waits for a write under way and then reads it; a write
after that finds the row changed. An entry of a game not ours gets no game id: the NOT
NULL of ``game_id`` refuses the write (:class:`NotOwner`)."""


ASYNC_CONNECTIONS = 4
"""PostgreSQL: asyncio connections of one process (the action writes' two batches at
once, and the games' creations and starts)."""
SEAT_COLUMNS = "kind, level, name, token, secret_hash, standin"
SEAT_VALUES = (
    "s->>'kind', s->>'level', s->>'name', s->>'token', s->>'secret_hash', (s->>'standin')::boolean"
)
CREATE_STATEMENT = (
    "WITH payload AS (SELECT %s::json AS p), "
    "game AS (INSERT INTO games (id, status, setup, rules_spec, created, updated) "
    "SELECT p->>'id', p->>'status', p->'setup', p->'rules_spec', "
    "(p->>'created')::timestamptz, (p->>'created')::timestamptz FROM payload RETURNING id) "
    f"INSERT INTO seats (game_id, seat, {SEAT_COLUMNS}) "
    f"SELECT game.id, (n - 1)::int, {SEAT_VALUES} "
    "FROM game, payload, json_array_elements(p->'seats') WITH ORDINALITY AS seat(s, n)"
)
"""PostgreSQL's :meth:`Store.create_game` in one statement (the game and its seats),
all values in one JSON parameter (see :data:`ONE_STATEMENT`)."""
START_STATEMENT = (
    "WITH payload AS (SELECT %s::json AS p), "
    "game AS (UPDATE games SET setup = p->'setup', status = 'running', "
    "updated = (p->>'updated')::timestamptz FROM payload WHERE games.id = p->>'id') "
    f"UPDATE seats SET ({SEAT_COLUMNS}) = ({SEAT_VALUES}) "
    "FROM payload, json_array_elements(p->'seats') WITH ORDINALITY AS seat(s, n) "
    "WHERE seats.game_id = p->>'id' AND seats.seat = n - 1"
)
"""PostgreSQL's :meth:`Store.save_start` in one statement (see :data:`ONE_STATEMENT`)."""


def _one_statement_payload(
    writes: list[LogWrite], moment: datetime, fence: str | None = None
) -> str:
    """The JSON parameter of :data:`ONE_STATEMENT`: ``[entries, statuses]``, each entry
    ``[game, seq, entry]``, each status ``[game, status, time, result]``; with a
    ``fence``, :data:`FENCED_STATEMENT`'s, the writing process's name third."""
    entries = [
        (write.game_id, write.first_seq + i, data)
        for write in writes
        for i, data in enumerate(write.entries)
    ]
    when = moment.isoformat()
    statuses = [
        (write.game_id, write.status, when, write.result) for write in writes if write.touch
    ]
    values: tuple[Any, ...] = (entries, statuses) if fence is None else (entries, statuses, fence)
    try:
        return orjson.dumps(values).decode()
    except TypeError:  # what orjson refuses (a lone surrogate, a huge int): escaped
        return json.dumps(values)


class LogWrite(NamedTuple):
    """One game's new record entries and status (see :meth:`Store.append_log`)."""

    game_id: str
    first_seq: int
    entries: list[dict[str, Any]]
    status: str
    result: dict[str, Any] | None = None
    touch: bool = True
    """Whether the game's row is written too (status, result and ``updated`` time); a
    running game's row need not change with every action (see ``GameRow.updated``)."""


class Store:
    """All database access of the server; every method is one short transaction."""

    def __init__(self, url: str | None = None, busy_timeout: float = 5.0) -> None:
        self.url = database_url(url)
        sqlite = self.url.startswith("sqlite")
        connect_args = {"timeout": busy_timeout} if sqlite else {}
        self.engine: Engine = create_engine(self.url, connect_args=connect_args)
        if sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._idle: list[psycopg.AsyncCursor[Any]] = []
        """PostgreSQL: the asyncio connections of :meth:`append_logs_async` not in use,
        each by its cursor."""
        self._slots: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
        """The running loop's limit of statements at once on asyncio connections."""
        self.batches = 1 if sqlite else 2
        """Group commits of record entries under way at once. Fewer group more (with
        eight at once on PostgreSQL most held one game's write, and the load test's tail
        was longer)."""
        self.fence: str | None = None
        """PostgreSQL, one of several server processes: its name, so its action writes
        store only the games it owns (:data:`FENCED_STATEMENT`)."""
        self.writers = 1 if sqlite else 8
        """Threads that may write at once (SQLite: one writer at a time anyway)."""
        self.error: str | None = None
        """Why the tables could not be made (a damaged file, no server): the server still
        starts, reports it on /api/health and tries again."""
        self.prepare()

    def prepare(self) -> bool:
        """Make the tables if missing; False (and ``error`` says why) if that failed."""
        try:
            Base.metadata.create_all(self.engine)
        except Exception as error:  # any database failure: report it, don't die
            self.error = describe_error(error)
            return False
        self.error = None
        return True

    @contextmanager
    def session(self) -> Iterator[Session]:
        with Session(self.engine) as session, session.begin():
            yield session

    def healthy(self) -> bool:
        return self.problem() is None

    def problem(self) -> str | None:
        """None if the database answers and holds our tables, else what is wrong."""
        if self.error is not None and not self.prepare():
            return self.error
        try:
            with self.engine.connect() as connection:
                connection.execute(select(func.count()).select_from(GameRow)).scalar()
        except Exception as error:  # any database failure is the answer
            return describe_error(error)
        return None

    def close(self) -> None:
        self.engine.dispose()

    # ------------------------------------------------------------------ writing
    def create_game(self, game: StoredGame) -> None:
        with self.session() as session:
            session.add(
                GameRow(
                    id=game.id,
                    status=game.status,
                    setup=game.setup,
                    rules_spec=game.rules_spec,
                    created=game.created,
                    updated=game.created,
                )
            )
            session.flush()
            for seat, data in enumerate(game.seats):
                session.add(SeatRow(game_id=game.id, seat=seat, **vars(data)))

    def save_seat(self, game_id: str, seat: int, data: SeatData) -> None:
        with self.session() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                .values(**vars(data))
            )
            _touch(session, game_id)

    def save_rules(self, game_id: str, setup: dict[str, Any], rules_spec: dict[str, Any]) -> None:
        """The host changed the rules before the start."""
        with self.session() as session:
            session.execute(
                update(GameRow)
                .where(GameRow.id == game_id)
                .values(setup=setup, rules_spec=rules_spec, updated=now())
            )

    def save_start(self, game_id: str, setup: dict[str, Any], seats: list[SeatData]) -> None:
        with self.session() as session:
            session.execute(
                update(GameRow)
                .where(GameRow.id == game_id)
                .values(setup=setup, status="running", updated=now())
            )
            for seat, data in enumerate(seats):
                session.execute(
                    update(SeatRow)
                    .where(SeatRow.game_id == game_id, SeatRow.seat == seat)
                    .values(**vars(data))
                )

    def append_log(
        self,
        game_id: str,
        first_seq: int,
        entries: list[dict[str, Any]],
        status: str,
        result: dict[str, Any] | None = None,
    ) -> None:
        """Add log entries ``first_seq, first_seq + 1, ...`` and the game's status.

        This runs after every action of every game, so it skips the ORM's unit of work:
        one executemany insert and one update in a single transaction.
        """
        self.append_logs([LogWrite(game_id, first_seq, entries, status, result)])

    def append_logs(self, writes: list[LogWrite]) -> None:
        """Several games' :meth:`append_log` in one transaction (a group commit: under
        load the games' writes wait together, and one commit serves them all).

        This runs after every action, so it talks to the database driver directly:
        SQLAlchemy's statement layer cost about twice the write itself. On SQLite: one
        insert of all the entries, the status updates and a commit, the values converted
        by the columns' own types (so they are stored exactly as the ORM stores them).
        On PostgreSQL: :data:`ONE_STATEMENT` in autocommit mode, one round trip to the
        database and still one transaction (the statements one by one, a ``BEGIN``, the
        insert, an update per game and the commit, each waited for the database and
        then for Python's GIL). Errors come as SQLAlchemy's, as from the ORM.
        """
        connection = self.engine.raw_connection()
        cursor = None
        try:
            cursor = connection.cursor()
            if self._postgres:
                self._append_in_one_statement(connection, cursor, writes)
            else:
                self._append_in_statements(connection, cursor, writes)
        except self.engine.dialect.loaded_dbapi.Error as error:
            self._failed(connection, cursor, error)
            statement = self._action_statement if self._postgres else self._status_sql
            raise DBAPIError.instance(
                statement, None, error, self.engine.dialect.loaded_dbapi.Error
            ) from error
        finally:
            connection.close()  # back to the pool (or gone, if invalidated)

    def _append_in_statements(self, connection: Any, cursor: Any, writes: list[LogWrite]) -> None:
        entry, result, updated = self._binds
        rows = [
            (write.game_id, write.first_seq + i, entry(data))
            for write in writes
            for i, data in enumerate(write.entries)
        ]
        moment = updated(now())
        for start in range(0, len(rows), ROWS_PER_INSERT):
            chunk = rows[start : start + ROWS_PER_INSERT]
            cursor.execute(self._append_sql(len(chunk)), [v for row in chunk for v in row])
        for write in writes:
            if write.touch:
                values = (write.status, result(write.result), moment, write.game_id)
                cursor.execute(self._status_sql, values)
        cursor.close()
        connection.commit()

    @property
    def _action_statement(self) -> str:
        """PostgreSQL's statement of the action writes (fenced among several processes)."""
        return ONE_STATEMENT if self.fence is None else FENCED_STATEMENT

    def _action_write(self, writes: list[LogWrite]) -> tuple[str, str]:
        """The statement of the action writes ``writes`` and its parameter."""
        return self._action_statement, _one_statement_payload(writes, now(), self.fence)

    def _append_in_one_statement(
        self, connection: Any, cursor: Any, writes: list[LogWrite]
    ) -> None:
        driver = connection.driver_connection
        driver.autocommit = True
        try:
            statement, payload = self._action_write(writes)
            cursor.execute(statement, (payload,))
        finally:
            if not driver.closed:
                driver.autocommit = False
        cursor.close()

    @property
    def appends_async(self) -> bool:
        """Whether :meth:`append_logs_async` serves the server's per-action writes."""
        return self._postgres

    async def append_logs_async(self, writes: list[LogWrite]) -> None:
        """PostgreSQL: :meth:`append_logs` on the event loop, through psycopg's asyncio
        connections (:data:`ONE_STATEMENT`, one round trip).

        A writer thread's every round trip to the database waited for Python's GIL,
        which the busy event loop holds (up to its switch interval, 5 ms, each time):
        under load the writes, which every broadcast waits for, took tens of
        milliseconds."""
        await self._execute_async(*self._action_write(writes))

    def on_loop(self, call: Callable[..., Any]) -> Callable[..., Awaitable[None]] | None:
        """The asyncio twin of the write method ``call``, or None (then it runs in a
        thread). PostgreSQL has twins for the writes made for every game: its actions'
        record entries, its creation and its start. In a thread they held the GIL for
        milliseconds of SQLAlchemy's work, which the event loop had to wait for."""
        if not self.appends_async:
            return None
        twins: dict[Callable[..., Any], Callable[..., Awaitable[None]]] = {
            self.append_logs: self.append_logs_async,
            self.create_game: self.create_game_async,
            self.save_start: self.save_start_async,
        }
        return twins.get(call)

    async def create_game_async(self, game: StoredGame) -> None:
        """PostgreSQL: :meth:`create_game` on the event loop (:data:`CREATE_STATEMENT`)."""
        payload = {
            "id": game.id,
            "status": game.status,
            "setup": game.setup,
            "rules_spec": game.rules_spec,
            "created": game.created.isoformat(),
            "seats": [vars(data) for data in game.seats],
        }
        await self._execute_async(CREATE_STATEMENT, json.dumps(payload))

    async def save_start_async(
        self, game_id: str, setup: dict[str, Any], seats: list[SeatData]
    ) -> None:
        """PostgreSQL: :meth:`save_start` on the event loop (:data:`START_STATEMENT`)."""
        payload = {
            "id": game_id,
            "setup": setup,
            "updated": now().isoformat(),
            "seats": [vars(data) for data in seats],
        }
        await self._execute_async(START_STATEMENT, json.dumps(payload))

    async def _execute_async(self, statement: str, payload: str) -> None:
        """One statement with one JSON parameter, autocommitted, on an asyncio connection;
        errors come as SQLAlchemy's (as from the ORM). Each connection keeps one cursor:
        making a cursor per statement cost about a fifth of psycopg's work for it."""
        async with self._statement_slot():
            cursor = None
            try:
                cursor = self._idle.pop() if self._idle else (await self._connect()).cursor()
                await cursor.execute(statement, (payload,))
            except psycopg.Error as error:
                if cursor is not None and not cursor.connection.broken:
                    self._idle.append(cursor)  # autocommit: the failed one is gone
                raise DBAPIError.instance(statement, None, error, psycopg.Error) from error
            self._idle.append(cursor)

    def _statement_slot(self) -> asyncio.Semaphore:
        """At most :data:`ASYNC_CONNECTIONS` statements at once (so as many connections):
        a burst of new games waits its turn instead of opening a connection each."""
        loop = asyncio.get_running_loop()
        if self._slots is None or self._slots[0] is not loop:
            self._slots = (loop, asyncio.Semaphore(ASYNC_CONNECTIONS))
        return self._slots[1]

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        url = self.url.replace("postgresql+psycopg://", "postgresql://", 1)
        return await psycopg.AsyncConnection.connect(url, autocommit=True)

    async def close_async(self) -> None:
        """Close the asyncio connections (on the loop that opened them)."""
        idle, self._idle = self._idle, []
        for cursor in idle:
            with suppress(Exception):
                await cursor.connection.close()

    def _failed(self, connection: Any, cursor: Any, error: Any) -> None:
        """Roll back; a connection the database dropped is not used again."""
        dialect = self.engine.dialect
        if dialect.is_disconnect(error, connection.dbapi_connection, cursor):
            connection.invalidate(error)
            return
        with suppress(Exception):
            connection.rollback()

    @cached_property
    def _binds(self) -> tuple[Callable[[Any], Any], ...]:
        """How the driver takes a record entry, a result (JSON: the column type's own
        conversion, or JSON text cast by the SQL, see ``_marks``) and a time."""
        dialect = self.engine.dialect
        entry = RecordEntryRow.__table__.c.entry.type.bind_processor(dialect) or _json_text
        result = GameRow.__table__.c.result.type.bind_processor(dialect) or _json_text
        time = GameRow.__table__.c.updated.type.dialect_impl(dialect)  # as the ORM stores it
        updated = time.bind_processor(dialect) or (lambda v: v)
        return entry, result, updated

    @cached_property
    def _postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    @cached_property
    def _marks(self) -> tuple[str, str]:
        """The driver's placeholder for a value and for JSON text."""
        if self.engine.dialect.paramstyle == "qmark":
            return "?", "?"
        return "%s", "%s::json"

    def _append_sql(self, rows: int) -> str:
        mark, json = self._marks
        values = ", ".join([f"({mark}, {mark}, {json})"] * rows)
        return f"INSERT INTO record_entries (game_id, seq, entry) VALUES {values}"

    @cached_property
    def _status_sql(self) -> str:
        mark, json = self._marks
        values = f"status = {mark}, result = {json}, updated = {mark}"
        return f"UPDATE games SET {values} WHERE id = {mark}"

    def delete_game(self, game_id: str) -> None:
        with self.session() as session:
            session.execute(delete(RecordEntryRow).where(RecordEntryRow.game_id == game_id))
            session.execute(delete(SeatRow).where(SeatRow.game_id == game_id))
            session.execute(delete(GameRow).where(GameRow.id == game_id))

    # ------------------------------------------------------------------ reading
    def load(self, game_id: str) -> StoredGame | None:
        with self.session() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            seats = session.scalars(
                select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
            )
            entries = session.scalars(
                select(RecordEntryRow.entry)
                .where(RecordEntryRow.game_id == game_id)
                .order_by(RecordEntryRow.seq)
            )
            return StoredGame(
                id=row.id,
                status=row.status,
                setup=row.setup,
                rules_spec=row.rules_spec,
                created=_aware(row.created),
                seats=[_seat_data(seat) for seat in seats],
                log=list(entries),
            )

    def game_ids(self, status: str) -> list[str]:
        """Ids of the games with ``status``, newest first."""
        with self.session() as session:
            query = select(GameRow.id).where(GameRow.status == status)
            return list(session.scalars(query.order_by(GameRow.created.desc())))

    def open_game_ids(self, limit: int, offset: int = 0) -> list[str]:
        """Ids of open games with a free seat, newest first, one page of them."""
        with self.session() as session:
            free = select(SeatRow.game_id).where(
                SeatRow.game_id == GameRow.id, SeatRow.name.is_(None)
            )
            query = (
                select(GameRow.id)
                .where(GameRow.status == "open", free.exists())
                .order_by(GameRow.created.desc(), GameRow.id)
                .limit(limit)
                .offset(offset)
            )
            return list(session.scalars(query))

    def log_length(self, game_id: str) -> int:
        with self.session() as session:
            query = select(func.count()).where(RecordEntryRow.game_id == game_id)
            return int(session.scalar(query) or 0)


def _json_text(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


@dataclass(frozen=True)
class Problem:
    """What is wrong with the database, said without its internals (no host, port, path
    or driver text: the log has those)."""

    code: str
    message: str


PROBLEMS = (
    (("locked", "busy"), Problem("busy", "the database is busy: another writer holds it")),
    (("full", "no space"), Problem("disk_full", "the database's disk is full")),
    (("read-only", "readonly"), Problem("read_only", "the database cannot be written to")),
    (
        ("no such table", "does not exist", "not a database", "malformed", "corrupt"),
        Problem("damaged", "the database is damaged or not this server's"),
    ),
    (
        ("connect", "refused", "timeout", "timed out", "closed", "terminat", "resolve", "host"),
        Problem("unreachable", "the database does not answer"),
    ),
)


def classify_problem(description: str) -> Problem:
    """The kind of a problem described by :func:`describe_error`."""
    lowered = description.lower()
    for words, problem in PROBLEMS:
        if any(word in lowered for word in words):
            return problem
    return Problem("failing", "the database fails")


def describe_error(error: BaseException) -> str:
    """A database error in one line, without the SQL or its parameters (no secrets)."""
    original = getattr(error, "orig", None) or error
    message = str(original).strip().splitlines()[0] if str(original).strip() else ""
    return f"{type(original).__name__}: {message}"[:300]


def _touch(session: Session, game_id: str) -> None:
    session.execute(update(GameRow).where(GameRow.id == game_id).values(updated=now()))


def _seat_data(row: SeatRow) -> SeatData:
    return SeatData(
        kind=row.kind,
        level=row.level,
        name=row.name,
        token=row.token,
        secret_hash=row.secret_hash,
        standin=row.standin,
    )


def _aware(moment: datetime) -> datetime:
    """SQLite returns naive datetimes: they were written in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
