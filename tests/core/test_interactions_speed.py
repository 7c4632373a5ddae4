"""Speed Die interactions: Mr. Monopoly, Bus and triples meeting cards, jail, GO and
utilities (R-SPEED-*, R-TURN-*, R-CARD-*, R-SHORT-3)."""

from __future__ import annotations

from typing import Any

from monopoly.core import events as ev
from monopoly.core.actions import (
    Buy,
    ChooseMove,
    ChooseSpace,
    DeclineBuy,
    PassBid,
    Roll,
    RollForDoubles,
)
from monopoly.core.chance import BUS, MR_MONOPOLY
from monopoly.core.editions import get_edition
from monopoly.core.state import BID, BUY, JAIL, ROLL, TRIPLES
from monopoly.core.state import BUS as BUS_DECISION
from tests.scenario import assert_illegal, dice_left, start

BOARD = get_edition("classic").board
PROPERTIES = BOARD.properties
CHANCE_KEYS = [c.key for c in BOARD.decks["chance"]]
CHEST_KEYS = [c.key for c in BOARD.decks["community_chest"]]
SPEED_CASH = 2500  # R-SPEED-1


def chance_top(key: str) -> dict[str, list[str]]:
    return {"chance": [key, *[k for k in CHANCE_KEYS if k != key]]}


def chest_top(key: str) -> dict[str, list[str]]:
    return {"community_chest": [key, *[k for k in CHEST_KEYS if k != key]]}


def owned(seat: int, *spaces: int) -> dict[str, dict[str, Any]]:
    return {str(s): {"owner": seat} for s in spaces}


def all_but(seat: int, *excluded: int) -> dict[str, dict[str, Any]]:
    return owned(seat, *[s for s in PROPERTIES if s not in excluded])


def speedy(position: int, **extra: Any) -> dict[str, Any]:
    return {"position": position, "speed_die": True, **extra}


# ---------------------------------------------------------------- Mr. Monopoly + cards
def test_r_speed_5_r_card_4_mr_monopoly_after_go_back_3_starts_from_the_new_space() -> None:
    """First move to Chance 7, "go back 3" to Income Tax (pay 200), then Mr. Monopoly
    goes on from space 4 to the next unowned property: Reading Railroad (5)."""
    game = start(
        {"players": [speedy(2), {}]},
        rules="speed",
        dice=[(2, 3, MR_MONOPOLY)],
        decks=chance_top("go_back_3"),
    )
    game.apply(Roll(0))
    assert game.cash[0] == SPEED_CASH - 200  # R-LAND-4 on the space reached by the card
    assert game.position[0] == 5
    decision = game.decision
    assert decision is not None and (decision.kind, decision.seat, decision.space) == (BUY, 0, 5)
    game.apply(Buy(0))
    assert game.owner[5] == 0 and game.cash[0] == SPEED_CASH - 200 - 200
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_speed_8_r_turn_5_chance_go_to_jail_cancels_mr_monopoly_and_doubles() -> None:
    """White doubles carry the token to Chance 7, the card sends it to jail: no Mr.
    Monopoly move and no further roll."""
    game = start(
        {"players": [speedy(3), {}]},
        rules="speed",
        dice=[(2, 2, MR_MONOPOLY)],
        decks=chance_top("go_to_jail"),
    )
    game.apply(Roll(0))
    assert game.position[0] == BOARD.jail_index and game.jail_turns[0] == 0
    assert game.cash[0] == SPEED_CASH
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)
    assert dice_left(game) == 0


def test_r_speed_5_r_turn_2_mr_monopoly_after_advance_to_go() -> None:
    """Chance "advance to GO" pays 200; Mr. Monopoly then starts from GO: the next unowned
    property is Baltic (3) since Mediterranean (1) is owned."""
    game = start(
        {"players": [speedy(2), {}], "properties": owned(1, 1)},
        rules="speed",
        dice=[(1, 4, MR_MONOPOLY)],
        decks=chance_top("advance_to_go"),
    )
    game.apply(Roll(0))
    assert game.position[0] == 3
    assert game.cash[0] == SPEED_CASH + 200
    assert game.cash[1] == SPEED_CASH  # passed over Mediterranean: no rent
    assert game.decision is not None and game.decision.kind == BUY


def test_r_speed_8_first_move_onto_go_to_jail_space_no_bonus_move() -> None:
    game = start({"players": [speedy(25), {}]}, rules="speed", dice=[(2, 3, MR_MONOPOLY)])
    game.apply(Roll(0))
    assert game.position[0] == BOARD.jail_index and game.jail_turns[0] == 0
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_speed_5_r_turn_2_mr_monopoly_passing_go_pays_salary() -> None:
    """Everything from 36 on is owned by the mover; the next unowned property is
    Mediterranean (1), past GO: salary 200."""
    game = start(
        {"players": [speedy(30 - 5), {}], "properties": all_but(0, 1)},
        rules="speed",
        dice=[(4, 5, MR_MONOPOLY)],  # 25 + 9 = 34, own street
    )
    game.apply(Roll(0))
    assert game.position[0] == 1
    assert game.cash[0] == SPEED_CASH + 200
    assert game.decision is not None and (game.decision.kind, game.decision.space) == (BUY, 1)


def test_r_speed_5_buy_on_first_move_then_bonus_to_the_next_unowned() -> None:
    game = start({"players": [speedy(0), {}]}, rules="speed", dice=[(1, 5, MR_MONOPOLY)])
    game.apply(Roll(0))  # 6 Oriental, unowned
    assert game.decision is not None and (game.decision.kind, game.decision.space) == (BUY, 6)
    game.apply(Buy(0))
    assert game.position[0] == 8
    assert game.decision is not None and (game.decision.kind, game.decision.space) == (BUY, 8)
    game.apply(DeclineBuy(0))  # R-LAND-1: auction at once
    assert game.decision is not None and game.decision.kind == BID
    game.apply(PassBid(0))
    game.apply(PassBid(1))
    assert game.owner[8] == -1
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_speed_5_r_speed_9_utility_rent_on_the_bonus_move_rolls_three_dice() -> None:
    """Nothing is unowned; the next property with rent owed is Electric Company (12), and
    the owner holds both utilities: 10 × (2 + 3 + 1)."""
    props = {**all_but(0, 12, 28), **owned(1, 12, 28)}
    game = start(
        {"players": [speedy(2), {}], "properties": props},
        rules="speed",
        dice=[(3, 4, MR_MONOPOLY), (2, 3, 1)],  # to 9 (own), then the utility roll
    )
    game.apply(Roll(0))
    assert game.position[0] == 12
    assert game.cash[0] == SPEED_CASH - 60
    assert game.cash[1] == SPEED_CASH + 60
    assert dice_left(game) == 0


def test_r_speed_9_utility_roll_bus_counts_zero() -> None:
    props = {**all_but(0, 12, 28), **owned(1, 12)}
    game = start(
        {"players": [speedy(2), {}], "properties": props},
        rules="speed",
        dice=[(3, 4, MR_MONOPOLY), (6, 5, BUS)],  # one utility: 4 × 11
    )
    game.apply(Roll(0))
    # Water Works (28) is unowned: Mr. Monopoly goes there, passing Electric Company.
    assert game.position[0] == 28 and game.cash[1] == SPEED_CASH
    game = start(
        {"players": [speedy(2), {}], "properties": {**props, **owned(0, 28)}},
        rules="speed",
        dice=[(3, 4, MR_MONOPOLY), (6, 5, BUS)],
    )
    game.apply(Roll(0))
    assert game.position[0] == 12
    assert game.cash[1] == SPEED_CASH + 44


def test_r_speed_5_no_target_left_nothing_more() -> None:
    """Everything owned by the mover: no unowned property, no rent owed: the token stays."""
    game = start(
        {"players": [speedy(0), {}], "properties": all_but(0)},
        rules="speed",
        dice=[(1, 5, MR_MONOPOLY)],
    )
    game.apply(Roll(0))
    assert game.position[0] == 6
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_speed_5_mortgaged_property_is_no_rent_target() -> None:
    props = {**all_but(0, 8, 9), **owned(1, 9), "8": {"owner": 1, "mortgaged": True}}
    game = start(
        {"players": [speedy(0), {}], "properties": props},
        rules="speed",
        dice=[(1, 5, MR_MONOPOLY)],
    )
    game.apply(Roll(0))
    # 8 is P1's but mortgaged: no rent there; 9 is P1's: base rent 8 (group not whole).
    assert game.position[0] == 9
    assert game.cash[0] == SPEED_CASH - 8


# ---------------------------------------------------------------- doubles and jail
def test_r_turn_4_r_speed_8_mr_monopoly_on_third_doubles_goes_to_jail_unmoved() -> None:
    game = start(
        {"players": [speedy(10), {}], "properties": all_but(0)},
        rules="speed",
        dice=[(1, 1, 3), (2, 2, 1), (3, 3, MR_MONOPOLY)],  # 10 -> 15 -> 20 -> jail
    )
    game.apply(Roll(0))
    assert game.position[0] == 15
    game.apply(Roll(0))
    assert game.position[0] == 20
    game.apply(Roll(0))
    assert game.position[0] == BOARD.jail_index and game.jail_turns[0] == 0
    assert game.cash[0] == SPEED_CASH
    moves = [e for e in game.events if isinstance(e, ev.Moved)]
    assert moves[-1].end == 20  # no move by the third roll, no bonus move
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_speed_4_r_speed_6_bus_with_doubles_rolls_again_third_doubles_jail() -> None:
    game = start(
        {"players": [speedy(10), {}], "properties": all_but(0)},
        rules="speed",
        dice=[(3, 3, BUS), (1, 1, 3), (2, 2, BUS)],
    )
    game.apply(Roll(0))
    decision = game.decision
    assert decision is not None and decision.kind == BUS_DECISION
    assert sorted(decision.data) == [3, 6]
    assert_illegal(game, ChooseMove(0, 9), "3")  # not the sum of all three
    game.apply(ChooseMove(0, 3))
    assert game.position[0] == 13
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 0)
    game.apply(Roll(0))  # 13 + 1 + 1 + 3 = 18, own street
    assert game.position[0] == 18
    game.apply(Roll(0))  # third doubles: jail before the Bus choice
    assert game.position[0] == BOARD.jail_index and game.jail_turns[0] == 0
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_speed_7_triples_on_a_third_doubles_choose_space_not_jail() -> None:
    """R-SPEED-7: triples move the player anywhere, also on a third doubles."""
    game = start(
        {"players": [speedy(10), {}], "properties": all_but(0)},
        rules="speed",
        dice=[(1, 1, 3), (2, 2, 1), (3, 3, 3)],
    )
    apply_rolls(game, 0, 3)
    assert game.decision is not None and game.decision.kind == TRIPLES
    assert game.jail_turns[0] == -1
    game.apply(ChooseSpace(0, 39))
    assert game.position[0] == 39
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def apply_rolls(game: Any, seat: int, count: int) -> None:
    for _ in range(count):
        game.apply(Roll(seat))


def test_r_speed_7_bus_matching_white_doubles_is_not_triples() -> None:
    """Triples need the Speed Die to show the same *number*; a Bus with (4, 4) is a Bus."""
    game = start(
        {"players": [speedy(10), {}], "properties": all_but(0)},
        rules="speed",
        dice=[(BUS, BUS, BUS)],
    )
    game.apply(Roll(0))
    decision = game.decision
    assert decision is not None and decision.kind == BUS_DECISION
    assert sorted(decision.data) == [4, 8]


def test_r_speed_7_mr_monopoly_with_white_fives_is_not_triples() -> None:
    game = start(
        {"players": [speedy(0), {}]},
        rules="speed",
        dice=[(MR_MONOPOLY, MR_MONOPOLY, MR_MONOPOLY)],
    )
    game.apply(Roll(0))  # 10 Just Visiting, then Mr. Monopoly to 11 St. Charles
    assert game.decision is not None and game.decision.kind == BUY
    assert game.position[0] == 11


# ---------------------------------------------------------------- activation
def test_r_speed_2_activation_by_passing_go_applies_from_the_next_roll() -> None:
    """Doubles from 39 pass GO (the roll had two dice); the doubles roll of the same turn
    uses the Speed Die and here shows triples."""
    game = start(
        {"players": [{"position": 39}, {}], "properties": all_but(0)},
        rules="speed",
        dice=[(1, 1), (2, 2, 2)],
    )
    game.apply(Roll(0))
    assert game.position[0] == 1 and game.cash[0] == SPEED_CASH + 200
    assert game.speed_active[0]
    game.apply(Roll(0))
    assert game.decision is not None and game.decision.kind == TRIPLES
    game.apply(ChooseSpace(0, 5))
    assert game.position[0] == 5
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_speed_2_activation_by_a_card_past_go_applies_from_the_next_roll() -> None:
    """Chance 36 "advance to Illinois" passes GO during a doubles roll of two dice; the
    next roll of that turn has the Speed Die."""
    game = start(
        {"players": [{"position": 34}, {}], "properties": all_but(0, 24)},
        rules="speed",
        dice=[(1, 1), (1, 2, 3)],
        decks=chance_top("advance_to_illinois"),
    )
    game.apply(Roll(0))
    assert game.position[0] == 24 and game.cash[0] == SPEED_CASH + 200
    assert game.speed_active[0]
    game.apply(DeclineBuy(0))
    game.apply(PassBid(0))
    game.apply(PassBid(1))
    game.apply(Roll(0))
    # 24 + 1 + 2 + 3 = 30, Go To Jail (R-SPEED-3 with three dice)
    assert game.position[0] == BOARD.jail_index and game.jail_turns[0] == 0
    assert dice_left(game) == 0


def test_r_speed_2_jail_roll_never_uses_the_speed_die() -> None:
    game = start(
        {"players": [speedy(10, jail_turns=0), {}]},
        rules="speed",
        dice=[(3, 3)],
    )
    game.apply(RollForDoubles(0))
    assert game.position[0] == 16 and game.jail_turns[0] == -1
    assert game.decision is not None and game.decision.kind == BUY
    game.apply(Buy(0))
    # R-JAIL-2: doubles out of jail give no further roll.
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_short_3_r_speed_2_short_game_jail_with_the_speed_die() -> None:
    """Short game + Speed Die: the jail roll has two dice; without doubles pay 50 and move
    by the white dice at once."""
    game = start(
        {"players": [speedy(10, jail_turns=0), {}]},
        rules="short+speed",
        dice=[(1, 2)],
    )
    decision = game.decision
    assert decision is not None and decision.kind == JAIL
    game.apply(RollForDoubles(0))
    assert game.jail_turns[0] == -1
    assert game.cash[0] == SPEED_CASH - 50
    assert game.position[0] == 13


def test_r_card_3_r_speed_9_nearest_utility_card_rolls_three_dice_ten_times() -> None:
    """Chance 7 "nearest utility" (Electric Company, P1's, one utility only): 10 × the
    roll of all three dice, Mr. Monopoly counting 0 (R-CARD-3 with R-SPEED-9)."""
    game = start(
        {"players": [speedy(3), {}], "properties": {**owned(1, 12), **all_but(0, 12, 28)}},
        rules="speed",
        dice=[(1, 2, 1), (2, 6, MR_MONOPOLY)],  # 3 + 4 = Chance 7
        decks=chance_top("nearest_utility"),
    )
    game.apply(Roll(0))
    assert game.position[0] == 12
    assert game.cash[0] == SPEED_CASH - 80 and game.cash[1] == SPEED_CASH + 80
    assert dice_left(game) == 0


def test_r_speed_8_r_card_4_go_back_3_to_chest_go_to_jail_no_bonus_move() -> None:
    """Chance 36 "go back 3" reaches Community Chest 33, which sends the player to jail:
    Mr. Monopoly is not used and doubles give no roll."""
    game = start(
        {"players": [speedy(30 + 2), {}]},
        rules="speed",
        dice=[(2, 2, MR_MONOPOLY)],
        decks={**chance_top("go_back_3"), **chest_top("go_to_jail")},
    )
    game.apply(Roll(0))
    assert game.position[0] == BOARD.jail_index and game.jail_turns[0] == 0
    assert game.cash[0] == SPEED_CASH
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)
