"""Game records: the setup plus every action and chance outcome, as JSON.

``record_of(game)`` writes one, ``replay(data)`` plays one back (checking every action)
and ``game_state(game)`` describes the position reached. The format is documented with
examples in ``docs/records.md``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .actions import Action, action_from_json
from .board import DECK_ROLES
from .chance import SPEED_FACES_FROM_JSON, SPEED_FACES_JSON, Entry
from .editions import EditionError
from .errors import MalformedActionError, MonopolyError, RecordError
from .game import Game, PlayerSetup, Setup
from .position import dump_position
from .rules import RuleSet

FORMAT = "monopoly-record"
VERSION = 1
SETUP_KEYS = {"edition", "language", "rules", "players", "seed", "position", "advice"}


def record_of(game: Game) -> dict[str, Any]:
    """The game's record as a JSON-ready dict."""
    setup = game.setup
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "setup": {
            "edition": game.edition.key,
            "language": setup.language,
            "rules": setup.rules.to_json(),
            "players": [{"name": p.name, "token": p.token} for p in setup.players],
            "seed": setup.seed,
        },
        "log": [entry_to_json(entry) for entry in game.record],
    }
    if setup.position is not None:
        data["setup"]["position"] = setup.position
    if setup.advice:
        data["setup"]["advice"] = True
    if game.over:
        data["result"] = {"winners": list(game.winners), "reason": game.end_reason}
    return data


def entry_to_json(entry: Entry) -> dict[str, Any]:
    kind = entry[0]
    if kind == "dice":
        dice = entry[1]
        return {"dice": [*dice[:2], *(SPEED_FACES_JSON[d] for d in dice[2:])]}
    if kind == "shuffle":
        return {"shuffle": entry[1], "order": list(entry[2])}
    if kind == "deal":
        return {"deal": list(entry[1])}
    action: Action = entry[1]
    return action.to_json()


def entry_from_json(data: object, number: int) -> Entry:
    where = f"log entry {number}"
    if not isinstance(data, dict):
        raise RecordError(f"{where}: must be an object, got {data!r}")
    if "act" in data:
        try:
            return ("action", action_from_json(data))
        except MalformedActionError as error:
            raise RecordError(f"{where}: {error}") from None
    if "dice" in data:
        return ("dice", _dice(data["dice"], where))
    if "shuffle" in data:
        role, order = data["shuffle"], data.get("order")
        if role not in DECK_ROLES or not isinstance(order, list):
            raise RecordError(f"{where}: a shuffle names a deck role {DECK_ROLES} and an order")
        return ("shuffle", role, tuple(order))
    if "deal" in data:
        deal = data["deal"]
        if not isinstance(deal, list) or not all(type(s) is int for s in deal):
            raise RecordError(f"{where}: a deal lists space indexes")
        return ("deal", tuple(deal))
    raise RecordError(f"{where}: not an action (act), dice, shuffle or deal: {data!r}")


def _dice(value: object, where: str) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) not in (2, 3):
        raise RecordError(f"{where}: dice are a list of 2 white dice and maybe the Speed Die")
    white = value[:2]
    if not all(type(d) is int and 1 <= d <= 6 for d in white):
        raise RecordError(f"{where}: white dice show 1 to 6, got {white}")
    speed = [SPEED_FACES_FROM_JSON.get(d) for d in value[2:]]
    if None in speed:
        raise RecordError(f'{where}: the Speed Die shows 1, 2, 3, "bus" or "mr_monopoly"')
    return (white[0], white[1], *[s for s in speed if s is not None])


def setup_from_json(data: object) -> Setup:
    if not isinstance(data, dict):
        raise RecordError("setup: must be an object")
    for key in data:
        if key not in SETUP_KEYS:
            raise RecordError(f"setup: unknown key {key!r}; known: {', '.join(sorted(SETUP_KEYS))}")
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise RecordError("setup.players: must list the players")
    seats = []
    for i, player in enumerate(players):
        if isinstance(player, str):
            player = {"name": player}
        if not isinstance(player, dict) or not isinstance(player.get("name"), str):
            raise RecordError(f"setup.players[{i}]: needs a name")
        seats.append(PlayerSetup(player["name"], str(player.get("token", ""))))
    rules = data.get("rules", {})
    try:
        rule_set = RuleSet.named(rules) if isinstance(rules, str) else RuleSet.from_options(rules)
    except (MonopolyError, TypeError, AttributeError) as error:
        raise RecordError(f"setup.rules: {error}") from None
    seed = data.get("seed", 0)
    if type(seed) is not int:
        raise RecordError("setup.seed: must be a whole number")
    position = data.get("position")
    advice = data.get("advice", False)
    if type(advice) is not bool:
        raise RecordError("setup.advice: must be true or false")
    return Setup(
        tuple(seats),
        str(data.get("edition", "classic")),
        str(data.get("language", "en")),
        rule_set,
        seed,
        position,
        advice,
    )


def replay(data: object, *, check_result: bool = True) -> Game:
    """Build the game a record describes, applying (and checking) every action."""
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise RecordError(f"not a MONOPOLY record (format {data.get('format')!r})")
    if data.get("version", VERSION) != VERSION:
        raise RecordError(f"record version {data.get('version')!r} is not supported")
    setup = setup_from_json(data.get("setup"))
    log = data.get("log", [])
    if not isinstance(log, list):
        raise RecordError("log: must be a list")
    script = [entry_from_json(entry, i + 1) for i, entry in enumerate(log)]
    try:
        game = Game(setup, script)
        game.replay_script()
    except EditionError as error:
        raise RecordError(f"setup.edition: {error}") from None
    except RecordError:
        raise
    except MonopolyError as error:
        raise RecordError(str(error)) from None
    result = data.get("result")
    expected = result.get("winners") if check_result and isinstance(result, dict) else None
    if expected is not None and list(game.winners) != expected:
        raise RecordError(
            f"result: the record says {expected} won, the replay gives {list(game.winners)}"
        )
    return game


def load_record(path: Path) -> Game:
    """Read and replay a record file; errors name the file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise RecordError(f"{path}: cannot read: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise RecordError(f"{path}: not valid JSON: {error}") from None
    try:
        return replay(data)
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None


def game_state(game: Game) -> dict[str, Any]:
    """The position and what the game waits for, as JSON (``monopoly replay --json``)."""
    decision = game.decision
    state = dump_position(game)
    for seat, player in enumerate(state["players"]):
        player["name"] = game.names[seat]
        player["token"] = game.setup.players[seat].token
    state["edition"] = game.edition.key
    state["language"] = game.language
    state["rules"] = game.rules.to_json()
    state["turn_number"] = game.turn
    state["over"] = game.over
    state["winners"] = list(game.winners)
    state["end_reason"] = game.end_reason
    state["pending"] = (
        None
        if decision is None
        else {"kind": decision.kind, "seat": decision.seat, "space": decision.space}
    )
    return state
