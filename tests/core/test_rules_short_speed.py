"""The short game (R-SHORT-1..4) and the Speed Die (R-SPEED-1..9) as scenarios."""

from __future__ import annotations

from typing import Any

import pytest

from monopoly.core import events as ev
from monopoly.core.actions import (
    AcceptTrade,
    Bid,
    Build,
    Buy,
    ChooseBreakdown,
    ChooseMove,
    ChooseSpace,
    ClaimRent,
    DeclareBankruptcy,
    DeclineBuy,
    KeepMortgaged,
    PassBid,
    PayJailFine,
    ProposeTrade,
    Roll,
    RollForDoubles,
    SellBuilding,
    Unmortgage,
)
from monopoly.core.chance import BUS, MR_MONOPOLY
from monopoly.core.editions import get_edition
from monopoly.core.errors import RecordError
from monopoly.core.game import Game, PlayerSetup, Setup
from monopoly.core.rules import RuleSet
from monopoly.core.state import BID, BUY, JAIL, MORTGAGE_RECEIVED, RAISE_CASH, ROLL, TRIPLES
from monopoly.core.state import BUS as BUS_DECISION
from tests.scenario import apply_all, assert_illegal, dice_left, new_game, start, waiting

BOARD = get_edition("classic").board
PROPERTIES = BOARD.properties
CHANCE_KEYS = [c.key for c in BOARD.decks["chance"]]
CHEST_KEYS = [c.key for c in BOARD.decks["community_chest"]]


def scripted_new_game(
    players: int, rules: str, deal: list[int] | None, *dice: tuple[int, ...]
) -> Game:
    """A new game whose record chooses the deck orders, the deal and the dice."""
    script: list[tuple[Any, ...]] = [
        ("shuffle", "chance", tuple(CHANCE_KEYS)),
        ("shuffle", "community_chest", tuple(CHEST_KEYS)),
    ]
    if deal is not None:
        script.append(("deal", tuple(deal)))
    script.extend(("dice", d) for d in dice)
    seats = tuple(PlayerSetup(f"P{i}") for i in range(players))
    return Game(Setup(seats, "classic", "en", RuleSet.named(rules), 0, None), script)


def everything_owned_by(seat: int, **others: dict[str, Any]) -> dict[str, dict[str, Any]]:
    props: dict[str, dict[str, Any]] = {str(s): {"owner": seat} for s in PROPERTIES}
    props.update(others)
    return props


# ============================================================== the short game
def test_r_short_1_new_short_game_deals_three_free_deeds_each() -> None:
    for players in (2, 3, 4):
        game = new_game(players, rules="short")
        owned = [game.properties_of(seat) for seat in range(players)]
        assert [len(deeds) for deeds in owned] == [3] * players
        assert game.cash == [1500] * players  # free of charge
        dealt = [e for e in game.events if isinstance(e, ev.PropertyDealt)]
        assert len(dealt) == 3 * players
        bank = [s for s in PROPERTIES if game.owner[s] == -1]
        assert len(bank) == 28 - 3 * players
        assert not any(game.mortgaged) and not any(game.level)


def test_r_short_1_standard_game_deals_nothing() -> None:
    game = new_game(3)
    assert all(game.owner[s] == -1 for s in PROPERTIES)
    assert not any(isinstance(e, ev.PropertyDealt) for e in game.events)


def test_r_short_1_record_deal_entry_chooses_the_deal_round_by_round() -> None:
    deal = [39, 37, 1, 3, 5, 15, *[s for s in PROPERTIES if s not in (39, 37, 1, 3, 5, 15)]]
    game = scripted_new_game(2, "short", deal, (6, 5), (1, 2))
    # dealt one at a time in seat order: 39 -> seat 0, 37 -> seat 1, 1 -> seat 0, ...
    assert game.properties_of(0) == [1, 5, 39]
    assert game.properties_of(1) == [3, 15, 37]
    assert game.cash == [1500, 1500]
    assert game.current == 0  # 11 beats 3 in the turn-order roll
    assert dice_left(game) == 0
    assert ("deal", tuple(deal)) in game.record


def test_r_short_1_deal_of_a_non_property_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="log entry 3: a deal lists distinct property spaces"):
        scripted_new_game(2, "short", [0, 1, 3, 5, 6, 8])
    with pytest.raises(RecordError, match="log entry 3"):
        scripted_new_game(2, "short", [1, 1, 3, 5, 6, 8])


def short_brown(levels: tuple[Any, Any], **extra: Any) -> dict[str, Any]:
    return {
        "players": [{"position": 20}, {"position": 20}],
        "properties": {
            "1": {"owner": 0, "buildings": levels[0]},
            "3": {"owner": 0, "buildings": levels[1]},
        },
        **extra,
    }


def test_r_short_2_hotel_on_three_houses_returns_three_houses() -> None:
    game = start(short_brown((3, 3)), rules="short")
    assert game.bank_houses == 32 - 6
    game.apply(Build(0, (1,)))
    assert game.level[1] == game.tables.hotel_level  # a hotel, not a fourth house
    assert game.cash[0] == 1500 - 50  # the hotel price (= house price)
    assert game.bank_hotels == 11
    assert game.bank_houses == 32 - 3  # the 3 houses of Mediterranean went back
    assert game.houses_and_hotels(0) == (3, 1)


def test_r_short_2_no_fourth_house_and_build_evenly() -> None:
    game = start(short_brown((3, 2)), rules="short")
    assert_illegal(game, Build(0, (1,)), "build evenly")
    game.apply(Build(0, (3, 1, 3)))  # house on Baltic, hotels on both
    assert game.level[1] == game.level[3] == game.tables.hotel_level
    assert game.cash[0] == 1500 - 3 * 50
    assert_illegal(game, Build(0, (1,)), "already has a hotel")


def test_r_short_2_hotel_rent_is_unchanged() -> None:
    position = short_brown(("hotel", 3))
    position["players"] = [{"position": 20}, {"position": 38}]
    position["turn"] = 1
    game = start(position, rules="short", dice=[(1, 2)])
    game.apply(Roll(1))  # 38 -> 1 (passes GO)
    assert game.position[1] == 1
    assert game.cash[1] == 1500 + 200 - 250  # Mediterranean's printed hotel rent
    assert game.cash[0] == 1500 + 250


def test_r_short_2_selling_a_hotel_gives_half_and_three_houses_back() -> None:
    game = start(short_brown(("hotel", 3)), rules="short")
    assert game.bank_houses == 32 - 3 and game.bank_hotels == 11
    game.apply(SellBuilding(0, 1))
    assert game.level[1] == 3  # one house less than the regular game's 4
    assert game.cash[0] == 1500 + 25
    assert game.bank_hotels == 12
    assert game.bank_houses == 32 - 6


def test_r_short_2_selling_a_hotel_when_the_bank_has_too_few_houses() -> None:
    # 3 + 3*3 + 3*3 + 3*3 = 30 houses out, the Bank keeps 2 (< 3 for the exchange).
    props: dict[str, Any] = {
        "1": {"owner": 0, "buildings": "hotel"},
        "3": {"owner": 0, "buildings": 3},
    }
    for space in (6, 8, 9, 11, 13, 14, 16, 18, 19):
        props[str(space)] = {"owner": 1, "buildings": 3}
    game = start({"players": [{}, {}], "properties": props}, rules="short")
    assert game.bank_houses == 2
    game.apply(SellBuilding(0, 1))
    # R-BUILD-4: the hotel (25) and one more house (25) come down: 2 + 3 houses stay,
    # the owner chooses which street keeps 3.
    assert game.decision_actions() == [ChooseBreakdown(0, (3, 2)), ChooseBreakdown(0, (2, 3))]
    game.apply(ChooseBreakdown(0, (2, 3)))
    assert (game.level[1], game.level[3]) == (2, 3)
    assert game.cash[0] == 1500 + 50
    assert game.bank_houses == 0 and game.bank_hotels == 12


def test_r_short_2_position_with_four_houses_is_refused() -> None:
    with pytest.raises(RecordError, match="at most 3 houses"):
        start(short_brown((4, 4)), rules="short")


def jailed(cash: int = 1500, **extra: Any) -> dict[str, Any]:
    return {"players": [{"position": 10, "jail_turns": 0, "cash": cash}, {}], **extra}


def test_r_short_3_failed_roll_pays_fifty_and_moves_the_same_turn() -> None:
    game = start(jailed(), rules="short", dice=[(2, 3)])
    assert game.decision is not None and game.decision.kind == JAIL
    game.apply(RollForDoubles(0))
    assert game.jail_turns[0] == -1
    assert game.cash[0] == 1500 - 50
    assert game.position[0] == 15
    assert game.decision is not None and game.decision.kind == BUY


def test_r_short_3_doubles_leave_jail_without_another_roll() -> None:
    game = start(jailed(), rules="short", dice=[(3, 3)])
    game.apply(RollForDoubles(0))
    assert game.jail_turns[0] == -1 and game.cash[0] == 1500 and game.position[0] == 16
    game.apply(DeclineBuy(0))
    apply_all(game, PassBid(0), PassBid(1))
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_short_3_pay_before_rolling() -> None:
    game = start(jailed(), rules="short", dice=[(1, 2)])
    game.apply(PayJailFine(0))
    assert game.cash[0] == 1450 and game.jail_turns[0] == -1
    game.apply(Roll(0))
    assert game.position[0] == 13


def test_r_short_3_standard_game_stays_in_jail_after_a_failed_roll() -> None:
    game = start(jailed(), dice=[(2, 3)])
    game.apply(RollForDoubles(0))
    assert game.jail_turns[0] == 1 and game.position[0] == 10 and game.cash[0] == 1500


def test_r_short_3_cannot_pay_the_fine_raises_cash_first() -> None:
    position = jailed(cash=20)
    position["properties"] = {"39": {"owner": 0}}
    game = start(position, rules="short", dice=[(1, 2)])
    assert_illegal(game, PayJailFine(0), "the fine is 50")
    game.apply(RollForDoubles(0))
    decision = game.decision
    assert decision is not None and decision.kind == RAISE_CASH and decision.seat == 0
    assert game.position[0] == 10  # pays before moving by that roll
    assert_illegal(game, DeclareBankruptcy(0), "you can still raise")


def short_end_position(seat2_cash: int, seat2_props: dict[str, Any]) -> dict[str, Any]:
    return {
        "players": [{"position": 36, "cash": 10}, {"cash": 100}, {"cash": seat2_cash}],
        "properties": {"39": {"owner": 1}, **seat2_props},
    }


def test_r_short_4_first_bankruptcy_ends_the_game_richest_wins() -> None:
    seat2 = {
        "1": {"owner": 2, "buildings": "hotel"},
        "3": {"owner": 2, "buildings": 3},
        "5": {"owner": 2, "mortgaged": True},
    }
    game = start(short_end_position(200, seat2), rules="short", dice=[(1, 2)])
    game.apply(Roll(0))  # 36 -> 39 Boardwalk: rent 50, only 10 in cash
    assert game.decision is not None and game.decision.kind == RAISE_CASH
    events = game.apply(DeclareBankruptcy(0))
    assert game.over and game.end_reason == "bankruptcy"
    # seat 1: 100 + 10 (the bankrupt's cash) + Boardwalk 400
    assert game.net_worth(1) == 510
    # seat 2: 200 + 60 + 60 + hotel (50 + 3 houses of 50) + 3 houses + mortgaged RR at 100
    assert game.net_worth(2) == 200 + 60 + 60 + 200 + 150 + 100
    assert game.winners == (2,)
    over = [e for e in events if isinstance(e, ev.GameOver)]
    assert over and over[0].winners == (2,) and over[0].worth == (0, 510, 770)
    assert game.decision is None and game.legal_actions(1) == []


def test_r_short_4_equal_fortunes_share_the_win() -> None:
    game = start(short_end_position(510, {}), rules="short", dice=[(1, 2)])
    game.apply(Roll(0))
    game.apply(DeclareBankruptcy(0))
    assert game.over
    assert game.net_worth(1) == game.net_worth(2) == 510
    assert game.winners == (1, 2)


def test_r_short_4_bankruptcy_to_the_bank_also_ends_the_game() -> None:
    position = {"players": [{"position": 35, "cash": 10}, {"cash": 300}, {"cash": 299}]}
    game = start(position, rules="short", dice=[(1, 2)])
    game.apply(Roll(0))  # Luxury Tax 100
    game.apply(DeclareBankruptcy(0))
    assert game.over and game.winners == (1,)


def test_r_short_4_standard_game_goes_on_after_the_first_bankruptcy() -> None:
    game = start(short_end_position(200, {}), dice=[(1, 2)])
    game.apply(Roll(0))
    game.apply(DeclareBankruptcy(0))
    assert not game.over
    assert game.active == [False, True, True]
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_short_4_a_bankruptcy_to_a_player_during_an_auction_is_settled_first() -> None:
    """Rent must be claimed: P0 claims P1's 2,000 for Boardwalk while Oriental is auctioned;
    P1 goes bankrupt to P0. P0's R-MORT-4 choice for Reading comes first, then the auction
    ends (P1's bid lapses, R-AUCTION-4: P2's 20 buys Oriental), then the count."""
    rules = RuleSet(short_game=True, rent_must_be_claimed=True)
    hotels = {"owner": 0, "buildings": "hotel"}
    position = {
        "players": [{"cash": 500}, {"cash": 50, "position": 35}, {"cash": 500}],
        "properties": {"37": hotels, "39": hotels, "5": {"owner": 1, "mortgaged": True}},
        "turn": 1,
    }
    game = start(position, rules=rules, dice=[(2, 2), (3, 4)])
    apply_all(game, Roll(1), Roll(1), DeclineBuy(1), Bid(1, 10), Bid(2, 20))  # via GO to 6
    game.apply(ClaimRent(0, 39))
    assert game.decision is not None and game.decision.kind == RAISE_CASH
    game.apply(DeclareBankruptcy(1))
    assert not game.over and game.owner[5] == 0
    assert waiting(game) == (MORTGAGE_RECEIVED, 0)
    game.apply(KeepMortgaged(0, 5))
    assert not game.over and waiting(game) == (BID, 0)
    assert game.bid_range() == (21, 500 + 250 - 10)
    game.apply(PassBid(0))
    assert game.over and game.owner[6] == 2 and game.cash == [740, 0, 480]
    assert game.winners == (0,)


@pytest.mark.parametrize("lift", [False, True])
def test_r_short_4_another_players_r_mort_4_choice_comes_before_the_count(lift: bool) -> None:
    """P0 swaps mortgaged Mediterranean for P2's mortgaged Boardwalk, cannot pay the 10 %
    on Boardwalk and goes bankrupt. Boardwalk is auctioned, then P2 settles the 10 % on
    Mediterranean; only then are the fortunes counted, and the fee makes P1 the richest."""
    position = {
        "players": [{"cash": 5}, {"cash": 500}, {"cash": 472}],
        "properties": {"1": {"owner": 0, "mortgaged": True}, "39": {"owner": 2, "mortgaged": True}},
    }
    game = start(position, rules="short")
    game.apply(ProposeTrade(0, partner=2, give=(1,), take=(39,)))
    game.apply(AcceptTrade(2))
    game.apply(KeepMortgaged(0, 39))  # 20 owed, 5 in cash
    game.apply(DeclareBankruptcy(0))
    assert not game.over and waiting(game) == (BID, 1)
    apply_all(game, PassBid(1), PassBid(2))
    assert not game.over and waiting(game) == (MORTGAGE_RECEIVED, 2)
    assert game.net_worth(2) == 472 + 30 > game.net_worth(1) == 500
    game.apply(Unmortgage(2, 1) if lift else KeepMortgaged(2, 1))
    assert game.over and game.winners == (1,)
    assert game.net_worth(2) == 499


# ============================================================== the Speed Die
def speed(position: int = 0, cash: int = 2500, **player: Any) -> dict[str, Any]:
    return {"position": position, "cash": cash, "speed_die": True, **player}


def test_r_speed_1_players_start_with_1000_more() -> None:
    assert new_game(3, rules="speed").cash == [2500, 2500, 2500]
    assert start(players=2, rules="speed").cash == [2500, 2500]
    assert start(players=2, rules="short+speed").cash == [2500, 2500]
    assert RuleSet.named("speed", starting_cash=1000).initial_cash == 2000


def test_r_speed_2_turn_order_and_first_lap_use_two_dice() -> None:
    game = new_game(2, rules="speed")
    order = next(e for e in game.events if isinstance(e, ev.TurnOrderDecided))
    assert all(len(roll) == 2 for roll in order.rolls)
    game = start(players=2, rules="speed", dice=[(1, 2), (2, 3)])
    game.apply(Roll(0))
    assert game.position[0] == 3
    game.apply(DeclineBuy(0))
    apply_all(game, PassBid(0), PassBid(1))
    game.apply(Roll(1))
    assert game.position[1] == 5


def test_r_speed_2_three_dice_before_go_are_a_record_error() -> None:
    game = start(players=2, rules="speed", dice=[(1, 2, 3)])
    with pytest.raises(RecordError, match="expected 2 dice"):
        game.apply(Roll(0))


def test_r_speed_2_passing_go_activates_the_speed_die() -> None:
    position = {"players": [{"position": 38}, {}]}
    game = start(position, rules="speed", dice=[(1, 2), (4, 2), (1, 2, 1)])
    events = game.apply(Roll(0))
    assert game.position[0] == 1 and game.cash[0] == 2700
    assert game.speed_active[0] and not game.speed_active[1]
    assert any(isinstance(e, ev.SpeedDieActivated) and e.seat == 0 for e in events)
    apply_all(game, DeclineBuy(0), PassBid(0), PassBid(1))
    game.apply(Roll(1))  # seat 1 still rolls two dice
    assert game.position[1] == 6
    apply_all(game, DeclineBuy(1), PassBid(1), PassBid(0))
    game.apply(Roll(0))  # now three dice: 1 + 2 + 1
    assert game.position[0] == 5
    assert dice_left(game) == 0


def test_r_speed_2_no_speed_die_without_the_rule() -> None:
    game = start({"players": [{"position": 38}, {}]}, dice=[(1, 2)])
    game.apply(Roll(0))
    assert not game.speed_active[0]
    game = start({"players": [{"speed_die": True}, {}]})
    assert game.speed_active == [False, False]


def test_r_speed_2_jail_roll_for_doubles_uses_white_dice_only() -> None:
    position = {"players": [speed(10, jail_turns=0), {}]}
    game = start(position, rules="speed", dice=[(2, 3)])
    game.apply(RollForDoubles(0))
    assert game.position[0] == 10 and game.jail_turns[0] == 1
    game = start(position, rules="speed", dice=[(2, 2)])
    game.apply(RollForDoubles(0))
    assert game.position[0] == 14 and game.jail_turns[0] == -1


def test_r_speed_3_faces_one_to_three_add_to_the_move() -> None:
    for face in (1, 2, 3):
        game = start({"players": [speed(), {}]}, rules="speed", dice=[(1, 2, face)])
        game.apply(Roll(0))
        assert game.position[0] == 3 + face


def test_r_speed_4_bus_moves_by_one_white_die_or_their_sum() -> None:
    for steps in (1, 5, 6):
        game = start({"players": [speed(), {}]}, rules="speed", dice=[(1, 5, BUS)])
        game.apply(Roll(0))
        decision = game.decision
        assert decision is not None and decision.kind == BUS_DECISION
        assert game.decision_actions() == [ChooseMove(0, 1), ChooseMove(0, 5), ChooseMove(0, 6)]
        assert game.position[0] == 0
        game.apply(ChooseMove(0, steps))
        assert game.position[0] == steps


def test_r_speed_4_bus_refuses_other_moves() -> None:
    game = start({"players": [speed(), {}]}, rules="speed", dice=[(2, 5, BUS)])
    game.apply(Roll(0))
    assert_illegal(game, ChooseMove(0, 3), "move by one of (2, 5, 7)")
    assert_illegal(game, ChooseMove(0, 8), "move by one of")
    assert_illegal(game, ChooseMove(1, 2), "not your decision")
    assert_illegal(game, ChooseSpace(0, 2), "not your decision")


def test_r_speed_5_mr_monopoly_goes_on_to_the_next_unowned_property() -> None:
    position = {"players": [speed(), {}], "properties": {"5": {"owner": 1}}}
    game = start(position, rules="speed", dice=[(1, 2, MR_MONOPOLY)])
    game.apply(Roll(0))
    decision = game.decision
    assert decision is not None and (decision.kind, decision.space) == (BUY, 3)  # white dice
    game.apply(Buy(0))
    decision = game.decision
    assert game.position[0] == 6  # Reading is owned: on to Oriental Avenue
    assert decision is not None and (decision.kind, decision.space) == (BUY, 6)
    game.apply(Buy(0))
    assert game.cash[0] == 2500 - 60 - 100
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_speed_5_declined_property_is_auctioned() -> None:
    game = start({"players": [speed(36), {}]}, rules="speed", dice=[(1, 2, MR_MONOPOLY)])
    game.apply(Roll(0))
    game.apply(DeclineBuy(0))  # Boardwalk
    assert game.decision is not None and game.decision.kind == BID
    apply_all(game, PassBid(0), PassBid(1))
    # then on past GO to Mediterranean Avenue, collecting 200
    assert game.position[0] == 1 and game.cash[0] == 2700
    assert game.decision is not None and (game.decision.kind, game.decision.space) == (BUY, 1)


def test_r_speed_5_no_unowned_property_pays_the_next_rent_owed() -> None:
    props = everything_owned_by(0)
    props["6"] = {"owner": 1, "mortgaged": True}  # no rent on a mortgaged deed
    props["8"] = {"owner": 1}
    game = start(
        {"players": [speed(), speed(cash=100)], "properties": props},
        rules="speed",
        dice=[(1, 2, MR_MONOPOLY)],
    )
    game.apply(Roll(0))  # Baltic (own), then Reading (own), Oriental (mortgaged), Vermont
    assert game.position[0] == 8
    assert game.cash == [2500 - 6, 100 + 6]  # Vermont's base rent, group not whole
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_speed_5_nothing_to_buy_or_pay_stays_put() -> None:
    game = start(
        {"players": [speed(), speed()], "properties": everything_owned_by(0)},
        rules="speed",
        dice=[(1, 2, MR_MONOPOLY)],
    )
    game.apply(Roll(0))
    assert game.position[0] == 3 and game.cash == [2500, 2500]


def test_r_speed_5_doubles_still_roll_again() -> None:
    game = start({"players": [speed(), {}]}, rules="speed", dice=[(2, 2, MR_MONOPOLY)])
    game.apply(Roll(0))  # Income Tax, then Reading Railroad
    assert game.cash[0] == 2500 - 200 and game.position[0] == 5
    game.apply(Buy(0))
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 0)


def test_r_speed_6_doubles_are_judged_on_the_white_dice() -> None:
    game = start(
        {"players": [speed(1), {}], "properties": everything_owned_by(0)},
        rules="speed",
        dice=[(3, 3, 1), (3, 1, 3)],
    )
    game.apply(Roll(0))
    assert game.position[0] == 8
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 0)
    game.apply(Roll(0))  # 3-1 with a 3 on the speed die: no doubles
    assert game.position[0] == 15
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_speed_6_third_doubles_go_to_jail() -> None:
    dice = [(1, 1, 2), (2, 2, 1), (3, 3, BUS)]
    game = start(
        {"players": [speed(20), {}], "properties": everything_owned_by(0)}, rules="speed", dice=dice
    )
    game.apply(Roll(0))  # 20 + 4 = 24 (own)
    game.apply(Roll(0))  # 24 + 5 = 29 (own)
    game.apply(Roll(0))
    assert game.position[0] == 10 and game.jail_turns[0] == 0
    assert game.decision is not None and game.decision.seat == 1


def test_r_speed_7_triples_move_anywhere_then_the_turn_ends() -> None:
    game = start({"players": [speed(), {}]}, rules="speed", dice=[(2, 2, 2)])
    game.apply(Roll(0))
    decision = game.decision
    assert decision is not None and decision.kind == TRIPLES
    assert game.position[0] == 0
    assert len(game.decision_actions()) == 40
    assert_illegal(game, ChooseSpace(0, 40), "choose a space from 0 to 39")
    game.apply(ChooseSpace(0, 39))
    assert game.position[0] == 39
    game.apply(Buy(0))
    assert game.owner[39] == 0 and game.cash[0] == 2100
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)


def test_r_speed_7_triples_on_a_third_doubles_do_not_jail() -> None:
    game = start(
        {"players": [speed(20), {}], "properties": everything_owned_by(0)},
        rules="speed",
        dice=[(1, 1, 2), (2, 2, 1), (3, 3, 3)],
    )
    apply_all(game, Roll(0), Roll(0), Roll(0))
    assert game.decision is not None and game.decision.kind == TRIPLES
    game.apply(ChooseSpace(0, 5))  # R-SPEED-7 Decision: a jump, no salary past GO
    assert game.position[0] == 5 and game.jail_turns[0] == -1
    assert game.cash[0] == 2500
    assert game.decision is not None and game.decision.seat == 1


def test_r_speed_8_jail_during_the_move_ends_the_turn_before_mr_monopoly() -> None:
    game = start({"players": [speed(25), {}]}, rules="speed", dice=[(2, 3, MR_MONOPOLY)])
    game.apply(Roll(0))
    assert game.position[0] == 10 and game.jail_turns[0] == 0
    assert game.decision is not None and (game.decision.kind, game.decision.seat) == (ROLL, 1)
    assert game.cash[0] == 2500


def test_r_speed_8_doubles_to_jail_no_extra_roll() -> None:
    game = start({"players": [speed(26), {}]}, rules="speed", dice=[(2, 2, MR_MONOPOLY)])
    game.apply(Roll(0))
    assert game.position[0] == 10 and game.jail_turns[0] == 0
    assert game.decision is not None and game.decision.seat == 1


def test_r_speed_8_jail_card_drawn_on_the_way() -> None:
    deck = ["go_to_jail", *[k for k in CHANCE_KEYS if k != "go_to_jail"]]
    game = start(
        {"players": [speed(4), {}]},
        rules="speed",
        dice=[(1, 2, MR_MONOPOLY)],
        decks={"chance": deck},
    )
    game.apply(Roll(0))  # Chance at 7: Go to Jail
    assert game.position[0] == 10 and game.jail_turns[0] == 0
    assert game.decision is not None and game.decision.seat == 1


@pytest.mark.parametrize(
    ("rent_roll", "total"),
    [((2, 3, 1), 6), ((2, 3, 3), 8), ((2, 3, BUS), 5), ((2, 3, MR_MONOPOLY), 5)],
)
def test_r_speed_9_utility_rent_rolls_three_dice(rent_roll: tuple[int, ...], total: int) -> None:
    position = {"players": [speed(), speed()], "properties": {"12": {"owner": 1}}}
    game = start(position, rules="speed", dice=[(4, 5, 3), rent_roll])
    game.apply(Roll(0))
    assert game.position[0] == 12
    assert game.cash == [2500 - 4 * total, 2500 + 4 * total]
    assert dice_left(game) == 0


@pytest.mark.parametrize(("rent_roll", "total"), [((6, 6, 3), 15), ((6, 6, BUS), 12)])
def test_r_speed_9_utility_rent_before_go_rolls_three_dice_too(
    rent_roll: tuple[int, ...], total: int
) -> None:
    """R-SPEED-9: whoever pays rolls all three dice, also a player who has not passed GO
    yet and so moves with the white dice alone."""
    position = {"players": [{}, speed()], "properties": {"12": {"owner": 1}, "28": {"owner": 1}}}
    game = start(position, rules="speed", dice=[(6, 6), rent_roll])
    game.apply(Roll(0))
    assert game.position[0] == 12 and not game.speed_active[0]
    assert game.cash[:2] == [2500 - 10 * total, 2500 + 10 * total]
    assert dice_left(game) == 0
