"""Building interactions: hotel breakdowns with a short Bank, shortages with several
players, selling meanwhile, the short game's hotels with cards and bankruptcy
(R-BUILD-*, R-SHORT-2, R-CARD-6, R-BANKRUPT-*)."""

from __future__ import annotations

from typing import Any

from monopoly.core.actions import (
    Bid,
    Build,
    ChooseBreakdown,
    DeclareBankruptcy,
    DeclareWant,
    PassBid,
    PlaceBuilding,
    Roll,
    SellBuilding,
)
from monopoly.core.editions import get_edition
from monopoly.core.state import BID, BREAKDOWN, PLACE, RAISE_CASH, ROLL, WANT
from tests.scenario import assert_illegal, start, waiting
from tests.spaces import BROWN, DARK_BLUE, LIGHT_BLUE, ORANGE, PINK, RED, YELLOW

BOARD = get_edition("classic").board
CHANCE_KEYS = [c.key for c in BOARD.decks["chance"]]
CHEST_KEYS = [c.key for c in BOARD.decks["community_chest"]]


def chance_top(key: str) -> dict[str, list[str]]:
    return {"chance": [key, *[k for k in CHANCE_KEYS if k != key]]}


def chest_top(key: str) -> dict[str, list[str]]:
    return {"community_chest": [key, *[k for k in CHEST_KEYS if k != key]]}


def owned(seat: int, *spaces: int, buildings: Any = 0) -> dict[str, dict[str, Any]]:
    return {str(s): {"owner": seat, "buildings": buildings} for s in spaces}


def levels(game: Any, *spaces: int) -> list[int]:
    return [game.level[s] for s in spaces]


# ---------------------------------------------------------------- R-BUILD-4
def test_r_build_4_hotel_breakdown_three_streets_one_house_in_bank() -> None:
    """Pink: hotel, hotel, 4 houses; the Bank has 1 house. Selling the hotel on St. Charles
    needs 4 houses: the group comes down to the most even buildings that 1 + 4 houses
    allow (two streets with 2, one with 1), both hotels go back, 9 levels sold at 50."""
    props = {
        **owned(0, 11, 13, buildings="hotel"),
        **owned(0, 14, buildings=4),
        **owned(1, *ORANGE, *RED, buildings=4),
        **owned(1, *LIGHT_BLUE, buildings=1),
    }
    game = start({"players": [{}, {}], "properties": props})
    assert (game.bank_houses, game.bank_hotels) == (1, 10)
    game.apply(SellBuilding(0, 11))
    # R-BUILD-4 Decision: three even arrangements fit, the owner chooses.
    assert waiting(game) == (BREAKDOWN, 0)
    assert game.decision_actions() == [
        ChooseBreakdown(0, (2, 2, 1)),
        ChooseBreakdown(0, (2, 1, 2)),
        ChooseBreakdown(0, (1, 2, 2)),
    ]
    assert levels(game, *PINK) == [5, 5, 4]  # nothing sold before the choice
    assert_illegal(game, ChooseBreakdown(0, (3, 1, 1)), "even arrangements")
    assert_illegal(game, SellBuilding(0, 13), "first choose")
    game.apply(ChooseBreakdown(0, (1, 2, 2)))
    assert levels(game, *PINK) == [1, 2, 2]
    assert (game.bank_houses, game.bank_hotels) == (0, 12)
    assert game.cash[0] == 1500 + 9 * 50


def test_r_build_4_hotel_breakdown_keeps_the_other_hotel_when_houses_suffice() -> None:
    """Bank has 4 houses: the hotel becomes 4 houses, the other hotel stays (4, 5, 4 is
    even with the hotel counting as 5)."""
    props = {
        **owned(0, 11, 13, buildings="hotel"),
        **owned(0, 14, buildings=4),
        **owned(1, *ORANGE, *RED, buildings=4),
    }
    game = start({"players": [{}, {}], "properties": props})
    assert game.bank_houses == 4
    game.apply(SellBuilding(0, 11))
    assert levels(game, *PINK) == [4, game.tables.hotel_level, 4]
    assert game.bank_houses == 0 and game.cash[0] == 1550


def test_r_build_4_r_debt_1_raising_cash_by_breaking_down_a_hotel_in_a_shortage() -> None:
    """A debt is raised by selling a hotel when the Bank has no houses at all: brown
    (hotel, 4 houses) can only come down to 2 + 2 with the 4 houses it has: 5 levels x 25."""
    props = {
        **owned(0, 1, buildings="hotel"),
        **owned(0, 3, buildings=4),
        **owned(1, *ORANGE, *RED, buildings=4),
        **owned(1, 26, buildings=2),
        **owned(1, 27, 29, buildings=1),
        "39": {"owner": 1},
        "37": {"owner": 1},
    }
    game = start({"players": [{"position": 35, "cash": 0}, {}], "properties": props}, dice=[(1, 3)])
    assert game.bank_houses == 0
    game.apply(Roll(0))  # Boardwalk, whole group unimproved: rent 100
    assert waiting(game) == (RAISE_CASH, 0)
    game.apply(SellBuilding(0, 1))
    assert levels(game, *BROWN) == [2, 2]
    assert game.cash[0] == 5 * 25 - 100
    assert (game.bank_houses, game.bank_hotels) == (0, 12)
    assert waiting(game) == (ROLL, 1)


# ---------------------------------------------------------------- R-BUILD-6
def three_way_shortage() -> dict[str, Any]:
    """Bank: 2 houses. P0 may build on brown, P1 on light blue, P2 on dark blue."""
    return {
        "players": [{}, {}, {}],
        "properties": {
            **owned(0, *BROWN),
            **owned(1, *LIGHT_BLUE),
            **owned(2, *DARK_BLUE),
            **owned(0, *ORANGE, *RED, buildings=4),
            **owned(0, *YELLOW, buildings=2),
        },
    }


def test_r_build_6_three_players_want_more_than_the_stock() -> None:
    game = start(three_way_shortage())
    assert game.bank_houses == 2
    game.apply(Build(0, BROWN))
    assert waiting(game) == (WANT, 1)
    game.apply(DeclareWant(1, 1))
    assert waiting(game) == (WANT, 2)
    game.apply(DeclareWant(2, 2))
    # 2 + 1 + 2 > 2: auctioned one at a time among all three, from the player to move.
    assert waiting(game) == (BID, 0)
    game.apply(Bid(0, 10))
    game.apply(PassBid(1))
    game.apply(Bid(2, 30))
    game.apply(PassBid(0))
    assert waiting(game) == (PLACE, 2)
    assert_illegal(game, PlaceBuilding(2, 1), "1")
    game.apply(PlaceBuilding(2, 39))
    assert game.level[39] == 1 and game.cash[2] == 1470 and game.bank_houses == 1
    # Second house: P0 still wants 2, P2 wants 1 more; P1 passed (out of that auction
    # only), so P1 bids again.
    assert waiting(game) == (BID, 0)
    game.apply(Bid(0, 5))
    game.apply(Bid(1, 6))
    game.apply(PassBid(2))
    game.apply(PassBid(0))
    assert waiting(game) == (PLACE, 1)
    game.apply(PlaceBuilding(1, 8))
    assert game.bank_houses == 0 and game.cash[1] == 1494
    assert levels(game, *BROWN) == [0, 0]
    assert game.cash[0] == 1500
    assert waiting(game) == (ROLL, 0)


def test_r_build_6_r_build_4_selling_during_the_wants_makes_them_fit() -> None:
    """While P1 is asked, P0 sells a yellow house: the Bank has 3, the wants (2 + 1) fit
    and P0's request is built without an auction."""
    position = three_way_shortage()
    position["players"] = [{}, {}]
    del position["properties"]["37"], position["properties"]["39"]
    game = start(position)
    game.apply(Build(0, BROWN))
    assert waiting(game) == (WANT, 1)
    game.apply(SellBuilding(0, 26))
    assert game.bank_houses == 3
    game.apply(DeclareWant(1, 1))
    assert levels(game, *BROWN) == [1, 1]
    assert game.bank_houses == 1
    assert game.cash[0] == 1500 + 75 - 100
    assert waiting(game) == (ROLL, 0)


def test_r_build_6_no_building_of_that_kind_outside_the_procedure() -> None:
    game = start(three_way_shortage())
    game.apply(Build(0, BROWN))
    assert waiting(game) == (WANT, 1)
    assert_illegal(game, Build(2, (39,)), "shared out")
    assert_illegal(game, Build(1, (6,)), "shared out")


# ---------------------------------------------------------------- short game
def test_r_short_2_r_card_6_repairs_count_a_short_game_hotel_once() -> None:
    """Short game: hotel on St. Charles (3 houses went back), 3 houses on States and on
    Virginia: Chance repairs = 6 x 25 + 1 x 100."""
    props = {**owned(0, 11, buildings="hotel"), **owned(0, 13, 14, buildings=3)}
    game = start(
        {"players": [{"position": 4}, {}], "properties": props},
        rules="short",
        dice=[(1, 2)],
        decks=chance_top("general_repairs"),
    )
    game.apply(Roll(0))
    assert game.position[0] == 7
    assert game.cash[0] == 1500 - 250


def test_r_short_2_r_card_6_street_repairs_hotels_in_the_short_game() -> None:
    props = {**owned(0, *PINK, buildings="hotel"), **owned(0, *BROWN, buildings=2)}
    game = start(
        {"players": [{"position": 14}, {}], "properties": props},
        rules="short",
        dice=[(1, 2)],
        decks=chest_top("street_repairs"),
    )
    game.apply(Roll(0))
    assert game.position[0] == 17
    assert game.cash[0] == 1500 - (4 * 40 + 3 * 115)


def test_r_short_2_even_building_with_a_hotel_on_three_houses() -> None:
    """(hotel, 3, 3): the next builds are hotels on the others; no fourth house; a house
    cannot be sold while a hotel stands in the group."""
    props = {**owned(0, 11, buildings="hotel"), **owned(0, 13, 14, buildings=3)}
    game = start({"players": [{}, {}], "properties": props}, rules="short")
    game.apply(Build(0, (13,)))
    assert game.level[13] == game.tables.hotel_level == 4
    assert game.cash[0] == 1400
    assert_illegal(game, SellBuilding(0, 14), "even")
    game.apply(SellBuilding(0, 11))
    assert game.level[11] == 3 and game.cash[0] == 1450


def test_r_short_4_r_bankrupt_2_buildings_sold_first_and_worth_counts() -> None:
    """Short game: P0 (no cash, brown with two hotels) owes 2000 on Boardwalk's hotel and
    can raise only 2 x 4 x 25 + 2 x 30 = 260: bankrupt to P1, who gets the 200 from the
    hotels sold to the Bank (half price + 3 houses each, R-SHORT-2) and the brown deeds.
    The game ends; P1 is the richest (R-SHORT-4)."""
    props = {
        **owned(0, *BROWN, buildings="hotel"),
        **owned(1, *DARK_BLUE, buildings="hotel"),
    }
    game = start(
        {"players": [{"position": 35, "cash": 0}, {"cash": 100}, {}], "properties": props},
        rules="short",
        dice=[(1, 3)],
    )
    game.apply(Roll(0))
    assert waiting(game) == (RAISE_CASH, 0)
    game.apply(DeclareBankruptcy(0))
    assert game.cash[1] == 300
    assert levels(game, *BROWN) == [0, 0] and game.owner[1] == game.owner[3] == 1
    assert (game.bank_houses, game.bank_hotels) == (32, 10)
    assert game.over and game.winners == (1,)
    assert game.net_worth(1) == 300 + 60 + 60 + 350 + 400 + 2 * 4 * 200
