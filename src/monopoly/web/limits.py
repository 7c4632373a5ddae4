"""Limits that keep one client from taking the server: rates, queue sizes, body sizes.

A :class:`TokenBucket` allows ``burst`` events at once and ``rate`` a second after that.
:class:`RateLimiter` keeps one bucket per key (a connection's or an address's message
type, an address's game creation) and forgets the oldest keys beyond a bound, so the
limiter's own memory is bounded too.
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from dataclasses import dataclass, field

Rate = tuple[float, float]
"""(events a second, burst)."""


def default_message_rates() -> dict[str, Rate]:
    return {
        "hello": (1.0, 3.0),
        "action": (20.0, 40.0),
        "check": (20.0, 40.0),
        "hand_to_bot": (1.0, 5.0),
        "sync": (1.0, 5.0),
        "ping": (2.0, 10.0),
        "advice": (1.0, 10.0),
        "invalid": (5.0, 20.0),
    }


def default_address_rates() -> dict[str, Rate]:
    return {"hello": (10.0, 300.0)}


@dataclass
class Limits:
    """The server's limits per client; the defaults suit people playing in a browser."""

    message_rates: dict[str, Rate] = field(default_factory=default_message_rates)
    """Per connection and message type (``invalid``: messages that cannot be read)."""
    address_factor: float = 8.0
    """All connections of one address together may send this many times the rates."""
    create_rate: Rate = (0.2, 20.0)
    """Games created per address: a burst of 20, then one every 5 seconds."""
    queue_messages: int = 200
    """Messages waiting to be sent to one client; more and the client is too slow."""
    queue_bytes: int = 4 * 1024 * 1024
    """Bytes waiting to be sent to one client."""
    refusals_in_a_row: int = 50
    """Rate-limited messages in a row after which the connection is closed."""
    body_bytes: int = 64 * 1024
    """The largest request body (HTTP) accepted."""
    connections_per_address: int = 256
    """Open connections (HTTP and WebSocket) from one address; a trusted proxy's are
    counted by the address it forwards for (WebSockets) and in the total only."""
    connections_total: int = 8192
    """Open connections of the server process (fewer if it may not open that many files)."""
    header_timeout: float = 10.0
    """Seconds for a request's headers to arrive, counted from the connection's opening
    or the last answer on it (an idle socket, a slowloris)."""
    idle_timeout: float = 5.0
    """Seconds a connection may idle between two HTTP requests (uvicorn's keep-alive)."""
    hello_timeout: float = 10.0
    """Seconds a new WebSocket has to say ``hello``."""
    fragment_timeout: float = 10.0
    """Seconds a fragmented WebSocket message has to be finished."""
    process_queue_messages: int = 4000
    """Messages waiting to be sent to one other server process (cluster.py): a message
    carries one change for all of a game's connections there, or one connection's own;
    more and what waits is dropped, and the connections there start again from whole
    states (outbox.py)."""
    process_queue_bytes: int = 32 * 1024 * 1024
    """Bytes waiting to be sent to one other server process."""
    address_rates: dict[str, Rate] = field(default_factory=default_address_rates)
    """Per address, for the message types whose address budget is not ``address_factor``
    times a connection's: a crowd of spectators behind one address (a school, a
    streamer's audience behind one NAT) says hello at once."""


class TokenBucket:
    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float, moment: float) -> None:
        self.rate, self.burst, self.tokens, self.stamp = rate, burst, burst, moment

    def take(self, moment: float) -> float:
        """Take one token: 0.0 if there was one, else the seconds until there is."""
        self.tokens = min(self.burst, self.tokens + (moment - self.stamp) * self.rate)
        self.stamp = moment
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate if self.rate > 0 else float("inf")


class RateLimiter:
    """One bucket per key, at most ``max_keys`` of them (the least recently used go)."""

    def __init__(self, max_keys: int = 50_000) -> None:
        self.buckets: OrderedDict[object, TokenBucket] = OrderedDict()
        self.max_keys = max_keys

    def take(self, key: object, rate: Rate) -> float:
        moment = time.monotonic()
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = TokenBucket(rate[0], rate[1], moment)
            if len(self.buckets) > self.max_keys:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(key)
        return bucket.take(moment)


def describe_rate(kind: str, rate: Rate, wait: float) -> str:
    per_second = f"{rate[0]:g} a second" if rate[0] >= 1 else f"one every {1 / rate[0]:g} s"
    return (
        f"too many {kind} messages: at most {per_second} (bursts of {rate[1]:g}); wait {wait:.1f} s"
    )


MAX_DIGITS = 18
"""Whole numbers in a message have at most this many digits (all amounts fit easily)."""
MAX_DEPTH = 32
"""Objects and lists in a message nest at most this deep."""


class BadJson(ValueError):
    """Input that is not JSON a client may send; the message says why (without echoing it)."""


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise BadJson(f"a number has more than {MAX_DIGITS} digits")
    return int(digits)


def _parse_float(digits: str) -> float:
    if len(digits) > 40:
        raise BadJson("a number is too long")
    return float(digits)


def _refuse_constant(name: str) -> object:
    raise BadJson(f"{name} is not a JSON number")


def read_json(text: str | bytes) -> object:
    """Parse client input: no huge numbers, no NaN, no deep nesting, no lone surrogates."""
    try:
        data = json.loads(
            text,
            parse_int=_parse_int,
            parse_float=_parse_float,
            parse_constant=_refuse_constant,
        )
    except RecursionError:
        raise BadJson(f"nested deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as error:
        raise BadJson(f"not valid JSON: {error.msg} at character {error.pos}") from None
    except UnicodeDecodeError:
        raise BadJson("not UTF-8 text") from None
    _check(data, 0)
    return data


def _check(value: object, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise BadJson(f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, str):
        _check_text(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key)
            _check(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check(item, depth + 1)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BadJson("a string holds a lone surrogate (not valid Unicode)") from None


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to ``limit`` characters, for error messages."""
    text = repr(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
