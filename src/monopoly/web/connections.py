"""The server's TCP connections: caps and timeouts, counted where a connection is made.

uvicorn accepts every connection and keeps it until the client goes: an idle socket,
or one that sends its request's headers a byte at a time, is held forever, and a flood
of them uses up the process's file descriptors. What uvicorn offers is used —
``timeout_keep_alive`` closes a connection idle between two requests,
``h11_max_incomplete_event_size`` bounds the headers, ``ws_max_size`` a WebSocket
message, ``forwarded_allow_ips`` says whose ``X-Forwarded-For`` is believed — and two
small subclasses of its protocols add what it lacks:

- :class:`GuardedHttp` (uvicorn's h11 protocol) admits a connection only while its
  address has fewer than ``connections_per_address`` open and the server fewer than
  ``connections_total`` (the connection is closed at once otherwise, before anything is
  read), and closes a connection whose request's headers have not arrived within
  ``header_timeout`` seconds of its opening or of the last answer (an idle socket, a
  slowloris). Refused connections are logged as a count at most every
  :data:`REFUSALS_LOGGED_EVERY` seconds, never a line each.
- :class:`GuardedWebSocket` (uvicorn's websockets sans-I/O protocol) closes a WebSocket
  whose fragmented message is not finished within ``fragment_timeout`` seconds and
  gives the connection's slot back when it ends. It also lets the game write a frame
  made beforehand straight to the socket (:meth:`GuardedWebSocket.write_frame`, in the
  scope's extensions as :data:`FRAME_WRITER`): a change for a crowd of spectators is
  framed once, not once per socket through the ASGI layers.

The connections of a trusted proxy (``--forwarded-allow-ips``) are counted in the total
only: behind a proxy every player has its address, and the per-address limits of the
game (``monopoly.web.app``) use the forwarded one.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections import Counter
from typing import Any

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode

from .limits import Limits

log = logging.getLogger("monopoly.web")

FRAME_WRITER = "monopoly.frame_writer"
"""The scope extension of a WebSocket whose ``write`` takes a whole frame as bytes."""
REFUSALS_LOGGED_EVERY = 10.0
"""Seconds between two log lines counting refused connections."""
RESERVED_DESCRIPTORS = 256
"""File descriptors kept free of client connections (database, log, files)."""


class TrustedProxies:
    """The addresses whose forwarded headers are believed (``*``: all; else addresses
    and networks such as ``10.0.0.0/8``)."""

    def __init__(self, spec: str | None) -> None:
        names = [name.strip() for name in (spec or "").split(",") if name.strip()]
        self.spec = ",".join(names)
        self.everyone = "*" in names
        self.networks = [ipaddress.ip_network(name, strict=False) for name in names if name != "*"]

    def __bool__(self) -> bool:
        return bool(self.spec)

    def __contains__(self, address: str) -> bool:
        if self.everyone:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)


class ConnectionGuard:
    """Open connections per address and in total; refusals counted for the log."""

    def __init__(self, limits: Limits, trusted: TrustedProxies) -> None:
        self.limits = limits
        self.trusted = trusted
        self.total_cap = descriptor_bounded(limits.connections_total)
        self.open: dict[asyncio.BaseTransport, str] = {}
        self.per_address: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        """Refusals since the last log line, by reason."""
        self._logged_at = 0.0
        self._log_timer: asyncio.TimerHandle | None = None

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count the new connection in, or say no (the caller closes it)."""
        remote = get_remote_addr(transport)  # type: ignore[arg-type]
        address = remote[0] if remote else "-"
        if len(self.open) >= self.total_cap:
            self._refuse(f"the server's {self.total_cap} connections")
            return False
        if (
            self.per_address[address] >= self.limits.connections_per_address
            and address not in self.trusted
        ):
            self._refuse(f"{self.limits.connections_per_address} connections per address")
            return False
        self.open[transport] = address
        self.per_address[address] += 1
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        """The connection ended (a second call, or one for a refused connection, is a no-op)."""
        address = self.open.pop(transport, None)
        if address is not None:
            self.per_address[address] -= 1
            if not self.per_address[address]:
                del self.per_address[address]

    def _refuse(self, reason: str) -> None:
        self.refused[reason] += 1
        wait = self._logged_at + REFUSALS_LOGGED_EVERY - time.monotonic()
        if wait <= 0:
            self.log_refusals()
        elif self._log_timer is None:
            self._log_timer = asyncio.get_running_loop().call_later(wait, self.log_refusals)

    def log_refusals(self) -> None:
        """One line for all refusals since the last one."""
        self._log_timer = None
        self._logged_at = time.monotonic()
        if self.refused:
            counts = ", ".join(f"{count} over {reason}" for reason, count in self.refused.items())
            log.warning("refused %d connections (%s)", self.refused.total(), counts)
            self.refused.clear()


def descriptor_bounded(wanted: int) -> int:
    """``wanted`` connections, or fewer if the process may not open that many files."""
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return wanted
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - RESERVED_DESCRIPTORS))


def raise_descriptor_limit() -> None:
    """Let the process open as many files as the system allows it (the soft limit is
    often far below the hard one)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, OSError, ValueError):
        pass


class ServerSettings(uvicorn.Config):
    """uvicorn's configuration for this server, with its :class:`ConnectionGuard`."""

    def __init__(
        self, app: Any, host: str, port: int, forwarded_allow_ips: str | None = None
    ) -> None:
        """uvicorn's settings for ``app`` (made by :func:`monopoly.web.app.create_app`:
        its limits and compression are read from its configuration)."""
        config = app.state.hub.config
        limits: Limits = config.limits
        ws_compression: bool = config.ws_compression
        trusted = TrustedProxies(forwarded_allow_ips)
        super().__init__(
            app,
            host=host,
            port=port,
            log_level="warning",
            access_log=False,
            # uvloop (a dependency except on Windows) where installed, else asyncio's own
            # loop: uvloop's sockets, timers and polling cost about a tenth less of the
            # server's CPU per action (benchmarks/bench_actions.py, docs/server.md).
            loop="auto",
            http=GuardedHttp,
            ws=GuardedWebSocket,
            ws_max_size=65536,
            ws_per_message_deflate=ws_compression,
            h11_max_incomplete_event_size=16384,
            timeout_keep_alive=max(1, round(limits.idle_timeout)),
            proxy_headers=bool(trusted),
            forwarded_allow_ips=trusted.spec or "",
        )
        self.guard = ConnectionGuard(limits, trusted)


class GuardedHttp(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with connection caps and a deadline for headers."""

    def __init__(self, config: ServerSettings, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self.guard = config.guard
        self._deadline: asyncio.TimerHandle | None = None
        self._awaited: object = None
        """The request cycle under way when the deadline was set (a new one: headers came)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self.guard.admit(transport):
            transport.abort()
            return
        self._expect_headers()

    def _expect_headers(self) -> None:
        self._stop_deadline()
        self._awaited = self.cycle
        timeout = self.guard.limits.header_timeout
        self._deadline = self.loop.call_later(timeout, self._headers_too_late)

    def _stop_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _headers_too_late(self) -> None:
        """No request began since the deadline was set, and none is under way: close."""
        self._deadline = None
        idle = self.cycle is self._awaited and (self.cycle is None or self.cycle.response_complete)
        if idle and self.transport.get_protocol() is self and not self.transport.is_closing():
            self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._expect_headers()

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._stop_deadline()  # the WebSocket protocol watches the connection from now on
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        self.guard.release(self.transport)
        super().connection_lost(exc)


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol with a deadline for fragmented messages."""

    def __init__(self, config: ServerSettings, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self.guard = config.guard
        self._fragments_deadline: asyncio.TimerHandle | None = None

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none if the handshake was refused
        if scope is not None:
            scope["extensions"][FRAME_WRITER] = {"write": self.write_frame}

    def write_frame(self, frame: bytes) -> bool:
        """Write a whole server frame made beforehand (unmasked, uncompressed: the same
        bytes for every connection) unless the connection is closing, its send buffer
        is full, or it compresses its messages: False then, and the caller sends the
        message the usual way. Whole frames may go between uvicorn's own (pings, the
        close), as its frames are written whole too."""
        if (
            self.close_sent
            or self.disconnected
            or not self.handshake_complete
            or not self.writable.is_set()
            or self.conn.extensions
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(frame)
        return True

    def handle_text(self, event: Any) -> None:
        super().handle_text(event)
        self._watch_fragments(event.fin)

    def handle_bytes(self, event: Any) -> None:
        super().handle_bytes(event)
        self._watch_fragments(event.fin)

    def handle_cont(self, event: Any) -> None:
        super().handle_cont(event)
        if event.fin:
            self._stop_fragments_deadline()

    def _watch_fragments(self, finished: bool) -> None:
        self._stop_fragments_deadline()
        if not finished:
            timeout = self.guard.limits.fragment_timeout
            self._fragments_deadline = self.loop.call_later(timeout, self._fragments_too_late)

    def _stop_fragments_deadline(self) -> None:
        if self._fragments_deadline is not None:
            self._fragments_deadline.cancel()
            self._fragments_deadline = None

    def _fragments_too_late(self) -> None:
        self._fragments_deadline = None
        if not self.transport.is_closing():
            self.conn.fail(1008, "a message was not finished in time")
            self.handle_parser_exception()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_fragments_deadline()
        self.guard.release(self.transport)
        super().connection_lost(exc)


def text_frame(text: str) -> bytes:
    """``text`` as one unmasked WebSocket text frame (RFC 6455 5.2), by websockets: the
    same bytes for every socket of the server."""
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])
