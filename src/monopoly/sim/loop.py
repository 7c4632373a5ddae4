"""The simulator's landing count: where each roll leaves its player.

The games are played by the one seat loop of the computer players,
:class:`~monopoly.bots.driver.SeatDriver`; :class:`LandingCount` is that loop, watching
the answers for rolls.
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


class LandingCount(SeatDriver):
    """The seat driver of ``bots[seat]`` for each seat, counting landings per slot (the
    spaces and "in jail") of the rolls of the game.

    A roll's landing is taken when the next roll starts (or the game ends): by then
    everything the roll caused — including a Speed Die move that waits for the buy
    decision of the first space — is resolved.
    """

    def __init__(self, game: Game, bots: Sequence[Bot]) -> None:
        super().__init__(game, bots.__getitem__)
        self.bots = list(bots)
        self.counts = [0] * SLOTS
        self.roller = -1

    def player(self, seat: int) -> Bot:
        return self.bots[seat]

    def answered(self, seat: int, action: Action) -> None:
        if isinstance(action, (Roll, RollForDoubles)):  # the last roll has landed
            self.land()
            self.roller = seat

    def land(self) -> None:
        roller = self.roller
        if roller >= 0:
            jailed = self.game.jail_turns[roller] >= 0
            self.counts[JAIL_SLOT if jailed else self.game.position[roller]] += 1
        self.roller = -1


def play_counting(game: Game, bots: Sequence[Bot], max_actions: int = MAX_ACTIONS) -> list[int]:
    """Let ``bots`` play ``game`` (``bots[seat]`` plays seat) and count where each roll
    lands."""
    driver = LandingCount(game, bots)
    driver.run(max_actions)
    driver.land()
    return driver.counts
