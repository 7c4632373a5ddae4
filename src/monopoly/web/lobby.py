"""Checking lobby requests (create a game, join it) before anything is stored.

Every problem raises :class:`ApiError` with an HTTP status, a stable code for the client
and a message that says what was wrong.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from monopoly.core.editions import EditionError, get_edition
from monopoly.core.errors import MonopolyError, SetupError
from monopoly.core.game import Game
from monopoly.core.records import setup_from_json
from monopoly.core.rules import RuleSet

from .limits import shown
from .texts import LANGUAGES
from .views import LOBBY_OPTIONS, MAX_SEATS, MIN_SEATS, PRESETS

NAME_LENGTH = 24


class ApiError(Exception):
    """A refused request: ``status`` (HTTP), ``code`` (stable) and a clear message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        message = message if len(message) <= 300 else message[:299] + "…"
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


@dataclass(frozen=True)
class NewGame:
    """A checked request to create a game."""

    edition: str
    language: str
    rules_spec: dict[str, Any]
    rules: RuleSet
    seats: tuple[dict[str, Any], ...]
    """``{"type": "human"}`` or ``{"type": "bot", "level": ...}`` per seat."""
    name: str
    token: str
    seed: int
    position: dict[str, Any] | None = None
    """A start position (docs/records.md), for tests and set-up scenarios; None: the box."""
    test_setup: tuple[str, ...] = ()
    """What the creator chose that is left to chance otherwise: ``seed``, ``position``."""
    advice: bool = False
    """"Advice on": win chances and trade advice for everyone at the table."""


def new_game_id() -> str:
    return secrets.token_urlsafe(8)


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def parse_new_game(body: object, levels: list[str], testing: bool = False) -> NewGame:
    """A checked request; ``seed`` and ``position`` only if the server is ``testing``
    (else a creator could choose the dice or a rigged start)."""
    data = _object(body)
    chosen = tuple(key for key in ("seed", "position") if key in data)
    if chosen and not testing:
        raise ApiError(
            422,
            "testing_only",
            f"{' and '.join(chosen)} may be chosen only on a server started with --testing",
        )
    edition = check_edition(data.get("edition", "classic"))
    language = check_language(data.get("language", "en"))
    rules_spec, rules = parse_rules(data.get("rules", "standard"))
    seats = parse_seats(data.get("seats"), levels)
    name = check_name(data.get("name"))
    token = check_token(edition, data.get("token"))
    seed = data.get("seed", secrets.randbits(48))
    if type(seed) is not int or seed < 0:
        raise ApiError(422, "bad_request", f"seed must be a whole number >= 0, got {shown(seed)}")
    position = parse_position(data.get("position"), edition, rules, len(seats))
    advice = data.get("advice", False)
    if type(advice) is not bool:
        raise ApiError(422, "bad_request", f"advice must be true or false, got {shown(advice)}")
    return NewGame(
        edition, language, rules_spec, rules, seats, name, token, seed, position, chosen, advice
    )


def parse_position(
    value: object, edition: str, rules: RuleSet, seats: int
) -> dict[str, Any] | None:
    """An optional start position, checked by setting up a game with it."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ApiError(422, "bad_position", "position must be an object (see docs/records.md)")
    setup = {
        "edition": edition,
        "rules": rules.to_json(),
        "players": [f"Seat {seat}" for seat in range(seats)],
        "position": value,
    }
    try:
        Game(setup_from_json(setup))
    except MonopolyError as error:
        raise ApiError(422, "bad_position", str(error)) from None
    return value


def _object(body: object) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise ApiError(422, "bad_request", "the request body must be a JSON object")
    return body


def check_edition(value: object) -> str:
    if not isinstance(value, str):
        raise ApiError(422, "unknown_edition", f"edition must be a string, got {shown(value)}")
    try:
        return get_edition(value).key
    except (EditionError, KeyError, ValueError) as error:
        raise ApiError(422, "unknown_edition", str(error)) from None


def check_language(value: object) -> str:
    if value not in LANGUAGES:
        raise ApiError(422, "bad_language", f"language must be en or de, got {shown(value)}")
    assert isinstance(value, str)
    return value


def parse_rules(value: object) -> tuple[dict[str, Any], RuleSet]:
    """``"short+speed"`` or ``{"preset": "short", "options": {...}}``."""
    if isinstance(value, str):
        value = {"preset": value}
    if not isinstance(value, dict):
        raise ApiError(422, "bad_rules", "rules must be a preset name or an object")
    unknown = set(value) - {"preset", "options"}
    if unknown:
        raise ApiError(422, "bad_rules", f"rules has unknown fields {sorted(unknown)}")
    preset = value.get("preset", "standard")
    options = value.get("options", {})
    if preset not in PRESETS:
        raise ApiError(422, "bad_rules", f"preset must be one of {', '.join(PRESETS)}")
    if not isinstance(options, dict):
        raise ApiError(422, "bad_rules", "rules.options must be an object")
    for key in options:
        if key not in LOBBY_OPTIONS:
            raise ApiError(
                422,
                "bad_rules",
                f"unknown rule option {shown(key)}; known: {', '.join(LOBBY_OPTIONS)}",
            )
    try:
        rules = RuleSet.named(preset, **options)
    except SetupError as error:
        raise ApiError(422, "bad_rules", str(error)) from None
    return {"preset": preset, "options": dict(options)}, rules


def parse_seats(value: object, levels: list[str]) -> tuple[dict[str, Any], ...]:
    if not isinstance(value, list) or not MIN_SEATS <= len(value) <= MAX_SEATS:
        raise ApiError(
            422,
            "bad_seats",
            f"seats must list {MIN_SEATS} to {MAX_SEATS} seats, got {shown(value)}",
        )
    seats = []
    for index, seat in enumerate(value):
        kind = seat.get("type") if isinstance(seat, dict) else None
        if kind == "human":
            seats.append({"type": "human"})
        elif kind == "bot":
            level = seat.get("level")
            if level not in levels:
                raise ApiError(
                    422,
                    "unknown_level",
                    f"seats[{index}].level must be one of {', '.join(levels)}, got {shown(level)}",
                )
            seats.append({"type": "bot", "level": level})
        else:
            raise ApiError(
                422, "bad_seats", f'seats[{index}] must be {{"type": "human"}} or a "bot"'
            )
    if seats[0]["type"] != "human":
        raise ApiError(422, "bad_seats", "seats[0] is the creator's seat: it must be human")
    return tuple(seats)


def check_name(value: object) -> str:
    if not isinstance(value, str):
        raise ApiError(422, "bad_name", f"name must be a string, got {shown(value)}")
    name = " ".join(value.split())
    if not 1 <= len(name) <= NAME_LENGTH or not name.isprintable():
        raise ApiError(
            422,
            "bad_name",
            f"a name has 1 to {NAME_LENGTH} printable characters, got {shown(value)}",
        )
    return name


def check_token(edition: str, value: object) -> str:
    keys = [t.key for t in get_edition(edition).tokens]
    if value not in keys:
        raise ApiError(
            422, "unknown_token", f"token must be one of {', '.join(keys)}, got {shown(value)}"
        )
    assert isinstance(value, str)
    return value


def parse_join(body: object, edition: str) -> tuple[str, str]:
    data = _object(body)
    return check_name(data.get("name")), check_token(edition, data.get("token"))
