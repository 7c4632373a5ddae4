"""One WebSocket connection of a game: its outgoing queue and its message rate limits."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any

import orjson

from .connections import text_frame
from .limits import Limits, RateLimiter, TokenBucket, describe_rate
from .protocol import Refusal

if TYPE_CHECKING:
    from .fanout import Relay


class Client:
    """One WebSocket connection; messages go out through a bounded queue in send order.

    A client that does not read its messages fast enough is dropped (its connection
    closed) once ``limits.queue_messages`` or ``limits.queue_bytes`` wait for it, so a
    slow or hostile client costs the server a bounded amount of memory.
    """

    def __init__(
        self,
        send_text: Callable[[str], Awaitable[None]],
        address: str = "",
        limits: Limits | None = None,
        close: Callable[[int, str], Coroutine[Any, Any, None]] | None = None,
        write_frame: Callable[[bytes], bool] | None = None,
    ) -> None:
        self._send_text = send_text
        self._write_frame = write_frame
        """Writes a frame made beforehand to the socket, if it can (connections.py)."""
        self._in_flight = False
        """A message taken from the queue is being sent (waiting for the socket)."""
        self._close = close
        self._closing: asyncio.Task[None] | None = None
        self.address = address
        self.limits = limits or Limits()
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued_bytes = 0
        self.seat: int | None = None
        self.greeted = False
        self.opened = time.monotonic()
        self.dropped: str | None = None
        """Why the server gave up on this client (None while it is served)."""
        self.buckets: dict[str, TokenBucket] = {}
        self.limited_in_a_row = 0
        self.deltas = False
        """The client asked for ``delta`` messages instead of whole states (in its hello)."""
        self.table: dict[str, Any] | None = None
        """With deltas: the last game table sent to this client (the base of the next
        delta; usually shared with the other clients of the game)."""
        self.seq: int | None = None
        """The number of the last table sent to this client (numbered by the game: see
        states.py); with deltas, the number of ``table``."""
        self.relay: Relay | None = None
        """The other server process this connection comes through, if any: the
        game's messages to everyone go to it once for all its connections (cluster.py)."""

    def send(self, message: dict[str, Any]) -> None:
        if not self.dropped:
            self.send_text(dumps(message))

    def send_text(self, text: str) -> None:
        """Send a message already serialised (by :func:`dumps`): straight to the socket
        as a frame when nothing waits for this client (see :meth:`send_frame`), else
        queued. Every message of a player's connection goes this way."""
        if self._write_frame is None:
            self._queue(text)
        else:
            self.send_frame(text, text_frame(text))

    def send_frame(self, text: str, frame: bytes) -> None:
        """Send ``text``, whose WebSocket frame ``frame`` was made once for many
        clients: straight to the socket when nothing waits for this client (so the order
        holds), else queued as text."""
        if (
            self._write_frame is None
            or self.dropped
            or self._in_flight
            or not self.queue.empty()
            or not self._write_frame(frame)
        ):
            self._queue(text)

    def _queue(self, text: str) -> None:
        """Queue ``text`` for the pump (the ASGI way to the socket)."""
        if self.dropped:
            return
        self.queued_bytes += len(text)
        if (
            self.queue.qsize() >= self.limits.queue_messages
            or self.queued_bytes > self.limits.queue_bytes
        ):
            self.drop("too slow: too many messages wait to be sent")
            return
        self.queue.put_nowait(text)

    @property
    def sending(self) -> bool:
        """Messages wait for this client or are being sent."""
        return self._in_flight or not self.queue.empty()

    def drop(self, reason: str) -> None:
        """Stop serving this client: forget what waits for it and end its pump."""
        self.dropped = reason
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued_bytes = 0
        self.queue.put_nowait(None)
        if self._close is not None and self._closing is None:
            self._closing = asyncio.get_running_loop().create_task(self._close(1008, reason))

    def close(self) -> None:
        self.queue.put_nowait(None)

    async def pump(self) -> None:
        while (message := await self.queue.get()) is not None:
            self.queued_bytes -= len(message)
            self._in_flight = True
            try:
                await self._send_text(message)
            except Exception:  # the connection is gone: the receive loop ends it
                self.dropped = self.dropped or "the connection failed"
                return
            finally:
                self._in_flight = False

    def limit(self, kind: str, limiter: RateLimiter) -> None:
        """Refuse the message if this client (or its address, through ``limiter``) sends
        this kind too often; after ``refusals_in_a_row`` refused messages the connection
        is closed."""
        limits = self.limits
        rate = limits.message_rates.get(kind) or limits.message_rates["invalid"]
        bucket = self.buckets.get(kind)
        if bucket is None:
            bucket = self.buckets[kind] = TokenBucket(rate[0], rate[1], time.monotonic())
        wait = bucket.take(time.monotonic())
        if not wait:
            wide = limits.address_rates.get(kind)
            if wide is None:
                factor = limits.address_factor
                wide = (rate[0] * factor, rate[1] * factor)
            wait = limiter.take((self.address, kind), wide)
        if not wait:
            self.limited_in_a_row = 0
            return
        self.limited_in_a_row += 1
        if self.limited_in_a_row > limits.refusals_in_a_row:
            self.drop(f"too many {kind} messages")
        raise Refusal("rate_limited", describe_rate(kind, rate, wait))


def dumps(message: object) -> str:
    """The value as compact JSON text (orjson: several times faster than ``json``). What
    orjson refuses — a lone surrogate (not UTF-8), an integer beyond 64 bits — goes
    through ``json`` instead, escaped to ASCII, so sending never fails."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(message, separators=(",", ":"))
