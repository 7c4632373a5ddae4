"""The FastAPI application: the lobby over HTTP, play over WebSocket, the static client.

``create_app(db, config)`` builds a fresh app with its own store and games; ``monopoly
serve`` runs it with uvicorn. The protocol is documented in ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from . import views
from .lobby import ApiError, check_edition, check_language, parse_join, parse_new_game
from .session import Client, GameSession, Hub, ServerConfig
from .storage import Store

STATIC_DIR = Path(__file__).resolve().parent / "static"


def create_app(
    db: str | None = None,
    config: ServerConfig | None = None,
    static_dir: Path = STATIC_DIR,
) -> FastAPI:
    """The server's app on the database ``db`` (URL or file path; None: the default file)."""
    hub = Hub(Store(db), config or ServerConfig())

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.restore()
        yield
        hub.stop()
        hub.store.close()

    app = FastAPI(title="MONOPOLY", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.hub = hub

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse(error.to_json(), status_code=error.status)

    _lobby_routes(app, hub)
    _play_route(app, hub)
    app.mount("/", StaticFiles(directory=static_dir, html=True), name="client")
    return app


async def _body(request: Request) -> object:
    try:
        return json.loads(await request.body())
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ApiError(422, "bad_request", "the request body must be JSON") from None


def _base_url(hub: Hub, request: Request) -> str:
    hub.base_url = str(request.base_url)
    return hub.base_url


def _lobby_routes(app: FastAPI, hub: Hub) -> None:
    @app.get("/api/health")
    def health() -> dict[str, str]:
        if not hub.store.healthy():
            raise ApiError(503, "database", "the database does not answer")
        return {"status": "ok"}

    @app.get("/api/editions")
    def editions() -> dict[str, Any]:
        return views.editions_json()

    @app.get("/api/editions/{key}")
    def edition(key: str, language: str = "en") -> dict[str, Any]:
        try:
            edition_key = check_edition(key)
        except ApiError as error:
            raise ApiError(404, error.code, error.message) from None
        return views.edition_json(edition_key, check_language(language))

    @app.get("/api/options")
    def options(language: str = "en") -> dict[str, Any]:
        language = check_language(language)
        return views.options_json(language, hub.levels, hub.config.absence_timeout)

    @app.get("/api/levels")
    def levels(language: str = "en") -> dict[str, Any]:
        return {"levels": views.levels_json(check_language(language), hub.levels)}

    @app.post("/api/games", status_code=201)
    async def create(request: Request) -> dict[str, Any]:
        new = parse_new_game(await _body(request), hub.levels)
        session, secret = hub.create(new)
        return _seat_answer(session, 0, secret, _base_url(hub, request))

    @app.get("/api/games")
    def open_games(request: Request) -> dict[str, Any]:
        base = _base_url(hub, request)
        return {"games": [session.lobby_json(base) for session in hub.open_games()]}

    @app.get("/api/games/{game_id}")
    def game(game_id: str, request: Request) -> dict[str, Any]:
        return hub.get(game_id).lobby_json(_base_url(hub, request))

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, request: Request) -> dict[str, Any]:
        session = hub.get(game_id)
        name, token = parse_join(await _body(request), session.edition)
        async with session.lock:
            seat, secret = session.join(name, token)
        return _seat_answer(session, seat, secret, _base_url(hub, request))

    @app.post("/api/games/{game_id}/start")
    async def start(game_id: str, request: Request) -> dict[str, Any]:
        session = hub.get(game_id)
        body = await _body(request)
        secret = body.get("seat_token") if isinstance(body, dict) else None
        async with session.lock:
            session.start(secret)
        return {"game": session.lobby_json(_base_url(hub, request))}


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
        await websocket.accept()
        try:
            session = hub.get(game_id)
        except ApiError as error:
            message = {"type": "error", "code": error.code, "message": error.message}
            await websocket.send_text(json.dumps(message))
            await websocket.close(code=4404)
            return
        client = Client(websocket.send_text)
        pump = asyncio.get_running_loop().create_task(client.pump())
        try:
            await _serve_client(websocket, session, client)
        finally:
            session.leave(client)
            client.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pump, timeout=1.0)
            pump.cancel()


async def _serve_client(websocket: WebSocket, session: GameSession, client: Client) -> None:
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            await session.handle(client, message.get("text"))
