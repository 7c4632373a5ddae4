"""Every message a game's clients get, in a form two runs (and two builds) can compare.

The server's per-action messages are built by compiled modules in the mypyc build (the
narration, the notes, the table and its patch, the seat's answers): its players and
spectators must get the same texts as from the pure Python build
(``tests/test_compiled_build.py`` compares the :func:`digest` of both). Games are played
in process through :class:`GameSession`, a computer deciding for every seat, with a
player taking deltas, the same seat taking whole states, and a spectator, in English
and in German, on two editions.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import tempfile
from pathlib import Path
from typing import Any

from monopoly.web.client import Client
from monopoly.web.hub import Hub
from monopoly.web.limits import Limits
from monopoly.web.lobby import parse_new_game
from monopoly.web.session import GameSession, ServerConfig
from monopoly.web.storage import Store

GAMES = (
    ("classic", "en", "standard", "cat", ["random", "easy", "normal"]),
    ("cthulhu", "de", "short+speed", "necronomicon", ["random", "hard", "easy", "normal"]),
)
"""Edition, language, rules, the person's token and the computer levels of the seats
after hers (the random player also mortgages and lifts mortgages, so refused steps
change)."""
ACTIONS = 400
"""The most actions played per game."""
NUMBERED = ("seq", "base")
"""A message's table numbers: they start anywhere (states.TableNumbers), so they are
compared from the game's first."""


class Recorder:
    """A client's socket: keeps the messages it is sent."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send_text(self, text: str) -> None:
        self.texts.append(text)


async def connect(session: GameSession, token: str | None, deltas: bool) -> Recorder:
    socket = Recorder()
    client = Client(socket.send_text, limits=session.hub.config.limits)
    asyncio.get_running_loop().create_task(client.pump())
    hello = {"type": "hello", "token": token, "deltas": deltas}
    await session.handle(client, json.dumps(hello))
    return socket


async def play(
    hub: Hub, edition: str, language: str, rules: str, token: str, bots: list[str]
) -> list[str]:
    """Every message of one game's three clients, in the order each got them."""
    seats = [{"type": "human"}] + [{"type": "bot", "level": level} for level in bots]
    body = {"name": "Ann", "token": token, "seats": seats, "seed": 7, "edition": edition}
    body |= {"language": language, "rules": {"preset": rules}}
    session, secret = await hub.create(parse_new_game(body, hub.levels, testing=True))
    await session.start(secret)
    sockets = [
        await connect(session, secret, True),
        await connect(session, secret, False),
        await connect(session, None, True),
    ]
    game = session.game
    assert game is not None
    for _ in range(ACTIONS):
        if game.over or game.decision is None:
            break
        session.computer.move(game.decision.seat)
        async with session.lock:
            await session.publish()
        await asyncio.sleep(0)  # the clients' pumps send what publish queued
    await asyncio.sleep(0.01)
    session.stop()
    return [text for socket in sockets for text in socket.texts]


def comparable(texts: list[str]) -> list[Any]:
    """The ``state`` and ``delta`` messages (a connection's ``welcome`` and the
    ``presence`` of the others come as the connections do), their table numbers counted
    from the first one sent."""
    messages = [json.loads(text) for text in texts]
    messages = [m for m in messages if m["type"] in ("state", "delta")]
    first = min(m["seq"] for m in messages if isinstance(m.get("seq"), int))
    for message in messages:
        for key in NUMBERED:
            if isinstance(message.get(key), int):
                message[key] -= first
    return messages


async def all_messages(folder: str) -> list[list[Any]]:
    # The computers' own task never moves: the loop above moves for every seat.
    config = ServerConfig(
        bot_delay=1e9, testing=True, limits=Limits(address_factor=1e9, address_rates={})
    )
    hub = Hub(Store(str(Path(folder) / "messages.sqlite3")), config)
    try:
        return [comparable(await play(hub, *game)) for game in GAMES]
    finally:
        hub.store.close()


def messages() -> list[list[Any]]:
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(all_messages(folder))


def digest() -> str:
    """The digest of every message of :data:`GAMES` (for the compiled-build comparison)."""
    return hashlib.sha256(json.dumps(messages(), sort_keys=True).encode()).hexdigest()


def test_the_games_send_what_the_comparison_needs() -> None:
    """The compared games show narration in both languages, notes, refused steps with
    their reasons, deltas and whole states; and two runs send the same messages."""
    first, again = messages(), messages()
    assert first == again
    english, german = first
    for game in first:
        kinds = {message["type"] for message in game}
        assert {"state", "delta"} <= kinds
        assert len(game) > 300
    events = [e for game in first for m in game for e in m.get("events", [])]
    assert any(e.get("why") for e in events), "some events are explained"
    texts = {language: [e["text"] for m in game for e in m.get("events", [])]
             for language, game in (("en", english), ("de", german))}  # fmt: skip
    assert any(" rolls " in text for text in texts["en"])
    assert any(" würfelt " in text for text in texts["de"])
    refused = [r for game in first for m in game for r in m.get("refused_actions", [])]
    assert refused and all(set(r["reason_text"]) == {"en", "de"} for r in refused)
