"""Live games: one :class:`GameSession` per game, all held by the :class:`Hub`.

A session owns its game, the connected clients and the game's log, and composes the
parts that do the rest: :class:`~.seats.Seating` (joining, seat tokens, the host's
controls, stand-ins, presence), :class:`~.computer.ComputerPlayers` (the bot task, its
retries, the turn timer) and the protocol (:mod:`.protocol`: reading client messages,
building the server's). One asyncio lock per game serialises everything that reads or
changes it (actions, joins, the start, hand-overs), so many games run at once without
sharing anything. After every change the new record entries are stored first (on
PostgreSQL through asyncio connections, on SQLite in a writer thread; while the game's
lock is held, so one game's writes keep their order) and only then does every client
get its own view: what a client saw is always stored. A
failed write rolls the game back to what is stored; the sender gets an error and the
computer players try again.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from monopoly.core.actions import ACTION_NAMES, Action, Resign
from monopoly.core.errors import IllegalActionError
from monopoly.core.game import Game
from monopoly.core.memo import FreeActionsMemo
from monopoly.core.narrate import Narrator
from monopoly.core.records import entry_to_json, replay
from monopoly.core.view import PlayerView

from . import explain, protocol, views
from .advice import LiveAdvice, requested_offer
from .chat import ChatRefusal, ChatRoom
from .client import Client, dumps
from .computer import ComputerPlayers
from .fanout import Message, Relay, SpectatorFanout, to_everyone
from .limits import Limits
from .protocol import Refusal
from .seats import Seating
from .states import StateTexts, TableNumbers
from .storage import LogWrite, NotOwner, SeatData, StorageFailure, StoredGame

if TYPE_CHECKING:
    from .hub import Hub

LOG_TAIL = 600
"""A full state carries the last this many log lines unless the client asks for others."""
LOG_PAGE = 2000
"""At most this many log lines in one state."""
TOUCH_EVERY = 60.0
"""Seconds between two writes of a running game's row (its ``updated`` time) while only
its record grows. Each write of the row is a new row version in PostgreSQL, and writing
it with every action cost the database three times the entries' insert."""

WATCHERS_TOLD_EVERY = 0.5
"""Seconds between two presence messages that only change the number of watchers."""

Handler = Callable[["GameSession", Client, dict[str, Any]], Awaitable[None]]


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
    host: str = "127.0.0.1"
    """The address the server is bound to (``--host``): requests naming it are answered."""
    allowed_hosts: tuple[str, ...] = ()
    """More names the server answers to (``Host`` headers; see origins.py)."""
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
    ws_compression: bool = False
    """Compress WebSocket messages (per-message deflate). Off by default: with deltas a
    change's message is about a kilobyte, and compressing every message cost about a
    tenth of the server's CPU under load."""
    limits: Limits = field(default_factory=Limits)


class GameSession:
    """One game: its state, clients and log; seats and computer players are its parts."""

    def __init__(self, hub: Hub, stored: StoredGame, game: Game | None) -> None:
        self.hub = hub
        self.id = stored.id
        self.status = stored.status
        self.touched = time.monotonic()
        """When the game's row was last written (its status and ``updated`` time)."""
        self.setup = stored.setup
        self.rules_spec = stored.rules_spec
        self.created: datetime = stored.created
        self.game = game
        self.saved = len(stored.log)
        self.stopped = False
        """Stopped: no more messages are handled here (see :meth:`stop`)."""
        self.actions = sum(1 for entry in game.record if entry[0] == "action") if game else 0
        self.sent_events = len(game.events) if game else 0
        self.announced_over = bool(game and game.over)
        self.lock = asyncio.Lock()
        self.clients: list[Client] = []
        self.seating = Seating(self, stored.seats)
        self.computer = ComputerPlayers(self)
        self.pins = 0
        """Requests and connections using this session (it stays in memory meanwhile)."""
        self.last_used = time.monotonic()
        self._log_lines: list[str] = []
        """The game's log as text, narrated once (a sync only slices it)."""
        self._deeds: dict[tuple[Game, int, int], tuple[list[views.Holding], views.Board]] = {}
        """The seats' holdings and the spaces' owners, levels and mortgages for the table,
        kept while no deed or building changes."""
        self._log_starts: list[int] = []
        """Where each event's lines start in ``_log_lines`` (an event may add a note)."""
        self.chat = ChatRoom()
        self._presence_later: asyncio.TimerHandle | None = None
        """A presence message due (see :meth:`_tell_presence`)."""
        self.live_advice = (
            LiveAdvice(self, hub.analyses) if self.advice and hub.analyses is not None else None
        )
        """The win-chance bar and trade advice of a game with "advice on"."""
        self._kept_narrators: tuple[Game, dict[str, Narrator]] | None = None
        """See :meth:`_narrators`."""
        self._deed_steps: FreeActionsMemo[views.DeedSteps] = FreeActionsMemo()
        """The seats' steps on their deeds, judged again only when what they depend on
        changed (see :func:`views.deed_steps`)."""
        self._table_numbers = TableNumbers()
        """Numbers the tables sent to the clients (each delta's ``base`` and ``seq``)."""
        self._published: tuple[int, StateTexts] | None = None
        """The last change sent to the clients, and the record's length stored then: the
        answer to a ``sync`` while the next change waits for its write."""
        self._spectators = SpectatorFanout(self.lock)
        """Messages to everyone reach the spectators through it, after the players."""

    @property
    def seats(self) -> list[SeatData]:
        """Who sits where (kept by :class:`~.seats.Seating`)."""
        return self.seating.seats

    @property
    def edition(self) -> str:
        return str(self.setup["edition"])

    @property
    def language(self) -> str:
        return str(self.setup["language"])

    @property
    def advice(self) -> bool:
        """Whether the table chose "advice on" (win chances and trade advice)."""
        return self.setup.get("advice") is True

    @property
    def state_id(self) -> int | None:
        """The number of actions taken so far (None before the start)."""
        return None if self.game is None else self.actions

    # ------------------------------------------------------------------ lobby (see seats.py)
    def lobby_json(self, base_url: str) -> dict[str, Any]:
        return self.seating.lobby_json(base_url)

    def has_free_seat(self) -> bool:
        return self.seating.has_free_seat()

    async def join(self, name: str, token: str) -> tuple[int, str]:
        """Take the first free person's seat; returns the seat and its secret token."""
        return await self.seating.join(name, token)

    async def start(self, secret: object) -> None:
        await self.seating.start(secret)

    # ------------------------------------------------------------------ publishing
    async def publish(self) -> None:
        """Store the new record entries, then send every client its state, wake the bots.

        Raises :class:`StorageFailure` if the write failed: the game is then back where
        the database has it, and nobody was sent anything.
        """
        self.computer.pass_for_people_who_cannot_win()
        await self._save()
        game = self.game
        assert game is not None
        self.last_used = time.monotonic()
        self.computer.start_turn_timer()
        start, self.sent_events = self.sent_events, len(game.events)
        if self.clients:
            self._send_states(game, start)
        if game.over and not self.announced_over:
            self.announced_over = True
            self.broadcast(protocol.game_over_message(game))
        if self.live_advice is not None:
            self.live_advice.changed(game)
        self.kick_bots()

    def _send_states(self, game: Game, start: int) -> None:
        """Send every client the change: the table, the decision and the new events are
        built and serialised once for all; each client gets its seat's answers (and a
        delta of the table, if it asked for deltas; see states.py): the players at once,
        the spectators after them (see fanout.py)."""
        narrators = self._narrators(game)
        events = views.events_json(narrators[game.language], game, start)
        self._keep_log(start, events)
        shared = {
            "state_id": self.state_id,
            "decision": views.decision_json(game),
            "events": events,
            "turn_timer": self.computer.seconds_left(),
        }
        table, seq = self._table(), self._table_numbers.take()
        answers = partial(views.seat_answers, game, narrators=narrators, kept=self._deed_steps)
        texts = StateTexts(table, seq, shared, answers)
        self._to_everyone(texts)
        self._published = (self.saved, texts)

    def _narrators(self, game: Game) -> dict[str, Narrator]:
        """The game's narrators in every language, kept while the game object is (each
        keeps the reasons it narrated: a seat's refused steps, after every change)."""
        kept = self._kept_narrators
        if kept is None or kept[0] is not game:
            kept = self._kept_narrators = (game, views.game_narrators(game))
        return kept[1]

    def _keep_log(self, start: int, events: list[dict[str, Any]]) -> None:
        """Add the texts of the events sent to the log (so no event is narrated twice),
        if the log has every event before them."""
        lines, starts = self._log_lines, self._log_starts
        if len(starts) != start:
            return
        for event in events:
            starts.append(len(lines))
            lines.append(event["text"])
            if event.get("why"):
                lines.append(explain.WHY_PREFIX + event["why"])

    async def _save(self) -> None:
        game = self.game
        assert game is not None
        new = game.record[self.saved :]
        status = "over" if game.over else "running"
        if not new and self.status == status:
            return
        result = {"winners": list(game.winners), "reason": game.end_reason} if game.over else None
        entries = [entry_to_json(entry) for entry in new]
        moment = time.monotonic()
        touch = status != self.status or moment - self.touched >= TOUCH_EVERY
        write = LogWrite(self.id, self.saved, entries, status, result, touch)
        try:
            await self.hub.append_log(write)
        except StorageFailure as failure:
            if isinstance(failure, NotOwner) or not await self._landed(self.saved + len(new)):
                self._roll_back()
                raise
        self.actions += sum(1 for entry in new if entry[0] == "action")
        self.status = status
        self.saved += len(new)
        if touch:
            self.touched = moment

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
        self.computer.forget()
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
        """What ``seat`` (None: a spectator) may see of the game now; a full state
        carries a page of the log instead of the new events."""
        game = self.game
        assert game is not None
        table = self._table()
        message = {
            "type": "state",
            "state_id": self.state_id,
            "full": full,
            "seat": seat,
            "game": table,
            "decision": views.decision_json(game),
            **views.seat_answers(game, seat, self._narrators(game), self._deed_steps),
            "events": [] if full else events,
            "log": None,
            "turn_timer": self.computer.seconds_left(),
        }
        if full:
            lines = self.log_lines()
            start = max(0, len(lines) - LOG_TAIL) if log_from is None else log_from
            start = min(start, len(lines))
            message["log"] = lines[start : start + LOG_PAGE]
            message["log_from"] = start
            message["log_total"] = len(lines)
        return message

    def _table(self) -> dict[str, Any]:
        """The public table: the same for every seat and spectator."""
        game = self.game
        assert game is not None
        view = PlayerView(game)
        key = (game, game.deeds_version, game.buildings_version)
        kept = self._deeds.get(key)
        if kept is None:  # a deed or a building changed (or another game object)
            kept = (views.holdings(view), views.board_json(view))
            self._deeds = {key: kept}
        table = views.table_json(view, self._players(), *kept)
        table.update(
            edition=self.edition,
            language=self.language,
            rules=self.rules_spec,
            end_reason=game.end_reason,
            last_roller=views.last_roller(game),
            advice=self.advice,
        )
        return table

    def _players(self) -> list[dict[str, Any]]:
        game = self.game
        assert game is not None
        connections = self.seating.connections
        return [
            {
                "seat": i,
                "name": game.names[i],
                "token": seat.token,
                "type": seat.kind,
                "level": seat.level,
                "connected": connections[i] > 0,
                "bot_standin": seat.standin,
            }
            for i, seat in enumerate(self.seats[: game.players])
        ]

    def broadcast(self, message: dict[str, Any]) -> None:
        self._to_everyone(dumps(message))  # serialised once for everyone

    def _to_everyone(self, message: Message, clients: list[Client] | None = None) -> None:
        """Send ``message`` to the players' connections now, to the spectators' in
        slices from the next turn of the event loop on (see fanout.py); those connected
        through another server process get it in one message to that process. (To
        ``clients`` only, if given.)"""
        local: list[Client] = []
        relayed: dict[Relay, list[Client]] = {}
        for client in self.clients if clients is None else clients:
            if client.relay is None:
                local.append(client)
            else:
                relayed.setdefault(client.relay, []).append(client)
        to_everyone(message, local, self._spectators)
        for relay, clients in relayed.items():
            relay.send(self.id, message, clients)

    def _send_full(self, client: Client, log_from: int | None = None) -> None:
        for text in self._whole_texts(client, self._table_numbers.take(), log_from):
            client.send_text(text)

    def send_whole(self, clients: list[Client]) -> None:
        """Start ``clients`` again from whole states, as after a ``sync`` (they may have
        missed messages between server processes: cluster.py): one table number for all,
        so a crowd gets one text per seat, sent once to its process."""
        seq = self._table_numbers.take()
        kinds: dict[tuple[int | None, bool], list[Client]] = {}
        for client in clients:
            kinds.setdefault((client.seat, client.deltas), []).append(client)
        for first, *others in kinds.values():
            texts = self._whole_texts(first, seq)
            for client in others:
                client.seq, client.table = first.seq, first.table
            for text in texts:
                self._to_everyone(text, [first, *others])

    def _whole_texts(self, client: Client, seq: int, log_from: int | None = None) -> list[str]:
        """What ``client`` needs to start from the game as it is now: the chat, the lobby
        or the whole table (numbered ``seq``: the next delta's base) and its log, the last
        advice and the end; the client's last table becomes this one."""
        texts = [dumps(self.chat.history())] if self.chat.messages else []
        if self.game is None:
            return [*texts, dumps({"type": "lobby", "game": self.lobby_json(self.hub.public_url)})]
        message = self.state_message(client.seat, [], full=True, log_from=log_from)
        client.seq = seq  # a change queued before is not sent again
        if client.deltas:  # the next delta is made against this table
            client.table, message["seq"] = message["game"], seq
        texts.append(dumps(message))
        if self.live_advice is not None and self.live_advice.last is not None:
            texts.append(dumps(self.live_advice.last))
        if self.game.over:
            texts.append(dumps(protocol.game_over_message(self.game)))
            if self.seating.next_game is not None:
                texts.append(dumps(self.seating.again_message(client.seat)))
        return texts

    # ------------------------------------------------------------------ messages
    async def handle(self, client: Client, raw: str | bytes | None) -> None:
        """Answer one message of ``client``; a refusal goes to the sender alone."""
        request: str | None = None
        try:
            try:
                data = protocol.parse_message(raw)
            except Refusal:
                client.limit("invalid", self.hub.limiter)
                raise
            request = data["type"]
            client.limit(request, self.hub.limiter)
            if request != "hello" and not client.greeted:
                raise protocol.hello_first()
            if request in READS and self._read_at_once(client, request, data):
                return
            async with self.lock:
                if self.stopped:  # no longer served here (its lease is gone)
                    raise Refusal("game_moving", "the game is changing servers: connect again")
                await HANDLERS[request](self, client, data)
        except Refusal as refusal:
            if refusal.code == "rate_limited" and client.limited_in_a_row > 1:
                return  # told once already: say nothing until it slows down
            client.send(protocol.error_message(refusal, self.state_id, request))
            if refusal.code == "stale_state":
                self._send_full(client)

    def _read_at_once(self, client: Client, request: str, data: dict[str, Any]) -> bool:
        """Answer a read without waiting for the game's lock, from what is stored (a
        change waiting for its write is not shown): True if answered. A ``ping`` always
        is; a ``sync`` or ``check`` at once unless the game is ahead of the database;
        a ``sync`` then from the last change sent, if it was made for the client's seat."""
        if request == "ping":
            client.send({"type": "pong"})
            return True
        game = self.game
        if game is None or len(game.record) == self.saved:
            if request == "sync":
                self._send_full(client, protocol.log_from(data))
            else:
                self._check_now(client, data)
            return True
        if request != "sync" or self._published is None or self._published[0] != self.saved:
            return False
        log = self._stored_log(protocol.log_from(data))
        if log is None:
            return False
        text = self._published[1].full_text(client, log, self.computer.seconds_left())
        if text is None:
            return False
        if self.chat.messages:
            client.send(self.chat.history())
        client.send_text(text)
        return True

    def _stored_log(self, log_from: int | None) -> dict[str, Any] | None:
        """A page of the log of the changes sent (None if their texts are not all kept)."""
        if len(self._log_starts) != self.sent_events:
            return None
        lines = self._log_lines
        start = max(0, len(lines) - LOG_TAIL) if log_from is None else min(log_from, len(lines))
        page = lines[start : start + LOG_PAGE]
        return {"log": page, "log_from": start, "log_total": len(lines)}

    async def _hello(self, client: Client, data: dict[str, Any]) -> None:
        if client.greeted:
            raise Refusal("already_hello", "this connection has already said hello")
        token = protocol.hello_token(data)
        deltas = protocol.hello_deltas(data)
        seat = None if token is None else self.seating.seat_of(token)
        client.seat, client.greeted, client.deltas = seat, True, deltas
        if seat is None:
            self.clients.append(client)
        else:  # players first: a change reaches them before a crowd of spectators
            self.clients.insert(0, client)
        name = None if seat is None else self.seats[seat].name
        test_setup = self.seating.test_setup
        client.send(protocol.welcome_message(self.id, seat, name, self.status, test_setup))
        if seat is not None:
            await self.seating.arrive(seat)
        self._send_full(client)
        self._tell_presence(watchers_only=seat is None)  # spectators too: the watchers count

    def leave(self, client: Client) -> None:
        if client not in self.clients:
            return
        self.clients.remove(client)
        if client.seat is not None:
            self.seating.depart(client.seat)
        self._tell_presence(watchers_only=client.seat is None)

    def _tell_presence(self, watchers_only: bool) -> None:
        """Tell everyone who is here: at once when a seat's connection changed; when only
        the watchers' count did, once per :data:`WATCHERS_TOLD_EVERY` (a crowd arriving
        together would otherwise cost a message to everyone per arrival: a million
        messages for a thousand spectators)."""
        if watchers_only:
            if self._presence_later is None:
                loop = asyncio.get_running_loop()
                self._presence_later = loop.call_later(WATCHERS_TOLD_EVERY, self._tell_now)
            return
        self._tell_now()

    def _tell_now(self) -> None:
        if self._presence_later is not None:
            self._presence_later.cancel()
            self._presence_later = None
        self.broadcast(self.seating.presence_message())

    def running_game(self) -> Game:
        """The game, if it is under way (else the message is refused)."""
        if self.game is None:
            raise Refusal("not_started", "the game has not started yet")
        if self.game.over:
            raise Refusal("game_over", "the game is over")
        return self.game

    def _own_action(self, client: Client, value: object) -> Action:
        action = protocol.own_action(client.seat, value)
        if client.seat is not None and self.seats[client.seat].standin:
            raise Refusal("seat_handed_over", "a computer player holds your seat: say hello")
        return action

    async def _action(self, client: Client, data: dict[str, Any]) -> None:
        game = self.running_game()
        if client.seat is None:
            raise Refusal("spectator", "spectators cannot act: join the game to play")
        protocol.action_state_id(data, self.state_id)
        action = self._own_action(client, data.get("action"))
        await self._apply(game, action)

    async def _resign(self, client: Client, data: dict[str, Any]) -> None:
        """The sender leaves the game (bankrupt to the Bank, see :class:`Resign`): no
        ``state_id``, since a person may resign whatever happened meanwhile."""
        game = self.running_game()
        await self._apply(game, self._own_action(client, {"act": ACTION_NAMES[Resign]}))

    async def _apply(self, game: Game, action: Action) -> None:
        """Carry out a seat's action and publish the change (refusals explained)."""
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

    async def _check(self, client: Client, data: dict[str, Any]) -> None:
        self._check_now(client, data)

    def _check_now(self, client: Client, data: dict[str, Any]) -> None:
        game = self.running_game()
        action = self._own_action(client, data.get("action"))
        client.send(protocol.check_result_message(game, action))

    async def _sync(self, client: Client, data: dict[str, Any]) -> None:
        self._send_full(client, protocol.log_from(data))

    async def _chat(self, client: Client, data: dict[str, Any]) -> None:
        """A seated player's message to everyone at the table (watchers only read)."""
        if client.seat is None:
            raise Refusal("spectator", "watchers can read the chat but not write")
        name = self.seats[client.seat].name or ""
        try:
            message = self.chat.post(client.seat, name, data.get("text"))
        except ChatRefusal as refusal:
            raise Refusal(refusal.code, refusal.message) from None
        self.broadcast(message)

    async def _play_again(self, client: Client, data: dict[str, Any]) -> None:
        await self.seating.play_again(client)

    async def _advice(self, client: Client, data: dict[str, Any]) -> None:
        """A seated player asks what a trade would do to everyone's win chance (answered
        later, from the analysis pool: the game goes on meanwhile)."""
        if self.live_advice is None:
            raise Refusal(
                "advice_off", "advice is off in this game: it is chosen when the game is created"
            )
        game = self.running_game()
        if client.seat is None:
            raise Refusal("spectator", "spectators cannot ask for advice: join the game to play")
        offer = requested_offer(game, client.seat, data.get("offer"))
        self.live_advice.ask(client, offer, self.state_id)

    async def _pong(self, client: Client, data: dict[str, Any]) -> None:
        client.send({"type": "pong"})

    # ------------------------------------------------------------------ life in memory
    def kick_bots(self) -> None:
        """Let the computer players move if one is to (see computer.py)."""
        self.computer.kick()

    def idle(self) -> bool:
        """Nobody uses this game and nothing is to be done: it may leave memory."""
        return (
            not self.clients
            and not self.pins
            and self.computer.task is None
            and not self.lock.locked()
        )

    def stop(self) -> None:
        self.stopped = True
        self.computer.stop()
        self._spectators.stop()
        if self.live_advice is not None:
            self.live_advice.stop()
        if self._presence_later is not None:
            self._presence_later.cancel()
            self._presence_later = None


HANDLERS: dict[str, Handler] = {
    "hello": GameSession._hello,
    "action": GameSession._action,
    "check": GameSession._check,
    "resign": GameSession._resign,
    "hand_to_bot": lambda session, client, data: session.seating.hand_to_bot(client, data),
    "sync": GameSession._sync,
    "chat": GameSession._chat,
    "play_again": GameSession._play_again,
    "host_seat": lambda session, client, data: session.seating.host_seat(client, data),
    "host_rules": lambda session, client, data: session.seating.host_rules(client, data),
    "ping": GameSession._pong,
    "advice": GameSession._advice,
}
"""The handler of each message type of :data:`~.protocol.MESSAGE_FIELDS`, called with
the session (a table per session of its bound methods made every game a reference
cycle, freed only by the garbage collector)."""
if HANDLERS.keys() != protocol.MESSAGE_FIELDS.keys():
    raise AssertionError("every message type needs a handler, and only those")
READS = frozenset({"ping", "sync", "check"})
"""Messages answered from what is stored, without waiting for a pending write."""
