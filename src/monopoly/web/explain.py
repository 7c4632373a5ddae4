"""Why things happen: a short note for the game log beside some events.

The engine's events say what happened ("Ann moves to Boardwalk."); a new player also
wants to know why (Mr. Monopoly moved her on, she rolled doubles and rolls again, a rent
claim lapsed...). The notes are worked out from the events of the current turn, so a
note is the same whether the event came live or in a reloaded log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from monopoly.core.chance import BUS, MR_MONOPOLY

from .texts import text

WHY_PREFIX = "↳ "
"""Marks a note line in the text log (the client shows such lines as explanations)."""


class _Turn:
    """What the notes need to remember since the turn started."""

    def __init__(self) -> None:
        self.doubles = 0
        self.mr_monopoly_moves = -1  # -1: no Mr. Monopoly roll pending


def notes(events: Sequence[Any], start: int, language: str, terms: dict[str, str]) -> list[str]:
    """One note per event of ``events[start:]`` ("" where nothing needs explaining)."""
    first = start
    while first > 0 and type(events[first]).__name__ != "TurnStarted":
        first -= 1
    turn = _Turn()
    result = []
    for index in range(first, len(events)):
        note = _note(events, index, turn, language, terms)
        if index >= start:
            result.append(note)
    return result


def _note(events: Sequence[Any], index: int, turn: _Turn, language: str, terms: Any) -> str:
    event = events[index]
    kind = type(event).__name__
    previous = type(events[index - 1]).__name__ if index else ""
    following = type(events[index + 1]).__name__ if index + 1 < len(events) else ""

    def say(key: str, **values: Any) -> str:
        return text(language, f"why_{key}", **terms, **values)

    if kind == "TurnStarted":
        turn.__init__()  # type: ignore[misc]
    elif kind == "DiceRolled":
        return _roll_note(event, following, turn, say)
    elif kind == "Moved" and turn.mr_monopoly_moves >= 0 and previous != "CardDrawn":
        turn.mr_monopoly_moves += 1
        if turn.mr_monopoly_moves == 2:  # the white dice's move came first
            turn.mr_monopoly_moves = -1
            return say("mr_monopoly_move")
    elif kind == "SentToJail" and previous == "Moved" and events[index - 1].end == 30:
        return say("go_to_jail_space")
    elif kind == "AuctionStarted" and event.space < 0:
        return say("shortage_auction_hotel" if event.space == -2 else "shortage_auction")
    elif kind == "RentForfeited":
        return say("rent_lapsed")
    elif kind == "PropertyDealt" and previous != "PropertyDealt":
        return say("dealt")
    return ""


def _roll_note(event: Any, following: str, turn: _Turn, say: Callable[..., str]) -> str:
    """Doubles (again, third), triples, the Bus and Mr. Monopoly (R-TURN-4, R-SPEED-*)."""
    dice = event.dice
    speed = dice[2] if len(dice) == 3 else 0
    if following in ("LeftJail", "StayedInJail"):
        return say("jail_doubles") if event.doubles else ""
    if speed and event.doubles and speed == dice[0] and speed < BUS:
        return say("triples")  # R-SPEED-7
    parts = []
    if event.doubles:
        turn.doubles += 1
        if turn.doubles >= 3:
            return say("third_doubles")  # R-TURN-4
        parts.append(say("doubles"))
    if speed == BUS:
        parts.append(say("bus"))  # R-SPEED-4
    elif speed == MR_MONOPOLY:
        turn.mr_monopoly_moves = 0
        parts.append(say("mr_monopoly"))  # R-SPEED-5
    return " ".join(parts)
