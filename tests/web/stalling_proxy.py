"""A TCP proxy in front of PostgreSQL whose chosen connections can be made to stall: the
network between a server process and the database stops carrying their bytes (both
ways) until it is let go, as a congested or broken route does."""

from __future__ import annotations

import asyncio
import threading
from urllib.parse import urlsplit, urlunsplit


class StallingProxy:
    """Forwards 127.0.0.1:``port`` to the database of ``url``; a connection whose
    startup message holds ``marker`` (its ``application_name``) stalls while
    :meth:`stall` is in force."""

    def __init__(self, url: str, marker: bytes) -> None:
        parts = urlsplit(url)
        assert parts.hostname is not None and parts.port is not None
        self.target = (parts.hostname, parts.port)
        self.marker = marker
        self._url = parts
        self._loop = asyncio.new_event_loop()
        self._flowing: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self.port = 0
        self.stalled_connections = 0
        """Connections seen that carry the marker."""

    def __enter__(self) -> StallingProxy:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._open(), self._loop).result(10)
        return self

    def __exit__(self, *exc: object) -> None:
        self.flow()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    @property
    def url(self) -> str:
        """``url`` through this proxy, without TLS (so the startup message can be read)."""
        netloc = self._url.netloc.rsplit("@", 1)
        host = f"127.0.0.1:{self.port}"
        query = "&".join(q for q in [self._url.query, "sslmode=disable&gssencmode=disable"] if q)
        at = f"{netloc[0]}@{host}" if len(netloc) == 2 else host
        return urlunsplit((self._url.scheme, at, self._url.path, query, ""))

    def stall(self) -> None:
        self._loop.call_soon_threadsafe(self._set_flowing, False)

    def flow(self) -> None:
        self._loop.call_soon_threadsafe(self._set_flowing, True)

    def _set_flowing(self, flowing: bool) -> None:
        assert self._flowing is not None
        if flowing:
            self._flowing.set()
        else:
            self._flowing.clear()

    async def _open(self) -> None:
        self._flowing = asyncio.Event()
        self._flowing.set()
        server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]

    async def _connection(
        self, client: asyncio.StreamReader, to_client: asyncio.StreamWriter
    ) -> None:
        server, to_server = await asyncio.open_connection(*self.target)
        startup = await client.read(65536)
        marked = self.marker in startup
        self.stalled_connections += marked
        to_server.write(startup)
        await asyncio.gather(
            self._pump(client, to_server, marked),
            self._pump(server, to_client, marked),
            return_exceptions=True,
        )

    async def _pump(
        self, source: asyncio.StreamReader, sink: asyncio.StreamWriter, marked: bool
    ) -> None:
        assert self._flowing is not None
        try:
            while data := await source.read(65536):
                if marked:
                    await self._flowing.wait()
                sink.write(data)
                await sink.drain()
        finally:
            sink.close()
