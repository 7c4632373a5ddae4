"""A game's messages to everyone: the seated players at once, then the spectators in
slices that let the event loop breathe.

Sending one change to 1,000 spectators costs the server's one event loop about 30 ms
(a queue, a task step and a socket write each). Sent in one go, a player's action that
arrived meanwhile waited for all of it: with a crowd of 1,000 the players' p99 from
action to state went from 2.7 ms to 43 ms. So a message to everyone (a change, the
presence, a chat line, the end of the game) goes to the players' connections at once,
and to the spectators from one task per game (:class:`SpectatorFanout`), :data:`SLICE`
connections at a time with a turn of the event loop between two slices: a player's
message waits for one slice at most, and the players' answers are sent first. A slice
also waits while the game's lock is held — an action being carried out and written, by
a player or a computer: on SQLite the write runs in a thread that needs Python's GIL
back after each call into the database, and a slice running meanwhile would keep it
for up to the interpreter's switch interval (5 ms) each time.

Each text is framed once for the whole crowd (a WebSocket frame from a server is not
masked, so every socket gets the same bytes) and the frame is written straight to each
spectator's socket (connections.py), below the ASGI layers, when nothing else waits
for that spectator; otherwise it waits in the spectator's queue behind what is there.

Order is kept: the spectators' messages wait in one queue per game, each for the
spectators who were there when it was sent (one who arrives later gets the whole table
with the chat so far instead). What a spectator is sent on its own — its full state
after ``hello`` or ``sync`` — goes at once and may overtake a change still queued; a
change is therefore sent to a spectator only if its table is newer than the last one
that spectator got (tables are numbered by the game: ``seq``, see states.py).

Changes are never merged for a spectator who lags behind: each carries its events for
the log. A spectator that does not read is dropped by its own queue's bounds
(client.py), and the whole queue stays short because a fan-out takes a fraction of the
time between two changes.

With several server processes (cluster.py) the game's owner sends a message to everyone
connected through another process once to that process (a :class:`Relay`), which sends
it on to its own connections with :func:`to_everyone` as the owner does to its own.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Protocol

from .client import Client
from .connections import text_frame
from .states import StateTexts

SLICE = 50
"""Spectators sent a message between two turns of the event loop (under a millisecond
of work with the frame written straight to the sockets): what a player's message may
wait behind a crowd."""

Message = StateTexts | str
"""A change (its texts, one per seat and base) or a message serialised once for all."""


def text_for(client: Client, message: Message) -> str | None:
    """The text of ``message`` for ``client``; None for a change whose table is not
    newer than the last one ``client`` got."""
    if isinstance(message, str):
        return message
    if client.seq is not None and client.seq >= message.seq:
        return None
    return message.text_for(client)


def send_to(client: Client, message: Message) -> None:
    """Queue ``message`` for ``client`` (a change only if ``client`` has an older table)."""
    text = text_for(client, message)
    if text is not None:
        client.send_text(text)


class Frames(dict[str, bytes]):
    """The WebSocket frame of each text of one message, made once for all spectators."""

    def __missing__(self, text: str) -> bytes:
        frame = self[text] = text_frame(text)
        return frame


class Relay(Protocol):
    """The way to a game's connections through another server process (cluster.py)."""

    def send(self, game_id: str, message: Message, clients: list[Client]) -> None:
        """Send ``message`` to ``clients`` (all connected through this relay's process)."""


def to_everyone(message: Message, clients: list[Client], spectators: SpectatorFanout) -> None:
    """Send ``message`` to the players among ``clients`` now, to the spectators in
    slices from the next turn of the event loop on."""
    crowd = []
    for client in clients:
        if client.seat is None:
            crowd.append(client)
        else:
            send_to(client, message)
    spectators.send(message, crowd)


class SpectatorFanout:
    """A game's messages to its spectators, sent in order, :data:`SLICE` at a time."""

    def __init__(self, game_lock: asyncio.Lock) -> None:
        self._game_lock = game_lock
        self._waiting: deque[tuple[Message, list[Client]]] = deque()
        self._task: asyncio.Task[None] | None = None

    def send(self, message: Message, spectators: list[Client]) -> None:
        """Send ``message`` to ``spectators`` after what waits already (from the next turn
        of the event loop on: the players' messages of this turn go first)."""
        if not spectators:
            return
        self._waiting.append((message, spectators))
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            while self._waiting:
                message, spectators = self._waiting.popleft()
                frames = Frames()
                for start in range(0, len(spectators), SLICE):
                    if start:
                        await asyncio.sleep(0)  # the players' messages come in between
                    async with self._game_lock:  # after an action under way
                        for client in spectators[start : start + SLICE]:
                            text = text_for(client, message)
                            if text is not None:
                                client.send_frame(text, frames[text])
        finally:
            if self._task is asyncio.current_task():  # not a newer one after stop()
                self._task = None

    @property
    def busy(self) -> bool:
        """Messages still wait to be sent."""
        return self._task is not None

    def stop(self) -> None:
        """Forget what waits (the game leaves memory)."""
        self._waiting.clear()
        if self._task is not None:
            self._task.cancel()
            self._task = None
