"""Helpers for the bot tests: bots playing a game through the seat driver, whose strict
policy raises at a bot's first illegal answer."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from monopoly.bots.base import Bot, make_bot
from monopoly.bots.driver import SeatDriver
from monopoly.bots.normal import NormalBot
from monopoly.core.actions import Action
from monopoly.core.game import Game
from monopoly.core.view import PlayerView

LEVELS = ("easy", "normal", "hard", "expert", "learned")


def bots_for(levels: Sequence[str], seed: int = 0) -> list[Bot]:
    return [make_bot(level, seed * 10 + seat) for seat, level in enumerate(levels)]


def play_checked(
    game: Game,
    bots: Sequence[Bot],
    max_actions: int = 200_000,
    until: Callable[[Game], bool] | None = None,
    seen: list[tuple[str, Action]] | None = None,
) -> Game:
    """Play until the game ends, ``until(game)`` holds or ``max_actions`` were made;
    ``seen`` collects (decision kind, action) of every answer."""

    def note(seat: int, action: Action) -> None:
        if seen is not None and game.decision is not None:
            seen.append((game.decision.kind, action))

    driver = SeatDriver(game, bots.__getitem__, observe=note)
    for _ in range(max_actions):
        if (until is not None and until(game)) or driver.step() is None:
            break
    return game


def each_normal_seat_after_each_action(
    game: Game, bots: Sequence[Bot], max_actions: int
) -> Iterator[tuple[int, NormalBot, PlayerView]]:
    """Play; after every action, each seat still in the game whose (normal or stronger)
    player has started it, with its view: for checks of what players keep."""
    driver = SeatDriver(game, bots.__getitem__)
    for _ in range(max_actions):
        if driver.step() is None:
            break
        for seat, bot in enumerate(bots):
            assert isinstance(bot, NormalBot)
            if game.active[seat] and hasattr(bot, "valuation"):
                yield seat, bot, driver.views[seat]
