"""The ``state`` and ``delta`` messages of one change, built once for all of a game's
clients.

After every change each client gets what it may see of the game. Most of that is the
same for everyone — the table, the decision, the new events — so it is built and
serialised once per change (:class:`StateTexts`); only the seat's own answers (and,
with deltas, the message number) are added per client, by joining JSON texts.

A client that asked for deltas (``"deltas": true`` in its hello) gets its first table
whole (in a ``state``) and from then on a ``delta``: a JSON Patch (RFC 6902) of the
table against the last table it was sent. The table's lists (spaces, players) are
patched by index, so an unchanged space or player is not sent again. A client holds one
table (usually the one shared by all), so its memory on the server stays bounded.

Every table sent is numbered by its game (``seq``, see :class:`TableNumbers`), not by
the connection: a delta names the number of its base table and of its own. So all
clients of a seat (all spectators: seat None) that had the same table get the same
message, made and serialised once per change — a crowd of spectators costs one text
and a socket write each.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from .client import Client, dumps

Answers = dict[str, Any]
"""A seat's own part of a state: ``decision_actions``, ``free_actions``, ``bid_range``."""


def table_patch(
    old: Any, new: Any, path: str = "", ops: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """The JSON Patch (RFC 6902) that turns ``old`` into ``new``: objects by key, lists of
    the same length by index (another length: the whole list), values whole. A part the
    new table took over from the old one (the same object: the board while no deed or
    building changed) is passed over without looking inside."""
    ops = [] if ops is None else ops
    if type(old) is dict and type(new) is dict:
        kept = 0
        for key, value in new.items():
            if key in old:
                kept += 1
                before = old[key]
                if before is not value and before != value:
                    table_patch(before, value, f"{path}/{_escape(key)}", ops)
            else:
                ops.append({"op": "add", "path": f"{path}/{_escape(key)}", "value": value})
        if kept < len(old):
            for key in old.keys() - new.keys():
                ops.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
    elif type(old) is list and type(new) is list and len(old) == len(new) and path:
        for index, (before, after) in enumerate(zip(old, new, strict=True)):
            if before != after:
                table_patch(before, after, f"{path}/{index}", ops)
    else:
        ops.append({"op": "replace", "path": path, "value": new})
    return ops


def _escape(key: str) -> str:
    """A key as a JSON Pointer token (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1") if "~" in key or "/" in key else key


class TableNumbers:
    """The numbers of a game's tables as sent to its clients (each delta's ``base`` and
    ``seq``). They start anywhere, so a number of an earlier session of the game (before
    a restart or a move to another process) never matches by chance."""

    def __init__(self) -> None:
        self.last = secrets.randbelow(2**31)

    def take(self) -> int:
        """The number of a new table."""
        self.last += 1
        return self.last


class StateTexts:
    """The messages of one change: ``table`` (the whole public table, numbered ``seq``)
    and ``shared`` (``state_id``, ``decision``, ``events``, ``turn_timer``) for
    everyone, ``answers`` per seat."""

    def __init__(
        self,
        table: dict[str, Any],
        seq: int,
        shared: dict[str, Any],
        answers: Callable[[int | None], Answers],
    ) -> None:
        self.table = table
        self.seq = seq
        self.state_id = shared["state_id"]
        self.decision = shared["decision"]
        self._shared = dumps(shared)[1:-1]
        self._answers = answers
        self._answer_texts: dict[int | None, str] = {}
        self._table_text: str | None = None
        self._texts: dict[tuple[int | None, bool, int | None], str] = {}
        """The message for each seat, taking deltas or not, and base table's number
        (None: a whole state)."""
        self._patches: dict[int, str] = {}
        """Serialised patches against each base seen (by the base table's number)."""

    def full_text(self, client: Client, log: dict[str, Any], turn_timer: object) -> str | None:
        """``client``'s full state of this change (with a page of the log), if its seat's
        answers were made for it (else None); with deltas, its base becomes this table."""
        answers = self._answer_texts.get(client.seat)
        if answers is None:
            return None
        head = {
            "type": "state",
            "state_id": self.state_id,
            "full": True,
            "decision": self.decision,
            "events": [],
            "turn_timer": turn_timer,
            "seat": client.seat,
            **log,
        }
        client.seq = self.seq
        if client.deltas:
            client.table, head["seq"] = self.table, self.seq
        return f'{dumps(head)[:-1]},"game":{self._table()},{answers}}}'

    def text_for(self, client: Client) -> str:
        """``client``'s message (a ``delta`` if it takes them and has a base, else a
        ``state``), made once for all clients of its seat with the same base; the
        client's last table becomes this change's (with deltas, its base)."""
        seat = client.seat
        base = client.seq if client.deltas and client.table is not None else None
        key = (seat, client.deltas, base)
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = self._text(client, base)
        client.seq = self.seq
        if client.deltas:
            client.table = self.table
        return text

    def _text(self, client: Client, base: int | None) -> str:
        seat = client.seat
        answers = self._answer_texts.get(seat)
        if answers is None:
            answers = self._answer_texts[seat] = dumps(self._answers(seat))[1:-1]
        own = f'"seat":{dumps(seat)},{answers}'
        if client.deltas:
            own += f',"seq":{self.seq}'
        if base is not None:
            assert client.table is not None
            head = f'"type":"delta","base":{base},"patch":{self._patch(base, client.table)}'
        else:
            head = f'"type":"state","full":false,"log":null,"game":{self._table()}'
        return f"{{{head},{self._shared},{own}}}"

    def _table(self) -> str:
        if self._table_text is None:
            self._table_text = dumps(self.table)
        return self._table_text

    def _patch(self, number: int, base: dict[str, Any]) -> str:
        text = self._patches.get(number)
        if text is None:
            text = self._patches[number] = dumps(table_patch(base, self.table))
        return text
