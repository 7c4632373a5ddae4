"""Scenario tests for rent and the card decks (R-RENT-*, R-CARD-*).

Deeds and cards are the printed classic ones. Expected amounts are computed from the
rules (docs/rules.md) and the printed numbers.
"""

from __future__ import annotations

from typing import Any

import pytest

from monopoly.core import events as ev
from monopoly.core.actions import (
    Buy,
    ClaimRent,
    DeclareBankruptcy,
    DeclineBuy,
    PassBid,
    Roll,
)
from monopoly.core.board import DECK_ROLES, CardKind
from monopoly.core.editions import edition_keys, get_edition
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from monopoly.core.state import BID, BUY, RAISE_CASH, ROLL
from tests.scenario import assert_illegal, dice_left, start, waiting

BOARD = get_edition("classic").board
PRINTED = {role: [card.key for card in BOARD.decks[role]] for role in DECK_ROLES}
CHANCE = "chance"
CHEST = "community_chest"

# Where to stand to reach a card space with a roll of (1, 2) or (1, 3) (no doubles).
REACH = {7: (4, (1, 2)), 22: (18, (1, 3)), 36: (32, (1, 3)),
         2: (38, (1, 3)), 17: (13, (1, 3)), 33: (29, (1, 3))}  # fmt: skip


def deck_with(role: str, *top: str) -> list[str]:
    """All 16 cards of ``role`` with ``top`` first (printed order for the rest)."""
    return list(top) + [k for k in PRINTED[role] if k not in top]


def draw_game(
    space: int,
    role: str,
    card: str,
    *,
    players: list[dict[str, Any]] | None = None,
    properties: dict[str, Any] | None = None,
    extra_dice: tuple[tuple[int, int], ...] = (),
    rules: RuleSet | str = "standard",
    decks: dict[str, list[str]] | None = None,
) -> tuple[Game, list[Any]]:
    """Seat 0 rolls onto card space ``space`` with ``card`` on top of ``role``."""
    origin, dice = REACH[space]
    seats = [dict(p) for p in (players or [{}, {}])]
    seats[0].setdefault("position", origin)
    position: dict[str, Any] = {"players": seats, "properties": properties or {}}
    chosen = {role: deck_with(role, card), **(decks or {})}
    game = start(position, dice=[dice, *extra_dice], rules=rules, decks=chosen)
    events = game.apply(Roll(0))
    assert ev.CardDrawn(0, role, card) in events
    return game, events


def land(
    origin: int,
    dice: tuple[int, int],
    properties: dict[str, Any],
    *,
    extra_dice: tuple[tuple[int, int], ...] = (),
    rules: RuleSet | str = "standard",
    players: list[dict[str, Any]] | None = None,
) -> tuple[Game, list[Any]]:
    seats = [dict(p) for p in (players or [{}, {}])]
    seats[0].setdefault("position", origin)
    game = start(
        {"players": seats, "properties": properties}, dice=[dice, *extra_dice], rules=rules
    )
    return game, game.apply(Roll(0))


# ====================================================================== R-RENT-1
def test_r_rent_1_street_base_rent() -> None:
    game, events = land(0, (1, 2), {"3": {"owner": 1}})
    assert ev.RentPaid(0, 1, 3, 4) in events
    assert game.cash == [1496, 1504]


def test_r_rent_1_whole_group_doubles_base_rent() -> None:
    game, _ = land(0, (1, 2), {"1": {"owner": 1}, "3": {"owner": 1}})
    assert game.cash == [1500 - 8, 1500 + 8]
    # Boardwalk with Park Place: 2 x 50.
    game, _ = land(35, (1, 3), {"37": {"owner": 1}, "39": {"owner": 1}})
    assert game.cash == [1400, 1600]


def test_r_rent_1_no_doubling_when_a_group_street_is_mortgaged() -> None:
    props = {"1": {"owner": 1, "mortgaged": True}, "3": {"owner": 1}}
    game, _ = land(0, (1, 2), props)
    assert game.cash == [1496, 1504]


def test_r_rent_1_no_doubling_when_group_split_between_owners() -> None:
    game, _ = land(0, (1, 2), {"1": {"owner": 0}, "3": {"owner": 1}})
    assert game.cash == [1496, 1504]


def test_r_rent_1_unimproved_street_of_a_built_group_is_doubled() -> None:
    # Mediterranean has a house, Baltic none: Baltic's base rent, doubled (whole group).
    props = {"1": {"owner": 1, "buildings": 1}, "3": {"owner": 1}}
    game, _ = land(0, (1, 2), props)
    assert game.cash == [1492, 1508]


@pytest.mark.parametrize(
    ("buildings", "rent"), [(1, 20), (2, 60), (3, 180), (4, 320), ("hotel", 450)]
)
def test_r_rent_1_building_rent_is_not_doubled(buildings: Any, rent: int) -> None:
    props = {"1": {"owner": 1, "buildings": buildings}, "3": {"owner": 1, "buildings": buildings}}
    game, events = land(0, (1, 2), props)
    assert ev.RentPaid(0, 1, 3, rent) in events
    assert game.cash == [1500 - rent, 1500 + rent]


# ====================================================================== R-RENT-2
@pytest.mark.parametrize(
    ("owned", "rent"),
    [((5,), 25), ((5, 15), 50), ((5, 15, 25), 100), ((5, 15, 25, 35), 200)],
)
def test_r_rent_2_railroad_rent_by_number_owned(owned: tuple[int, ...], rent: int) -> None:
    game, events = land(0, (2, 3), {str(s): {"owner": 1} for s in owned})
    assert ev.RentPaid(0, 1, 5, rent) in events
    assert game.cash == [1500 - rent, 1500 + rent]


def test_r_rent_2_mortgaged_railroads_still_count() -> None:
    props = {
        "5": {"owner": 1},
        "15": {"owner": 1, "mortgaged": True},
        "25": {"owner": 1, "mortgaged": True},
        "35": {"owner": 1, "mortgaged": True},
    }
    game, _ = land(0, (2, 3), props)
    assert game.cash == [1300, 1700]


def test_r_rent_2_railroads_of_another_owner_do_not_count() -> None:
    props = {"5": {"owner": 1}, "15": {"owner": 0}, "25": {"owner": 0}}
    game, _ = land(0, (2, 3), props)
    assert game.cash == [1475, 1525]


# ====================================================================== R-RENT-3
def test_r_rent_3_utility_fresh_roll_times_4() -> None:
    # 7 + 5 = 12 Electric Company; the payer rolls again: 3 + 4 = 7, rent 4 x 7.
    game, events = land(7, (2, 3), {"12": {"owner": 1}}, extra_dice=((3, 4),))
    assert ev.DiceRolled(0, (2, 3), False) in events
    assert ev.RentPaid(0, 1, 12, 28) in events
    assert game.cash == [1472, 1528]
    assert dice_left(game) == 0
    assert [e[1] for e in game.record if e[0] == "dice"] == [(2, 3), (3, 4)]


def test_r_rent_3_both_utilities_times_10() -> None:
    game, _ = land(7, (2, 3), {"12": {"owner": 1}, "28": {"owner": 1}}, extra_dice=((3, 4),))
    assert game.cash == [1430, 1570]


def test_r_rent_3_mortgaged_other_utility_still_counts() -> None:
    props = {"12": {"owner": 1}, "28": {"owner": 1, "mortgaged": True}}
    game, _ = land(7, (2, 3), props, extra_dice=((6, 1),))
    assert game.cash == [1430, 1570]


def test_r_rent_3_doubles_on_the_rent_roll_give_no_extra_turn() -> None:
    game, _ = land(7, (2, 3), {"12": {"owner": 1}}, extra_dice=((3, 3),))
    assert game.cash == [1500 - 24, 1500 + 24]
    assert waiting(game) == (ROLL, 1)


@pytest.mark.parametrize(("owned", "rent"), [(("12",), 4 * 5), (("12", "28"), 10 * 5)])
def test_r_rent_3_option_moving_roll(owned: tuple[str, ...], rent: int) -> None:
    rules = RuleSet.named("standard", utility_roll="moving")
    game, _ = land(7, (2, 3), {s: {"owner": 1} for s in owned}, rules=rules)
    assert game.cash == [1500 - rent, 1500 + rent]
    assert len([e for e in game.record if e[0] == "dice"]) == 1  # no fresh roll


def test_r_rent_3_own_or_mortgaged_utility_no_roll() -> None:
    for props in ({"12": {"owner": 0}}, {"12": {"owner": 1, "mortgaged": True}}):
        game, _ = land(7, (2, 3), props)
        assert game.cash == [1500, 1500]
        assert len([e for e in game.record if e[0] == "dice"]) == 1


# ====================================================================== R-RENT-4
def test_r_rent_4_player_in_jail_collects_rent() -> None:
    players = [{}, {"position": 10, "jail_turns": 1}]
    game, events = land(0, (1, 2), {"3": {"owner": 1}}, players=players)
    assert ev.RentPaid(0, 1, 3, 4) in events
    assert game.cash == [1496, 1504]
    assert game.jail_turns[1] == 1


def test_r_rent_4_player_in_jail_may_claim_rent() -> None:
    rules = RuleSet.named("standard", rent_must_be_claimed=True)
    players = [{}, {"position": 10, "jail_turns": 0}]
    game, _ = land(0, (1, 2), {"3": {"owner": 1}}, players=players, rules=rules)
    game.apply(ClaimRent(1, 3))
    assert game.cash == [1496, 1504]


# ====================================================================== R-RENT-5
def test_r_rent_5_collected_automatically_by_default() -> None:
    game, _ = land(0, (1, 2), {"3": {"owner": 1}})
    assert game.cash == [1496, 1504]
    assert game.claims == []
    assert not any(isinstance(a, ClaimRent) for a in game.legal_actions(1))
    assert_illegal(game, ClaimRent(1, 3), "no rent to claim")


def claim_game(players: int = 2) -> tuple[Game, list[Any]]:
    rules = RuleSet.named("standard", rent_must_be_claimed=True)
    seats = [{} for _ in range(players)]
    return land(0, (1, 2), {"3": {"owner": players - 1}}, rules=rules, players=seats,
                extra_dice=((2, 2), (1, 2)))  # fmt: skip


def test_r_rent_5_option_owner_claims_rent() -> None:
    game, events = claim_game()
    assert ev.RentOwed(0, 1, 3, 4) in events
    assert game.cash == [1500, 1500]  # nothing paid yet
    assert ClaimRent(1, 3) in game.legal_actions(1)
    assert ClaimRent(1, 3) in game.free_actions(1)
    assert_illegal(game, ClaimRent(0, 3), "no rent to claim")
    assert_illegal(game, ClaimRent(1, 1), "no rent to claim")
    events = game.apply(ClaimRent(1, 3))
    assert ev.RentPaid(0, 1, 3, 4) in events
    assert game.cash == [1496, 1504]
    assert_illegal(game, ClaimRent(1, 3), "no rent to claim")  # only once
    assert waiting(game) == (ROLL, 1)


def test_r_rent_5_option_forfeited_when_the_next_player_rolls() -> None:
    game, _ = claim_game()
    events = game.apply(Roll(1))  # the owner rolls without claiming
    assert ev.RentForfeited(1, 3) in events
    assert game.claims == []
    assert game.cash[0] == 1500
    assert_illegal(game, ClaimRent(1, 3), "no rent to claim")


def test_r_rent_5_option_forfeited_when_another_next_player_rolls() -> None:
    # Three players: seat 0 lands on seat 2's street; seat 1 rolls next.
    game, _ = claim_game(players=3)
    assert waiting(game) == (ROLL, 1)
    events = game.apply(Roll(1))
    assert ev.RentForfeited(2, 3) in events
    assert_illegal(game, ClaimRent(2, 3), "no rent to claim")
    assert game.cash[0] == 1500 and game.cash[2] == 1500


def test_r_rent_5_option_claim_survives_the_payers_doubles() -> None:
    rules = RuleSet.named("standard", rent_must_be_claimed=True)
    # 1 + (1,1) = 3 Baltic (rent owed), roll again 3 + (3,4) = 10 Just Visiting.
    game, _ = land(1, (1, 1), {"3": {"owner": 1}}, rules=rules, extra_dice=((3, 4),))
    assert waiting(game) == (ROLL, 0)
    game.apply(Roll(0))
    assert game.position[0] == 10
    game.apply(ClaimRent(1, 3))
    assert game.cash == [1496, 1504]


def test_r_rent_5_option_claimed_rent_uses_the_debt_rules() -> None:
    rules = RuleSet.named("standard", rent_must_be_claimed=True)
    props = {"3": {"owner": 1, "buildings": "hotel"}, "1": {"owner": 1, "buildings": "hotel"}}
    game, _ = land(0, (1, 2), props, rules=rules, players=[{"cash": 100}, {}])
    game.apply(ClaimRent(1, 3))
    assert waiting(game) == (RAISE_CASH, 0)
    game.apply(DeclareBankruptcy(0))
    assert not game.active[0]
    assert game.cash[1] == 1600
    assert game.winners == (1,)


# ====================================================================== R-CARD-1
def test_r_card_1_classic_decks_are_the_us_decks() -> None:
    chance = BOARD.decks[CHANCE]
    chest = BOARD.decks[CHEST]
    assert len(chance) == 16 and len(chest) == 16
    kinds = [c.kind for c in chance]
    assert kinds.count(CardKind.NEAREST_RAILROAD) == 2
    assert sorted(c.target for c in chance if c.kind == CardKind.ADVANCE_TO) == [0, 5, 11, 24, 39]
    collect = sorted(c.amount for c in chance if c.kind == CardKind.COLLECT)
    assert collect == [50, 150]
    chest_collect = sorted(c.amount for c in chest if c.kind == CardKind.COLLECT)
    assert chest_collect == [10, 20, 25, 50, 100, 100, 100, 200]
    assert sorted(c.amount for c in chest if c.kind == CardKind.PAY) == [50, 50, 100]


def _deck_signature(key: str, role: str) -> list[tuple[Any, ...]]:
    cards = get_edition(key).board.decks[role]
    return sorted((c.kind, c.target, c.amount, c.per_house, c.per_hotel) for c in cards)


@pytest.mark.parametrize("key", [k for k in edition_keys() if k != "classic"])
def test_r_card_1_themed_decks_only_rename(key: str) -> None:
    edition = get_edition(key)
    roles = set(edition.board.decks)
    assert roles == set(DECK_ROLES)
    for role in DECK_ROLES:
        assert _deck_signature(key, role) == _deck_signature("classic", role)


SIMPLE_MONEY = [
    (CHANCE, "dividend", 50),
    (CHANCE, "speeding_fine", -15),
    (CHANCE, "building_loan", 150),
    (CHEST, "bank_error", 200),
    (CHEST, "doctors_fee", -50),
    (CHEST, "sale_of_stock", 50),
    (CHEST, "holiday_fund", 100),
    (CHEST, "income_tax_refund", 20),
    (CHEST, "life_insurance", 100),
    (CHEST, "hospital_fees", -100),
    (CHEST, "school_fees", -50),
    (CHEST, "consultancy_fee", 25),
    (CHEST, "beauty_contest", 10),
    (CHEST, "inheritance", 100),
]


@pytest.mark.parametrize(("role", "card", "delta"), SIMPLE_MONEY)
def test_r_card_1_money_cards(role: str, card: str, delta: int) -> None:
    space = 22 if role == CHANCE else 17
    game, _ = draw_game(space, role, card)
    assert game.cash == [1500 + delta, 1500]
    assert game.position[0] == space
    # R-LAND-3: the card goes under its deck.
    assert list(game.decks[role]) == [*deck_with(role, card)[1:], card]
    assert waiting(game) == (ROLL, 1)


def test_r_card_1_money_card_on_every_card_space() -> None:
    for space in (7, 22, 36):
        game, _ = draw_game(space, CHANCE, "dividend")
        assert game.cash[0] == 1550
    for space in (2, 17, 33):
        game, _ = draw_game(space, CHEST, "inheritance")
        salary = 200 if space == 2 else 0  # from 38 to 2 passes GO
        assert game.cash[0] == 1600 + salary


def test_r_card_1_pay_card_player_short_of_cash_raises_it() -> None:
    players = [{"cash": 40}, {}]
    game, _ = draw_game(17, CHEST, "hospital_fees", players=players, properties={"1": {"owner": 0}})
    assert waiting(game) == (RAISE_CASH, 0)
    from monopoly.core.actions import Mortgage

    game.apply(Mortgage(0, 1))  # 40 + 30 = 70: still short of 100
    assert waiting(game) == (RAISE_CASH, 0)
    game.apply(DeclareBankruptcy(0))
    assert not game.active[0]
    assert game.winners == (1,)


@pytest.mark.parametrize(
    ("space", "card", "target", "salary"),
    [
        (7, "advance_to_boardwalk", 39, 0),
        (36, "advance_to_boardwalk", 39, 0),
        (7, "advance_to_illinois", 24, 0),
        (36, "advance_to_illinois", 24, 200),
        (7, "advance_to_st_charles", 11, 0),
        (22, "advance_to_st_charles", 11, 200),
        (36, "advance_to_st_charles", 11, 200),
        (7, "trip_to_reading", 5, 200),
        (22, "trip_to_reading", 5, 200),
        (36, "trip_to_reading", 5, 200),
    ],
)
def test_r_card_1_advance_to_cards(space: int, card: str, target: int, salary: int) -> None:
    # R-TURN-2: passing GO on a forward card move pays.
    game, _ = draw_game(space, CHANCE, card)
    assert game.position[0] == target
    assert game.cash[0] == 1500 + salary
    assert waiting(game) == (BUY, 0)  # R-LAND-1 at the destination
    assert game.decision is not None and game.decision.space == target


@pytest.mark.parametrize(("role", "space"), [(CHANCE, 7), (CHANCE, 36), (CHEST, 17), (CHEST, 33)])
def test_r_card_1_advance_to_go_collects_200(role: str, space: int) -> None:
    game, events = draw_game(space, role, "advance_to_go")
    assert game.position[0] == 0
    assert ev.SalaryCollected(0, 200, landed=True) in events
    assert game.cash[0] == 1700
    assert waiting(game) == (ROLL, 1)


def test_r_card_1_advance_to_owned_street_pays_normal_rent() -> None:
    # Illinois (base 20) with the whole red group: 40, not doubled again by the card.
    props = {"21": {"owner": 1}, "23": {"owner": 1}, "24": {"owner": 1}}
    game, _ = draw_game(36, CHANCE, "advance_to_illinois", properties=props)
    assert game.cash == [1500 + 200 - 40, 1500 + 40]


@pytest.mark.parametrize("role", [CHANCE, CHEST])
def test_r_card_1_get_out_of_jail_free_kept(role: str) -> None:
    space = 22 if role == CHANCE else 33
    game, events = draw_game(space, role, "get_out_of_jail_free")
    assert ev.JailCardKept(0, role) in events
    assert game.jail_cards[0] == [role]
    assert len(game.decks[role]) == 15
    assert "get_out_of_jail_free" not in game.decks[role]
    assert game.cash[0] == 1500


@pytest.mark.parametrize(("role", "space"), [(CHANCE, 7), (CHANCE, 36), (CHEST, 2), (CHEST, 33)])
def test_r_card_1_go_to_jail_card_no_salary(role: str, space: int) -> None:
    game, events = draw_game(space, role, "go_to_jail")
    salary = 200 if space == 2 else 0  # the roll from 38 to 2 passed GO, the card pays nothing
    assert game.position[0] == 10
    assert game.jail_turns[0] == 0
    assert game.cash[0] == 1500 + salary
    assert [e for e in events if isinstance(e, ev.SalaryCollected)] == (
        [ev.SalaryCollected(0, 200)] if salary else []
    )
    assert list(game.decks[role])[-1] == "go_to_jail"
    assert waiting(game) == (ROLL, 1)


def test_r_card_1_go_to_jail_card_ends_a_doubles_turn() -> None:
    # R-TURN-5: 5 + (1,1) = 7 Chance, Go to Jail: no roll for the doubles.
    position = {"players": [{"position": 5}, {}], "properties": {}}
    game = start(position, dice=[(1, 1)], decks={CHANCE: deck_with(CHANCE, "go_to_jail")})
    game.apply(Roll(0))
    assert game.jail_turns[0] == 0
    assert waiting(game) == (ROLL, 1)


# ====================================================================== R-CARD-2
@pytest.mark.parametrize("card", ["nearest_railroad_1", "nearest_railroad_2"])
@pytest.mark.parametrize(("space", "railroad", "salary"), [(7, 15, 0), (22, 25, 0), (36, 5, 200)])
def test_r_card_2_nearest_railroad_unowned_may_be_bought(
    card: str, space: int, railroad: int, salary: int
) -> None:
    game, _ = draw_game(space, CHANCE, card)
    assert game.position[0] == railroad
    assert game.cash[0] == 1500 + salary
    assert waiting(game) == (BUY, 0)
    game.apply(Buy(0))
    assert game.owner[railroad] == 0
    assert game.cash[0] == 1500 + salary - 200


def test_r_card_2_nearest_railroad_declined_goes_to_auction() -> None:
    game, _ = draw_game(7, CHANCE, "nearest_railroad_1")
    game.apply(DeclineBuy(0))
    assert waiting(game) == (BID, 0)
    game.apply(PassBid(0))
    game.apply(PassBid(1))
    assert game.owner[15] == -1


@pytest.mark.parametrize(("space", "railroad", "salary"), [(7, 15, 0), (22, 25, 0), (36, 5, 200)])
@pytest.mark.parametrize(("count", "rent"), [(1, 25), (2, 50), (3, 100), (4, 200)])
def test_r_card_2_nearest_railroad_owned_pays_twice(
    space: int, railroad: int, salary: int, count: int, rent: int
) -> None:
    others = [r for r in (5, 15, 25, 35) if r != railroad][: count - 1]
    props = {str(r): {"owner": 1} for r in (railroad, *others)}
    game, events = draw_game(space, CHANCE, "nearest_railroad_2", properties=props)
    assert ev.RentPaid(0, 1, railroad, 2 * rent) in events
    assert game.cash == [1500 + salary - 2 * rent, 1500 + 2 * rent]
    assert waiting(game) == (ROLL, 1)


def test_r_card_2_nearest_railroad_mortgaged_or_own_pays_nothing() -> None:
    for props in ({"15": {"owner": 1, "mortgaged": True}}, {"15": {"owner": 0}}):
        game, _ = draw_game(7, CHANCE, "nearest_railroad_1", properties=props)
        assert game.position[0] == 15
        assert game.cash == [1500, 1500]


# ====================================================================== R-CARD-3
@pytest.mark.parametrize(("space", "utility", "salary"), [(7, 12, 0), (22, 28, 0), (36, 12, 200)])
def test_r_card_3_nearest_utility_unowned_may_be_bought(
    space: int, utility: int, salary: int
) -> None:
    game, _ = draw_game(space, CHANCE, "nearest_utility")
    assert game.position[0] == utility
    assert game.cash[0] == 1500 + salary
    assert waiting(game) == (BUY, 0)
    game.apply(Buy(0))
    assert game.owner[utility] == 0
    assert game.cash[0] == 1500 + salary - 150


@pytest.mark.parametrize(("space", "utility", "salary"), [(7, 12, 0), (22, 28, 0), (36, 12, 200)])
@pytest.mark.parametrize("both", [False, True])
def test_r_card_3_nearest_utility_owned_pays_ten_times_a_fresh_roll(
    space: int, utility: int, salary: int, both: bool
) -> None:
    owned = (12, 28) if both else (utility,)
    props = {str(u): {"owner": 1} for u in owned}
    game, events = draw_game(space, CHANCE, "nearest_utility", properties=props,
                             extra_dice=((6, 2),))  # fmt: skip
    assert ev.RentPaid(0, 1, utility, 80) in events
    assert game.cash == [1500 + salary - 80, 1580]
    assert dice_left(game) == 0


def test_r_card_3_nearest_utility_rolls_fresh_even_with_moving_option() -> None:
    rules = RuleSet.named("standard", utility_roll="moving")
    game, _ = draw_game(7, CHANCE, "nearest_utility", properties={"12": {"owner": 1}},
                        extra_dice=((1, 1),), rules=rules)  # fmt: skip
    assert game.cash == [1480, 1520]  # 10 x 2, not 10 x 3 (the moving roll)
    assert waiting(game) == (ROLL, 1)  # the (1,1) rent roll is no doubles turn


# ====================================================================== R-CARD-4
def test_r_card_4_go_back_3_from_7_pays_income_tax() -> None:
    game, events = draw_game(7, CHANCE, "go_back_3")
    assert game.position[0] == 4
    assert ev.MoneyPaid(0, -1, 200, "tax") in events
    assert game.cash[0] == 1300
    assert not any(isinstance(e, ev.SalaryCollected) for e in events)


def test_r_card_4_go_back_3_from_22_to_new_york_avenue() -> None:
    game, _ = draw_game(22, CHANCE, "go_back_3")
    assert game.position[0] == 19
    assert waiting(game) == (BUY, 0)
    game, _ = draw_game(22, CHANCE, "go_back_3", properties={"19": {"owner": 1}})
    assert game.cash == [1484, 1516]  # New York Avenue base rent 16


def test_r_card_4_go_back_3_from_36_draws_community_chest() -> None:
    chest = deck_with(CHEST, "bank_error")
    game, events = draw_game(36, CHANCE, "go_back_3", decks={CHEST: chest})
    assert game.position[0] == 33
    assert ev.CardDrawn(0, CHEST, "bank_error") in events
    assert game.cash[0] == 1700
    assert list(game.decks[CHANCE])[-1] == "go_back_3"
    assert list(game.decks[CHEST]) == [*chest[1:], "bank_error"]
    assert not any(isinstance(e, ev.SalaryCollected) for e in events)


def test_r_card_4_go_back_3_into_community_chest_go_to_jail() -> None:
    chest = deck_with(CHEST, "go_to_jail")
    game, _ = draw_game(36, CHANCE, "go_back_3", decks={CHEST: chest})
    assert game.position[0] == 10
    assert game.jail_turns[0] == 0
    assert game.cash[0] == 1500


# ====================================================================== R-CARD-5
def test_r_card_5_chairman_pays_each_other_player() -> None:
    players: list[dict[str, Any]] = [{}, {}, {}, {}]
    game, _ = draw_game(22, CHANCE, "chairman_of_the_board", players=players)
    assert game.cash == [1500 - 150, 1550, 1550, 1550]
    assert waiting(game) == (ROLL, 1)


def test_r_card_5_chairman_skips_bankrupt_players() -> None:
    players: list[dict[str, Any]] = [{}, {"bankrupt": True}, {}, {}]
    game, _ = draw_game(22, CHANCE, "chairman_of_the_board", players=players)
    assert game.cash == [1400, 1500, 1550, 1550]
    assert waiting(game) == (ROLL, 2)


def test_r_card_5_chairman_who_cannot_pay_all_goes_bankrupt_to_that_creditor() -> None:
    # 70 cash: seat 1 gets 50, seat 2 is owed 50 of the 20 left -> bankrupt to seat 2;
    # seats 3 and 4 (after seat 2) receive nothing.
    players: list[dict[str, Any]] = [{"cash": 70}, {}, {}, {}, {}]
    props = {"39": {"owner": 0}}
    game, _ = draw_game(7, CHANCE, "chairman_of_the_board", players=players, properties=props)
    # Boardwalk (mortgage 200) would cover it: bankruptcy is not yet allowed (R-DEBT-2).
    assert waiting(game) == (RAISE_CASH, 0)
    assert_illegal(game, DeclareBankruptcy(0), "raise")
    game2, _ = draw_game(7, CHANCE, "chairman_of_the_board", players=players)
    assert waiting(game2) == (RAISE_CASH, 0)
    assert game2.cash[:2] == [20, 1550]
    game2.apply(DeclareBankruptcy(0))
    assert not game2.active[0]
    assert game2.cash == [0, 1550, 1520, 1500, 1500]
    assert waiting(game2) == (ROLL, 1)


def test_r_card_5_chairman_bankrupt_creditor_gets_the_properties() -> None:
    players: list[dict[str, Any]] = [{"cash": 70}, {}, {}]
    props = {"1": {"owner": 0, "mortgaged": True}}
    game, _ = draw_game(7, CHANCE, "chairman_of_the_board", players=players, properties=props)
    game.apply(DeclareBankruptcy(0))
    assert game.owner[1] == 2
    assert game.cash[1] == 1550


def test_r_card_5_birthday_collects_from_each_other_player() -> None:
    players: list[dict[str, Any]] = [{}, {}, {}, {}]
    game, _ = draw_game(17, CHEST, "birthday", players=players)
    assert game.cash == [1530, 1490, 1490, 1490]
    assert waiting(game) == (ROLL, 1)


def test_r_card_5_birthday_payer_who_cannot_pay_goes_bankrupt_to_the_drawer() -> None:
    players: list[dict[str, Any]] = [{}, {}, {"cash": 4}, {}]
    game, _ = draw_game(17, CHEST, "birthday", players=players)
    assert waiting(game) == (RAISE_CASH, 2)
    assert game.cash[:2] == [1510, 1490]
    game.apply(DeclareBankruptcy(2))
    assert not game.active[2]
    assert game.cash == [1500 + 10 + 4 + 10, 1490, 0, 1490]
    assert waiting(game) == (ROLL, 1)


# ====================================================================== R-CARD-6
REPAIR_PROPS = {
    "1": {"owner": 0, "buildings": 3},
    "3": {"owner": 0, "buildings": 4},
    "16": {"owner": 0, "buildings": "hotel"},
    "18": {"owner": 0, "buildings": "hotel"},
    "19": {"owner": 0, "buildings": "hotel"},
    "37": {"owner": 1, "buildings": 2},
    "39": {"owner": 1, "buildings": 2},
}


@pytest.mark.parametrize(
    ("role", "card", "due"),
    [(CHANCE, "general_repairs", 7 * 25 + 3 * 100), (CHEST, "street_repairs", 7 * 40 + 3 * 115)],
)
def test_r_card_6_repairs_per_house_and_per_hotel(role: str, card: str, due: int) -> None:
    space = 7 if role == CHANCE else 17
    game, _ = draw_game(space, role, card, properties=REPAIR_PROPS)
    assert game.cash == [1500 - due, 1500]
    assert game.bank_houses == 32 - 7 - 4
    assert game.bank_hotels == 12 - 3


@pytest.mark.parametrize(("role", "card"), [(CHANCE, "general_repairs"), (CHEST, "street_repairs")])
def test_r_card_6_repairs_without_buildings_cost_nothing(role: str, card: str) -> None:
    space = 22 if role == CHANCE else 33
    props = {
        "37": {"owner": 1, "buildings": 1},
        "39": {"owner": 1, "buildings": 1},
        "1": {"owner": 0},
    }
    game, _ = draw_game(space, role, card, properties=props)
    assert game.cash == [1500, 1500]
    assert waiting(game) == (ROLL, 1)
