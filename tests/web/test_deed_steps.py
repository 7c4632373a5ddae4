"""A seat's steps on its deeds (free actions and refused steps with their reasons) are
kept between changes and judged again only when something they are judged from changed
(``Game.free_actions_key``). Kept steps must be exactly what judging afresh gives, at
every moment of many games: random computer players build, sell, mortgage, lift, trade
and go bankrupt; a building shortage (R-BUILD-6) and hotel breakdowns (R-BUILD-4) are
settled; debts are raised (R-DEBT-3); rent claims wait (``rent_must_be_claimed``)."""

from __future__ import annotations

import operator

import pytest

from monopoly.bots.base import play
from monopoly.bots.random_bot import RandomBot
from monopoly.core.actions import Action, Build
from monopoly.core.game import Game
from monopoly.core.memo import FreeActionsMemo
from monopoly.core.rules import RuleSet
from monopoly.web.views import DeedSteps, deed_steps, game_narrators
from tests.quick import sized
from tests.scenario import shortage_game


class Compared:
    """Compares kept and fresh steps of every active seat before each action."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.narrators = game_narrators(game)
        self.kept: FreeActionsMemo[DeedSteps] = FreeActionsMemo()
        self.last: dict[int, DeedSteps] = {}
        """Per seat: the steps the memo gave last time."""
        self.states = 0
        self.reused = 0

    def __call__(self, seat: int, action: Action) -> None:
        game = self.game
        self.states += 1
        for each in range(game.players):
            if not game.active[each]:
                continue
            kept = deed_steps(game, each, self.narrators, self.kept)
            assert kept == deed_steps(game, each, self.narrators), (len(game.record), each)
            # The lists kept, not the pair holding them: the compiled build passes a
            # fixed-size tuple unboxed and makes a new pair of the same lists on return.
            last = self.last.get(each)
            self.reused += last is not None and all(map(operator.is_, last, kept))
            self.last[each] = kept


def play_compared(game: Game, seed: int, actions: int = sized(3000, 1000)) -> Compared:
    compared = Compared(game)
    bots = [RandomBot(seed=seed * 10 + seat, trade_rate=0.2) for seat in range(game.players)]
    play(game, bots, max_actions=actions, observe=compared)
    return compared


@pytest.mark.parametrize("rules", ["standard", "short", "speed"])
@pytest.mark.parametrize("seed", range(3))
def test_kept_steps_are_the_steps_judged_afresh(rules: str, seed: int) -> None:
    game = Game.new(["Ann", "Ben", "Cy", "Di"], "classic", rules, seed=seed)
    compared = play_compared(game, seed)
    assert compared.states > 300
    assert compared.reused > compared.states, "most changes leave a seat's steps as they were"


def test_kept_steps_with_rent_to_claim() -> None:
    rules = RuleSet.named("standard").with_options(rent_must_be_claimed=True)
    game = Game.new(["Ann", "Ben", "Cy"], "classic", rules, seed=4)
    assert play_compared(game, 4).states > 300


def test_kept_steps_through_a_building_shortage() -> None:
    game = shortage_game()
    game.apply(Build(0, (1, 3)))  # R-BUILD-6: the others are asked what they want
    assert play_compared(game, 5).states > 100
