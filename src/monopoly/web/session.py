"""Live games: one :class:`GameSession` per game, all held by the :class:`Hub`.

A session owns its game, the seats, the connected clients and the computer players. One
asyncio lock per game serialises everything that reads or changes it (actions, joins,
the start, hand-overs), so many games run at once without sharing anything. After every
change the new record entries are stored first (in a worker thread, while the game's lock
is held, so one game's writes keep their order) and only then does every client get its
own view: what a client saw is always stored. A failed write rolls the game back to what
is stored; the sender gets an error and the computer players try again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from monopoly.bots import levels as _levels  # noqa: F401  (registers the levels)
from monopoly.bots.base import LEVELS, Bot, make_bot
from monopoly.bots.driver import SeatDriver
from monopoly.core.actions import Action, action_from_json
from monopoly.core.editions import get_edition
from monopoly.core.errors import IllegalActionError, MalformedActionError
from monopoly.core.events import TurnStarted
from monopoly.core.game import Game
from monopoly.core.narrate import Narrator
from monopoly.core.records import entry_to_json, replay, setup_from_json
from monopoly.core.state import BID
from monopoly.core.view import PlayerView

from . import views
from .chat import ChatRefusal, ChatRoom
from .limits import BadJson, Limits, TokenBucket, describe_rate, read_json, shown
from .lobby import ApiError, NewGame, new_secret, parse_rules
from .storage import SeatData, StoredGame, hash_secret
from .texts import level_name, text

if TYPE_CHECKING:
    from .hub import Hub

log = logging.getLogger("monopoly.web")

LEVEL_ORDER = ("easy", "normal", "hard", "expert", "random")
STANDIN_PREFERENCE = ("normal", "hard", "easy", "random")
AUCTION_PACE = 0.3
"""Computer players bid this much faster than they play (auctions move briskly)."""
BOT_BATCH = 200
"""Without a bot delay, computer players make up to this many moves between two states."""
LOG_TAIL = 600
"""A full state carries the last this many log lines unless the client asks for others."""
LOG_PAGE = 2000
"""At most this many log lines in one state."""
RETRY_MAX = 10.0
"""The longest wait (seconds) between two tries to store a computer player's move."""


@dataclass
class ServerConfig:
    bot_delay: float = 0.8
    """Seconds before each computer player's move (0: as fast as possible)."""
    absence_timeout: float = 60.0
    """Seconds without a connection before others may hand a seat to a computer player."""
    standin_level: str | None = None
    """The level of stand-ins; None: ``normal`` if registered, else the first available."""
    turn_timer: float = 0.0
    """Seconds a person has for each decision (0: no limit); then a computer player makes
    that one decision for them (in an auction: passes)."""
    public_url: str | None = None
    """The address players use (for invite and watch links); None: where it listens."""
    allowed_origins: tuple[str, ...] = ()
    """More web origins whose pages may open a WebSocket (besides ``public_url``)."""
    testing: bool = False
    """Accept ``seed`` and ``position`` in new games (tests, set-up scenarios)."""
    idle_unload: float = 600.0
    """Seconds a game stays in memory with nobody connected and nothing to do."""
    access_log: bool = False
    """Log every request (address, method, path, status, time; never bodies or queries)."""
    cluster: bool = False
    """Share the (PostgreSQL) database with other server processes: a lease per game."""
    db_busy_timeout: float = 5.0
    """Seconds a SQLite write waits for another writer before it fails."""
    limits: Limits = field(default_factory=Limits)


class StorageFailure(Exception):
    """The database refused a write; the game in memory was not changed by it."""


def registered_levels() -> list[str]:
    """The computer-player levels, in a stable order: easy, normal, hard, expert, random,
    others."""
    known = [level for level in LEVEL_ORDER if level in LEVELS]
    return known + sorted(set(LEVELS) - set(known))


class Refusal(Exception):
    """A refused WebSocket message: the error goes to its sender only. ``reason`` is the
    engine's stable reason key when the rules refused an action."""

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        message = message if len(message) <= 300 else message[:299] + "…"
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason


class Client:
    """One WebSocket connection; messages go out through a bounded queue in send order.

    A client that does not read its messages fast enough is dropped (its connection
    closed) once ``limits.queue_messages`` or ``limits.queue_bytes`` wait for it, so a
    slow or hostile client costs the server a bounded amount of memory.
    """

    def __init__(
        self,
        send_text: Callable[[str], Awaitable[None]],
        address: str = "",
        limits: Limits | None = None,
        close: Callable[[int, str], Coroutine[Any, Any, None]] | None = None,
    ) -> None:
        self._send_text = send_text
        self._close = close
        self._closing: asyncio.Task[None] | None = None
        self.address = address
        self.limits = limits or Limits()
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued_bytes = 0
        self.seat: int | None = None
        self.greeted = False
        self.dropped: str | None = None
        """Why the server gave up on this client (None while it is served)."""
        self.buckets: dict[str, TokenBucket] = {}
        self.limited_in_a_row = 0

    def send(self, message: dict[str, Any]) -> None:
        if self.dropped:
            return
        text = _dumps(message)
        self.queued_bytes += len(text)
        if (
            self.queue.qsize() >= self.limits.queue_messages
            or self.queued_bytes > self.limits.queue_bytes
        ):
            self.drop("too slow: too many messages wait to be sent")
            return
        self.queue.put_nowait(text)

    def drop(self, reason: str) -> None:
        """Stop serving this client: forget what waits for it and end its pump."""
        self.dropped = reason
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued_bytes = 0
        self.queue.put_nowait(None)
        if self._close is not None and self._closing is None:
            self._closing = asyncio.get_running_loop().create_task(self._close(1008, reason))

    def close(self) -> None:
        self.queue.put_nowait(None)

    async def pump(self) -> None:
        while (message := await self.queue.get()) is not None:
            self.queued_bytes -= len(message)
            try:
                await self._send_text(message)
            except Exception:  # the connection is gone: the receive loop ends it
                self.dropped = self.dropped or "the connection failed"
                return


def _dumps(message: dict[str, Any]) -> str:
    text = json.dumps(message, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: send it escaped, never fail
        text = json.dumps(message)
    return text


MESSAGE_FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"token"}),
    "action": frozenset({"state_id", "action"}),
    "check": frozenset({"action"}),
    "hand_to_bot": frozenset({"seat"}),
    "sync": frozenset({"log_from"}),
    "chat": frozenset({"text"}),
    "play_again": frozenset(),
    "host_seat": frozenset({"seat", "to", "level"}),
    "host_rules": frozenset({"rules"}),
    "ping": frozenset(),
}


class GameSession:
    """One game: lobby, play, clients, computer players and storage."""

    def __init__(self, hub: Hub, stored: StoredGame, game: Game | None) -> None:
        self.hub = hub
        self.id = stored.id
        self.status = stored.status
        self.setup = stored.setup
        self.rules_spec = stored.rules_spec
        self.created: datetime = stored.created
        self.seats = stored.seats
        self.game = game
        self.saved = len(stored.log)
        self.actions = sum(1 for entry in game.record if entry[0] == "action") if game else 0
        self.sent_events = len(game.events) if game else 0
        self.announced_over = bool(game and game.over)
        self.lock = asyncio.Lock()
        self.clients: list[Client] = []
        count = len(self.seats)
        self.connections = [0] * count
        self.absent_since = [time.monotonic()] * count
        self.bots: dict[int, Bot] = {}
        self.bot_task: asyncio.Task[None] | None = None
        self.pins = 0
        """Requests and connections using this session (it stays in memory meanwhile)."""
        self.last_used = time.monotonic()
        self._log_lines: list[str] = []
        """The game's log as text, narrated once (a sync only slices it)."""
        self._log_starts: list[int] = []
        """Where each event's lines start in ``_log_lines`` (an event may add a note)."""
        self.chat = ChatRoom()
        self.timer_task: asyncio.Task[None] | None = None
        self.timer_deadline: float | None = None
        self.next_game: str | None = None
        self.next_secrets: dict[int, str] = {}
        """After "play again": the next game's id and each person's seat token for it
        (kept in memory until they come to fetch it)."""

    @property
    def edition(self) -> str:
        return str(self.setup["edition"])

    @property
    def language(self) -> str:
        return str(self.setup["language"])

    @property
    def state_id(self) -> int | None:
        """The number of actions taken so far (None before the start)."""
        return None if self.game is None else self.actions

    # ------------------------------------------------------------------ lobby
    def lobby_json(self, base_url: str) -> dict[str, Any]:
        taken = {seat.token for seat in self.seats if seat.token}
        tokens = [t.key for t in get_edition(self.edition).tokens]
        return {
            "game_id": self.id,
            "status": self.status,
            "edition": self.edition,
            "language": self.language,
            "rules": {k: v for k, v in self.rules_spec.items() if k != "testing"},
            "test_setup": self.test_setup,
            "fixed_rules": "position" in self.setup,
            "created": self.created.isoformat().replace("+00:00", "Z"),
            "seats": [self._seat_json(seat) for seat in range(len(self.seats))],
            "free_tokens": [key for key in tokens if key not in taken],
            "invite_url": f"{base_url}?join={self.id}",
            "watch_url": f"{base_url}?watch={self.id}",
        }

    @property
    def test_setup(self) -> list[str]:
        """What the creator chose that a box game leaves to chance: ``seed`` (the dice)
        and ``position`` (the start). Everyone who joins or watches is told."""
        return list(self.rules_spec.get("testing", []))

    def _seat_json(self, seat: int) -> dict[str, Any]:
        data = self.seats[seat]
        return {
            "seat": seat,
            "type": data.kind,
            "name": data.name,
            "token": data.token,
            "taken": data.name is not None,
            "host": seat == 0,
            "connected": self.connections[seat] > 0,
            "bot_standin": data.standin,
            "level": data.level,
        }

    def has_free_seat(self) -> bool:
        return self.status == "open" and any(seat.name is None for seat in self.seats)

    async def join(self, name: str, token: str) -> tuple[int, str]:
        """Take the first free person's seat; returns the seat and its secret token."""
        if self.status != "open":
            raise ApiError(409, "not_open", f"game {self.id} has already started")
        free = [i for i, seat in enumerate(self.seats) if seat.name is None]
        if not free:
            raise ApiError(409, "game_full", f"game {self.id} has no free seat")
        if any(s.name and s.name.casefold() == name.casefold() for s in self.seats):
            raise ApiError(409, "name_taken", f"someone in this game is already called {name!r}")
        if any(s.token == token for s in self.seats):
            raise ApiError(409, "token_taken", f"the token {token!r} is already taken")
        secret = new_secret()
        seat = free[0]
        data = replace(self.seats[seat], name=name, token=token, secret_hash=hash_secret(secret))
        try:
            await self.hub.write(self.hub.store.save_seat, self.id, seat, data)
        except StorageFailure:
            raise _storage_api_error() from None
        self.seats[seat] = data
        self._broadcast_lobby()
        return seat, secret

    async def start(self, secret: object) -> None:
        if not isinstance(secret, str) or hash_secret(secret) != self.seats[0].secret_hash:
            raise ApiError(403, "not_host", "only the game's creator (seat 0) may start it")
        if self.status != "open":
            raise ApiError(409, "not_open", f"game {self.id} has already started")
        free = [i for i, seat in enumerate(self.seats) if seat.name is None]
        if free:
            raise ApiError(409, "seats_free", f"seats {free} are still free: wait for players")
        seats = self._seats_with_bot_tokens()
        players = [{"name": seat.name, "token": seat.token} for seat in seats]
        setup = {**self.setup, "players": players}
        game = Game(setup_from_json(setup))
        try:
            await self.hub.write(self.hub.store.save_start, self.id, setup, seats)
        except StorageFailure:
            raise _storage_api_error() from None
        self.seats, self.setup, self.game, self.status = seats, setup, game, "running"
        with contextlib.suppress(StorageFailure):  # started; its first entries come later
            await self.publish()

    def _seats_with_bot_tokens(self) -> list[Any]:
        seats = [replace(seat) for seat in self.seats]
        taken = {seat.token for seat in seats if seat.token}
        free = [t.key for t in get_edition(self.edition).tokens if t.key not in taken]
        for seat in seats:
            if seat.kind == "bot" and seat.token is None:
                seat.token = free.pop(0) if free else None
        return seats

    # ------------------------------------------------------------------ publishing
    async def publish(self) -> None:
        """Store the new record entries, then send every client its state, wake the bots.

        Raises :class:`StorageFailure` if the write failed: the game is then back where
        the database has it, and nobody was sent anything.
        """
        self._pass_for_people_who_cannot_win()
        await self._save()
        game = self.game
        assert game is not None
        self.last_used = time.monotonic()
        self._start_turn_timer()
        start, self.sent_events = self.sent_events, len(game.events)
        if self.clients:
            narrator = Narrator(game)
            events_json = views.events_json(narrator, game, start)
            for client in self.clients:
                client.send(self.state_message(client.seat, events_json, full=False))
        if game.over and not self.announced_over:
            self.announced_over = True
            message = self.game_over_message()
            for client in self.clients:
                client.send(message)
        self.kick_bots()

    def _start_turn_timer(self) -> None:
        """With a turn timer, a person's decision gets a deadline (a new one per state)."""
        if self.timer_task is not None:
            self.timer_task.cancel()
        self.timer_task, self.timer_deadline = None, None
        seconds, game = self.hub.config.turn_timer, self.game
        if seconds <= 0 or game is None or game.over or game.decision is None:
            return
        seat = game.decision.seat
        if self.seats[seat].kind != "human" or self.seats[seat].standin:
            return
        self.timer_deadline = time.monotonic() + seconds
        loop = asyncio.get_running_loop()
        self.timer_task = loop.create_task(self._time_out(self.actions, seat, seconds))

    async def _time_out(self, state_id: int, seat: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with self.lock:
            game = self.game
            if game is None or game.over or game.decision is None or self.actions != state_id:
                return
            if game.decision.seat != seat:
                return
            self.timer_task = None  # this task must not cancel itself in publish
            self._broadcast({"type": "timed_out", "seat": seat, "name": self.seats[seat].name})
            if game.decision.kind == BID:
                game.apply(game.decision_actions()[0])  # pass
            else:
                self._bot_move(seat)
            with contextlib.suppress(StorageFailure):  # told to everyone by publish
                await self.publish()

    def _pass_for_people_who_cannot_win(self) -> None:
        """Auctions move briskly: a person is asked to bid only while they can still
        win; when passing is all they could do, it is done for them at once."""
        game = self.game
        while game is not None and not game.over and _cannot_win(game):
            decision = game.decision
            assert decision is not None
            data = self.seats[decision.seat]
            if data.kind == "bot" or data.standin:
                return  # computer players pass by themselves, at their pace
            game.apply(game.decision_actions()[0])

    async def _save(self) -> None:
        game = self.game
        assert game is not None
        new = game.record[self.saved :]
        status = "over" if game.over else "running"
        if not new and self.status == status:
            return
        result = {"winners": list(game.winners), "reason": game.end_reason} if game.over else None
        entries = [entry_to_json(entry) for entry in new]
        store = self.hub.store
        try:
            await self.hub.write(store.append_log, self.id, self.saved, entries, status, result)
        except StorageFailure:
            if not await self._landed(self.saved + len(new)):
                self._roll_back()
                raise
        self.actions += sum(1 for entry in new if entry[0] == "action")
        self.status = status
        self.saved += len(new)

    async def _landed(self, length: int) -> bool:
        """Whether a write reported as failed was stored after all (the connection broke
        after the commit): then the game goes on from it instead of writing it twice."""
        try:
            stored = await asyncio.to_thread(self.hub.store.log_length, self.id)
        except Exception:  # the database still does not answer: treat it as not stored
            return False
        return bool(stored == length)

    def _roll_back(self) -> None:
        """Put the game back where the database has it (after a failed write)."""
        game = self.game
        assert game is not None
        log_json = [entry_to_json(entry) for entry in game.record[: self.saved]]
        record = {"format": "monopoly-record", "version": 1, "setup": self.setup, "log": log_json}
        self.game = replay(record, check_result=False)
        self.game.reseed(secrets.randbits(64))
        self.bots.clear()
        self.sent_events = min(self.sent_events, len(self.game.events))
        kept = len(self.game.events)
        if kept < len(self._log_starts):
            del self._log_lines[self._log_starts[kept] :]
            del self._log_starts[kept:]

    def log_lines(self) -> list[str]:
        """The game's log as text (narrated once per event, then kept)."""
        game = self.game
        assert game is not None
        lines, starts = self._log_lines, self._log_starts
        done = len(starts)
        if done < len(game.events):
            for event_text in views.event_lines(Narrator(game), game, done):
                starts.append(len(lines))
                lines.extend(event_text)
        return lines

    def state_message(
        self,
        seat: int | None,
        events: list[dict[str, Any]],
        full: bool,
        log_from: int | None = None,
    ) -> dict[str, Any]:
        game = self.game
        assert game is not None
        players = [
            {
                "seat": i,
                "name": game.names[i],
                "token": self.seats[i].token,
                "type": self.seats[i].kind,
                "level": self.seats[i].level,
                "connected": self.connections[i] > 0,
                "bot_standin": self.seats[i].standin,
            }
            for i in range(game.players)
        ]
        table = views.table_json(PlayerView(game, -1 if seat is None else seat), players)
        table.update(
            edition=self.edition,
            language=self.language,
            rules=self.rules_spec,
            end_reason=game.end_reason,
        )
        message = {
            "type": "state",
            "state_id": self.state_id,
            "full": full,
            "seat": seat,
            "game": table,
            "decision": views.decision_json(game),
            **views.seat_answers(game, seat),
            "events": [] if full else events,
            "log": None,
            "turn_timer": (
                None
                if self.timer_deadline is None
                else round(max(0.0, self.timer_deadline - time.monotonic()), 1)
            ),
        }
        if full:
            lines = self.log_lines()
            start = max(0, len(lines) - LOG_TAIL) if log_from is None else log_from
            start = min(start, len(lines))
            message["log"] = lines[start : start + LOG_PAGE]
            message["log_from"] = start
            message["log_total"] = len(lines)
        return message

    def game_over_message(self) -> dict[str, Any]:
        game = self.game
        assert game is not None
        turns = [0] * game.players
        last_event = None
        for event in game.events:
            if isinstance(event, TurnStarted):
                turns[event.seat] += 1
            if type(event).__name__ == "GameOver":
                last_event = event
        return {
            "type": "game_over",
            "winners": list(game.winners),
            "reason": game.end_reason,
            "turns": game.turn,
            "rounds": game.round,
            "ranking": views.ranking_json(game, turns),
            "history": views.worth_history(game),
            "text": Narrator(game).describe(last_event) if last_event else "",
        }

    def presence_message(self) -> dict[str, Any]:
        moment = time.monotonic()
        timeout = self.hub.config.absence_timeout
        seats = []
        for seat, data in enumerate(self.seats):
            absent = (
                moment - self.absent_since[seat]
                if data.kind == "human" and not self.connections[seat]
                else 0.0
            )
            seats.append(
                {
                    "seat": seat,
                    "type": data.kind,
                    "connected": self.connections[seat] > 0,
                    "bot_standin": data.standin,
                    "absent_for": round(absent, 1),
                    "can_hand_to_bot": self._can_hand_over(seat, absent, timeout),
                }
            )
        watchers = sum(1 for client in self.clients if client.greeted and client.seat is None)
        return {"type": "presence", "seats": seats, "watchers": watchers}

    def _can_hand_over(self, seat: int, absent: float, timeout: float) -> bool:
        data = self.seats[seat]
        return (
            self.status == "running"
            and data.kind == "human"
            and not data.standin
            and not self.connections[seat]
            and absent >= timeout
            and self.game is not None
            and self.game.active[seat]
        )

    def _broadcast(self, message: dict[str, Any]) -> None:
        for client in self.clients:
            client.send(message)

    def _broadcast_lobby(self) -> None:
        for client in self.clients:
            client.send({"type": "lobby", "game": self.lobby_json(self.hub.public_url)})

    def _send_full(self, client: Client, log_from: int | None = None) -> None:
        if self.chat.messages:
            client.send(self.chat.history())
        if self.game is None:
            client.send({"type": "lobby", "game": self.lobby_json(self.hub.public_url)})
            return
        client.send(self.state_message(client.seat, [], full=True, log_from=log_from))
        if self.game.over:
            client.send(self.game_over_message())
            if self.next_game is not None:
                client.send(self._again_message(client.seat))

    async def _stored(self, call: Any, *args: Any) -> None:
        """A write for a lobby change: stored first; a failure refuses the change."""
        try:
            await self.hub.write(call, *args)
        except StorageFailure:
            raise Refusal(
                "storage_unavailable", "the database cannot be written: try again soon"
            ) from None

    async def _host_seat(self, client: Client, data: dict[str, Any]) -> None:
        """Before the start the host (seat 0) sets another seat: ``to`` "bot" (a computer
        player of ``level``) or "person" (a free seat for a friend); a person who had
        joined that seat is removed and told so."""
        if client.seat != 0:
            raise Refusal("not_host", "only the host (seat 0) may change the seats")
        if self.status != "open":
            raise Refusal("not_open", "the seats are fixed once the game has started")
        seat, to, level = data.get("seat"), data.get("to"), data.get("level")
        if type(seat) is not int or not 1 <= seat < len(self.seats):
            raise Refusal("bad_seat", f"seat must be 1 to {len(self.seats) - 1}, got {seat!r}")
        if to == "bot":
            level = level if level is not None else self.hub.standin_level
            if level not in LEVELS:
                raise Refusal("bad_level", f"unknown level {level!r}; known: {sorted(LEVELS)}")
            name = text(
                self.language, "bot_name", number=seat + 1, level=level_name(self.language, level)
            )
            new = SeatData(kind="bot", level=level, name=name)
        elif to == "person" and level is None:
            new = SeatData(kind="human")
        else:
            raise Refusal("bad_message", 'to must be "bot" (with a level) or "person"')
        await self._stored(self.hub.store.save_seat, self.id, seat, new)
        self._remove_person(seat)
        self.seats[seat] = new
        self._broadcast_lobby()

    async def _host_rules(self, client: Client, data: dict[str, Any]) -> None:
        """Before the start the host (seat 0) may choose other rules (as in the create
        form); a game set up from a position keeps the rules it was checked with."""
        if client.seat != 0:
            raise Refusal("not_host", "only the host (seat 0) may change the rules")
        if self.status != "open":
            raise Refusal("not_open", "the rules are fixed once the game has started")
        if "position" in self.setup:
            raise Refusal("fixed_rules", "a game set up from a position keeps its rules")
        try:
            spec, rules = parse_rules(data.get("rules"))
        except ApiError as error:
            raise Refusal(error.code, error.message) from None
        setup = {**self.setup, "rules": rules.to_json()}
        await self._stored(self.hub.store.save_rules, self.id, setup, spec)
        self.rules_spec, self.setup = spec, setup
        self._broadcast_lobby()

    def _remove_person(self, seat: int) -> None:
        """Tell the person at ``seat`` (if any) they were removed; they can only watch."""
        if self.seats[seat].secret_hash is None:
            return
        for other in self.clients:
            if other.seat == seat:
                other.seat = None
                other.send({"type": "removed", "game_id": self.id})
        self.connections[seat] = 0

    async def _play_again(self, client: Client) -> None:
        """A finished game's seated player asks for the next game with the same people,
        edition and rules: it is created with every seat taken as before (a new seed), and
        each person gets their own new seat token; the host (seat 0) starts it."""
        if client.seat is None:
            raise Refusal("spectator", "watchers cannot start the next game")
        if self.game is None or not self.game.over:
            raise Refusal("not_over", "the game is not over yet")
        if self.next_game is None:
            await self._create_next_game()
        for other in self.clients:
            other.send(self._again_message(other.seat))

    async def _create_next_game(self) -> None:
        # The next game starts from the box: a chosen seed or position is not carried on.
        spec = {k: v for k, v in self.rules_spec.items() if k != "testing"}
        try:
            _, rules = parse_rules(spec)
        except ApiError as error:
            raise Refusal(error.code, error.message) from None
        seats = tuple(
            {"type": "bot", "level": data.level} if data.kind == "bot" else {"type": "human"}
            for data in self.seats
        )
        host = self.seats[0]
        request = NewGame(
            self.edition,
            self.language,
            spec,
            rules,
            seats,
            host.name or "",
            host.token or "",
            secrets.randbits(48),
        )
        try:
            session, secret = await self.hub.create(request)
        except ApiError as error:
            raise Refusal(error.code, error.message) from None
        self.next_secrets = {0: secret}
        for seat, data in enumerate(self.seats):
            if seat == 0 or data.kind != "human":
                continue
            self.next_secrets[seat] = new_secret()
            target = session.seats[seat]
            target.name, target.token = data.name, data.token
            target.secret_hash = hash_secret(self.next_secrets[seat])
            await self._stored(self.hub.store.save_seat, session.id, seat, target)
        self.next_game = session.id

    def _again_message(self, seat: int | None) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "play_again", "game_id": self.next_game}
        if seat is not None and seat in self.next_secrets:
            message["seat_token"] = self.next_secrets[seat]
        return message

    def _chat(self, client: Client, data: dict[str, Any]) -> None:
        """A seated player's message to everyone at the table (watchers only read)."""
        if client.seat is None:
            raise Refusal("spectator", "watchers can read the chat but not write")
        name = self.seats[client.seat].name or ""
        try:
            message = self.chat.post(client.seat, name, data.get("text"))
        except ChatRefusal as refusal:
            raise Refusal(refusal.code, refusal.message) from None
        self._broadcast(message)

    # ------------------------------------------------------------------ messages
    async def handle(self, client: Client, raw: str | bytes | None) -> None:
        """Answer one message of ``client``; a refusal goes to the sender alone."""
        request: str | None = None
        try:
            try:
                data = _parse_message(raw)
            except Refusal:
                self._limit(client, "invalid")
                raise
            request = data["type"]
            self._limit(client, request)
            if request != "hello" and not client.greeted:
                raise Refusal("hello_first", "say hello first (with your seat token, or none)")
            async with self.lock:
                await self._dispatch(client, request, data)
        except Refusal as refusal:
            if refusal.code == "rate_limited" and client.limited_in_a_row > 1:
                return  # told once already: say nothing until it slows down
            client.send(
                {
                    "type": "error",
                    "code": refusal.code,
                    "message": refusal.message,
                    "state_id": self.state_id,
                    "request": request,
                    **({"reason": refusal.reason} if refusal.reason else {}),
                }
            )
            if refusal.code == "stale_state":
                self._send_full(client)

    def _limit(self, client: Client, kind: str) -> None:
        """Refuse the message if its sender (or its address) sends this kind too often;
        after ``refusals_in_a_row`` refused messages the connection is closed."""
        limits = client.limits
        rate = limits.message_rates.get(kind) or limits.message_rates["invalid"]
        bucket = client.buckets.get(kind)
        if bucket is None:
            bucket = client.buckets[kind] = TokenBucket(rate[0], rate[1], time.monotonic())
        wait = bucket.take(time.monotonic())
        if not wait:
            factor = limits.address_factor
            wide = (rate[0] * factor, rate[1] * factor)
            wait = self.hub.limiter.take((client.address, kind), wide)
        if not wait:
            client.limited_in_a_row = 0
            return
        client.limited_in_a_row += 1
        if client.limited_in_a_row > limits.refusals_in_a_row:
            client.drop(f"too many {kind} messages")
        raise Refusal("rate_limited", describe_rate(kind, rate, wait))

    async def _dispatch(self, client: Client, request: str, data: dict[str, Any]) -> None:
        if request == "hello":
            await self._hello(client, data)
        elif request == "action":
            await self._action(client, data)
        elif request == "check":
            self._check(client, data)
        elif request == "hand_to_bot":
            await self._hand_to_bot(client, data)
        elif request == "sync":
            self._send_full(client, _log_from(data))
        elif request == "chat":
            self._chat(client, data)
        elif request == "play_again":
            await self._play_again(client)
        elif request == "host_seat":
            await self._host_seat(client, data)
        elif request == "host_rules":
            await self._host_rules(client, data)
        else:
            client.send({"type": "pong"})

    async def _hello(self, client: Client, data: dict[str, Any]) -> None:
        if client.greeted:
            raise Refusal("already_hello", "this connection has already said hello")
        token = data.get("token")
        seat: int | None = None
        if token is not None:
            if not isinstance(token, str):
                raise Refusal("bad_message", "hello.token must be a string or null")
            seat = self._seat_of(token)
        client.seat, client.greeted = seat, True
        self.clients.append(client)
        name = None if seat is None else self.seats[seat].name
        client.send(
            {
                "type": "welcome",
                "game_id": self.id,
                "seat": seat,
                "name": name,
                "spectator": seat is None,
                "status": self.status,
                "test_setup": self.test_setup,
            }
        )
        if seat is not None:
            self.connections[seat] += 1
            await self._take_back(seat)
        self._send_full(client)
        self._broadcast(self.presence_message())  # also for spectators: the watchers count

    def _seat_of(self, token: str) -> int:
        digest = hash_secret(token)
        for seat, data in enumerate(self.seats):
            if data.secret_hash is not None and secrets.compare_digest(data.secret_hash, digest):
                return seat
        raise Refusal("bad_token", "this token belongs to no seat of this game")

    async def _take_back(self, seat: int) -> None:
        if not self.seats[seat].standin:
            return
        data = replace(self.seats[seat], standin=False)
        try:
            await self.hub.write(self.hub.store.save_seat, self.id, seat, data)
        except StorageFailure:  # the stand-in plays on; the next hello tries again
            return
        self.seats[seat] = data
        self.bots.pop(seat, None)

    def leave(self, client: Client) -> None:
        if client not in self.clients:
            return
        self.clients.remove(client)
        if client.seat is not None:
            self.connections[client.seat] -= 1
            if not self.connections[client.seat]:
                self.absent_since[client.seat] = time.monotonic()
        self._broadcast(self.presence_message())

    def _running_game(self) -> Game:
        if self.game is None:
            raise Refusal("not_started", "the game has not started yet")
        if self.game.over:
            raise Refusal("game_over", "the game is over")
        return self.game

    def _own_action(self, client: Client, value: object) -> Action:
        if client.seat is None:
            raise Refusal("spectator", "spectators cannot act: join the game to play")
        if not isinstance(value, dict):
            raise Refusal("bad_action", f"action must be a JSON object, got {shown(value)}")
        value = {"seat": client.seat, **value}
        try:
            action = action_from_json(value)
        except MalformedActionError as error:
            raise Refusal("bad_action", str(error)) from None
        if action.seat != client.seat:
            raise Refusal("not_your_seat", f"you play seat {client.seat}, not seat {action.seat}")
        if self.seats[client.seat].standin:
            raise Refusal("seat_handed_over", "a computer player holds your seat: say hello")
        return action

    async def _action(self, client: Client, data: dict[str, Any]) -> None:
        game = self._running_game()
        if client.seat is None:
            raise Refusal("spectator", "spectators cannot act: join the game to play")
        state_id = data.get("state_id")
        if type(state_id) is not int:
            raise Refusal(
                "bad_message", f"action.state_id must be a whole number, got {shown(state_id)}"
            )
        if state_id != self.state_id:
            raise Refusal(
                "stale_state", f"the game moved on: state {self.state_id}, not {state_id}"
            )
        action = self._own_action(client, data.get("action"))
        try:
            game.apply(action)
        except IllegalActionError as error:
            text, key = Narrator(game).reason(error.reason), getattr(error.reason, "key", None)
            raise Refusal("illegal_action", text, key) from None
        try:
            await self.publish()
        except StorageFailure:
            raise Refusal(
                "storage_unavailable",
                "the game could not be saved, so your move was not made: try again soon",
            ) from None

    def _check(self, client: Client, data: dict[str, Any]) -> None:
        game = self._running_game()
        action = self._own_action(client, data.get("action"))
        problem = game.problem(action)
        client.send(
            {
                "type": "check_result",
                "action": action.to_json(),
                "legal": not problem,
                "problem": Narrator(game).reason(problem),
                "reason": getattr(problem, "key", None),
            }
        )

    async def _hand_to_bot(self, client: Client, data: dict[str, Any]) -> None:
        game = self._running_game()
        if client.seat is None:
            raise Refusal("spectator", "only players can hand a seat to a computer player")
        seat = data.get("seat")
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            raise Refusal("bad_seat", f"there is no seat {shown(seat)}")
        target = self.seats[seat]
        if target.kind != "human":
            raise Refusal("not_a_person", f"seat {seat} is a computer player already")
        if not game.active[seat]:
            raise Refusal("bad_seat", f"seat {seat} is out of the game")
        if target.standin:
            raise Refusal("already_handed_over", f"a computer player holds seat {seat} already")
        absent = time.monotonic() - self.absent_since[seat]
        timeout = self.hub.config.absence_timeout
        if self.connections[seat] or absent < timeout:
            raise Refusal(
                "not_absent",
                f"seat {seat} may be handed over after {timeout:g} s without a connection",
            )
        handed = replace(target, standin=True)
        try:
            await self.hub.write(self.hub.store.save_seat, self.id, seat, handed)
        except StorageFailure:
            raise Refusal(
                "storage_unavailable", "the hand-over could not be saved: try again soon"
            ) from None
        self.seats[seat] = handed
        self._broadcast(self.presence_message())
        self.kick_bots()

    # ------------------------------------------------------------------ computer players
    def _bot_seat(self) -> int | None:
        game = self.game
        if game is None or game.over:
            return None
        decision = game.decision
        if decision is None:
            return None
        data = self.seats[decision.seat]
        return decision.seat if data.kind == "bot" or data.standin else None

    def kick_bots(self) -> None:
        if self.bot_task is None and self._bot_seat() is not None:
            self.bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        """Move for the computer players until a person must decide. A failed write (or
        any other error) never ends this task: it waits longer each time and tries again."""
        delay = self.hub.config.bot_delay
        failures = 0
        while True:
            brisk = self.game is not None and _in_auction(self.game)
            pause = delay * AUCTION_PACE if brisk else delay
            await asyncio.sleep(pause if not failures else min(RETRY_MAX, 0.1 * 2**failures))
            try:
                async with self.lock:
                    if await self._bot_moves(1 if delay > 0 else BOT_BATCH):
                        self.bot_task = None
                        return
                failures = 0
            except StorageFailure as failure:
                failures += 1
                if failures == 1:
                    log.warning("game %s waits for the database: %s", self.id, failure)
                    self._broadcast(self._storage_error())
            except Exception:
                failures += 1
                log.exception("game %s: the computer players failed; trying again", self.id)

    async def _bot_moves(self, batch: int) -> bool:
        """Make up to ``batch`` moves and publish them; True when no bot is to move."""
        moves = 0
        while moves < batch and (seat := self._bot_seat()) is not None:
            self._bot_move(seat)
            moves += 1
        if moves:
            await self.publish()
        return self._bot_seat() is None

    def _storage_error(self) -> dict[str, Any]:
        return {
            "type": "error",
            "code": "storage_unavailable",
            "message": "the game cannot be saved right now; it goes on when it can be",
            "state_id": self.state_id,
            "request": None,
        }

    def idle(self) -> bool:
        """Nobody uses this game and nothing is to be done: it may leave memory."""
        return (
            not self.clients and not self.pins and self.bot_task is None and not self.lock.locked()
        )

    def _bot_move(self, seat: int) -> None:
        """A computer player decides for ``seat`` (its own, or a stand-in for an absent or
        timed-out person) through the seat driver, which also lets the computer players
        claim rent and plays a legal move after a bad answer (see bots/driver.py)."""
        game = self.game
        assert game is not None

        def bot_for(other: int) -> Bot | None:
            data = self.seats[other]
            computer = other == seat or data.kind == "bot" or data.standin
            return self._bot(other) if computer and game.active[other] else None

        SeatDriver(game, bot_for, report=self._bot_erred).step()

    def _bot_erred(self, seat: int, action: Action | None, error: BaseException) -> None:
        """The seat driver's policy: log the computer player's mistake; it plays on."""
        log.warning(
            "game %s: the computer player of seat %d erred (%s): %s", self.id, seat, action, error
        )

    def _bot(self, seat: int) -> Bot:
        bot = self.bots.get(seat)
        if bot is None:
            data = self.seats[seat]
            level = data.level if data.kind == "bot" and data.level else self.hub.standin_level
            seed = (int(self.setup["seed"]) * 31 + seat) * 100_003 + self.actions
            bot = make_bot(level, seed=seed % 2**32)
            self.bots[seat] = bot
        return bot

    def stop(self) -> None:
        if self.bot_task is not None:
            self.bot_task.cancel()
            self.bot_task = None
        if self.timer_task is not None:
            self.timer_task.cancel()
            self.timer_task = None


def _in_auction(game: Game) -> bool:
    return game.decision is not None and game.decision.kind == BID


def _cannot_win(game: Game) -> bool:
    """A person in an auction who cannot outbid the highest bid (passing is the only
    answer) is not asked: the server passes for them at once."""
    return _in_auction(game) and len(game.decision_actions()) == 1


def _storage_api_error() -> ApiError:
    return ApiError(503, "storage_unavailable", "the database cannot be written: try again soon")


def _log_from(data: dict[str, Any]) -> int | None:
    value = data.get("log_from")
    if value is not None and (type(value) is not int or value < 0):
        raise Refusal(
            "bad_message", f"sync.log_from must be a whole number >= 0, got {shown(value)}"
        )
    return value


def _parse_message(raw: str | bytes | None) -> dict[str, Any]:
    if not isinstance(raw, str):
        raise Refusal("bad_json", "messages are JSON text frames")
    try:
        data = read_json(raw)
    except BadJson as error:
        raise Refusal("bad_json", str(error)) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise Refusal("bad_message", 'a message is a JSON object with a "type"')
    kind = data["type"]
    allowed = MESSAGE_FIELDS.get(kind)
    if allowed is None:
        raise Refusal(
            "unknown_type",
            f"unknown message type {shown(kind)}; known: {', '.join(MESSAGE_FIELDS)}",
        )
    unknown = set(data) - allowed - {"type"}
    if unknown:
        raise Refusal("bad_message", f"{kind} has unknown fields {shown(sorted(unknown))}")
    return data
