"""The simulator's landing count: where each roll leaves its player.

The games themselves are played by the one seat loop of the computer players,
:class:`~monopoly.bots.driver.SeatDriver`; :class:`LandingCount` watches its answers.
"""

from __future__ import annotations

from collections.abc import Sequence

from monopoly.bots.base import Bot
from monopoly.bots.driver import SeatDriver
from monopoly.core.actions import Action, Roll, RollForDoubles
from monopoly.core.game import Game

from .texts import JAIL_SLOT, SLOTS

MAX_ACTIONS = 1_000_000
"""A game still running after this many actions ends as "unfinished"."""


class LandingCount:
    """Landings per slot (the 40 spaces and "in jail") of the rolls of one game.

    A roll's landing is taken when the next roll starts (or the game ends): by then
    everything the roll caused — including a Speed Die move that waits for the buy
    decision of the first space — is resolved.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.counts = [0] * SLOTS
        self.roller = -1

    def seen(self, seat: int, action: Action) -> None:
        """The driver's ``observe``: a roll starts, so the last roll has landed."""
        if isinstance(action, Roll | RollForDoubles):
            self.land()
            self.roller = seat

    def land(self) -> None:
        roller = self.roller
        if roller >= 0:
            jailed = self.game.jail_turns[roller] >= 0
            self.counts[JAIL_SLOT if jailed else self.game.position[roller]] += 1
        self.roller = -1


def play_counting(game: Game, bots: Sequence[Bot], max_actions: int = MAX_ACTIONS) -> list[int]:
    """Let ``bots`` play ``game`` through the seat driver (``bots[seat]`` plays seat)
    and count where each roll lands."""
    landings = LandingCount(game)
    SeatDriver(game, bots.__getitem__, observe=landings.seen).run(max_actions)
    landings.land()
    return landings.counts
