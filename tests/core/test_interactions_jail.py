"""Jail meeting doubles, cards, debts and Go To Jail (R-JAIL-*, R-TURN-4/5, R-LAND-5)."""

from __future__ import annotations

from typing import Any

from monopoly.core import events as ev
from monopoly.core.actions import (
    Buy,
    DeclareBankruptcy,
    Mortgage,
    PayJailFine,
    Roll,
    RollForDoubles,
    UseJailCard,
)
from monopoly.core.editions import get_edition
from monopoly.core.state import BUY, JAIL, RAISE_CASH, ROLL
from tests.scenario import assert_illegal, dice_left, start, waiting

BOARD = get_edition("classic").board
PROPERTIES = BOARD.properties
CHANCE_KEYS = [c.key for c in BOARD.decks["chance"]]
JAIL_SPACE = BOARD.jail_index


def chance_top(key: str) -> dict[str, list[str]]:
    return {"chance": [key, *[k for k in CHANCE_KEYS if k != key]]}


def owned(seat: int, *spaces: int) -> dict[str, dict[str, Any]]:
    return {str(s): {"owner": seat} for s in spaces}


def test_r_turn_5_chance_go_to_jail_during_doubles_ends_the_turn() -> None:
    game = start({"players": [{"position": 5}, {}]}, dice=[(1, 1)], decks=chance_top("go_to_jail"))
    game.apply(Roll(0))
    assert game.position[0] == JAIL_SPACE and game.jail_turns[0] == 0
    assert game.cash[0] == 1500  # R-TURN-2: no salary
    assert waiting(game) == (ROLL, 1)
    assert_illegal(game, Roll(0), "seat 1")


def test_r_turn_5_go_to_jail_space_on_second_doubles_ends_the_turn() -> None:
    game = start(
        {"players": [{"position": 16}, {}], "properties": owned(0, 16, 18, 19)},
        dice=[(1, 1), (6, 6)],  # 16 -> 18 (own) -> 30 Go To Jail
    )
    game.apply(Roll(0))
    game.apply(Roll(0))
    assert game.position[0] == JAIL_SPACE and game.jail_turns[0] == 0
    assert waiting(game) == (ROLL, 1)


def test_r_jail_1_fine_with_exactly_50() -> None:
    game = start({"players": [{"position": 10, "jail_turns": 1, "cash": 50}, {}]}, dice=[(1, 2)])
    assert PayJailFine(0) in game.legal_actions(0)
    game.apply(PayJailFine(0))
    assert game.cash[0] == 0 and game.jail_turns[0] == -1
    assert waiting(game) == (ROLL, 0)
    game.apply(Roll(0))
    assert game.position[0] == 13


def test_r_jail_1_fine_refused_with_49_but_rolling_allowed() -> None:
    game = start({"players": [{"position": 10, "jail_turns": 0, "cash": 49}, {}]})
    assert PayJailFine(0) not in game.legal_actions(0)
    assert_illegal(game, PayJailFine(0), "50", "49")
    assert RollForDoubles(0) in game.legal_actions(0)


def test_r_jail_1_fine_then_doubles_roll_again() -> None:
    game = start(
        {"players": [{"position": 10, "jail_turns": 0}, {}], "properties": owned(0, 14, 18)},
        dice=[(2, 2), (2, 2)],
    )
    game.apply(PayJailFine(0))
    game.apply(Roll(0))
    assert game.position[0] == 14
    assert waiting(game) == (ROLL, 0)  # doubles after paying: roll again as usual
    game.apply(Roll(0))
    assert game.position[0] == 18
    assert waiting(game) == (ROLL, 0)


def test_r_jail_1_card_then_third_doubles_back_to_jail() -> None:
    game = start(
        {
            "players": [{"position": 10, "jail_turns": 0, "jail_cards": ["chance"]}, {}],
            "properties": owned(0, 12, 14, 16),
        },
        dice=[(1, 1), (1, 1), (2, 2)],
    )
    game.apply(UseJailCard(0, "chance"))
    assert game.jail_cards[0] == [] and game.decks["chance"][-1] == "get_out_of_jail_free"
    for _ in range(3):
        game.apply(Roll(0))
    assert game.position[0] == JAIL_SPACE and game.jail_turns[0] == 0  # R-TURN-4
    assert waiting(game) == (ROLL, 1)


def test_r_jail_3_third_failed_roll_with_a_card_still_pays_50() -> None:
    """R-JAIL-3: on the third failed roll the player *must pay* 50, even holding a card."""
    game = start(
        {"players": [{"position": 10, "jail_turns": 2, "jail_cards": ["community_chest"]}, {}]},
        dice=[(1, 2)],
        rules="standard",
    )
    game.apply(RollForDoubles(0))
    assert game.cash[0] == 1450
    assert game.jail_cards[0] == ["community_chest"]
    assert game.position[0] == 13 and game.jail_turns[0] == -1
    assert waiting(game) == (BUY, 0)  # States Avenue is unowned


def test_r_jail_3_r_debt_1_third_failed_roll_short_of_cash_raises_then_moves() -> None:
    """The fine is owed before the move: mortgage to pay, then move by the third roll."""
    game = start(
        {"players": [{"position": 10, "jail_turns": 2, "cash": 20}, {}], "properties": owned(0, 1)},
        dice=[(3, 4)],
    )
    game.apply(RollForDoubles(0))
    assert waiting(game) == (RAISE_CASH, 0)
    assert game.position[0] == JAIL_SPACE  # not moved before the fine is paid
    assert_illegal(game, DeclareBankruptcy(0), "50")
    game.apply(Mortgage(0, 1))  # 20 + 30 = 50, paid at once
    # then the move: 17 Community Chest, top card "advance to GO" (+200)
    assert game.position[0] == 0 and game.cash[0] == 200
    assert waiting(game) == (ROLL, 1)


def test_r_jail_3_r_bankrupt_3_third_failed_roll_cannot_pay_goes_bankrupt_no_move() -> None:
    game = start(
        {"players": [{"position": 10, "jail_turns": 2, "cash": 20}, {}, {}]},
        dice=[(3, 4)],
    )
    game.apply(RollForDoubles(0))
    game.apply(DeclareBankruptcy(0))
    assert not game.active[0]
    assert game.position[0] == JAIL_SPACE
    assert waiting(game) == (ROLL, 1)
    assert dice_left(game) == 0


def test_r_jail_2_doubles_out_of_jail_then_chance_go_to_jail() -> None:
    game = start(
        {"players": [{"position": 10, "jail_turns": 1}, {}]},
        dice=[(6, 6)],
        decks=chance_top("go_to_jail"),
    )
    game.apply(RollForDoubles(0))
    assert game.position[0] == JAIL_SPACE and game.jail_turns[0] == 0  # a fresh stay
    assert waiting(game) == (ROLL, 1)


def test_r_jail_2_doubles_out_of_jail_no_further_roll_and_doubles_not_counted() -> None:
    game = start(
        {"players": [{"position": 10, "jail_turns": 0}, {}], "properties": owned(0, 14)},
        dice=[(2, 2)],
    )
    game.apply(RollForDoubles(0))
    assert game.position[0] == 14 and game.jail_turns[0] == -1
    assert waiting(game) == (ROLL, 1)
    left = [e for e in game.events if isinstance(e, ev.LeftJail)]
    assert left[-1].how == "doubles"


def test_r_jail_4_r_rent_4_in_jail_collects_rent_and_may_build() -> None:
    game = start(
        {
            "players": [{"position": 10, "jail_turns": 0}, {"position": 35}],
            "properties": owned(0, 1, 3),
            "turn": 1,
        },
        dice=[(2, 4)],  # 35 + 6 = 41 -> 1 Mediterranean (P0's, whole group: rent 4)
    )
    game.apply(Roll(1))
    assert game.cash[0] == 1500 + 4
    assert game.cash[1] == 1500 + 200 - 4


def test_r_jail_1_buy_a_card_by_trade_then_use_it() -> None:
    from monopoly.core.actions import AcceptTrade, ProposeTrade

    game = start(
        {"players": [{"position": 10, "jail_turns": 0}, {"jail_cards": ["chance"]}]},
        dice=[(1, 2)],
    )
    assert_illegal(game, UseJailCard(0, "chance"), "chance")
    game.apply(ProposeTrade(0, partner=1, give_cash=30, take_cards=("chance",)))
    game.apply(AcceptTrade(1))
    assert waiting(game) == (JAIL, 0)
    game.apply(UseJailCard(0, "chance"))
    game.apply(Roll(0))
    assert game.position[0] == 13 and game.cash[0] == 1470 and game.cash[1] == 1530


def test_r_jail_2_doubles_from_jail_on_the_third_try_no_fine_may_buy() -> None:
    """A player who leaves jail by doubles and lands on an unowned property may buy it."""
    game = start({"players": [{"position": 10, "jail_turns": 2}, {}]}, dice=[(5, 5)])
    game.apply(RollForDoubles(0))
    assert game.position[0] == 20
    game2 = start({"players": [{"position": 10, "jail_turns": 2}, {}]}, dice=[(3, 3)])
    game2.apply(RollForDoubles(0))
    assert game2.position[0] == 16 and game2.cash[0] == 1500  # no fine on doubles
    game2.apply(Buy(0))
    assert game2.owner[16] == 0
