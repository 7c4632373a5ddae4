"""The seats of a game: joining, seat tokens, the host's controls, stand-ins, presence.

Before the start people join free seats (each gets a secret seat token; only its hash is
stored) and the host (seat 0) sets the other seats and the rules. During the game a
person's connections are counted; once someone has been away long enough, the others may
hand the seat to a computer player (a stand-in) until the person says hello again. After
the game the same people can ask for the next one. Every change is stored before it is
made in memory and told to the clients.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from monopoly.bots.base import LEVELS
from monopoly.core.editions import get_edition
from monopoly.core.game import Game
from monopoly.core.records import setup_from_json

from .client import Client
from .limits import shown
from .lobby import ApiError, NewGame, new_secret, parse_rules
from .part import SessionPart
from .protocol import Refusal, again_message
from .storage import SeatData, StorageFailure, hash_secret
from .texts import level_name, text

if TYPE_CHECKING:
    from .session import GameSession


class Seating(SessionPart):
    """Who sits where, who is connected, and what the host and the players may change."""

    def __init__(self, session: GameSession, seats: list[SeatData]) -> None:
        super().__init__(session)
        self.seats = seats
        count = len(seats)
        self.connections = [0] * count
        self.absent_since = [time.monotonic()] * count
        self.next_game: str | None = None
        self.next_secrets: dict[int, str] = {}
        """After "play again": the next game's id and each person's seat token for it
        (kept in memory until they come to fetch it)."""

    # ------------------------------------------------------------------ lobby
    def lobby_json(self, base_url: str) -> dict[str, Any]:
        session = self.session
        taken = {seat.token for seat in self.seats if seat.token}
        tokens = [t.key for t in get_edition(session.edition).tokens]
        return {
            "game_id": session.id,
            "status": session.status,
            "edition": session.edition,
            "language": session.language,
            "rules": {k: v for k, v in session.rules_spec.items() if k != "testing"},
            "test_setup": self.test_setup,
            "fixed_rules": "position" in session.setup,
            "advice": session.advice,
            "created": session.created.isoformat().replace("+00:00", "Z"),
            "seats": [self._seat_json(seat) for seat in range(len(self.seats))],
            "free_tokens": [key for key in tokens if key not in taken],
            "invite_url": f"{base_url}?join={session.id}",
            "watch_url": f"{base_url}?watch={session.id}",
        }

    @property
    def test_setup(self) -> list[str]:
        """What the creator chose that a box game leaves to chance: ``seed`` (the dice)
        and ``position`` (the start). Everyone who joins or watches is told."""
        return list(self.session.rules_spec.get("testing", []))

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

    def broadcast_lobby(self) -> None:
        lobby = {"type": "lobby", "game": self.lobby_json(self.session.hub.public_url)}
        self.session.broadcast(lobby)

    def has_free_seat(self) -> bool:
        return self.session.status == "open" and any(seat.name is None for seat in self.seats)

    async def join(self, name: str, token: str) -> tuple[int, str]:
        """Take the first free person's seat; returns the seat and its secret token."""
        session = self.session
        if session.status != "open":
            raise ApiError(409, "not_open", f"game {session.id} has already started")
        free = [i for i, seat in enumerate(self.seats) if seat.name is None]
        if not free:
            raise ApiError(409, "game_full", f"game {session.id} has no free seat")
        if any(s.name and s.name.casefold() == name.casefold() for s in self.seats):
            raise ApiError(409, "name_taken", f"someone in this game is already called {name!r}")
        if any(s.token == token for s in self.seats):
            raise ApiError(409, "token_taken", f"the token {token!r} is already taken")
        secret = new_secret()
        seat = free[0]
        data = replace(self.seats[seat], name=name, token=token, secret_hash=hash_secret(secret))
        await _write_or_503(session, session.hub.store.save_seat, session.id, seat, data)
        self.seats[seat] = data
        self.broadcast_lobby()
        return seat, secret

    async def start(self, secret: object) -> None:
        """The host starts the game once every seat is taken; the computer players get
        the tokens nobody chose."""
        session = self.session
        if not isinstance(secret, str) or hash_secret(secret) != self.seats[0].secret_hash:
            raise ApiError(403, "not_host", "only the game's creator (seat 0) may start it")
        if session.status != "open":
            raise ApiError(409, "not_open", f"game {session.id} has already started")
        free = [i for i, seat in enumerate(self.seats) if seat.name is None]
        if free:
            raise ApiError(409, "seats_free", f"seats {free} are still free: wait for players")
        seats = self._seats_with_bot_tokens()
        players = [{"name": seat.name, "token": seat.token} for seat in seats]
        setup = {**session.setup, "players": players}
        game = Game(setup_from_json(setup))
        await _write_or_503(session, session.hub.store.save_start, session.id, setup, seats)
        self.seats = seats
        session.setup, session.game, session.status = setup, game, "running"
        with contextlib.suppress(StorageFailure):  # started; its first entries come later
            await session.publish()

    def _seats_with_bot_tokens(self) -> list[SeatData]:
        seats = [replace(seat) for seat in self.seats]
        taken = {seat.token for seat in seats if seat.token}
        free = [t.key for t in get_edition(self.session.edition).tokens if t.key not in taken]
        for seat in seats:
            if seat.kind == "bot" and seat.token is None:
                seat.token = free.pop(0) if free else None
        return seats

    # ------------------------------------------------------------------ the host's controls
    async def host_seat(self, client: Client, data: dict[str, Any]) -> None:
        """Before the start the host (seat 0) sets another seat: ``to`` "bot" (a computer
        player of ``level``) or "person" (a free seat for a friend); a person who had
        joined that seat is removed and told so."""
        session = self.session
        if client.seat != 0:
            raise Refusal("not_host", "only the host (seat 0) may change the seats")
        if session.status != "open":
            raise Refusal("not_open", "the seats are fixed once the game has started")
        seat, to, level = data.get("seat"), data.get("to"), data.get("level")
        if type(seat) is not int or not 1 <= seat < len(self.seats):
            raise Refusal("bad_seat", f"seat must be 1 to {len(self.seats) - 1}, got {seat!r}")
        if to == "bot":
            level = level if level is not None else session.hub.standin_level
            if level not in LEVELS:
                raise Refusal("bad_level", f"unknown level {level!r}; known: {sorted(LEVELS)}")
            language = session.language
            name = text(language, "bot_name", number=seat + 1, level=level_name(language, level))
            new = SeatData(kind="bot", level=level, name=name)
        elif to == "person" and level is None:
            new = SeatData(kind="human")
        else:
            raise Refusal("bad_message", 'to must be "bot" (with a level) or "person"')
        await _write_or_refuse(session, session.hub.store.save_seat, session.id, seat, new)
        self._remove_person(seat)
        self.seats[seat] = new
        self.broadcast_lobby()

    async def host_rules(self, client: Client, data: dict[str, Any]) -> None:
        """Before the start the host (seat 0) may choose other rules (as in the create
        form); a game set up from a position keeps the rules it was checked with."""
        session = self.session
        if client.seat != 0:
            raise Refusal("not_host", "only the host (seat 0) may change the rules")
        if session.status != "open":
            raise Refusal("not_open", "the rules are fixed once the game has started")
        if "position" in session.setup:
            raise Refusal("fixed_rules", "a game set up from a position keeps its rules")
        try:
            spec, rules = parse_rules(data.get("rules"))
        except ApiError as error:
            raise Refusal(error.code, error.message) from None
        setup = {**session.setup, "rules": rules.to_json()}
        await _write_or_refuse(session, session.hub.store.save_rules, session.id, setup, spec)
        session.rules_spec, session.setup = spec, setup
        self.broadcast_lobby()

    def _remove_person(self, seat: int) -> None:
        """Tell the person at ``seat`` (if any) they were removed; they can only watch."""
        if self.seats[seat].secret_hash is None:
            return
        for other in self.session.clients:
            if other.seat == seat:
                other.seat = None
                other.send({"type": "removed", "game_id": self.session.id})
        self.connections[seat] = 0

    # ------------------------------------------------------------------ connections
    def seat_of(self, token: str) -> int:
        """The seat whose secret token this is."""
        digest = hash_secret(token)
        for seat, data in enumerate(self.seats):
            if data.secret_hash is not None and secrets.compare_digest(data.secret_hash, digest):
                return seat
        raise Refusal("bad_token", "this token belongs to no seat of this game")

    async def arrive(self, seat: int) -> None:
        """A person connected to their seat; one a stand-in held takes it back."""
        self.connections[seat] += 1
        if not self.seats[seat].standin:
            return
        session = self.session
        data = replace(self.seats[seat], standin=False)
        try:
            await session.hub.write(session.hub.store.save_seat, session.id, seat, data)
        except StorageFailure:  # the stand-in plays on; the next hello tries again
            return
        self.seats[seat] = data
        session.computer.forget(seat)

    def depart(self, seat: int) -> None:
        """A connection of ``seat`` closed; with the last one the seat's absence starts."""
        self.connections[seat] -= 1
        if not self.connections[seat]:
            self.absent_since[seat] = time.monotonic()

    def presence_message(self) -> dict[str, Any]:
        """Who is connected, who has been away how long, and who may be handed over."""
        moment = time.monotonic()
        timeout = self.session.hub.config.absence_timeout
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
        clients = self.session.clients
        watchers = sum(1 for client in clients if client.greeted and client.seat is None)
        return {"type": "presence", "seats": seats, "watchers": watchers}

    def _can_hand_over(self, seat: int, absent: float, timeout: float) -> bool:
        data = self.seats[seat]
        game = self.session.game
        return (
            self.session.status == "running"
            and data.kind == "human"
            and not data.standin
            and not self.connections[seat]
            and absent >= timeout
            and game is not None
            and game.active[seat]
        )

    async def hand_to_bot(self, client: Client, data: dict[str, Any]) -> None:
        """A player hands the seat of a person who has been away long enough to a
        computer player (a stand-in until that person says hello again)."""
        session = self.session
        game = session.running_game()
        if client.seat is None:
            raise Refusal("spectator", "only players can hand a seat to a computer player")
        seat = self._absent_person(game, data.get("seat"))
        handed = replace(self.seats[seat], standin=True)
        try:
            await session.hub.write(session.hub.store.save_seat, session.id, seat, handed)
        except StorageFailure:
            raise Refusal(
                "storage_unavailable", "the hand-over could not be saved: try again soon"
            ) from None
        self.seats[seat] = handed
        session.broadcast(self.presence_message())
        session.computer.kick()

    def _absent_person(self, game: Game, seat: object) -> int:
        """``seat`` if it is a person's, still in the game and away long enough."""
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
        timeout = self.session.hub.config.absence_timeout
        if self.connections[seat] or absent < timeout:
            raise Refusal(
                "not_absent",
                f"seat {seat} may be handed over after {timeout:g} s without a connection",
            )
        return seat

    # ------------------------------------------------------------------ the next game
    async def play_again(self, client: Client) -> None:
        """A finished game's seated player asks for the next game with the same people,
        edition and rules: it is created with every seat taken as before (a new seed), and
        each person gets their own new seat token; the host (seat 0) starts it."""
        session = self.session
        if client.seat is None:
            raise Refusal("spectator", "watchers cannot start the next game")
        if session.game is None or not session.game.over:
            raise Refusal("not_over", "the game is not over yet")
        if self.next_game is None:
            await self._create_next_game()
        for other in session.clients:
            other.send(self.again_message(other.seat))

    async def _create_next_game(self) -> None:
        """Create the next game and seat this game's people in it, each with a new token."""
        session = self.session
        try:
            following, secret = await session.hub.create(self._next_game_request())
        except ApiError as error:
            raise Refusal(error.code, error.message) from None
        self.next_secrets = {0: secret}
        for seat, data in enumerate(self.seats):
            if seat == 0 or data.kind != "human":
                continue
            self.next_secrets[seat] = new_secret()
            target = following.seats[seat]
            target.name, target.token = data.name, data.token
            target.secret_hash = hash_secret(self.next_secrets[seat])
            store = session.hub.store
            await _write_or_refuse(session, store.save_seat, following.id, seat, target)
        self.next_game = following.id

    def _next_game_request(self) -> NewGame:
        """The same edition, rules and seats; the next game starts from the box (a
        chosen seed or position is not carried on)."""
        session = self.session
        spec = {k: v for k, v in session.rules_spec.items() if k != "testing"}
        try:
            _, rules = parse_rules(spec)
        except ApiError as error:
            raise Refusal(error.code, error.message) from None
        seats = tuple(
            {"type": "bot", "level": data.level} if data.kind == "bot" else {"type": "human"}
            for data in self.seats
        )
        host = self.seats[0]
        return NewGame(
            session.edition,
            session.language,
            spec,
            rules,
            seats,
            host.name or "",
            host.token or "",
            secrets.randbits(48),
            advice=session.advice,
        )

    def again_message(self, seat: int | None) -> dict[str, Any]:
        return again_message(self.next_game, self.next_secrets, seat)


async def _write_or_503(session: GameSession, call: Callable[..., Any], *args: Any) -> None:
    """A write for a lobby request over HTTP: a failure answers 503 (nothing changed)."""
    try:
        await session.hub.write(call, *args)
    except StorageFailure:
        raise ApiError(
            503, "storage_unavailable", "the database cannot be written: try again soon"
        ) from None


async def _write_or_refuse(session: GameSession, call: Callable[..., Any], *args: Any) -> None:
    """A write for a lobby change: stored first; a failure refuses the change."""
    try:
        await session.hub.write(call, *args)
    except StorageFailure:
        raise Refusal(
            "storage_unavailable", "the database cannot be written: try again soon"
        ) from None
