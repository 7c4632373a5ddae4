"""Every level plays complete games on every edition and rule set, every action checked
(``game.apply`` raises on anything illegal), and games between them do not stall."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest

from monopoly.core import events as ev
from monopoly.core.actions import ProposeTrade
from monopoly.core.editions import edition_keys
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from tests.bots.drive import LEVELS, bots_for, play_checked

RULE_SETS: dict[str, tuple[str, dict[str, Any]]] = {
    "standard": ("standard", {}),
    "short": ("short", {}),
    "speed": ("speed", {}),
    "short+speed": ("short+speed", {}),
    "pot+double_go+moving_utility": (
        "standard",
        {"free_parking_pot": True, "double_go_salary": True, "utility_roll": "moving"},
    ),
    "no_auctions+claim_rent": ("standard", {"no_auctions": True, "rent_must_be_claimed": True}),
    "speed+claim_rent+min_bid": (
        "speed",
        {"rent_must_be_claimed": True, "auction_minimum_bid": 10},
    ),
    "poor": ("standard", {"starting_cash": 500}),
}


def rules(name: str, turn_limit: int = 400) -> RuleSet:
    preset, options = RULE_SETS[name]
    return RuleSet.named(preset, turn_limit=turn_limit, **options)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("rule_set", list(RULE_SETS))
def test_level_plays_whole_games_on_every_rule_set(level: str, rule_set: str) -> None:
    for players in (2, 4):
        game = Game.new(players, "classic", rules(rule_set), seed=players * 31 + len(rule_set))
        play_checked(game, bots_for([level] * players, seed=players))
        assert game.over and game.winners


@pytest.mark.parametrize("edition", edition_keys())
def test_mixed_levels_play_every_edition(edition: str) -> None:
    for number, rule_set in enumerate(("standard", "short+speed", "no_auctions+claim_rent")):
        lineup = ["hard", "normal", "easy", "random", "hard"][: 3 + number]
        game = Game.new(len(lineup), edition, rules(rule_set), seed=number, language="de")
        play_checked(game, bots_for(lineup, seed=number))
        assert game.over


def test_rent_is_always_claimed_when_it_must_be() -> None:
    # R-RENT-5 option: computer players always claim.
    game = Game.new(3, "classic", rules("no_auctions+claim_rent"), seed=5)
    play_checked(game, bots_for(["hard", "normal", "easy"]))
    owed = sum(1 for e in game.events if isinstance(e, ev.RentOwed))
    forfeited = sum(1 for e in game.events if isinstance(e, ev.RentForfeited))
    assert owed > 20
    assert forfeited == 0


@pytest.mark.parametrize("seed", range(3))
def test_no_endless_trading_or_mortgage_flipping(seed: int) -> None:
    game = Game.new(4, "classic", rules("standard", 1000), seed=seed)
    actions: list[tuple[int, Any]] = []
    seen: list[tuple[str, Any]] = []
    play_checked(game, bots_for(["hard", "normal", "hard", "normal"], seed), seen=seen)
    assert game.over
    offers = Counter(action for _kind, action in seen if isinstance(action, ProposeTrade))
    assert not offers or max(offers.values()) <= 3, offers.most_common(1)
    turn = 0
    for event in game.events:
        if isinstance(event, ev.TurnStarted):
            turn = event.turn
        elif isinstance(event, ev.PropertyMortgaged | ev.MortgageLifted):
            actions.append((turn, event))
    for (turn_a, a), (turn_b, b) in itertools.pairwise(actions):
        flipped = isinstance(a, ev.PropertyMortgaged) and isinstance(b, ev.MortgageLifted)
        assert not (flipped and turn_a == turn_b and a.space == b.space), (a, b)
