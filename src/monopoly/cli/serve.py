"""``monopoly serve``: the browser game's server (registered on the ``monopoly`` app)."""

from __future__ import annotations

import gc
import sys
import threading
import webbrowser
from typing import Annotated, Any

import typer

from monopoly.cli.main import app, fail
from monopoly.web import DEFAULT_DB


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
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address players use, e.g. https://monopoly.example.org/ (for invite "
            "links and the WebSocket origin check; default: where the server listens)"
        ),
    ] = None,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(help="Another web origin whose pages may connect (repeatable)"),
    ] = None,
    testing: Annotated[
        bool,
        typer.Option(
            "--testing",
            help="Accept a chosen seed and start position in new games (for tests; "
            "everyone who joins such a game is told)",
        ),
    ] = False,
    idle_unload: Annotated[
        float, typer.Option(help="Seconds an unused game stays in memory")
    ] = 600.0,
    create_rate: Annotated[
        float, typer.Option(help="New games a second per address (after a burst of 20)")
    ] = 0.2,
    address_factor: Annotated[
        float,
        typer.Option(
            help="All connections of one address together may send this many times the "
            "rates of one connection (raise it behind a proxy, or for a load test)"
        ),
    ] = 8.0,
    connections_per_address: Annotated[
        int,
        typer.Option(help="Open connections (HTTP and WebSocket) allowed from one address"),
    ] = 256,
    address_hellos: Annotated[
        float,
        typer.Option(
            help="Connections one address may open into games at once (then 10 a second): "
            "a crowd of spectators behind one address"
        ),
    ] = 300.0,
    connections_total: Annotated[
        int,
        typer.Option(help="Open connections allowed per server process (fewer if files are short)"),
    ] = 8192,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="Proxies whose X-Forwarded-For and X-Forwarded-Proto are believed, as "
            "addresses or networks separated by commas (default: none)"
        ),
    ] = None,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(help="Another host name the server answers to (repeatable)"),
    ] = None,
    access_log: Annotated[
        bool, typer.Option(help="Log every request (never bodies, queries or tokens)")
    ] = True,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes on one port (more than 1 needs PostgreSQL; implies --cluster)"
        ),
    ] = 1,
    cluster: Annotated[
        bool,
        typer.Option(
            "--cluster",
            help="Share the PostgreSQL database with other `monopoly serve` processes "
            "(each game has one owner; players may connect to any of them)",
        ),
    ] = False,
    process_queue_messages: Annotated[
        int,
        typer.Option(
            help="With several processes: messages waiting to be sent to another process at "
            "most (then they are dropped and its connections start again from whole states)"
        ),
    ] = 4000,
    process_queue_bytes: Annotated[
        int,
        typer.Option(help="With several processes: bytes waiting to be sent to another process"),
    ] = 32 * 1024 * 1024,
    ws_compression: Annotated[
        bool, typer.Option(help="Compress WebSocket messages (per-message deflate; costs CPU)")
    ] = False,
) -> None:
    """Play in the browser: start the game server and print its address."""
    import logging

    import uvicorn

    from monopoly.web.app import create_app
    from monopoly.web.connections import ServerSettings, raise_descriptor_limit
    from monopoly.web.limits import Limits, default_address_rates
    from monopoly.web.session import ServerConfig
    from monopoly.web.storage import database_url

    raise_descriptor_limit()

    config = ServerConfig(
        bot_delay=bot_delay,
        absence_timeout=absence_timeout,
        turn_timer=turn_timer,
        public_url=public_url,
        allowed_origins=tuple(allow_origin or ()),
        host=host,
        allowed_hosts=tuple(allowed_host or ()),
        testing=testing,
        idle_unload=idle_unload,
        access_log=access_log,
        limits=Limits(
            create_rate=(create_rate, 20.0),
            address_factor=address_factor,
            connections_per_address=connections_per_address,
            connections_total=connections_total,
            address_rates={"hello": (default_address_rates()["hello"][0], address_hellos)},
            process_queue_messages=process_queue_messages,
            process_queue_bytes=process_queue_bytes,
        ),
        cluster=cluster or workers > 1,
        ws_compression=ws_compression,
    )
    if workers > 1:
        if not database_url(db).startswith("postgresql"):
            raise typer.BadParameter("--workers above 1 needs --db postgresql://…")
        _serve_workers(db, config, host, port, workers, open_browser, forwarded_allow_ips)
        return
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    web_app = create_app(db, config)
    server = uvicorn.Server(ServerSettings(web_app, host, port, forwarded_allow_ips))
    threading.Thread(
        target=_announce, args=(server, web_app, database_url(db), open_browser), daemon=True
    ).start()
    _tune_interpreter()
    server.run()


GC_YOUNG_EVERY = 10_000
"""Container objects made (less those freed) between two collections of the young
generation (Python's default is 700)."""
GC_OLD_EVERY = 14
"""Collections of the middle generation between two full collections (Python's default
is 10): a full collection after about 1.4 million new container objects, as with 200
when the young generation was collected every 700."""
SWITCH_INTERVAL = 0.0005
"""Seconds a thread may hold Python's GIL while another waits for it (default 0.005)."""


def _tune_interpreter() -> None:
    """The garbage collector (see :func:`_tune_garbage_collector`) and the GIL's switch
    interval, both for the event loop's latency.

    The event loop gives the GIL up at every system call (a socket send, ``epoll``, a
    database driver's send). A worker thread doing database work through SQLAlchemy
    takes it then, and the loop waited up to the switch interval — 5 ms by default, a
    few times per slow step — before it could go on: under load many steps of the loop
    took 10-25 ms for that alone. A tenth of it bounds each such wait to half a
    millisecond; the threads' work is short, so switching more often costs little.
    """
    _tune_garbage_collector()
    sys.setswitchinterval(SWITCH_INTERVAL)


def _tune_garbage_collector() -> None:
    """Keep Python's full garbage collections short and rare: they stop the event loop.

    A server with a few hundred games holds a few hundred thousand objects, and each full
    collection looks at all of them: under load it paused a process for 50-190 ms
    several times a minute, a large part of the tail of the action-to-state latency.
    What start-up made (modules, classes, functions: about 130,000 objects) lives as
    long as the server, so it is frozen out of the collections (about halving them).
    A game that ends is freed by reference counting (no cycle holds it) and short-lived
    cycles die young, so full collections are needed rarely: after some 1.4 million new
    container objects instead of 70,000 (about one every four minutes per process
    at 500 games; a full collection still takes 50-230 ms there, as it looks at every
    live game's events). The cycles left meanwhile (asyncio's closed connections) are
    small: peak memory did not grow over five minutes at 500 games.

    The young generation is collected after 10,000 new container objects instead of 700:
    under load hardly any of them is cyclic garbage (a few hundred objects found in a
    run of thousands of actions), and what a young collection looks at is mostly what
    the games still hold, so collecting it less often leaves the objects that die
    meanwhile (a move's futures and frames, a message being built) out of it; the full
    collections come as often as before (:data:`GC_OLD_EVERY`). Under
    ``benchmarks/bench_actions.py`` the collector's own CPU time (timed by its
    callbacks) fell from 4.1-5.1 % of the server's to 1.8-2.8 %, with 15 times fewer
    young collections; one takes a few milliseconds then (docs/server.md).
    """
    gc.collect()
    gc.freeze()
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_EVERY, middle, GC_OLD_EVERY)


def _serve_workers(
    db: str | None,
    config: Any,
    host: str,
    port: int,
    workers: int,
    open_browser: bool,
    forwarded_allow_ips: str | None,
) -> None:
    """Bind the port once and serve it from ``workers`` processes sharing one PostgreSQL
    (each game has one owner; see monopoly.web.cluster). A worker that dies is started
    again; the others take its games over meanwhile."""
    import multiprocessing
    import signal
    import socket
    import time
    import warnings

    from monopoly.web.storage import database_url

    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    bound = sock.getsockname()[1]
    address = f"http://{_shown_host(host)}:{bound}/"
    context = multiprocessing.get_context("spawn")
    # The workers share no named semaphores, so multiprocessing's helper process has
    # nothing to clean up: that it was killed and started again is not worth a warning.
    warnings.filterwarnings("ignore", message="resource_tracker: process died unexpectedly")

    def spawn() -> tuple[Any, Any]:
        """A worker and the pipe on which it says that it serves (a pipe, not an Event:
        multiprocessing's semaphores are tracked by its helper process, and when that
        process or a worker was killed, the helper printed a KeyError traceback for every
        semaphore freed afterwards)."""
        reader, writer = context.Pipe(duplex=False)
        process = context.Process(
            target=_worker,
            args=(db, config, sock, address, writer, forwarded_allow_ips),
            daemon=True,
        )
        process.start()
        writer.close()
        return process, reader

    _prepare_tables(db)
    started = [spawn() for _ in range(workers)]
    for process, ready in started:  # the address is printed once every worker serves
        if not _serves(process, ready, time.monotonic() + 120):
            raise fail(f"a server process ended while starting (exit code {process.exitcode})")
    processes = [process for process, _ready in started]
    readies = [ready for _process, ready in started]
    print(
        f"MONOPOLY is served at {address}  (database: {_safe(database_url(db))}, "
        f"{workers} processes)",
        flush=True,
    )
    print("Press Ctrl+C to stop.", flush=True)
    if open_browser:
        webbrowser.open(address)
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping:
        time.sleep(0.2)
        for index, process in enumerate(processes):
            if not process.is_alive() and not stopping:
                print(
                    f"worker {process.pid} ended ({process.exitcode}); starting another", flush=True
                )
                readies[index].close()
                processes[index], readies[index] = spawn()
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(10)


def _serves(process: Any, ready: Any, deadline: float) -> bool:
    """Wait until the worker says it serves (False: it ended first)."""
    import time

    while time.monotonic() < deadline:
        if ready.poll(0.2):
            try:
                return bool(ready.recv())
            except EOFError:  # it ended without a word
                return False
        if not process.is_alive():
            return False
    return False


def _prepare_tables(db: str | None) -> None:
    """Make the tables once, before the workers start: several processes creating them at
    once on a new database collide (PostgreSQL's catalogue refuses the second)."""
    from monopoly.web.cluster import prepare_lease_table
    from monopoly.web.storage import Store

    store = Store(db)
    try:
        if store.error is not None:
            raise fail(f"the database cannot be used: {store.error}")
        prepare_lease_table(store.url)
    finally:
        store.close()


def _worker(
    db: str | None,
    config: Any,
    sock: Any,
    address: str,
    ready: Any,
    forwarded_allow_ips: str | None,
) -> None:
    import logging
    import os
    import time

    import uvicorn

    from monopoly.web.app import create_app
    from monopoly.web.connections import ServerSettings

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    web_app = create_app(db, config)
    web_app.state.hub.listen_url = address
    server = uvicorn.Server(ServerSettings(web_app, "", 0, forwarded_allow_ips))

    def tell_when_started() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.started:
            print(f"worker {os.getpid()} serves", flush=True)
        ready.send(server.started)
        ready.close()

    threading.Thread(target=tell_when_started, daemon=True).start()
    _tune_interpreter()
    server.run(sockets=[sock])


def _announce(server: object, web_app: object, db_url: str, open_browser: bool) -> None:
    """Print the address once the server listens (the port may have been chosen by the OS)."""
    import time

    import uvicorn

    assert isinstance(server, uvicorn.Server)
    while not server.started:
        if server.should_exit:
            return
        time.sleep(0.05)
    host, port = server.servers[0].sockets[0].getsockname()[:2]
    address = f"http://{_shown_host(host)}:{port}/"
    hub = web_app.state.hub  # type: ignore[attr-defined]
    hub.listen_url = address
    print(f"MONOPOLY is served at {address}  (database: {_safe(db_url)})", flush=True)
    if hub.config.public_url:
        print(f"Players use {hub.public_url}", flush=True)
    if hub.config.testing:
        print("Testing: new games may choose their seed and start position.", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    if open_browser:
        webbrowser.open(address)


def _shown_host(host: str) -> str:
    """The listening address as a URL's host (every address: loopback; IPv6 in brackets)."""
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def _safe(url: str) -> str:
    """The database URL without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://…@{rest.rsplit('@', 1)[1]}"
    return url
