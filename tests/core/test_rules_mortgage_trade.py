"""Mortgages R-MORT-1..4 and trading R-TRADE-1..3."""

from __future__ import annotations

from monopoly.core import events as ev
from monopoly.core.actions import (
    AcceptTrade,
    Build,
    KeepMortgaged,
    Mortgage,
    ProposeTrade,
    RejectTrade,
    Roll,
    RollForDoubles,
    Unmortgage,
)
from monopoly.core.errors import NotYourTurnError
from monopoly.core.game import Game
from monopoly.core.position import dump_position
from monopoly.core.state import JAIL, MORTGAGE_RECEIVED, ROLL, TRADE
from tests.scenario import assert_illegal, start, waiting
from tests.spaces import BALTIC, BOARDWALK, ELECTRIC, MED, PARK_PLACE, READING, WATER


# ---------------------------------------------------------------------- R-MORT-1
def test_r_mort_1_mortgage_pays_half_the_price() -> None:
    game = start(
        {
            "players": [{}, {}],
            "properties": {ELECTRIC: {"owner": 0}, PARK_PLACE: {"owner": 0}, MED: {"owner": 0}},
        }
    )
    events = game.apply(Mortgage(0, ELECTRIC))
    assert ev.PropertyMortgaged(0, ELECTRIC, 75) in events
    game.apply(Mortgage(0, PARK_PLACE))
    game.apply(Mortgage(0, MED))
    assert game.cash[0] == 1500 + 75 + 175 + 30
    assert game.mortgaged[ELECTRIC] and game.mortgaged[PARK_PLACE] and game.mortgaged[MED]
    assert game.owner[ELECTRIC] == 0


def test_r_mort_1_only_groups_without_buildings() -> None:
    game = start(
        {
            "players": [{}, {}],
            "properties": {MED: {"owner": 0, "buildings": 1}, BALTIC: {"owner": 0}},
        }
    )
    assert_illegal(game, Mortgage(0, BALTIC), "on this colour group first", "R-MORT-1")
    assert_illegal(game, Mortgage(0, MED), "on this colour group first")
    assert not [a for a in game.legal_actions(0) if isinstance(a, Mortgage)]


def test_r_mort_1_illegal_mortgages_change_nothing() -> None:
    game = start(
        {
            "players": [{}, {}],
            "properties": {READING: {"owner": 1}, ELECTRIC: {"owner": 0, "mortgaged": True}},
        }
    )
    assert_illegal(game, Mortgage(0, READING), "you do not own")
    assert_illegal(game, Mortgage(0, ELECTRIC), "mortgaged already")
    assert_illegal(game, Mortgage(0, WATER), "you do not own")
    assert_illegal(game, Mortgage(0, 4), "not a property")
    assert_illegal(game, Unmortgage(1, READING), "not mortgaged")


def test_r_mort_1_mortgage_out_of_turn() -> None:
    game = start({"players": [{}, {}], "properties": {READING: {"owner": 1}}})
    assert waiting(game) == (ROLL, 0)
    game.apply(Mortgage(1, READING))
    assert game.cash[1] == 1600 and game.mortgaged[READING]


# ---------------------------------------------------------------------- R-MORT-2
def test_r_mort_2_lifting_costs_value_plus_ten_percent_rounded_up() -> None:
    position = {
        "players": [{}, {}],
        "properties": {
            ELECTRIC: {"owner": 0, "mortgaged": True},
            PARK_PLACE: {"owner": 0, "mortgaged": True},
            BOARDWALK: {"owner": 0, "mortgaged": True},
        },
    }
    game = start(position)
    events = game.apply(Unmortgage(0, ELECTRIC))
    assert ev.MortgageLifted(0, ELECTRIC, 83) in events  # 75 + 7.5 -> 83
    assert game.cash[0] == 1500 - 83
    game.apply(Unmortgage(0, PARK_PLACE))  # 175 + 17.5 -> 193
    assert game.cash[0] == 1500 - 83 - 193
    game.apply(Unmortgage(0, BOARDWALK))  # 200 + 20 -> 220
    assert game.cash[0] == 1500 - 83 - 193 - 220
    assert not any(game.mortgaged[s] for s in (ELECTRIC, PARK_PLACE, BOARDWALK))


def test_r_mort_2_lifting_needs_the_cash() -> None:
    game = start(
        {"players": [{"cash": 82}, {}], "properties": {ELECTRIC: {"owner": 0, "mortgaged": True}}}
    )
    assert_illegal(game, Unmortgage(0, ELECTRIC), "lifting costs 83, you have 82")
    assert Unmortgage(0, ELECTRIC) not in game.legal_actions(0)


def test_r_mort_2_mortgage_then_lift_costs_the_interest() -> None:
    game = start({"players": [{"cash": 0}, {}], "properties": {PARK_PLACE: {"owner": 0}}})
    game.apply(Mortgage(0, PARK_PLACE))
    assert game.cash[0] == 175
    assert_illegal(game, Unmortgage(0, PARK_PLACE), "lifting costs 193, you have 175")


# ---------------------------------------------------------------------- R-MORT-3
def test_r_mort_3_mortgaged_property_collects_no_rent() -> None:
    position = {
        "players": [{}, {}],
        "properties": {BALTIC: {"owner": 1, "mortgaged": True}, MED: {"owner": 1}},
    }
    game = start(position, dice=[(1, 2)])
    game.apply(Roll(0))
    assert game.position[0] == BALTIC
    assert game.cash == [1500, 1500]
    assert waiting(game) == (ROLL, 1)


def test_r_mort_3_unmortgaged_street_of_same_owner_still_charges_base_rent() -> None:
    position = {
        "players": [{}, {}],
        "properties": {BALTIC: {"owner": 1, "mortgaged": True}, MED: {"owner": 1}},
    }
    game = start({**position, "players": [{"position": 38}, {}]}, dice=[(1, 2)])
    game.apply(Roll(0))  # 38 -> 1 Mediterranean, passing GO (+200)
    assert game.position[0] == MED
    # Base rent 2, not doubled: one street of the group is mortgaged (R-RENT-1, R-MORT-3).
    assert game.cash == [1500 + 200 - 2, 1502]


# ---------------------------------------------------------------------- R-MORT-4
def trade_mortgaged(space: int, receiver_cash: int = 1500) -> Game:
    """Seat 0 sells a mortgaged ``space`` to seat 1 for 50, accepted."""
    game = start(
        {
            "players": [{}, {"cash": receiver_cash}],
            "properties": {space: {"owner": 0, "mortgaged": True}},
        }
    )
    game.apply(ProposeTrade(0, partner=1, give=(space,), take_cash=50))
    game.apply(AcceptTrade(1))
    assert game.owner[space] == 1
    assert game.cash[0] == 1550
    assert game.cash[1] == receiver_cash - 50
    return game


def test_r_mort_4_trade_receiver_lifts_the_mortgage() -> None:
    game = trade_mortgaged(ELECTRIC)
    assert waiting(game) == (MORTGAGE_RECEIVED, 1)
    assert game.decision is not None and game.decision.space == ELECTRIC
    assert game.decision_actions() == [Unmortgage(1, ELECTRIC), KeepMortgaged(1, ELECTRIC)]
    assert_illegal(game, Roll(0), "not your decision")
    game.apply(Unmortgage(1, ELECTRIC))
    assert game.cash[1] == 1450 - 83
    assert not game.mortgaged[ELECTRIC]
    assert waiting(game) == (ROLL, 0)


def test_r_mort_4_trade_receiver_keeps_it_mortgaged_for_ten_percent() -> None:
    game = trade_mortgaged(ELECTRIC)
    events = game.apply(KeepMortgaged(1, ELECTRIC))
    assert ev.MortgageInterestPaid(1, ELECTRIC, 8) in events  # 7.5 rounded up
    assert game.cash[1] == 1450 - 8
    assert game.mortgaged[ELECTRIC]
    assert waiting(game) == (ROLL, 0)
    # Lifting it later costs the full value + 10 % again.
    game.apply(Unmortgage(1, ELECTRIC))
    assert game.cash[1] == 1450 - 8 - 83


def test_r_mort_4_keep_park_place_costs_18() -> None:
    game = trade_mortgaged(PARK_PLACE)
    game.apply(KeepMortgaged(1, PARK_PLACE))
    assert game.cash[1] == 1450 - 18


def test_r_mort_4_keep_is_the_only_choice_without_cash_to_lift() -> None:
    game = trade_mortgaged(PARK_PLACE, receiver_cash=100)
    assert game.decision_actions() == [KeepMortgaged(1, PARK_PLACE)]
    assert_illegal(game, Unmortgage(1, PARK_PLACE), "lifting costs 193, you have 50")
    game.apply(KeepMortgaged(1, PARK_PLACE))
    assert game.cash[1] == 50 - 18


def test_r_mort_4_keep_must_name_the_received_property() -> None:
    game = start(
        {
            "players": [{}, {}],
            "properties": {
                ELECTRIC: {"owner": 0, "mortgaged": True},
                WATER: {"owner": 1, "mortgaged": True},
            },
        }
    )
    game.apply(ProposeTrade(0, partner=1, give=(ELECTRIC,)))
    game.apply(AcceptTrade(1))
    assert_illegal(game, KeepMortgaged(1, WATER), "about Electric Company")
    assert_illegal(game, KeepMortgaged(0, ELECTRIC), "not your decision")


def test_r_mort_4_each_mortgaged_property_received_is_decided() -> None:
    position = {
        "players": [{}, {}],
        "properties": {
            ELECTRIC: {"owner": 0, "mortgaged": True},
            WATER: {"owner": 0, "mortgaged": True},
            READING: {"owner": 0},
        },
    }
    game = start(position)
    game.apply(ProposeTrade(0, partner=1, give=(ELECTRIC, READING, WATER), take_cash=10))
    game.apply(AcceptTrade(1))
    assert waiting(game) == (MORTGAGE_RECEIVED, 1)
    assert game.decision is not None and game.decision.space == ELECTRIC
    game.apply(KeepMortgaged(1, ELECTRIC))
    assert game.decision is not None and game.decision.space == WATER
    game.apply(Unmortgage(1, WATER))
    assert game.cash[1] == 1500 - 10 - 8 - 83
    assert game.mortgaged[ELECTRIC] and not game.mortgaged[WATER] and not game.mortgaged[READING]
    assert waiting(game) == (ROLL, 0)


def test_r_mort_4_both_sides_receive_mortgaged_property() -> None:
    position = {
        "players": [{}, {}],
        "properties": {
            ELECTRIC: {"owner": 0, "mortgaged": True},
            READING: {"owner": 1, "mortgaged": True},
        },
    }
    game = start(position)
    game.apply(ProposeTrade(0, partner=1, give=(ELECTRIC,), take=(READING,)))
    game.apply(AcceptTrade(1))
    decided = []
    while waiting(game)[0] == MORTGAGE_RECEIVED:
        decision = game.decision
        assert decision is not None
        decided.append((decision.seat, decision.space))
        game.apply(KeepMortgaged(decision.seat, decision.space))
    assert sorted(decided) == [(0, READING), (1, ELECTRIC)]
    assert game.cash == [1500 - 10, 1500 - 8]


# ---------------------------------------------------------------------- R-TRADE-1
def test_r_trade_1_properties_cash_and_jail_cards_both_ways() -> None:
    position = {
        "players": [{"jail_cards": ["chance"]}, {"jail_cards": ["community_chest"]}],
        "properties": {MED: {"owner": 0}, BALTIC: {"owner": 1}, READING: {"owner": 1}},
    }
    game = start(position)
    offer = ProposeTrade(
        0, partner=1, give=(MED,), give_cash=100, give_cards=("chance",),
        take=(BALTIC, READING), take_cash=30, take_cards=("community_chest",),
    )  # fmt: skip
    game.apply(offer)
    assert waiting(game) == (TRADE, 1)
    assert game.decision_actions() == [AcceptTrade(1), RejectTrade(1)]
    events = game.apply(AcceptTrade(1))
    assert ev.TradeAccepted(1, 0) in events
    assert (game.owner[MED], game.owner[BALTIC], game.owner[READING]) == (1, 0, 0)
    assert game.cash == [1500 - 100 + 30, 1500 + 100 - 30]
    assert game.jail_cards == [["community_chest"], ["chance"]]
    assert waiting(game) == (ROLL, 0)


def test_r_trade_1_out_of_turn_between_two_other_players() -> None:
    game = start({"players": [{}, {}, {}], "properties": {READING: {"owner": 1}}})
    assert waiting(game) == (ROLL, 0)
    game.apply(ProposeTrade(1, partner=2, give=(READING,), take_cash=250))
    assert waiting(game) == (TRADE, 2)
    assert AcceptTrade(2) in game.legal_actions(2)
    assert_illegal(game, Roll(0), "not your decision")
    game.apply(AcceptTrade(2))
    assert game.owner[READING] == 2
    assert game.cash == [1500, 1750, 1250]
    assert waiting(game) == (ROLL, 0)


def test_r_trade_1_in_jail() -> None:
    position = {
        "players": [{"position": 10, "jail_turns": 1}, {}],
        "properties": {READING: {"owner": 0}},
    }
    game = start(position, dice=[(1, 2)])
    assert waiting(game) == (JAIL, 0)
    game.apply(ProposeTrade(0, partner=1, give=(READING,), take_cash=150))
    game.apply(AcceptTrade(1))
    assert game.owner[READING] == 1
    assert game.cash == [1650, 1350]
    assert game.jail_turns[0] == 1
    assert waiting(game) == (JAIL, 0)
    game.apply(RollForDoubles(0))
    assert game.jail_turns[0] == 2


def test_r_trade_1_buy_a_jail_card_for_cash() -> None:
    game = start({"players": [{}, {"jail_cards": ["community_chest"]}]})
    game.apply(ProposeTrade(0, partner=1, give_cash=40, take_cards=("community_chest",)))
    game.apply(AcceptTrade(1))
    assert game.jail_cards == [["community_chest"], []]
    assert game.cash == [1460, 1540]


def test_r_trade_1_reject_changes_nothing() -> None:
    game = start({"players": [{}, {}], "properties": {MED: {"owner": 0}, READING: {"owner": 1}}})
    before = dump_position(game)
    game.apply(ProposeTrade(0, partner=1, give=(MED,), take=(READING,)))
    assert dump_position(game) == before  # nothing moves before the answer
    events = game.apply(RejectTrade(1))
    assert ev.TradeRejected(1, 0) in events
    assert dump_position(game) == before
    assert waiting(game) == (ROLL, 0)


def test_r_trade_1_counter_offer_replaces_the_offer() -> None:
    game = start({"players": [{}, {}, {}], "properties": {MED: {"owner": 0}}})
    game.apply(ProposeTrade(0, partner=1, give=(MED,), take_cash=100))
    assert_illegal(game, ProposeTrade(2, partner=0, give_cash=5), "already waiting")
    assert_illegal(game, ProposeTrade(0, partner=1, give=(MED,), take_cash=90), "already waiting")
    events = game.apply(ProposeTrade(1, partner=0, take=(MED,), give_cash=80))
    assert ev.TradeRejected(1, 0) in events
    assert waiting(game) == (TRADE, 0)
    game.apply(AcceptTrade(0))
    assert game.owner[MED] == 1
    assert game.cash == [1580, 1420, 1500]
    assert waiting(game) == (ROLL, 0)


def test_r_trade_1_only_the_partner_answers() -> None:
    game = start({"players": [{}, {}, {}], "properties": {MED: {"owner": 0}}})
    game.apply(ProposeTrade(0, partner=1, give=(MED,), take_cash=100))
    error = assert_illegal(game, AcceptTrade(2), "waiting for seat 1")
    assert isinstance(error, NotYourTurnError)
    assert_illegal(game, AcceptTrade(0), "waiting for seat 1")


# ---------------------------------------------------------------------- R-TRADE-2
def test_r_trade_2_streets_of_built_groups_refused() -> None:
    position = {
        "players": [{}, {}],
        "properties": {
            MED: {"owner": 0, "buildings": 1},
            BALTIC: {"owner": 0},
            READING: {"owner": 0},
            PARK_PLACE: {"owner": 1, "buildings": 1},
            BOARDWALK: {"owner": 1, "buildings": 1},
        },
    }
    game = start(position)
    assert_illegal(game, ProposeTrade(0, partner=1, give=(BALTIC,)), "R-TRADE-2")
    assert_illegal(game, ProposeTrade(0, partner=1, give=(MED,), give_cash=10), "R-TRADE-2")
    assert_illegal(game, ProposeTrade(0, partner=1, take=(BOARDWALK,), give_cash=900), "R-TRADE-2")
    game.apply(ProposeTrade(0, partner=1, give=(READING,), take_cash=200))  # not a built group
    game.apply(AcceptTrade(1))
    assert game.owner[READING] == 1
    assert game.level[MED] == 1 and game.owner[MED] == 0  # buildings never traded


def test_r_trade_2_building_after_the_offer_blocks_acceptance() -> None:
    game = start({"players": [{}, {}], "properties": {MED: {"owner": 0}, BALTIC: {"owner": 0}}})
    game.apply(ProposeTrade(0, partner=1, give=(MED,), take_cash=60))
    game.apply(Build(0, (MED,)))  # the group now has a building
    assert game.decision_actions() == [RejectTrade(1)]
    assert_illegal(game, AcceptTrade(1), "R-TRADE-2")
    game.apply(RejectTrade(1))
    assert game.owner[MED] == 0 and game.cash == [1450, 1500]


# ---------------------------------------------------------------------- R-TRADE-3
def test_r_trade_3_no_loans_or_deals_outside_the_list() -> None:
    position = {
        "players": [{"cash": 100}, {"cash": 50}, {"bankrupt": True}],
        "properties": {MED: {"owner": 0}, READING: {"owner": 1}},
    }
    game = start(position)
    assert_illegal(game, ProposeTrade(0, partner=1, give_cash=101), "you offer 101 but hold 100")
    assert_illegal(game, ProposeTrade(0, partner=1, give=(MED,), take_cash=51), "holds only 50")
    assert_illegal(game, ProposeTrade(0, partner=1, give=(MED,), take_cash=-10), "negative")
    assert_illegal(game, ProposeTrade(0, partner=1, give_cash=-10, take=(READING,)), "negative")
    assert_illegal(game, ProposeTrade(0, partner=1), "empty")
    assert_illegal(game, ProposeTrade(0, partner=0, give=(MED,)), "no other player")
    assert_illegal(game, ProposeTrade(0, partner=2, give=(MED,)), "bankrupt")
    assert_illegal(game, ProposeTrade(0, partner=1, give=(READING,)), "does not belong")
    assert_illegal(game, ProposeTrade(0, partner=1, take=(MED,)), "does not belong")
    assert_illegal(game, ProposeTrade(0, partner=1, give=(MED, MED)), "twice")
    assert_illegal(game, ProposeTrade(0, partner=1, give=(4,)), "not a property")
    assert_illegal(game, ProposeTrade(0, partner=1, give_cards=("chance",)), "not held")
    assert_illegal(game, ProposeTrade(0, partner=1, take_cards=("chance",)), "not held")
