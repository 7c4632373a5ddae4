"""The FastAPI application: the lobby over HTTP, play over WebSocket, the static client.

``create_app(db, config)`` builds a fresh app with its own store and games; ``monopoly
serve`` runs it with uvicorn. The protocol is documented in ``docs/protocol.md``.

Every handler runs on the event loop and reaches games only through :meth:`Hub.get`
(one loader, one lock per game); database calls run in worker threads. Request bodies
are JSON (``application/json``) of bounded size; every answer carries security headers;
the access log names address, method, path, status and time, never bodies or queries.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from . import views
from .analysis import AnalysisService, analysis_routes
from .client import Client
from .cluster import Elsewhere
from .connections import FRAME_WRITER
from .hub import Hub
from .limits import BadJson, Limits, read_json
from .lobby import ApiError, check_edition, check_language, parse_join, parse_new_game
from .session import GameSession, ServerConfig
from .storage import Store

STATIC_DIR = Path(__file__).resolve().parent / "static"
PAGE_SIZE = 50
"""Open games per page of ``GET /api/games`` (at most ``MAX_PAGE`` with ``limit``)."""
MAX_PAGE = 200
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        b"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
access_log = logging.getLogger("monopoly.access")


def create_app(
    db: str | None = None,
    config: ServerConfig | None = None,
    static_dir: Path = STATIC_DIR,
) -> FastAPI:
    """The server's app on the database ``db`` (URL or file path; None: the default file)."""
    config = config or ServerConfig()
    hub = Hub(Store(db, busy_timeout=config.db_busy_timeout), config)
    analyses = hub.analyses = AnalysisService(hub.store)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        yield
        analyses.stop()
        hub.stop()
        await hub.store.close_async()
        hub.store.close()

    app = FastAPI(
        title="MONOPOLY", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    app.state.hub = hub

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse(error.to_json(), status_code=error.status)

    _lobby_routes(app, hub)
    _play_route(app, hub)
    analysis_routes(app, analyses)
    app.mount("/", StaticFiles(directory=static_dir, html=True), name="client")
    app.add_middleware(Guard, log_requests=config.access_log, hub=hub)
    return app


class Guard:
    """Requests for another host refused (origins.py), security headers on every answer
    and the access log (plain ASGI: cheap)."""

    def __init__(self, app: ASGIApp, log_requests: bool, hub: Hub) -> None:
        self.app = app
        self.log_requests = log_requests
        self.origins = hub.origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if not self.origins.host_allowed(_header(scope, b"host")):
            await _refuse_host(scope, send)
            if self.log_requests:
                _log_request(scope, 400 if scope["type"] == "http" else 403, 0.0)
            return
        started = time.perf_counter()
        status = 0

        async def guarded_send(message: Message) -> None:
            nonlocal status
            kind = message["type"]
            if kind == "http.response.start":
                status = message["status"]
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS:
                    headers.append(name.decode(), value.decode())
            elif kind == "websocket.accept":
                status = 101
            elif kind == "websocket.close" and not status:
                status = 403
            await send(message)

        try:
            await self.app(scope, receive, guarded_send)
        finally:
            if self.log_requests:
                _log_request(scope, status, time.perf_counter() - started)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


async def _refuse_host(scope: Scope, send: Send) -> None:
    """A request for a host this server is not (see origins.py): 400, or a refused
    WebSocket (the browser sees a 403)."""
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    error = {"code": "unknown_host", "message": "this server does not answer for that host name"}
    response = JSONResponse({"error": error}, status_code=400)
    response.headers.update({name.decode(): value.decode() for name, value in SECURITY_HEADERS})
    await response(scope, _nothing_to_receive, send)


async def _nothing_to_receive() -> Message:
    return {"type": "http.disconnect"}


def _log_request(scope: Scope, status: int, seconds: float) -> None:
    client = scope.get("client")
    address = client[0] if client else "-"
    method = scope.get("method", "WS")
    access_log.info('%s "%s %s" %d %.1fms', address, method, scope["path"], status, seconds * 1e3)


async def _body(request: Request, hub: Hub) -> object:
    """The request's JSON body: ``application/json``, at most ``limits.body_bytes``."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError(
            415, "unsupported_media_type", "send the body as JSON (Content-Type: application/json)"
        )
    limit = hub.config.limits.body_bytes
    too_large = ApiError(413, "body_too_large", f"a request body has at most {limit} bytes")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    try:
        return read_json(b"".join(chunks))
    except BadJson as error:
        raise ApiError(422, "bad_request", f"the request body must be JSON: {error}") from None


def _address(request: Request | WebSocket) -> str:
    return request.client.host if request.client else "-"


def _lobby_routes(app: FastAPI, hub: Hub) -> None:
    @app.get("/api/health")
    async def health() -> JSONResponse:
        report = await hub.health()
        if report.problem is not None:
            error = {
                "code": "database",
                "problem": report.problem.code,
                "message": report.problem.message,
            }
            return JSONResponse(
                {"status": "error", "error": error, "damaged_games": report.damaged_games},
                status_code=503,
            )
        if report.damaged_games:
            return JSONResponse({"status": "degraded", "damaged_games": report.damaged_games})
        return JSONResponse({"status": "ok"})

    @app.get("/api/editions")
    async def editions() -> dict[str, Any]:
        return views.editions_json()

    @app.get("/api/editions/{key}")
    async def edition(key: str, language: str = "en") -> dict[str, Any]:
        try:
            edition_key = check_edition(key)
        except ApiError as error:
            raise ApiError(404, error.code, error.message) from None
        return views.edition_json(edition_key, check_language(language))

    @app.get("/api/options")
    async def options(language: str = "en") -> dict[str, Any]:
        language = check_language(language)
        return views.options_json(language, hub.levels, hub.config.absence_timeout)

    @app.get("/api/levels")
    async def levels(language: str = "en") -> dict[str, Any]:
        return {"levels": views.levels_json(check_language(language), hub.levels)}

    @app.post("/api/games", status_code=201)
    async def create(request: Request) -> dict[str, Any]:
        rate = hub.config.limits.create_rate
        wait = hub.limiter.take(("create", _address(request)), rate)
        if wait:
            raise ApiError(
                429,
                "rate_limited",
                f"too many new games from your address: wait {wait:.0f} s",
            )
        new = parse_new_game(await _body(request, hub), hub.levels, hub.config.testing)
        session, secret = await hub.create(new)
        return _seat_answer(session, 0, secret, hub.public_url)

    @app.get("/api/games")
    async def open_games(offset: int = 0, limit: int = PAGE_SIZE) -> dict[str, Any]:
        if offset < 0 or not 1 <= limit <= MAX_PAGE:
            raise ApiError(422, "bad_page", f"offset must be >= 0 and limit 1 to {MAX_PAGE}")
        sessions, more = await hub.open_games(limit, offset)
        games = [session.lobby_json(hub.public_url) for session in sessions]
        return {"games": games, "offset": offset, "next_offset": offset + limit if more else None}

    @app.get("/api/games/{game_id}")
    async def game(game_id: str) -> dict[str, Any]:
        return await _on_owner(hub, game_id, "lobby", None)

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, request: Request) -> dict[str, Any]:
        return await _on_owner(hub, game_id, "join", await _body(request, hub))

    @app.post("/api/games/{game_id}/start")
    async def start(game_id: str, request: Request) -> dict[str, Any]:
        return await _on_owner(hub, game_id, "start", await _body(request, hub))


async def _on_owner(hub: Hub, game_id: str, op: str, body: object) -> dict[str, Any]:
    """Run a lobby request here, or on the process that owns the game."""
    try:
        return await lobby_operation(hub, game_id, op, body)
    except Elsewhere:
        assert hub.cluster is not None
        return await hub.cluster.call(game_id, op, body)


async def lobby_operation(hub: Hub, game_id: str, op: str, body: object) -> dict[str, Any]:
    """Look at, join or start a game this process owns (raises Elsewhere if it doesn't)."""
    async with hub.use(game_id) as session:
        if op == "join":
            name, token = parse_join(body, session.edition)
            async with session.lock:
                seat, secret = await session.join(name, token)
            return _seat_answer(session, seat, secret, hub.public_url)
        if op == "start":
            host_secret = body.get("seat_token") if isinstance(body, dict) else None
            async with session.lock:
                await session.start(host_secret)
            return {"game": session.lobby_json(hub.public_url)}
        return session.lobby_json(hub.public_url)


def _seat_answer(session: GameSession, seat: int, secret: str, base: str) -> dict[str, Any]:
    lobby = session.lobby_json(base)
    return {
        "game_id": session.id,
        "seat": seat,
        "seat_token": secret,
        "invite_url": lobby["invite_url"],
        "watch_url": lobby["watch_url"],
        "game": lobby,
    }


def _play_route(app: FastAPI, hub: Hub) -> None:
    @app.websocket("/ws/games/{game_id}")
    async def play(websocket: WebSocket, game_id: str) -> None:
        origin = websocket.headers.get("origin")
        secure = websocket.url.scheme == "wss"
        host = websocket.headers.get("host")
        if origin is not None and not hub.origin_allowed(origin, host, secure):
            await websocket.close(code=1008)  # before accepting: the browser sees a 403
            return
        address = _address(websocket)
        if hub.connections[address] >= hub.config.limits.connections_per_address:
            await websocket.close(code=1008)
            return
        hub.connections[address] += 1
        try:
            await _connect(websocket, hub, game_id, address)
        finally:
            hub.connections[address] -= 1
            if not hub.connections[address]:
                del hub.connections[address]


async def _connect(websocket: WebSocket, hub: Hub, game_id: str, address: str) -> None:
    await websocket.accept()
    frames = (websocket.scope.get("extensions") or {}).get(FRAME_WRITER)
    client = Client(
        websocket.send_text,
        address,
        hub.config.limits,
        _closer(websocket),
        frames["write"] if frames else None,
    )
    try:
        try:
            session_context = hub.use(game_id)
            session = await session_context.__aenter__()
        except Elsewhere:
            assert hub.cluster is not None
            async with _pumping(client):
                await hub.cluster.serve_proxy(websocket, game_id, client)
            return
        try:
            async with _pumping(client):
                try:
                    await _serve_client(websocket, session, client)
                finally:
                    session.leave(client)
        finally:
            await session_context.__aexit__(None, None, None)
    except ApiError as error:
        message = {"type": "error", "code": error.code, "message": error.message}
        with contextlib.suppress(Exception):
            await websocket.send_json(message)
            await websocket.close(code=4404 if error.status == 404 else 4503)


@asynccontextmanager
async def _pumping(client: Client) -> AsyncIterator[None]:
    """Send the client's queued messages meanwhile; at the end what is queued (for a
    second at most)."""
    pump = asyncio.get_running_loop().create_task(client.pump())
    try:
        yield
    finally:
        client.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(pump, timeout=1.0)
        pump.cancel()


def _closer(websocket: WebSocket) -> Any:
    async def close(code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await websocket.close(code=code, reason=reason[:100])

    return close


async def _serve_client(websocket: WebSocket, session: GameSession, client: Client) -> None:
    with contextlib.suppress(WebSocketDisconnect):
        while not client.dropped:
            message = await _next_message(websocket, client, session.hub.config.limits)
            if message is None:
                client.dropped = "no hello in time"
                break
            if message["type"] == "websocket.disconnect":
                return
            try:
                await session.handle(client, message.get("text"))
            except Exception:  # a bug must not drop the connection silently
                logging.getLogger("monopoly.web").exception("game %s: a message failed", session.id)
                client.send({"type": "error", "code": "internal_error", "message": "that failed"})
            await asyncio.sleep(0)  # let the other games run between two messages
        with contextlib.suppress(Exception):
            await websocket.close(code=1008, reason=client.dropped[:100])


async def _next_message(websocket: WebSocket, client: Client, limits: Limits) -> Message | None:
    """The connection's next message; None if it has not said hello in time (a socket
    that never does is not held open)."""
    if client.greeted:
        return await websocket.receive()
    deadline = client.opened + limits.hello_timeout
    try:
        return await asyncio.wait_for(websocket.receive(), max(0.0, deadline - time.monotonic()))
    except TimeoutError:
        return None
