"""Chat at the table: short messages from the seated players, in the waiting room and
in the game, with a length limit and a per-seat rate limit.

Messages are kept in memory (the last few, for pages that connect later); they are not
part of the game record. Clients show them as text (never as markup).
"""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from datetime import UTC, datetime
from typing import Any

MAX_LENGTH = 300
"""Characters per message (after trimming)."""
KEEP = 50
"""Messages kept for pages that connect later."""
BURST, WINDOW = 5, 10.0
"""At most BURST messages per seat in any WINDOW seconds."""


class ChatRefusal(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def clean(text: object) -> str:
    """The message as it will be shown: control characters dropped, spaces trimmed."""
    if not isinstance(text, str):
        raise ChatRefusal("bad_message", "chat.text must be a string")
    kept = "".join(c for c in text if c == " " or unicodedata.category(c)[0] != "C")
    kept = " ".join(kept.split())
    if not kept:
        raise ChatRefusal("empty_chat", "say something: the message is empty")
    if len(kept) > MAX_LENGTH:
        raise ChatRefusal("chat_too_long", f"a message has at most {MAX_LENGTH} characters")
    return kept


class ChatRoom:
    """The recent messages of one game and when each seat last spoke."""

    def __init__(self) -> None:
        self.messages: deque[dict[str, Any]] = deque(maxlen=KEEP)
        self.times: dict[int, deque[float]] = {}

    def post(self, seat: int, name: str, text: object, now: float | None = None) -> dict[str, Any]:
        """Check and keep a message; returns it as sent to everyone."""
        words = clean(text)
        moment = time.monotonic() if now is None else now
        recent = self.times.setdefault(seat, deque())
        while recent and moment - recent[0] >= WINDOW:
            recent.popleft()
        if len(recent) >= BURST:
            wait = WINDOW - (moment - recent[0])
            raise ChatRefusal("chat_too_fast", f"too many messages: wait {wait:.0f} s")
        recent.append(moment)
        stamp = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
        message = {"type": "chat", "seat": seat, "name": name, "text": words, "at": stamp}
        self.messages.append(message)
        return message

    def history(self) -> dict[str, Any]:
        return {"type": "chat_history", "messages": list(self.messages)}
