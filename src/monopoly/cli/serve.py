"""``monopoly serve``: the browser game's server (registered on the ``monopoly`` app)."""

from __future__ import annotations

import threading
import webbrowser
from typing import Annotated

import typer

from monopoly.cli.main import app
from monopoly.web.storage import DEFAULT_DB, database_url


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port)")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help=f"Database: a SQLite file, sqlite:///… or postgresql://… URL "
            f"(default {DEFAULT_DB})"
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help="Seconds before each computer player's move")
    ] = 0.8,
    absence_timeout: Annotated[
        float, typer.Option(help="Seconds offline before a seat may be handed to a bot")
    ] = 60.0,
    turn_timer: Annotated[
        float,
        typer.Option(help="Seconds a person has per decision, then a bot decides (0: no limit)"),
    ] = 0.0,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the game in the web browser")
    ] = False,
) -> None:
    """Play in the browser: start the game server and print its address."""
    import uvicorn

    from monopoly.web.app import create_app
    from monopoly.web.session import ServerConfig

    config = ServerConfig(
        bot_delay=bot_delay, absence_timeout=absence_timeout, turn_timer=turn_timer
    )
    web_app = create_app(db, config)
    server = uvicorn.Server(
        uvicorn.Config(web_app, host=host, port=port, log_level="warning", ws_max_size=65536)
    )
    threading.Thread(
        target=_announce, args=(server, database_url(db), open_browser), daemon=True
    ).start()
    server.run()


def _announce(server: object, db_url: str, open_browser: bool) -> None:
    """Print the address once the server listens (the port may have been chosen by the OS)."""
    import time

    import uvicorn

    assert isinstance(server, uvicorn.Server)
    while not server.started:
        if server.should_exit:
            return
        time.sleep(0.05)
    host, port = server.servers[0].sockets[0].getsockname()[:2]
    shown = "127.0.0.1" if host == "0.0.0.0" else host
    address = f"http://{shown}:{port}/"
    print(f"MONOPOLY is served at {address}  (database: {_safe(db_url)})", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    if open_browser:
        webbrowser.open(address)


def _safe(url: str) -> str:
    """The database URL without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://…@{rest.rsplit('@', 1)[1]}"
    return url
