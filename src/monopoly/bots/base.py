"""The interface every computer player implements, and how to find one by name.

A bot answers ``decide(view, legal)``: ``view`` is the :class:`PlayerView` of its seat
(no deck order, no random generator), ``legal`` the answers to the pending decision
(``Game.decision_actions()``). A bot may instead return any other action the rules
allow it now — building, selling, mortgaging, lifting a mortgage, proposing a trade —
checked with ``view.is_legal``; the game then asks it again.

Levels are registered by name (``easy``, ``normal``, ``hard``, ``expert``, ``learned``,
``random``); any other spec is an import path ``package.module:ClassName`` whose class
takes a ``seed``, or the path of a core-mode policy file (``*.npz``, played like the
``learned`` level: :mod:`monopoly.rl.learned`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from monopoly.core.actions import Action
from monopoly.core.errors import MonopolyError
from monopoly.core.game import Game
from monopoly.core.view import PlayerView

from .driver import SeatDriver


@runtime_checkable
class Bot(Protocol):
    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action: ...


BotFactory = Callable[[int], Bot]
LEVELS: dict[str, BotFactory] = {}


def register(name: str, factory: BotFactory) -> None:
    LEVELS[name] = factory


class BotError(MonopolyError, ValueError):
    """A bot spec that names no level and no importable class."""


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from a level name, an import path ``module:Class`` or a policy file."""
    load_levels()
    if spec in LEVELS:
        return LEVELS[spec](seed)
    if spec.endswith(".npz"):
        return _policy_bot(spec, seed)
    if ":" not in spec:
        raise BotError(
            f"unknown bot {spec!r}: use {', '.join(sorted(LEVELS))}, module:Class "
            "or a policy file (.npz)"
        )
    module_name, _, class_name = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise BotError(f"cannot import {module_name!r} for bot {spec!r}: {error}") from None
    factory = getattr(module, class_name, None)
    if factory is None:
        raise BotError(f"{module_name!r} has no {class_name!r}")
    bot = factory(seed=seed)
    if not isinstance(bot, Bot):
        raise BotError(f"{spec} has no decide(view, legal) method")
    return bot


def _policy_bot(path: str, seed: int) -> Bot:
    from monopoly.rl.learned import LearnedBot, PolicyFileError

    try:
        return LearnedBot(seed, path)
    except PolicyFileError as error:
        raise BotError(str(error)) from None


def load_levels() -> None:
    if not LEVELS:
        from . import levels  # noqa: F401  (registers the levels)


def play(
    game: Game,
    bots: Sequence[Bot],
    max_actions: int = 1_000_000,
    observe: Callable[[int, Action], None] | None = None,
) -> Game:
    """Let bots play ``game`` to its end (or ``max_actions``); ``bots[seat]`` plays seat.

    Through the one :class:`~monopoly.bots.driver.SeatDriver`, with its strict policy:
    a bot's illegal answer raises. ``observe(seat, action)`` is told each answer first.
    """
    SeatDriver(game, bots.__getitem__, observe=observe).run(max_actions)
    return game
