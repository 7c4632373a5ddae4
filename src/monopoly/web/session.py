"""Live games: one :class:`GameSession` per game, all held by the :class:`Hub`.

A session owns its game, the seats, the connected clients and the computer players. One
asyncio lock per game serialises everything that reads or changes it (actions, joins,
the start, hand-overs), so many games run at once without sharing anything. After every
change the new record entries are stored and every client gets its own view.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from monopoly.bots import levels as _levels  # noqa: F401  (registers the levels)
from monopoly.bots.base import LEVELS, Bot, make_bot
from monopoly.core.actions import Action, DeclareBankruptcy, action_from_json
from monopoly.core.editions import get_edition
from monopoly.core.errors import IllegalActionError, MalformedActionError, MonopolyError
from monopoly.core.game import Game
from monopoly.core.narrate import Narrator
from monopoly.core.records import entry_to_json, replay, setup_from_json
from monopoly.core.view import PlayerView

from . import views
from .lobby import ApiError, NewGame, new_game_id, new_secret
from .storage import SeatData, Store, StoredGame, hash_secret, now
from .texts import level_name, text

log = logging.getLogger("monopoly.web")

LEVEL_ORDER = ("easy", "normal", "hard", "expert", "random")
STANDIN_PREFERENCE = ("normal", "hard", "easy", "random")
BOT_BATCH = 200
"""Without a bot delay, computer players make up to this many moves between two states."""


@dataclass
class ServerConfig:
    bot_delay: float = 0.8
    """Seconds before each computer player's move (0: as fast as possible)."""
    absence_timeout: float = 60.0
    """Seconds without a connection before others may hand a seat to a computer player."""
    standin_level: str | None = None
    """The level of stand-ins; None: ``normal`` if registered, else the first available."""


def registered_levels() -> list[str]:
    """The computer-player levels, in a stable order: easy, normal, hard, expert, random,
    others."""
    known = [level for level in LEVEL_ORDER if level in LEVELS]
    return known + sorted(set(LEVELS) - set(known))


class Refusal(Exception):
    """A refused WebSocket message: the error goes to its sender only. ``reason`` is the
    engine's stable reason key when the rules refused an action."""

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason


class Client:
    """One WebSocket connection; messages go out through a queue in send order."""

    def __init__(self, send_text: Callable[[str], Awaitable[None]]) -> None:
        self._send_text = send_text
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.seat: int | None = None
        self.greeted = False

    def send(self, message: dict[str, Any]) -> None:
        self.queue.put_nowait(json.dumps(message, ensure_ascii=False))

    def close(self) -> None:
        self.queue.put_nowait(None)

    async def pump(self) -> None:
        while (message := await self.queue.get()) is not None:
            await self._send_text(message)


MESSAGE_FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"token"}),
    "action": frozenset({"state_id", "action"}),
    "check": frozenset({"action"}),
    "hand_to_bot": frozenset({"seat"}),
    "sync": frozenset(),
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
            "rules": self.rules_spec,
            "created": self.created.isoformat().replace("+00:00", "Z"),
            "seats": [self._seat_json(seat) for seat in range(len(self.seats))],
            "free_tokens": [key for key in tokens if key not in taken],
            "invite_url": f"{base_url}?join={self.id}",
            "watch_url": f"{base_url}?watch={self.id}",
        }

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

    def join(self, name: str, token: str) -> tuple[int, str]:
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
        data = self.seats[seat]
        data.name, data.token, data.secret_hash = name, token, hash_secret(secret)
        self.hub.store.save_seat(self.id, seat, data)
        self._broadcast_lobby()
        return seat, secret

    def start(self, secret: object) -> None:
        if not isinstance(secret, str) or hash_secret(secret) != self.seats[0].secret_hash:
            raise ApiError(403, "not_host", "only the game's creator (seat 0) may start it")
        if self.status != "open":
            raise ApiError(409, "not_open", f"game {self.id} has already started")
        free = [i for i, seat in enumerate(self.seats) if seat.name is None]
        if free:
            raise ApiError(409, "seats_free", f"seats {free} are still free: wait for players")
        self._give_bots_tokens()
        players = [{"name": seat.name, "token": seat.token} for seat in self.seats]
        self.setup = {**self.setup, "players": players}
        self.game = Game(setup_from_json(self.setup))
        self.status = "running"
        self.hub.store.save_start(self.id, self.setup, self.seats)
        self.publish()

    def _give_bots_tokens(self) -> None:
        taken = {seat.token for seat in self.seats if seat.token}
        free = [t.key for t in get_edition(self.edition).tokens if t.key not in taken]
        for seat in self.seats:
            if seat.kind == "bot" and seat.token is None:
                seat.token = free.pop(0) if free else None

    # ------------------------------------------------------------------ publishing
    def publish(self) -> None:
        """Store the new record entries, send every client its state, wake the bots."""
        game = self.game
        assert game is not None
        self._save()
        events = game.events[self.sent_events :]
        self.sent_events = len(game.events)
        if self.clients:
            narrator = Narrator(game)
            events_json = [views.event_json(narrator, event) for event in events]
            for client in self.clients:
                client.send(self.state_message(client.seat, events_json, full=False))
        if game.over and not self.announced_over:
            self.announced_over = True
            message = self.game_over_message()
            for client in self.clients:
                client.send(message)
        self._kick_bots()

    def _save(self) -> None:
        game = self.game
        assert game is not None
        new = game.record[self.saved :]
        if not new and self.status == ("over" if game.over else "running"):
            return
        self.actions += sum(1 for entry in new if entry[0] == "action")
        self.status = "over" if game.over else "running"
        result = {"winners": list(game.winners), "reason": game.end_reason} if game.over else None
        entries = [entry_to_json(entry) for entry in new]
        self.hub.store.append_log(self.id, self.saved, entries, self.status, result)
        self.saved += len(new)

    def state_message(
        self, seat: int | None, events: list[dict[str, Any]], full: bool
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
        narrator = Narrator(game)
        return {
            "type": "state",
            "state_id": self.state_id,
            "full": full,
            "seat": seat,
            "game": table,
            "decision": views.decision_json(game),
            **views.seat_answers(game, seat),
            "events": [] if full else events,
            "log": [narrator.describe(event) for event in game.events] if full else None,
        }

    def game_over_message(self) -> dict[str, Any]:
        game = self.game
        assert game is not None
        turns = [0] * game.players
        last_event = None
        for event in game.events:
            if type(event).__name__ == "TurnStarted":
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
        return {"type": "presence", "seats": seats}

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
            client.send({"type": "lobby", "game": self.lobby_json(self.hub.base_url)})

    def _send_full(self, client: Client) -> None:
        if self.game is None:
            client.send({"type": "lobby", "game": self.lobby_json(self.hub.base_url)})
            return
        client.send(self.state_message(client.seat, [], full=True))
        if self.game.over:
            client.send(self.game_over_message())

    # ------------------------------------------------------------------ messages
    async def handle(self, client: Client, raw: str | bytes | None) -> None:
        """Answer one message of ``client``; a refusal goes to the sender alone."""
        request: str | None = None
        try:
            data = _parse_message(raw)
            request = data["type"]
            if request != "hello" and not client.greeted:
                raise Refusal("hello_first", "say hello first (with your seat token, or none)")
            async with self.lock:
                self._dispatch(client, request, data)
        except Refusal as refusal:
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

    def _dispatch(self, client: Client, request: str, data: dict[str, Any]) -> None:
        if request == "hello":
            self._hello(client, data)
        elif request == "action":
            self._action(client, data)
        elif request == "check":
            self._check(client, data)
        elif request == "hand_to_bot":
            self._hand_to_bot(client, data)
        elif request == "sync":
            self._send_full(client)
        else:
            client.send({"type": "pong"})

    def _hello(self, client: Client, data: dict[str, Any]) -> None:
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
            }
        )
        if seat is not None:
            self.connections[seat] += 1
            self._take_back(seat)
        self._send_full(client)
        if seat is not None:
            self._broadcast(self.presence_message())

    def _seat_of(self, token: str) -> int:
        digest = hash_secret(token)
        for seat, data in enumerate(self.seats):
            if data.secret_hash is not None and secrets.compare_digest(data.secret_hash, digest):
                return seat
        raise Refusal("bad_token", "this token belongs to no seat of this game")

    def _take_back(self, seat: int) -> None:
        data = self.seats[seat]
        if data.standin:
            data.standin = False
            self.bots.pop(seat, None)
            self.hub.store.save_seat(self.id, seat, data)

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
            raise Refusal("bad_action", f"action must be a JSON object, got {value!r}")
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

    def _action(self, client: Client, data: dict[str, Any]) -> None:
        game = self._running_game()
        if client.seat is None:
            raise Refusal("spectator", "spectators cannot act: join the game to play")
        state_id = data.get("state_id")
        if type(state_id) is not int:
            raise Refusal(
                "bad_message", f"action.state_id must be a whole number, got {state_id!r}"
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
        self.publish()

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

    def _hand_to_bot(self, client: Client, data: dict[str, Any]) -> None:
        game = self._running_game()
        if client.seat is None:
            raise Refusal("spectator", "only players can hand a seat to a computer player")
        seat = data.get("seat")
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            raise Refusal("bad_seat", f"there is no seat {seat!r}")
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
        target.standin = True
        self.hub.store.save_seat(self.id, seat, target)
        self._broadcast(self.presence_message())
        self._kick_bots()

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

    def _kick_bots(self) -> None:
        if self.bot_task is None and self._bot_seat() is not None:
            self.bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        delay = self.hub.config.bot_delay
        batch = 1 if delay > 0 else BOT_BATCH
        try:
            while True:
                await asyncio.sleep(delay)
                async with self.lock:
                    moves = 0
                    while moves < batch and (seat := self._bot_seat()) is not None:
                        self._bot_move(seat)
                        moves += 1
                    if self._bot_seat() is None:
                        self.bot_task = None
                    if moves:
                        self.publish()
                    if self.bot_task is None:
                        return
        except Exception:
            log.exception("computer players of game %s stopped", self.id)
            self.bot_task = None

    def _bot_move(self, seat: int) -> None:
        game = self.game
        assert game is not None
        legal = game.decision_actions()
        try:
            action = self._bot(seat).decide(PlayerView(game, seat), legal)
            game.apply(action)
        except Exception:  # a bot's bug must not stop the game
            log.exception("game %s: the computer player of seat %d erred", self.id, seat)
            game.apply(_fallback(game, seat, legal))

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


def _fallback(game: Game, seat: int, legal: list[Action]) -> Action:
    """A legal move when a computer player fails: the first answer, else raise cash."""
    if legal:
        return legal[0]
    free = game.free_actions(seat)
    return free[0] if free else DeclareBankruptcy(seat)


def _parse_message(raw: str | bytes | None) -> dict[str, Any]:
    if not isinstance(raw, str):
        raise Refusal("bad_json", "messages are JSON text frames")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise Refusal("bad_json", f"not valid JSON: {error}") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise Refusal("bad_message", 'a message is a JSON object with a "type"')
    kind = data["type"]
    allowed = MESSAGE_FIELDS.get(kind)
    if allowed is None:
        raise Refusal(
            "unknown_type", f"unknown message type {kind!r}; known: {', '.join(MESSAGE_FIELDS)}"
        )
    unknown = set(data) - allowed - {"type"}
    if unknown:
        raise Refusal("bad_message", f"{kind} has unknown fields {sorted(unknown)}")
    return data


class Hub:
    """All games of the server, loaded from the store on demand."""

    def __init__(self, store: Store, config: ServerConfig) -> None:
        self.store = store
        self.config = config
        self.sessions: dict[str, GameSession] = {}
        self.levels = registered_levels()
        self.standin_level = self._standin_level(config.standin_level)
        self.base_url = "http://127.0.0.1:8000/"
        """The last address a request came to (for links sent over the WebSocket)."""

    def _standin_level(self, wanted: str | None) -> str:
        if wanted is not None:
            make_bot(wanted)  # fail early on an unknown level
            return wanted
        return next(level for level in (*STANDIN_PREFERENCE, *self.levels) if level in LEVELS)

    def get(self, game_id: str) -> GameSession:
        session = self.sessions.get(game_id)
        if session is None:
            stored = self.store.load(game_id)
            if stored is None:
                raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
            session = GameSession(self, stored, _rebuild(stored))
            self.sessions[game_id] = session
        return session

    def create(self, request: NewGame) -> tuple[GameSession, str]:
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
        stored = StoredGame(new_game_id(), "open", setup, request.rules_spec, now(), seats)
        self.store.create_game(stored)
        session = GameSession(self, stored, None)
        self.sessions[stored.id] = session
        return session, secret

    def open_games(self) -> list[GameSession]:
        sessions = [self.get(game_id) for game_id in self.store.game_ids("open")]
        return [session for session in sessions if session.has_free_seat()]

    async def restore(self) -> None:
        """Load every running game and let its computer players go on."""
        for game_id in self.store.game_ids("running"):
            try:
                session = self.get(game_id)
            except MonopolyError:
                log.exception("game %s cannot be restored", game_id)
                continue
            async with session.lock:
                session._kick_bots()

    def stop(self) -> None:
        for session in self.sessions.values():
            session.stop()


def _rebuild(stored: StoredGame) -> Game | None:
    """Replay a stored game; the dice go on from a fresh seed (the record keeps them)."""
    if stored.status == "open":
        return None
    game = replay(stored.record(), check_result=False)
    game.chance.rng.seed(secrets.randbits(64))
    return game
