"""Scenario tests for jail (R-JAIL-1..4).

A jailed player stands on space 10 with ``jail_turns`` = failed rolls for doubles so far.
"""

from __future__ import annotations

from typing import Any

import pytest

from monopoly.core import events as ev
from monopoly.core.actions import (
    AcceptTrade,
    Build,
    Buy,
    DeclareBankruptcy,
    DeclineBuy,
    Mortgage,
    PayJailFine,
    ProposeTrade,
    Roll,
    RollForDoubles,
    SellBuilding,
    Unmortgage,
    UseJailCard,
)
from monopoly.core.board import DECK_ROLES
from monopoly.core.editions import get_edition
from monopoly.core.game import Game
from monopoly.core.state import BUY, JAIL, RAISE_CASH, ROLL
from tests.scenario import assert_illegal, dice_left, start, waiting

BOARD = get_edition("classic").board
PRINTED = {role: [card.key for card in BOARD.decks[role]] for role in DECK_ROLES}


def jailed(
    failed: int = 0,
    *,
    dice: list[tuple[int, int]] | None = None,
    cash: int = 1500,
    cards: list[str] | None = None,
    properties: dict[str, Any] | None = None,
    other: dict[str, Any] | None = None,
) -> Game:
    """Seat 0 in jail (``failed`` rolls so far), about to decide; seat 1 free."""
    me: dict[str, Any] = {"position": 10, "jail_turns": failed, "cash": cash}
    if cards:
        me["jail_cards"] = cards
    position = {"players": [me, other or {}], "properties": properties or {}}
    game = start(position, dice=dice or [])
    assert waiting(game) == (JAIL, 0)
    return game


def test_r_jail_1_pay_50_then_roll_and_move() -> None:
    game = jailed(dice=[(2, 4)])
    events = game.apply(PayJailFine(0))
    assert ev.MoneyPaid(0, -1, 50, "jail_fine") in events
    assert game.cash[0] == 1450
    assert game.jail_turns[0] == -1
    assert game.position[0] == 10
    assert waiting(game) == (ROLL, 0)
    game.apply(Roll(0))
    assert game.position[0] == 16
    assert waiting(game) == (BUY, 0)
    game.apply(Buy(0))
    assert waiting(game) == (ROLL, 1)


def test_r_jail_1_after_paying_doubles_give_another_roll() -> None:
    props = {"14": {"owner": 0}, "19": {"owner": 0}}
    game = jailed(dice=[(2, 2), (2, 3)], properties=props)
    game.apply(PayJailFine(0))
    game.apply(Roll(0))  # 14, own street
    assert game.position[0] == 14
    assert waiting(game) == (ROLL, 0)
    game.apply(Roll(0))
    assert game.position[0] == 19
    assert waiting(game) == (ROLL, 1)
    assert game.cash[0] == 1450


def test_r_jail_1_pay_possible_on_the_first_failed_turns_too() -> None:
    game = jailed(2, dice=[(1, 2)])
    game.apply(PayJailFine(0))
    game.apply(Roll(0))
    assert game.cash[0] == 1450
    assert game.position[0] == 13


def test_r_jail_1_cannot_pay_the_fine_without_50_cash() -> None:
    game = jailed(cash=49)
    assert PayJailFine(0) not in game.decision_actions()
    assert_illegal(game, PayJailFine(0), "fine is 50", "49")


@pytest.mark.parametrize("role", DECK_ROLES)
def test_r_jail_1_use_card_then_roll_card_goes_under_its_deck(role: str) -> None:
    game = jailed(dice=[(3, 3), (1, 2)], cards=[role], properties={"16": {"owner": 0}})
    assert len(game.decks[role]) == 15
    events = game.apply(UseJailCard(0, role))
    assert ev.LeftJail(0, "card") in events
    assert game.jail_cards[0] == []
    assert list(game.decks[role]) == [k for k in PRINTED[role] if k != "get_out_of_jail_free"] + [
        "get_out_of_jail_free"
    ]
    assert game.cash[0] == 1500
    assert waiting(game) == (ROLL, 0)
    game.apply(Roll(0))  # doubles: 16, own street, roll again as usual
    assert game.position[0] == 16
    assert waiting(game) == (ROLL, 0)
    game.apply(Roll(0))
    assert game.position[0] == 19
    assert waiting(game) == (BUY, 0)


def test_r_jail_1_cannot_use_a_card_not_held() -> None:
    game = jailed(cards=["chance"])
    assert_illegal(game, UseJailCard(0, "community_chest"), "no Get Out of Jail Free card")
    game = jailed()
    assert_illegal(game, UseJailCard(0, "chance"), "no Get Out of Jail Free card")


def test_r_jail_1_card_bought_from_a_player_first() -> None:
    game = jailed(dice=[(1, 2)], other={"jail_cards": ["community_chest"]})
    assert_illegal(game, UseJailCard(0, "community_chest"), "no Get Out of Jail Free card")
    game.apply(ProposeTrade(0, partner=1, give_cash=30, take_cards=("community_chest",)))
    game.apply(AcceptTrade(1))
    assert game.jail_cards == [["community_chest"], []]
    assert game.cash == [1470, 1530]
    assert waiting(game) == (JAIL, 0)
    game.apply(UseJailCard(0, "community_chest"))
    assert game.jail_turns[0] == -1
    assert list(game.decks["community_chest"])[-1] == "get_out_of_jail_free"
    game.apply(Roll(0))
    assert game.position[0] == 13


# ====================================================================== R-JAIL-2
def test_r_jail_2_doubles_leave_and_move_but_no_extra_roll() -> None:
    game = jailed(dice=[(3, 3), (1, 2)])
    events = game.apply(RollForDoubles(0))
    assert ev.LeftJail(0, "doubles") in events
    assert game.jail_turns[0] == -1
    assert game.position[0] == 16
    assert game.cash[0] == 1500
    assert waiting(game) == (BUY, 0)
    game.apply(Buy(0))
    assert waiting(game) == (ROLL, 1)  # no further roll for those doubles
    assert dice_left(game) == 1


def test_r_jail_2_doubles_onto_own_property_turn_passes() -> None:
    game = jailed(1, dice=[(2, 2)], properties={"14": {"owner": 0}})
    game.apply(RollForDoubles(0))
    assert game.position[0] == 14
    assert waiting(game) == (ROLL, 1)


def test_r_jail_2_no_doubles_stay_and_turn_ends() -> None:
    game = jailed(dice=[(1, 2), (2, 3), (5, 6)])
    events = game.apply(RollForDoubles(0))
    assert ev.StayedInJail(0, 1) in events
    assert game.position[0] == 10
    assert game.jail_turns[0] == 1
    assert game.cash[0] == 1500
    assert waiting(game) == (ROLL, 1)
    game.apply(Roll(1))  # seat 1: 5 Reading
    game.apply(Buy(1))
    assert waiting(game) == (JAIL, 0)
    game.apply(RollForDoubles(0))
    assert game.jail_turns[0] == 2
    assert game.position[0] == 10
    assert waiting(game) == (ROLL, 1)


# ====================================================================== R-JAIL-3
def test_r_jail_3_third_failed_roll_pays_and_moves() -> None:
    game = jailed(2, dice=[(1, 2)])
    events = game.apply(RollForDoubles(0))
    assert ev.MoneyPaid(0, -1, 50, "jail_fine") in events
    assert game.jail_turns[0] == -1
    assert game.cash[0] == 1450
    assert game.position[0] == 13  # moved by that third roll
    assert waiting(game) == (BUY, 0)


def test_r_jail_3_third_roll_doubles_leave_free() -> None:
    game = jailed(2, dice=[(5, 5)])
    game.apply(RollForDoubles(0))
    assert game.cash[0] == 1500
    assert game.position[0] == 20
    assert waiting(game) == (ROLL, 1)


def test_r_jail_3_move_after_the_fine_resolves_the_space() -> None:
    # 10 + 6 + 5 = 21 Kentucky Avenue owned by seat 1 -> rent 18 after the fine.
    game = jailed(2, dice=[(6, 5)], properties={"21": {"owner": 1}})
    game.apply(RollForDoubles(0))
    assert game.cash == [1500 - 50 - 18, 1518]


def test_r_jail_3_fine_raised_by_mortgaging_first() -> None:
    game = jailed(2, dice=[(1, 2)], cash=30, properties={"1": {"owner": 0}})
    game.apply(RollForDoubles(0))
    assert waiting(game) == (RAISE_CASH, 0)
    assert game.position[0] == 10  # the move waits for the fine
    assert_illegal(game, DeclareBankruptcy(0), "raise")
    game.apply(Mortgage(0, 1))  # +30 -> 60, the fine is paid
    assert game.cash[0] == 10
    assert game.position[0] == 13
    assert game.jail_turns[0] == -1
    assert waiting(game) == (BUY, 0)
    assert game.decision_actions() == [DeclineBuy(0)]  # 10 left, Baltic costs 60


def test_r_jail_3_cannot_pay_the_fine_goes_bankrupt_to_the_bank() -> None:
    game = jailed(2, dice=[(1, 2)], cash=20)
    game.apply(RollForDoubles(0))
    assert waiting(game) == (RAISE_CASH, 0)
    game.apply(DeclareBankruptcy(0))
    assert not game.active[0]
    assert game.over
    assert game.winners == (1,)


# ====================================================================== R-JAIL-4
def jailed_owner() -> Game:
    """Seat 1 in jail owns the brown group; it is seat 0's turn."""
    position = {
        "players": [{}, {"position": 10, "jail_turns": 1}],
        "properties": {"1": {"owner": 1}, "3": {"owner": 1}, "5": {"owner": 1}},
    }
    game = start(position, dice=[(1, 2)])
    assert waiting(game) == (ROLL, 0)
    return game


def test_r_jail_4_build_and_sell_while_in_jail() -> None:
    game = jailed_owner()
    assert Build(1, (1,)) in game.legal_actions(1)
    game.apply(Build(1, (1,)))
    game.apply(Build(1, (3,)))
    assert game.level[1] == 1 and game.level[3] == 1
    assert game.cash[1] == 1400
    game.apply(SellBuilding(1, 3))
    assert game.level[3] == 0
    assert game.cash[1] == 1425
    assert game.jail_turns[1] == 1
    assert waiting(game) == (ROLL, 0)


def test_r_jail_4_mortgage_and_lift_while_in_jail() -> None:
    game = jailed_owner()
    game.apply(Mortgage(1, 5))
    assert game.mortgaged[5]
    assert game.cash[1] == 1600
    game.apply(Unmortgage(1, 5))
    assert not game.mortgaged[5]
    assert game.cash[1] == 1600 - 110


def test_r_jail_4_trade_while_in_jail() -> None:
    game = jailed_owner()
    game.apply(ProposeTrade(1, partner=0, give=(5,), take_cash=150))
    game.apply(AcceptTrade(0))
    assert game.owner[5] == 0
    assert game.cash == [1350, 1650]
    assert game.jail_turns[1] == 1


def test_r_jail_4_collect_rent_while_in_jail() -> None:
    game = jailed_owner()
    game.apply(Roll(0))  # 3 Baltic: whole group unmortgaged, 2 x 4
    assert game.cash == [1492, 1508]
    assert waiting(game) == (JAIL, 1)


def test_r_jail_4_build_during_own_jail_decision() -> None:
    game = jailed(properties={"1": {"owner": 0}, "3": {"owner": 0}}, dice=[(1, 2)])
    game.apply(Build(0, (1, 3)))
    assert game.level[1] == 1 and game.level[3] == 1
    assert game.cash[0] == 1400
    assert waiting(game) == (JAIL, 0)
    game.apply(RollForDoubles(0))
    assert game.jail_turns[0] == 1
