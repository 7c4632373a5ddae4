"""The view sent to the deciding seat always carries a way to decide.

Over thousands of states of random games (every edition, every rule set, 2 to 6 seats,
with out-of-turn building, selling, mortgaging and trades mixed in), the message a seat's
browser gets when that seat must decide is built exactly as the server builds it
(:func:`views.decision_json` and :func:`views.seat_answers`) and checked for what the
decision panel shows: answer buttons, or, for a debtor who may not go bankrupt yet, the
sell and mortgage buttons that can still cover the debt (R-DEBT-1, R-DEBT-2). Every
control offered must be legal. A debtor is also shown what they owe, to whom, why and how
much they can still raise.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from monopoly.bots.random_bot import RandomBot
from monopoly.core.actions import Build, DeclineBuy, PassBid, Roll, action_from_json
from monopoly.core.debt import raisable
from monopoly.core.editions import edition_keys
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from monopoly.core.state import BID, RAISE_CASH, ROLL
from monopoly.web import views
from tests.quick import sized
from tests.scenario import start, waiting

RULE_SETS = ("standard", "short", "speed", "short+speed")
RAISING = ("sell", "mortgage")


def panel_controls(game: Game, seat: int) -> list[dict[str, Any]]:
    """The actions the decision panel of ``seat`` turns into buttons (decision.js)."""
    decision = views.decision_json(game)
    answers = views.seat_answers(game, seat)
    json.dumps([decision, answers])  # the message must be JSON
    assert decision is not None and decision["seat"] == seat
    controls = list(answers["decision_actions"])
    if decision["kind"] == RAISE_CASH:
        controls += [a for a in answers["free_actions"] if a["act"] in RAISING]
    return controls


def check_deciding_view(game: Game) -> str:
    """Assert the deciding seat's view offers a legal way to decide; returns the kind."""
    decision = game.decision
    assert decision is not None
    seat = decision.seat
    controls = panel_controls(game, seat)
    assert controls, f"seat {seat} must decide {decision} but its page shows no control"
    for control in controls:
        game.check(action_from_json(control))
    if decision.kind == RAISE_CASH:
        debt = views.decision_json(game)["debt"]  # type: ignore[index]
        assert debt["raisable"] == raisable(game, seat)
        bankrupt = any(c["act"] == "bankrupt" for c in controls)
        assert bankrupt == (debt["raisable"] < debt["amount"])  # R-DEBT-2
        if not bankrupt:
            assert any(c["act"] in RAISING for c in controls)
    return decision.kind


def out_of_turn(game: Game, bots: list[RandomBot], rng: random.Random, chaos: float) -> Any:
    """Now and then a random seat builds, sells, mortgages or proposes a trade."""
    if rng.random() > chaos:
        return None
    seat = rng.choice(game.active_seats())
    if rng.random() < 0.3:
        return bots[seat]._trade(game, seat)
    options = game.free_actions(seat)
    builds = [a for a in options if isinstance(a, Build)]
    if builds and rng.random() < 0.7:
        return rng.choice(builds)
    return rng.choice(options) if options else None


def play_and_check(
    edition: str, rules: RuleSet, players: int, seed: int, chaos: float
) -> Counter[str]:
    game = Game.new(players, edition, rules, seed=seed)
    rng = random.Random(seed)
    bots = [RandomBot(seed * 10 + i, trade_rate=0.3) for i in range(players)]
    kinds = Counter[str]()
    while not game.over:
        kinds[check_deciding_view(game)] += 1
        extra = out_of_turn(game, bots, rng, chaos)
        if extra is not None and game.is_legal(extra):
            game.apply(extra)
            continue
        decision = game.decision
        assert decision is not None
        game.apply(bots[decision.seat].choose(game, decision.seat))
    return kinds


@pytest.mark.parametrize("rules_name", RULE_SETS)
def test_the_deciding_seat_always_sees_a_way_to_decide(rules_name: str) -> None:
    """Thousands of random game states per rule set; no page without a control."""
    kinds = Counter[str]()
    for i, edition in enumerate(edition_keys() * sized(3, 2)):
        cash = (400, 700, 5000)[i % 3]  # debts, and rich players who empty the Bank
        rules = RuleSet.named(rules_name, turn_limit=60 + 40 * (i % 4), starting_cash=cash)
        chaos = 0.3 if cash > 1000 else 0.08
        kinds += play_and_check(edition, rules, 2 + i % 5, 4100 + i, chaos)
    assert sum(kinds.values()) >= 2000, kinds
    assert kinds[RAISE_CASH] >= 5, kinds  # the poor games do reach debts


def test_a_debtor_who_can_still_sell_is_shown_the_debt_and_every_way_to_raise() -> None:
    """R-DEBT-1: $200 rent on Boardwalk with $50 in hand and a house to sell: no answer
    to the debt itself, but sell and mortgage buttons, and what can still be raised."""
    game = start(
        {
            "players": [{"position": 35, "cash": 50}, {}],
            "properties": {
                37: {"owner": 1, "buildings": 1},
                39: {"owner": 1, "buildings": 1},
                6: {"owner": 0, "buildings": 1},
                8: {"owner": 0, "buildings": 1},
                9: {"owner": 0, "buildings": 1},
                12: {"owner": 0},
            },
        },
        dice=[(1, 3)],
    )
    game.apply(Roll(0))
    decision = views.decision_json(game)
    assert decision is not None and decision["kind"] == RAISE_CASH and decision["seat"] == 0
    assert decision["debt"] == {
        "creditor": 1,
        "amount": 200,
        "reason": "rent",
        "reason_text": "rent",
        "raisable": 50 + 3 * 25 + (50 + 50 + 60) + 75,  # cash, houses, mortgages
    }
    answers = views.seat_answers(game, 0)
    assert answers["decision_actions"] == []
    offered = {(a["act"], a.get("space")) for a in answers["free_actions"]}
    assert {("sell", 6), ("sell", 8), ("sell", 9), ("mortgage", 12)} <= offered
    assert check_deciding_view(game) == RAISE_CASH


def test_the_speed_die_faces_are_sent_by_name() -> None:
    """R-SPEED-4/5: the Bus and Mr. Monopoly faces reach the page as words, not 4 and 5."""
    assert views.dice_json((3, 4, 4)) == [3, 4, "bus"]
    assert views.dice_json((3, 4, 5)) == [3, 4, "mr_monopoly"]
    assert views.dice_json((5, 5, 2)) == [5, 5, 2]
    assert views.dice_json((6, 1)) == [6, 1]


def test_the_table_says_who_rolled_the_dice_it_shows() -> None:
    """The phone's dice strip names who rolled: after seat 0's roll the turn passes to
    seat 1, whose name must not stand beside seat 0's dice."""
    game = start({"players": [{}, {}]}, dice=[(1, 2)])
    assert views.last_roller(game) is None  # nobody has rolled yet
    game.apply(Roll(0))  # to Baltic Avenue
    game.apply(DeclineBuy(0))
    while game.decision is not None and game.decision.kind == BID:
        game.apply(PassBid(game.decision.seat))  # nobody bids
    assert waiting(game) == (ROLL, 1) and game.last_roll == (1, 2)
    assert views.last_roller(game) == 0
