"""The messages of one server process to another, waiting to be sent: in order, numbered,
and bounded (cluster.py).

Every message to a process is numbered (``q``, from 1, with the sender's name ``f``):
the receiving process drops a number it had (a message sent again after the sending
connection broke, which may have gone through before) and sees a number skipped
(messages lost) as a loss. A loss of any kind starts the connections between the two
processes again from whole states (cluster.py: ``resync``).

A process that does not take its messages (PostgreSQL's ``NOTIFY`` slow or away, the
sending connection broken) must not fill the sender's memory: an outbox holds at most
``limits.process_queue_messages`` messages and ``limits.process_queue_bytes`` bytes, as
a connection's queue does (client.py). At the bound the outbox drops what waits (but a
``bye``: the owner would otherwise keep a connection that is gone) and says so in a
``lost`` message at its head; the receiving process then has each affected connection
start again from a whole state, as a single connection that is too slow starts again.
"""

from __future__ import annotations

import itertools
import json
from collections import deque
from typing import Any

from .limits import Limits

KEPT_AT_THE_BOUND = frozenset({"bye"})
"""Messages an outbox keeps when it drops what waits (small, one per connection gone)."""


class Outbox:
    """The messages to one other process."""

    def __init__(self, sender: str, receiver: str, limits: Limits) -> None:
        self.sender, self.receiver, self.limits = sender, receiver, limits
        self.waiting: deque[tuple[str, str]] = deque()
        """(kind, payload) in order."""
        self.sending: str | None = None
        """The payload being sent (taken from ``waiting``); None once sent or dropped."""
        self.bytes = 0
        """Bytes of the payloads waiting or being sent."""
        self.dropped = 0
        """Messages dropped at the bound since a message last went through."""
        self.peak = (0, 0)
        """The most messages and bytes held at once since a message last went through."""
        self.warned = False
        """The bound was reached and logged since a message last went through."""
        self._numbers = itertools.count(1)

    def __len__(self) -> int:
        return len(self.waiting) + (self.sending is not None)

    def put(self, message: dict[str, Any]) -> bool:
        """Number ``message`` and queue it; False if the bound was reached: what waited
        is dropped instead (see the module's docstring)."""
        kind = message["k"]
        payload = json.dumps({"f": self.sender, "q": next(self._numbers), **message})
        limits = self.limits
        full = (
            len(self) >= limits.process_queue_messages
            or self.bytes + len(payload) > limits.process_queue_bytes
        )
        if full and kind not in KEPT_AT_THE_BOUND:
            self._drop_all()
            return False
        self._append(kind, payload)
        return True

    def _append(self, kind: str, payload: str) -> None:
        self.waiting.append((kind, payload))
        self.bytes += len(payload)
        self.peak = (max(self.peak[0], len(self)), max(self.peak[1], self.bytes))

    def _drop_all(self) -> None:
        """Forget what waits and what is being sent (but what is kept at the bound),
        then tell the receiving process that messages were lost."""
        kept = [(kind, payload) for kind, payload in self.waiting if kind in KEPT_AT_THE_BOUND]
        self.dropped += len(self) - len(kept) + 1  # the message that found it full too
        self.waiting.clear()
        self.sending = None
        self.bytes = 0
        lost = {"f": self.sender, "q": next(self._numbers), "k": "lost"}
        self._append("lost", json.dumps(lost))
        for kind, payload in kept:  # numbered again: after "lost", in order
            self._append(kind, json.dumps({**json.loads(payload), "q": next(self._numbers)}))

    def take(self) -> str:
        """The next payload to send (it stays counted until :meth:`sent`)."""
        self.sending = self.waiting.popleft()[1]
        return self.sending

    def sent(self, payload: str) -> None:
        """``payload`` went through (unless it was dropped meanwhile)."""
        if self.sending is payload:
            self.sending = None
            self.bytes -= len(payload)

    def went_through(self) -> tuple[int, tuple[int, int]]:
        """A message went through: the messages dropped and the peak since the last one
        that did, and start counting again."""
        report = (self.dropped, self.peak)
        self.dropped, self.peak = 0, (len(self), self.bytes)
        return report
