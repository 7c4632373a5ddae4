"""The parts of a game session (its seating, its computer players) hold the session
weakly: the session owns them, and a strong reference back would make a cycle, so a
finished game would stay in memory until Python's garbage collector found it (and each
full collection under load paused the server for tens of milliseconds)."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .session import GameSession


class SessionPart:
    def __init__(self, session: GameSession) -> None:
        self._session = weakref.ref(session)

    @property
    def session(self) -> GameSession:
        session = self._session()
        if session is None:
            raise RuntimeError("the game session is gone")
        return session
