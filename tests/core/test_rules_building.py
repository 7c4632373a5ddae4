"""Houses and hotels: R-BUILD-1..7 (whole groups, even building and selling, hotels, the
Bank's 32 houses / 12 hotels, hotel breakdown, the building shortage procedure)."""

from __future__ import annotations

from typing import Any

from monopoly.core import events as ev
from monopoly.core.actions import (
    Bid,
    Build,
    DeclareWant,
    PassBid,
    PlaceBuilding,
    Roll,
    SellBuilding,
)
from monopoly.core.game import Game
from monopoly.core.state import BID, HOUSE_ITEM, JAIL, PLACE, ROLL, WANT
from tests.scenario import assert_illegal, start
from tests.spaces import (
    ATLANTIC,
    BALTIC,
    BOARDWALK,
    CONNECTICUT,
    ILLINOIS,
    INDIANA,
    KENTUCKY,
    MARVIN,
    MED,
    NEW_YORK,
    NORTH_CAROLINA,
    ORIENTAL,
    PACIFIC,
    PARK_PLACE,
    PENNSYLVANIA,
    READING,
    ST_CHARLES,
    ST_JAMES,
    STATES,
    TENNESSEE,
    VENTNOR,
    VERMONT,
    VIRGINIA,
)

HOTEL = 5  # game.level of a street with a hotel (4 houses per hotel)


def props(owner: int, *spaces: int, buildings: Any = 0, **extra: Any) -> dict[int, Any]:
    return {s: {"owner": owner, "buildings": buildings, **extra} for s in spaces}


def levels(game: Game, *spaces: int) -> list[int]:
    return [game.level[s] for s in spaces]


# ---------------------------------------------------------------------- R-BUILD-1
def test_r_build_1_needs_every_street_of_the_group() -> None:
    game = start(
        {
            "players": [{}, {}],
            "properties": {MED: {"owner": 0}, BALTIC: {"owner": 1}, READING: {"owner": 0}},
        }
    )
    assert_illegal(game, Build(0, (MED,)), "every one of the 2 Brown streets", "R-BUILD-1")
    assert_illegal(game, Build(0, (BALTIC,)), "you do not own")
    assert_illegal(game, Build(0, (READING,)), "is not a street")
    assert_illegal(game, Build(0, ()), "at least one street")
    assert not [a for a in game.legal_actions(0) if isinstance(a, Build)]


def test_r_build_1_house_bought_from_bank_at_house_price() -> None:
    game = start({"players": [{}, {}], "properties": props(0, MED, BALTIC)})
    events = game.apply(Build(0, (MED,)))
    assert ev.BuildingBuilt(0, MED, False, 50) in events
    assert levels(game, MED, BALTIC) == [1, 0]
    assert game.cash[0] == 1450
    assert game.bank_houses == 31
    game.apply(Build(0, (BALTIC,)))
    assert game.cash[0] == 1400
    assert game.bank_houses == 30


def test_r_build_1_green_houses_cost_200_each() -> None:
    game = start(
        {"players": [{}, {}], "properties": props(0, PACIFIC, NORTH_CAROLINA, PENNSYLVANIA)}
    )
    game.apply(Build(0, (PACIFIC, NORTH_CAROLINA, PENNSYLVANIA)))
    assert game.cash[0] == 1500 - 3 * 200
    assert levels(game, PACIFIC, NORTH_CAROLINA, PENNSYLVANIA) == [1, 1, 1]


def test_r_build_1_out_of_turn_building() -> None:
    game = start({"players": [{}, {}], "properties": props(1, ORIENTAL, VERMONT, CONNECTICUT)})
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 0)
    assert Build(1, (ORIENTAL,)) in game.legal_actions(1)
    game.apply(Build(1, (ORIENTAL, VERMONT)))
    assert levels(game, ORIENTAL, VERMONT, CONNECTICUT) == [1, 1, 0]
    assert game.cash[1] == 1400
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 0)


def test_r_build_1_building_while_in_jail() -> None:
    position = {
        "players": [{}, {"position": 10, "jail_turns": 1}],
        "properties": props(1, ORIENTAL, VERMONT, CONNECTICUT),
        "turn": 1,
    }
    game = start(position)
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (JAIL, 1)
    game.apply(Build(1, (ORIENTAL, VERMONT, CONNECTICUT)))
    assert levels(game, ORIENTAL, VERMONT, CONNECTICUT) == [1, 1, 1]
    assert game.cash[1] == 1350
    assert game.jail_turns[1] == 1  # still in jail, still to decide
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (JAIL, 1)


def test_r_build_1_in_jail_during_another_players_turn() -> None:
    position = {
        "players": [{}, {"position": 10, "jail_turns": 0}],
        "properties": props(1, MED, BALTIC),
    }
    game = start(position)
    game.apply(Build(1, (MED, BALTIC)))
    assert levels(game, MED, BALTIC) == [1, 1]
    assert game.cash[1] == 1400


def test_r_build_1_not_enough_cash() -> None:
    game = start({"players": [{"cash": 120}, {}], "properties": props(0, MED, BALTIC)})
    assert_illegal(game, Build(0, (MED, BALTIC, MED)), "not enough cash")
    game.apply(Build(0, (MED, BALTIC)))
    assert game.cash[0] == 20


# ---------------------------------------------------------------------- R-BUILD-2
def test_r_build_2_build_evenly() -> None:
    game = start({"players": [{}, {}], "properties": props(0, MED, BALTIC)})
    assert_illegal(game, Build(0, (MED, MED)), "build evenly", "R-BUILD-2")
    game.apply(Build(0, (MED, BALTIC, MED, BALTIC)))
    assert levels(game, MED, BALTIC) == [2, 2]
    assert game.cash[0] == 1300
    # The whole request is checked before anything is built.
    assert_illegal(game, Build(0, (MED, MED)), "build evenly")
    assert levels(game, MED, BALTIC) == [2, 2]


def test_r_build_2_three_street_group() -> None:
    position = {
        "players": [{}, {}],
        "properties": {
            ORIENTAL: {"owner": 0, "buildings": 1},
            VERMONT: {"owner": 0, "buildings": 1},
            CONNECTICUT: {"owner": 0},
        },
    }
    game = start(position)
    assert_illegal(game, Build(0, (ORIENTAL,)), "build evenly")
    assert_illegal(game, Build(0, (VERMONT,)), "build evenly")
    builds = {a.spaces for a in game.legal_actions(0) if isinstance(a, Build)}
    assert builds == {(CONNECTICUT,)}
    game.apply(Build(0, (CONNECTICUT,)))
    assert levels(game, ORIENTAL, VERMONT, CONNECTICUT) == [1, 1, 1]


def test_r_build_2_hotel_needs_four_houses_on_every_street() -> None:
    game = start(
        {
            "players": [{}, {}],
            "properties": {MED: {"owner": 0, "buildings": 4}, BALTIC: {"owner": 0, "buildings": 3}},
        }
    )
    assert_illegal(game, Build(0, (MED,)), "build evenly")
    game.apply(Build(0, (BALTIC, MED)))
    assert levels(game, MED, BALTIC) == [HOTEL, 4]


# ---------------------------------------------------------------------- R-BUILD-3
def test_r_build_3_hotel_exchanges_four_houses() -> None:
    game = start({"players": [{}, {}], "properties": props(0, MED, BALTIC, buildings=4)})
    assert (game.bank_houses, game.bank_hotels) == (24, 12)
    events = game.apply(Build(0, (MED,)))
    assert ev.BuildingBuilt(0, MED, True, 50) in events
    assert game.level[MED] == HOTEL
    assert game.cash[0] == 1450  # the hotel price = the house price
    assert (game.bank_houses, game.bank_hotels) == (28, 11)  # 4 houses back to the Bank
    assert_illegal(game, Build(0, (MED,)), "already has a hotel", "R-BUILD-3")
    game.apply(Build(0, (BALTIC,)))
    assert levels(game, MED, BALTIC) == [HOTEL, HOTEL]
    assert (game.bank_houses, game.bank_hotels) == (32, 10)
    assert game.cash[0] == 1400
    assert_illegal(game, Build(0, (BALTIC,)), "already has a hotel")


def test_r_build_3_hotel_on_green_costs_200() -> None:
    position = {
        "players": [{}, {}],
        "properties": props(0, PACIFIC, NORTH_CAROLINA, PENNSYLVANIA, buildings=4),
    }
    game = start(position)
    game.apply(Build(0, (PACIFIC, NORTH_CAROLINA, PENNSYLVANIA)))
    assert levels(game, PACIFIC, NORTH_CAROLINA, PENNSYLVANIA) == [HOTEL] * 3
    assert game.cash[0] == 1500 - 600
    assert (game.bank_houses, game.bank_hotels) == (32, 9)


# ---------------------------------------------------------------------- R-BUILD-4
def test_r_build_4_sell_evenly_at_half_price() -> None:
    position = {
        "players": [{}, {}],
        "properties": {
            ORIENTAL: {"owner": 0, "buildings": 2},
            VERMONT: {"owner": 0, "buildings": 2},
            CONNECTICUT: {"owner": 0, "buildings": 1},
        },
    }
    game = start(position)
    assert game.bank_houses == 27
    assert_illegal(game, SellBuilding(0, CONNECTICUT), "sell evenly", "R-BUILD-4")
    events = game.apply(SellBuilding(0, ORIENTAL))
    assert ev.BuildingSold(0, ORIENTAL, 1, 25) in events
    assert game.cash[0] == 1525
    assert game.bank_houses == 28
    assert_illegal(game, SellBuilding(0, ORIENTAL), "sell evenly")
    game.apply(SellBuilding(0, VERMONT))
    game.apply(SellBuilding(0, CONNECTICUT))
    assert levels(game, ORIENTAL, VERMONT, CONNECTICUT) == [1, 1, 0]
    assert game.cash[0] == 1575
    assert game.bank_houses == 30
    assert_illegal(game, SellBuilding(0, CONNECTICUT), "has no buildings")


def test_r_build_4_selling_out_of_turn_and_only_own_buildings() -> None:
    game = start({"players": [{}, {}], "properties": props(1, MED, BALTIC, buildings=1)})
    assert_illegal(game, SellBuilding(0, MED), "you do not own")
    game.apply(SellBuilding(1, MED))
    assert game.cash[1] == 1525


def test_r_build_4_hotel_counts_as_five_when_selling() -> None:
    game = start(
        {
            "players": [{}, {}],
            "properties": {
                MED: {"owner": 0, "buildings": "hotel"},
                BALTIC: {"owner": 0, "buildings": 4},
            },
        }
    )
    assert_illegal(game, SellBuilding(0, BALTIC), "sell evenly")
    game.apply(SellBuilding(0, MED))
    assert levels(game, MED, BALTIC) == [4, 4]


def test_r_build_4_hotel_sold_for_half_and_four_houses() -> None:
    game = start({"players": [{}, {}], "properties": props(0, MED, BALTIC, buildings="hotel")})
    assert (game.bank_houses, game.bank_hotels) == (32, 10)
    game.apply(SellBuilding(0, MED))
    assert levels(game, MED, BALTIC) == [4, HOTEL]
    assert game.cash[0] == 1525
    assert (game.bank_houses, game.bank_hotels) == (28, 11)


def test_r_build_4_hotel_sold_when_bank_has_exactly_four_houses() -> None:
    properties = {
        **props(0, MED, BALTIC, buildings="hotel"),
        **props(1, KENTUCKY, INDIANA, ILLINOIS, ATLANTIC, VENTNOR, MARVIN, buildings=4),
        **props(1, ST_JAMES, buildings=2),
        **props(1, TENNESSEE, NEW_YORK, buildings=1),
    }
    game = start({"players": [{}, {}], "properties": properties})
    assert game.bank_houses == 4
    game.apply(SellBuilding(0, MED))
    assert levels(game, MED, BALTIC) == [4, HOTEL]
    assert game.cash[0] == 1525
    assert (game.bank_houses, game.bank_hotels) == (0, 11)


def test_r_build_4_hotel_breakdown_with_two_houses_in_bank() -> None:
    """R-BUILD-4: the Bank has 2 houses, so selling a brown hotel cannot leave 4 houses and a
    hotel; the best even position the Bank's houses allow is 1 house on each street."""
    properties = {
        **props(0, MED, BALTIC, buildings="hotel"),
        **props(1, KENTUCKY, INDIANA, ILLINOIS, ATLANTIC, VENTNOR, MARVIN, buildings=4),
        **props(1, ST_JAMES, TENNESSEE, NEW_YORK, buildings=2),
    }
    game = start({"players": [{}, {}], "properties": properties})
    assert (game.bank_houses, game.bank_hotels) == (2, 10)
    game.apply(SellBuilding(0, MED))
    assert levels(game, MED, BALTIC) == [1, 1]
    # Each street: the hotel (25) and 3 of the 4 houses it turns into (3 x 25) sold.
    assert game.cash[0] == 1500 + 2 * (25 + 3 * 25)
    assert (game.bank_houses, game.bank_hotels) == (0, 12)
    assert game.cash[1] == 1500


def test_r_build_4_hotel_breakdown_on_green_with_three_houses_in_bank() -> None:
    properties = {
        **props(0, PACIFIC, NORTH_CAROLINA, PENNSYLVANIA, buildings="hotel"),
        **props(1, KENTUCKY, INDIANA, ILLINOIS, ATLANTIC, VENTNOR, MARVIN, buildings=4),
        **props(1, ST_JAMES, TENNESSEE, buildings=2),
        **props(1, NEW_YORK, buildings=1),
    }
    game = start({"players": [{}, {}], "properties": properties})
    assert (game.bank_houses, game.bank_hotels) == (3, 9)
    game.apply(SellBuilding(0, PACIFIC))
    assert levels(game, PACIFIC, NORTH_CAROLINA, PENNSYLVANIA) == [1, 1, 1]
    assert game.cash[0] == 1500 + 3 * (4 * 100)
    assert (game.bank_houses, game.bank_hotels) == (0, 12)


def test_r_build_4_hotel_breakdown_with_no_houses_in_bank() -> None:
    properties = {
        **props(0, MED, BALTIC, buildings="hotel"),
        **props(1, KENTUCKY, INDIANA, ILLINOIS, ATLANTIC, VENTNOR, MARVIN, buildings=4),
        **props(1, ST_JAMES, TENNESSEE, buildings=3),
        **props(1, NEW_YORK, buildings=2),
    }
    game = start({"players": [{}, {}], "properties": properties})
    assert (game.bank_houses, game.bank_hotels) == (0, 10)
    game.apply(SellBuilding(0, BALTIC))
    assert levels(game, MED, BALTIC) == [0, 0]
    assert game.cash[0] == 1500 + 2 * 5 * 25
    assert (game.bank_houses, game.bank_hotels) == (0, 12)


# ---------------------------------------------------------------------- R-BUILD-5
def test_r_build_5_no_houses_left_in_bank() -> None:
    properties = {
        **props(0, MED, BALTIC),
        **props(1, KENTUCKY, INDIANA, ILLINOIS, ATLANTIC, VENTNOR, MARVIN, buildings=4),
        **props(1, ST_JAMES, TENNESSEE, buildings=3),
        **props(1, NEW_YORK, buildings=2),
    }
    game = start({"players": [{}, {}], "properties": properties})
    assert game.bank_houses == 0
    assert_illegal(game, Build(0, (MED,)), "no houses left", "R-BUILD-5")
    assert not [a for a in game.legal_actions(0) if isinstance(a, Build)]
    # A house comes back: now it can be bought. Seat 1 could build it back too, so it is
    # asked first (R-BUILD-6) and wants none.
    game.apply(SellBuilding(1, ST_JAMES))
    assert game.bank_houses == 1
    game.apply(Build(0, (MED,)))
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (WANT, 1)
    game.apply(DeclareWant(1, 0))
    assert game.level[MED] == 1 and game.bank_houses == 0


def test_r_build_5_no_hotels_left_in_bank() -> None:
    properties = {
        **props(1, MED, BALTIC, ORIENTAL, VERMONT, CONNECTICUT, buildings="hotel"),
        **props(1, ST_CHARLES, STATES, VIRGINIA, ST_JAMES, TENNESSEE, NEW_YORK, buildings="hotel"),
        PARK_PLACE: {"owner": 1, "buildings": "hotel"},
        BOARDWALK: {"owner": 1, "buildings": 4},
    }
    game = start({"players": [{}, {}], "properties": properties})
    assert (game.bank_houses, game.bank_hotels) == (28, 0)
    assert_illegal(game, Build(1, (BOARDWALK,)), "no hotels left", "R-BUILD-5")
    game.apply(SellBuilding(1, MED))
    assert (game.bank_houses, game.bank_hotels) == (24, 1)
    game.apply(Build(1, (BOARDWALK,)))
    assert game.level[BOARDWALK] == HOTEL
    assert (game.bank_houses, game.bank_hotels) == (28, 0)


def test_r_build_5_all_32_houses_can_be_bought_and_no_more() -> None:
    properties = props(
        0, KENTUCKY, INDIANA, ILLINOIS, ATLANTIC, VENTNOR, MARVIN, ST_JAMES, TENNESSEE, NEW_YORK
    )
    game = start({"players": [{"cash": 10000}, {}], "properties": properties})
    game.apply(Build(0, (KENTUCKY, INDIANA, ILLINOIS) * 4 + (ATLANTIC, VENTNOR, MARVIN) * 4))
    game.apply(Build(0, (ST_JAMES, TENNESSEE, NEW_YORK) * 2 + (ST_JAMES, TENNESSEE)))
    assert game.bank_houses == 0
    assert_illegal(game, Build(0, (NEW_YORK,)), "no houses left")
    assert game.cash[0] == 10000 - 24 * 150 - 8 * 100


# ---------------------------------------------------------------------- R-BUILD-6
def shortage_position(bank_houses: int) -> dict[str, Any]:
    """Seat 0: brown (empty) and a yellow/red/orange estate; seat 1: light blue (empty).
    The estate leaves ``bank_houses`` houses in the Bank (2 or 3)."""
    orange = props(0, ST_JAMES, TENNESSEE, NEW_YORK, buildings=2)
    if bank_houses == 3:
        orange[NEW_YORK]["buildings"] = 1
    return {
        "players": [{}, {}],
        "properties": {
            **props(0, MED, BALTIC),
            **props(0, KENTUCKY, INDIANA, ILLINOIS, ATLANTIC, VENTNOR, MARVIN, buildings=4),
            **orange,
            **props(1, ORIENTAL, VERMONT, CONNECTICUT),
        },
    }


def test_r_build_6_no_shortage_when_request_below_stock() -> None:
    game = start(shortage_position(3))
    assert game.bank_houses == 3
    game.apply(Build(0, (MED, BALTIC)))
    assert levels(game, MED, BALTIC) == [1, 1]
    assert game.bank_houses == 1
    assert game.decision is not None and game.decision.kind == ROLL


def test_r_build_6_rival_wants_none_requester_gets_all() -> None:
    game = start(shortage_position(2))
    assert game.bank_houses == 2
    events = game.apply(Build(0, (MED, BALTIC)))
    assert ev.BuildingShortage(False, 2, 2) in events
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (WANT, 1)
    assert levels(game, MED, BALTIC) == [0, 0]  # nothing built yet
    assert game.decision_actions() == [DeclareWant(1, 0), DeclareWant(1, 1), DeclareWant(1, 2)]
    assert_illegal(game, DeclareWant(1, 3), "0 to 2")
    assert_illegal(game, DeclareWant(0, 1), "not your decision")
    game.apply(DeclareWant(1, 0))
    assert levels(game, MED, BALTIC) == [1, 1]
    assert game.cash[0] == 1400
    assert game.bank_houses == 0
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 0)


def test_r_build_6_shortage_auctions_houses_one_by_one() -> None:
    game = start(shortage_position(2))
    game.apply(Build(0, (MED, BALTIC)))
    events = game.apply(DeclareWant(1, 1))  # 2 + 1 wanted > 2 in the Bank: auction
    assert ev.AuctionStarted(HOUSE_ITEM, (0, 1)) in events
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (BID, 0)
    game.apply(Bid(0, 10))
    game.apply(Bid(1, 20))
    game.apply(PassBid(0))
    # Seat 1 won the first house for 20 (paid to the Bank) and places it.
    assert game.cash[1] == 1480
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (PLACE, 1)
    assert_illegal(game, PlaceBuilding(1, MED), "cannot go on")
    game.apply(PlaceBuilding(1, ORIENTAL))
    assert game.level[ORIENTAL] == 1
    assert game.bank_houses == 1
    assert game.cash[1] == 1480  # the bid is the whole price
    # One house left, still wanted only by seat 0: no auction with one applicant; seat 0
    # buys it at the printed price (50 for brown) and places it.
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (PLACE, 0)
    assert {PlaceBuilding(0, MED), PlaceBuilding(0, BALTIC)} <= set(game.decision_actions())
    game.apply(PlaceBuilding(0, BALTIC))
    assert levels(game, MED, BALTIC) == [0, 1]
    assert game.cash[0] == 1450
    assert game.bank_houses == 0
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 0)


def test_r_build_6_nobody_bids_houses_stay_in_bank() -> None:
    game = start(shortage_position(2))
    game.apply(Build(0, (MED, BALTIC)))
    game.apply(DeclareWant(1, 2))
    game.apply(PassBid(0))
    game.apply(PassBid(1))
    assert game.bank_houses == 2
    assert levels(game, MED, BALTIC, ORIENTAL) == [0, 0, 0]
    assert game.cash[:2] == [1500, 1500]
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 0)


def test_r_build_6_no_procedure_when_nobody_else_could_build() -> None:
    position = shortage_position(2)
    position["properties"][CONNECTICUT]["owner"] = 0  # seat 1 lacks a full group now
    game = start(position)
    game.apply(Build(0, (MED, BALTIC)))
    assert levels(game, MED, BALTIC) == [1, 1]
    assert game.bank_houses == 0


def test_r_build_6_hotel_shortage() -> None:
    properties = {
        **props(0, MED, BALTIC, buildings=4),
        **props(1, ORIENTAL, VERMONT, CONNECTICUT, buildings=4),
        **props(0, ST_CHARLES, STATES, VIRGINIA, ST_JAMES, TENNESSEE, NEW_YORK, buildings="hotel"),
        **props(0, KENTUCKY, INDIANA, ILLINOIS, PARK_PLACE, BOARDWALK, buildings="hotel"),
    }
    game = start({"players": [{}, {}], "properties": properties})
    assert game.bank_hotels == 1
    events = game.apply(Build(0, (MED,)))
    assert ev.BuildingShortage(True, 1, 1) in events
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (WANT, 1)
    game.apply(DeclareWant(1, 1))
    game.apply(Bid(0, 100))
    game.apply(PassBid(1))
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (PLACE, 0)
    assert set(game.decision_actions()) == {PlaceBuilding(0, MED), PlaceBuilding(0, BALTIC)}
    game.apply(PlaceBuilding(0, BALTIC))
    assert levels(game, MED, BALTIC) == [4, HOTEL]
    assert game.cash[0] == 1400
    assert game.bank_hotels == 0


# ---------------------------------------------------------------------- R-BUILD-7
def test_r_build_7_no_building_with_a_mortgaged_street() -> None:
    position = {
        "players": [{}, {}],
        "properties": {MED: {"owner": 0}, BALTIC: {"owner": 0, "mortgaged": True}},
    }
    game = start(position)
    assert_illegal(game, Build(0, (MED,)), "mortgaged", "R-BUILD-7")
    assert not [a for a in game.legal_actions(0) if isinstance(a, Build)]


def test_r_build_1_building_between_rolls_of_own_turn() -> None:
    game = start({"players": [{}, {}], "properties": props(0, MED, BALTIC)}, dice=[(3, 3)])
    game.apply(Roll(0))  # 0 -> 6 Oriental: buy decision pending
    game.apply(Build(0, (MED, BALTIC)))
    assert levels(game, MED, BALTIC) == [1, 1]
    assert game.decision is not None and game.decision.space == ORIENTAL


def test_r_build_6_shortage_auction_starts_with_the_player_whose_turn_it_is() -> None:
    """R-AUCTION-2: a shortage auction is an "other auction": seat 1 builds out of turn,
    but the bidding starts with seat 0, whose turn it is."""
    properties = {
        **props(1, MED, BALTIC),
        **props(1, KENTUCKY, INDIANA, ILLINOIS, ATLANTIC, VENTNOR, MARVIN, buildings=4),
        **props(1, ST_JAMES, TENNESSEE, NEW_YORK, buildings=2),
        **props(0, ORIENTAL, VERMONT, CONNECTICUT),
    }
    game = start({"players": [{}, {}], "properties": properties})
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 0)
    game.apply(Build(1, (MED, BALTIC)))
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (WANT, 0)
    events = game.apply(DeclareWant(0, 1))
    assert ev.AuctionStarted(HOUSE_ITEM, (0, 1)) in events
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (BID, 0)


def test_r_build_6_winner_without_room_for_more_is_not_a_bidder_again() -> None:
    """Seat 1 says it wants 2 houses but has room for one (light blue 4/4/3). Once it has
    placed that one it can place no more, so it must not win (and be stuck with) a second."""
    properties = {
        **props(0, MED, BALTIC),
        **props(0, KENTUCKY, INDIANA, ILLINOIS, buildings=4),
        **props(0, ST_JAMES, buildings=3),
        **props(0, TENNESSEE, NEW_YORK, buildings=2),
        **props(1, ORIENTAL, VERMONT, buildings=4),
        **props(1, CONNECTICUT, buildings=3),
    }
    game = start({"players": [{}, {}], "properties": properties})
    assert game.bank_houses == 2
    game.apply(Build(0, (MED, BALTIC)))
    game.apply(DeclareWant(1, 2))
    game.apply(PassBid(0))
    game.apply(Bid(1, 1))
    assert game.decision_actions() == [PlaceBuilding(1, CONNECTICUT)]
    game.apply(PlaceBuilding(1, CONNECTICUT))
    # The last house: only seat 0 can still place one: seat 0 buys it at the printed price.
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (PLACE, 0)
    game.apply(PlaceBuilding(0, MED))
    assert levels(game, MED, BALTIC, CONNECTICUT) == [1, 0, 4]
    assert game.cash[:2] == [1450, 1499]
    assert game.bank_houses == 0
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 0)


def test_r_build_4_hotel_next_to_four_houses_breaks_down_with_no_houses_in_bank() -> None:
    """Brown hotel + 4 houses, Bank without houses: the 4 houses on Baltic are all the
    houses there are, so the group comes down to 2 + 2."""
    properties = {
        MED: {"owner": 0, "buildings": "hotel"},
        BALTIC: {"owner": 0, "buildings": 4},
        **props(1, KENTUCKY, INDIANA, ILLINOIS, ATLANTIC, VENTNOR, MARVIN, buildings=4),
        **props(1, ST_JAMES, TENNESSEE, buildings=1),
        **props(1, NEW_YORK, buildings=2),
    }
    game = start({"players": [{}, {}], "properties": properties})
    assert (game.bank_houses, game.bank_hotels) == (0, 11)
    game.apply(SellBuilding(0, MED))
    assert levels(game, MED, BALTIC) == [2, 2]
    assert game.cash[0] == 1500 + 3 * 25 + 2 * 25
    assert (game.bank_houses, game.bank_hotels) == (0, 12)
