"""The server's cost of one action after the engine has made it: ``GameSession.publish``
(store the new record entries on SQLite, build every client's message, serialise it)
and the sending of those messages (per-message deflate as uvicorn's WebSockets do it),
with one seated player and one spectator connected, in process.

    .venv/bin/python benchmarks/bench_publish.py [--actions 3000] [--no-deflate] [--whole]

Games as in the load test (benchmarks/locustfile.py: one person, three easy computer
players, the short rules with a 60-turn limit), played by computer players for every
seat, game after game, until ``--actions`` actions are made. The computers' moves are
timed apart and left out. CPU is the process's (the writer thread included). Figures are
in docs/server.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
import zlib
from pathlib import Path

from monopoly.web.client import Client
from monopoly.web.hub import Hub
from monopoly.web.limits import Limits
from monopoly.web.lobby import parse_new_game
from monopoly.web.session import GameSession, ServerConfig
from monopoly.web.storage import Store

GAME = {
    "name": "Load",
    "token": "cat",
    "seats": [{"type": "human"}] + [{"type": "bot", "level": "easy"}] * 3,
    "rules": {"preset": "short", "options": {"turn_limit": 60}},
}


class Socket:
    """A WebSocket's sending side: per-message deflate like websockets' (2^12 window,
    memLevel 5, context kept between messages), counting the bytes."""

    def __init__(self, deflate: bool) -> None:
        self.compressor = zlib.compressobj(wbits=-12, memLevel=5) if deflate else None
        self.messages = 0
        self.text_bytes = 0
        self.wire_bytes = 0

    async def send_text(self, text: str) -> None:
        data = text.encode()
        self.messages += 1
        self.text_bytes += len(data)
        if self.compressor is not None:
            data = self.compressor.compress(data) + self.compressor.flush(zlib.Z_SYNC_FLUSH)
        self.wire_bytes += len(data)


async def play(session: GameSession, budget: int, timing: dict[str, float]) -> int:
    """Play ``session`` to its end (or ``budget`` actions): a computer decides for every
    seat, then the session publishes; returns the actions made."""
    game = session.game
    assert game is not None
    made = 0
    while not game.over and made < budget:
        decision = game.decision
        assert decision is not None
        started = time.process_time()
        session.computer.move(decision.seat)
        timing["moves"] += time.process_time() - started
        made += 1
        started = time.process_time()
        async with session.lock:
            await session.publish()
        await asyncio.sleep(0)  # the clients' pumps send what publish queued
        await asyncio.sleep(0)
        timing["publish"] += time.process_time() - started
    return made


async def connect(session: GameSession, socket: Socket, token: str | None, deltas: bool) -> Client:
    client = Client(socket.send_text, limits=session.hub.config.limits)
    asyncio.get_running_loop().create_task(client.pump())
    hello = {"type": "hello", "token": token, **({"deltas": True} if deltas else {})}
    await session.handle(client, json.dumps(hello))
    return client


async def bench(actions: int, deflate: bool, deltas: bool, folder: str) -> None:
    # The computers' own task never moves; every connection comes from one address.
    config = ServerConfig(
        bot_delay=1e9, testing=True, limits=Limits(address_factor=1e9, address_rates={})
    )
    hub = Hub(Store(str(Path(folder) / "bench.sqlite3")), config)
    player, watcher = Socket(deflate), Socket(deflate)
    timing = {"moves": 0.0, "publish": 0.0}
    made = games = 0
    while made < actions:
        new = parse_new_game({**GAME, "seed": 1000 + games}, hub.levels, testing=True)
        session, secret = await hub.create(new)
        await session.start(secret)
        clients = [
            await connect(session, player, secret, deltas),
            await connect(session, watcher, None, deltas),
        ]
        await asyncio.sleep(0.01)
        player.messages = watcher.messages = 0  # count the messages of actions only
        player.text_bytes = player.wire_bytes = watcher.text_bytes = watcher.wire_bytes = 0
        made += await play(session, actions - made, timing)
        games += 1
        for client in clients:
            session.leave(client)
            client.close()
        session.stop()
    hub.store.close()
    per = 1e6 / made
    print(
        f"{made} actions in {games} games: publish and send {timing['publish'] * per:.0f} µs CPU"
        f" per action ({'deltas' if deltas else 'whole states'}, deflate"
        f" {'on' if deflate else 'off'}); the computers' moves"
        f" {timing['moves'] * per:.0f} µs"
    )
    for name, socket in (("player", player), ("spectator", watcher)):
        count = max(1, socket.messages)
        print(
            f"  {name}, last game: {socket.messages} messages, {socket.text_bytes / count:.0f}"
            f" bytes of JSON each, {socket.wire_bytes / count:.0f} sent"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=3000, help="actions to make (3000)")
    parser.add_argument("--no-deflate", action="store_true", help="send uncompressed")
    parser.add_argument("--whole", action="store_true", help="clients take whole states")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(bench(args.actions, not args.no_deflate, not args.whole, folder))


if __name__ == "__main__":
    main()
