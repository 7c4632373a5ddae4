"""Plugging in a computer player by import path, and the errors for bad specs."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from monopoly.bots.base import BotError, make_bot, play
from monopoly.bots.easy import EasyBot
from monopoly.bots.hard import HardBot
from monopoly.bots.normal import NormalBot
from monopoly.bots.random_bot import RandomBot
from monopoly.core.actions import Action, Mortgage, SellBuilding
from monopoly.core.game import Game
from monopoly.core.view import PlayerView


class FirstLegalBot:
    """The tiniest plug-in: the first listed answer; in debt (no answer listed while
    cash can still be raised) the first sale or mortgage."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.decisions = 0

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        self.decisions += 1
        if legal:
            return legal[0]
        return next(a for a in view.free_actions() if isinstance(a, SellBuilding | Mortgage))


class NoDecide:
    def __init__(self, seed: int = 0) -> None:
        self.seed = seed


def test_levels_are_registered() -> None:
    assert isinstance(make_bot("easy"), EasyBot)
    assert isinstance(make_bot("normal"), NormalBot)
    assert isinstance(make_bot("hard"), HardBot)
    assert isinstance(make_bot("random"), RandomBot)


def test_a_plug_in_by_import_path_plays_a_game() -> None:
    bot = make_bot("tests.bots.test_plugins:FirstLegalBot", 42)
    assert isinstance(bot, FirstLegalBot) and bot.seed == 42
    game = Game.new(2, rules="standard", seed=3)
    game.rules = game.rules.with_options(turn_limit=200)
    play(game, [bot, make_bot("normal", 1)])
    assert game.over and bot.decisions > 0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            "grandmaster",
            "unknown bot 'grandmaster': use easy, expert, hard, learned, normal, random, "
            "module:Class or a policy file (.npz)",
        ),
        ("no_such_module_xyz:Bot", "cannot import 'no_such_module_xyz'"),
        ("tests.bots.test_plugins:Missing", "has no 'Missing'"),
        ("tests.bots.test_plugins:NoDecide", "has no decide(view, legal) method"),
    ],
)
def test_bad_specs_give_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(BotError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_bot(spec)
