"""The WebSocket protocol of a game: what clients may send, and what the server sends.

Every client message is a JSON object with a ``type`` from :data:`MESSAGE_FIELDS` and only
the fields listed there; anything else is refused with a :class:`Refusal` naming the
problem (it goes to the sender alone). The builders below make the server's messages, so
each message's shape is written once. A new message type: its fields here, its handler in
the session's table (``session.HANDLERS``) and a test in ``tests/web``.
"""

from __future__ import annotations

from typing import Any

from monopoly.core.actions import Action, action_from_json
from monopoly.core.errors import MalformedActionError
from monopoly.core.events import TurnStarted
from monopoly.core.game import Game
from monopoly.core.narrate import Narrator

from . import views
from .limits import BadJson, read_json, shown

MESSAGE_FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"token", "deltas"}),
    "action": frozenset({"state_id", "action"}),
    "check": frozenset({"action"}),
    "resign": frozenset(),
    "hand_to_bot": frozenset({"seat"}),
    "sync": frozenset({"log_from"}),
    "chat": frozenset({"text"}),
    "play_again": frozenset(),
    "host_seat": frozenset({"seat", "to", "level"}),
    "host_rules": frozenset({"rules"}),
    "ping": frozenset(),
    "advice": frozenset({"offer"}),
}
"""Each message type a client may send, with the fields it may carry (besides ``type``)."""


class Refusal(Exception):
    """A refused WebSocket message: the error goes to its sender only. ``reason`` is the
    engine's stable reason key when the rules refused an action."""

    def __init__(self, code: str, message: str, reason: str | None = None) -> None:
        message = message if len(message) <= 300 else message[:299] + "…"
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason


# --------------------------------------------------------------------------- reading


def parse_message(raw: str | bytes | None) -> dict[str, Any]:
    """A client's frame as a message of a known type with known fields."""
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


def hello_token(data: dict[str, Any]) -> str | None:
    """The seat token of a hello (None: the client watches)."""
    token = data.get("token")
    if token is not None and not isinstance(token, str):
        raise Refusal("bad_message", "hello.token must be a string or null")
    return token


def hello_deltas(data: dict[str, Any]) -> bool:
    """Whether a hello asks for ``delta`` messages instead of whole states."""
    value = data.get("deltas", False)
    if type(value) is not bool:
        raise Refusal("bad_message", f"hello.deltas must be true or false, got {shown(value)}")
    return value


def log_from(data: dict[str, Any]) -> int | None:
    """Where a sync's log should start (None: the last lines)."""
    value = data.get("log_from")
    if value is not None and (type(value) is not int or value < 0):
        raise Refusal(
            "bad_message", f"sync.log_from must be a whole number >= 0, got {shown(value)}"
        )
    return value


def action_state_id(data: dict[str, Any], current: int | None) -> None:
    """An action names the state it answers; an answer to an older state is refused."""
    state_id = data.get("state_id")
    if type(state_id) is not int:
        raise Refusal(
            "bad_message", f"action.state_id must be a whole number, got {shown(state_id)}"
        )
    if state_id != current:
        raise Refusal("stale_state", f"the game moved on: state {current}, not {state_id}")


def own_action(seat: int | None, value: object) -> Action:
    """The action a seated client sent, for its own seat (the seat may be left out)."""
    if seat is None:
        raise Refusal("spectator", "spectators cannot act: join the game to play")
    if not isinstance(value, dict):
        raise Refusal("bad_action", f"action must be a JSON object, got {shown(value)}")
    value = {"seat": seat, **value}
    try:
        action = action_from_json(value)
    except MalformedActionError as error:
        raise Refusal("bad_action", str(error)) from None
    if action.seat != seat:
        raise Refusal("not_your_seat", f"you play seat {seat}, not seat {action.seat}")
    return action


# --------------------------------------------------------------------------- writing


def hello_first() -> Refusal:
    """The refusal of any message a connection sends before its hello."""
    return Refusal("hello_first", "say hello first (with your seat token, or none)")


def error_message(refusal: Refusal, state_id: int | None, request: str | None) -> dict[str, Any]:
    """The answer to a refused message (to its sender alone)."""
    return {
        "type": "error",
        "code": refusal.code,
        "message": refusal.message,
        "state_id": state_id,
        "request": request,
        **({"reason": refusal.reason} if refusal.reason else {}),
    }


def storage_error_message(state_id: int | None) -> dict[str, Any]:
    """Told to everyone when the computer players' moves cannot be stored (yet)."""
    return {
        "type": "error",
        "code": "storage_unavailable",
        "message": "the game cannot be saved right now; it goes on when it can be",
        "state_id": state_id,
        "request": None,
    }


def check_result_message(game: Game, action: Action) -> dict[str, Any]:
    """Whether ``action`` would be legal now, and why not (nothing changes)."""
    problem = game.problem(action)
    return {
        "type": "check_result",
        "action": action.to_json(),
        "legal": not problem,
        "problem": Narrator(game).reason(problem),
        "reason": getattr(problem, "key", None),
    }


def game_over_message(game: Game) -> dict[str, Any]:
    """The end of a game: winners, ranking, each player's worth over time."""
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


def again_message(
    next_game: str | None, secrets: dict[int, str], seat: int | None
) -> dict[str, Any]:
    """The next game with the same people; a seated person gets their own seat token."""
    message: dict[str, Any] = {"type": "play_again", "game_id": next_game}
    if seat is not None and seat in secrets:
        message["seat_token"] = secrets[seat]
    return message


def welcome_message(
    game_id: str, seat: int | None, name: str | None, status: str, test_setup: list[str]
) -> dict[str, Any]:
    """The answer to a hello: the seat the token belongs to (None: a spectator)."""
    return {
        "type": "welcome",
        "game_id": game_id,
        "seat": seat,
        "name": name,
        "spectator": seat is None,
        "status": status,
        "test_setup": test_setup,
    }
