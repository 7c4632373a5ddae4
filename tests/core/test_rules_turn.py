"""Scenario tests for setup, the turn and the space landed on (R-SETUP-*, R-TURN-*, R-LAND-*).

Board numbers are the printed classic ones; every expected amount below is computed
from the rules (docs/rules.md) and the printed deeds, not read from the engine.
"""

from __future__ import annotations

from typing import Any

import pytest

from monopoly.core import events as ev
from monopoly.core.actions import (
    Action,
    Bid,
    Buy,
    DeclareBankruptcy,
    DeclineBuy,
    PassBid,
    PayJailFine,
    Roll,
)
from monopoly.core.board import DECK_ROLES
from monopoly.core.editions import edition_keys, get_edition
from monopoly.core.errors import IllegalActionError, NotYourTurnError, SetupError
from monopoly.core.game import Game, PlayerSetup, Setup
from monopoly.core.position import dump_position
from monopoly.core.rules import RuleSet
from monopoly.core.state import BID, BUY, ROLL
from tests.scenario import dice_left, start, waiting

CLASSIC = get_edition("classic")
BOARD = CLASSIC.board
PRINTED_DECKS = {role: [card.key for card in BOARD.decks[role]] for role in DECK_ROLES}


def new_game(players: int, dice: list[tuple[int, int]], rules: RuleSet | None = None) -> Game:
    """A game from the very start: the printed deck orders as the setup shuffles
    (R-SETUP-3), then ``dice`` as the turn-order rolls (R-SETUP-4) and the first moves.

    ``tests.scenario.new_game`` cannot be used for this: it scripts only dice, but the
    engine asks for the two deck shuffles before the turn-order rolls, so the first
    scripted die is met where a shuffle is expected (RecordError).
    """
    script: list[tuple[Any, ...]] = [
        ("shuffle", role, tuple(PRINTED_DECKS[role])) for role in DECK_ROLES
    ]
    script += [("dice", d) for d in dice]
    seats = tuple(PlayerSetup(f"P{i}") for i in range(players))
    return Game(Setup(seats, "classic", "en", rules or RuleSet(), 0, None), script)


def assert_illegal(game: Game, action: Action, *words: str) -> IllegalActionError:
    """``action`` raises IllegalActionError naming ``words`` and changes nothing."""
    before = dump_position(game)
    decision = game.decision
    kind_seat = (decision.kind, decision.seat) if decision else None
    log = len(game.record)
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    for word in words:
        assert word in str(info.value)
    assert dump_position(game) == before
    after = game.decision
    assert ((after.kind, after.seat) if after else None) == kind_seat
    assert len(game.record) == log
    return info.value


# ====================================================================== R-SETUP
@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_r_setup_1_two_to_six_players_all_on_go(count: int) -> None:
    game = Game.new(count)
    assert game.players == count
    assert game.position == [0] * count
    tokens = [p.token for p in game.setup.players]
    assert len(set(tokens)) == count
    assert set(tokens) <= {t.key for t in CLASSIC.tokens}


@pytest.mark.parametrize("count", [1, 7])
def test_r_setup_1_player_count_outside_2_to_6_is_refused(count: int) -> None:
    with pytest.raises(SetupError, match="2 to 6"):
        Game.new(count)


def test_r_setup_1_max_players_option_allows_8_on_classic() -> None:
    rules = RuleSet.named("standard", max_players=8)
    game = Game.new(8, rules=rules)
    assert game.players == 8
    assert game.position == [0] * 8
    with pytest.raises(SetupError):
        Game.new(9, rules=RuleSet.named("standard", max_players=8))
    with pytest.raises(SetupError):
        RuleSet.named("standard", max_players=9)


def test_r_setup_1_more_than_6_only_on_classic() -> None:
    with pytest.raises(SetupError, match="classic"):
        Game.new(7, edition="zelda", rules=RuleSet.named("standard", max_players=8))


def test_r_setup_1_tokens_are_distinct_and_from_the_edition() -> None:
    token = CLASSIC.tokens[0].key
    seats = (PlayerSetup("A", token), PlayerSetup("B", token))
    with pytest.raises(SetupError, match="same token"):
        Game(Setup(seats))
    with pytest.raises(SetupError, match="unknown token"):
        Game(Setup((PlayerSetup("A", "spaceship"), PlayerSetup("B"))))


def test_r_setup_2_starting_cash_1500_each() -> None:
    notes = 2 * 500 + 4 * 100 + 1 * 50 + 1 * 20 + 2 * 10 + 1 * 5 + 5 * 1
    assert notes == 1500
    game = Game.new(4)
    assert game.cash == [notes] * 4
    assert [game.net_worth(s) for s in range(4)] == [1500] * 4


def test_r_setup_3_bank_holds_deeds_houses_hotels() -> None:
    game = Game.new(3, seed=11)
    assert len(BOARD.properties) == 28
    assert all(game.owner[s] == -1 for s in BOARD.properties)
    assert all(game.level[s] == 0 and not game.mortgaged[s] for s in range(40))
    assert game.bank_houses == 32
    assert game.bank_hotels == 12
    assert dump_position(game)["properties"] == {}


def test_r_setup_3_both_decks_of_16_are_shuffled() -> None:
    game = Game.new(2, seed=3)
    other = Game.new(2, seed=4)
    for role in DECK_ROLES:
        assert len(game.decks[role]) == 16
        assert sorted(game.decks[role]) == sorted(PRINTED_DECKS[role])
        # The shuffle is a chance event of the record.
        shuffles = [e for e in game.record if e[0] == "shuffle" and e[1] == role]
        assert shuffles == [("shuffle", role, tuple(game.decks[role]))]
    assert any(list(game.decks[r]) != list(other.decks[r]) for r in DECK_ROLES)


def test_r_setup_3_scripted_shuffle_is_the_deck_order() -> None:
    game = new_game(2, [(6, 5), (1, 2)])
    for role in DECK_ROLES:
        assert list(game.decks[role]) == PRINTED_DECKS[role]


def test_r_setup_4_highest_roll_starts_then_seat_order() -> None:
    # Seat 2 rolls 11, the highest: it starts; then seats 0 and 1 (to its left).
    game = new_game(3, [(1, 2), (4, 4), (5, 6), (1, 3), (2, 3), (3, 4)])
    order = [e for e in game.events if isinstance(e, ev.TurnOrderDecided)]
    assert order == [ev.TurnOrderDecided((2, 0, 1), ((1, 2), (4, 4), (5, 6)))]
    assert waiting(game) == (ROLL, 2)
    assert dice_left(game) == 3  # only three order rolls were used
    # Play passes in seat order after the starter: 2 -> 0 -> 1.
    game.apply(Roll(2))  # 4: Income Tax
    assert game.position[2] == 4
    assert waiting(game) == (ROLL, 0)
    game.apply(Roll(0))  # 5: Reading Railroad
    assert waiting(game) == (BUY, 0)
    game.apply(Buy(0))
    assert waiting(game) == (ROLL, 1)


def test_r_setup_4_tie_for_highest_rerolls_among_the_tied() -> None:
    # Seats 0 and 1 tie at 7, seat 2 (4) is out; the re-roll 3 vs 10 gives seat 1.
    game = new_game(3, [(3, 4), (6, 1), (2, 2), (1, 2), (5, 5)])
    order = [e for e in game.events if isinstance(e, ev.TurnOrderDecided)]
    assert len(order) == 1
    assert order[0].order == (1, 2, 0)
    assert order[0].rolls == ((3, 4), (6, 1), (2, 2), (1, 2), (5, 5))
    assert waiting(game) == (ROLL, 1)
    assert dice_left(game) == 0
    # The order rolls are chance events of the record, after the two shuffles.
    assert [e[1] for e in game.record if e[0] == "dice"] == [(3, 4), (6, 1), (2, 2), (1, 2), (5, 5)]


def test_r_setup_4_tie_below_the_highest_does_not_reroll() -> None:
    game = new_game(3, [(6, 6), (1, 2), (2, 1)])
    assert waiting(game) == (ROLL, 0)
    assert dice_left(game) == 0


def test_r_setup_4_repeated_ties_keep_rerolling() -> None:
    # All four tie at 8; re-roll: seats 1 and 3 tie at 9; re-roll again: seat 3 wins.
    dice = [(4, 4), (2, 6), (3, 5), (6, 2), (1, 1), (4, 5), (2, 2), (3, 6), (2, 3), (6, 1)]
    game = new_game(4, dice)
    assert waiting(game) == (ROLL, 3)
    order = next(e for e in game.events if isinstance(e, ev.TurnOrderDecided))
    assert order.order == (3, 0, 1, 2)
    assert len(order.rolls) == 10


# ====================================================================== R-TURN
def test_r_turn_1_roll_two_dice_and_move_by_the_total() -> None:
    game = start(players=2, dice=[(2, 4)])
    events = game.apply(Roll(0))
    assert ev.DiceRolled(0, (2, 4), False) in events
    assert ev.Moved(0, 0, 6) in events
    assert game.position == [6, 0]
    assert waiting(game) == (BUY, 0)  # Oriental Avenue is for sale


def test_r_turn_1_only_the_player_to_move_may_roll() -> None:
    game = start(players=2, dice=[(2, 4)])
    error = assert_illegal(game, Roll(1), "not your decision")
    assert isinstance(error, NotYourTurnError)


def test_r_turn_2_passing_go_pays_200() -> None:
    game = start({"players": [{"position": 37}, {}]}, dice=[(2, 4)])
    events = game.apply(Roll(0))
    assert game.position[0] == 3  # 37 + 6 = 43 -> Baltic Avenue
    assert ev.SalaryCollected(0, 200) in events
    assert game.cash[0] == 1700
    assert waiting(game) == (BUY, 0)


def test_r_turn_2_landing_on_go_pays_200_once() -> None:
    game = start({"players": [{"position": 35}, {}]}, dice=[(2, 3)])
    game.apply(Roll(0))
    assert game.position[0] == 0
    assert game.cash == [1700, 1500]  # 200, not 400 (R-LAND-6: nothing more on GO)
    assert waiting(game) == (ROLL, 1)


def test_r_turn_2_sent_to_jail_past_go_never_pays() -> None:
    # From 25 a roll of 5 reaches Go To Jail; the trip to space 10 is not "passing GO".
    game = start({"players": [{"position": 25}, {}]}, dice=[(2, 3)])
    events = game.apply(Roll(0))
    assert game.position[0] == 10
    assert game.jail_turns[0] == 0
    assert game.cash[0] == 1500
    assert not any(isinstance(e, ev.SalaryCollected) for e in events)


def test_r_turn_2_move_without_reaching_go_pays_nothing() -> None:
    game = start({"players": [{"position": 30 - 10}, {}]}, dice=[(3, 4)])
    game.apply(Roll(0))
    assert game.position[0] == 27
    assert game.cash[0] == 1500


def test_r_turn_3_the_space_landed_on_is_resolved() -> None:
    # Income Tax at 4 is paid as part of the move.
    game = start(players=2, dice=[(1, 3)])
    events = game.apply(Roll(0))
    assert ev.MoneyPaid(0, -1, 200, "tax") in events
    assert game.cash[0] == 1300


def test_r_turn_4_doubles_roll_again_after_resolving() -> None:
    # 8 + (1,1) = 10 Just Visiting, then the same player rolls again: 10 + (2,3) = 15.
    game = start({"players": [{"position": 8}, {}]}, dice=[(1, 1), (2, 3)])
    game.apply(Roll(0))
    assert game.position[0] == 10
    assert waiting(game) == (ROLL, 0)
    assert_illegal(game, Roll(1), "not your decision")
    game.apply(Roll(0))
    assert game.position[0] == 15
    assert waiting(game) == (BUY, 0)
    game.apply(Buy(0))
    assert waiting(game) == (ROLL, 1)  # no doubles: the dice pass on


def test_r_turn_4_doubles_resolve_the_space_before_the_next_roll() -> None:
    # Doubles onto an unowned street: the buy decision comes before the extra roll.
    game = start(players=2, dice=[(3, 3), (1, 2)])
    game.apply(Roll(0))
    assert waiting(game) == (BUY, 0)
    assert_illegal(game, Roll(0), "not your decision")
    game.apply(Buy(0))
    assert game.owner[6] == 0
    assert game.cash[0] == 1400
    assert waiting(game) == (ROLL, 0)


def test_r_turn_4_third_doubles_go_to_jail_without_moving() -> None:
    game = start({"players": [{"position": 8}, {}]}, dice=[(1, 1), (5, 5), (3, 3)])
    game.apply(Roll(0))  # 10: Just Visiting
    game.apply(Roll(0))  # 20: Free Parking
    assert game.position[0] == 20
    events = game.apply(Roll(0))  # third doubles: 20 + 6 = 26 is never reached
    assert ev.SentToJail(0) in events
    assert not any(isinstance(e, ev.Moved) and e.end == 26 for e in events)
    assert game.position[0] == 10
    assert game.jail_turns[0] == 0
    assert game.cash[0] == 1500  # R-TURN-2: no salary, nothing else paid
    assert waiting(game) == (ROLL, 1)  # R-TURN-5


def test_r_turn_4_third_doubles_from_near_go_pays_no_salary() -> None:
    # Seat 0 owns where the first two doubles land; the third doubles would pass GO.
    position = {
        "players": [{"position": 31}, {}],
        "properties": {"35": {"owner": 0}, "37": {"owner": 0}},
    }
    game = start(position, dice=[(2, 2), (1, 1), (3, 3)])
    game.apply(Roll(0))
    game.apply(Roll(0))
    assert game.position[0] == 37
    game.apply(Roll(0))
    assert game.position[0] == 10
    assert game.jail_turns[0] == 0
    assert game.cash[0] == 1500


def test_r_turn_4_doubles_count_per_turn_only() -> None:
    # Two doubles and a normal roll; next turn two doubles again do not send to jail.
    position = {"players": [{"position": 8}, {"position": 8}]}
    dice = [(1, 1), (5, 5), (1, 2), (1, 1), (5, 5), (1, 2), (1, 1), (1, 2)]
    game = start(position, dice=dice)
    game.apply(Roll(0))  # 10
    game.apply(Roll(0))  # 20
    game.apply(Roll(0))  # 23 Indiana Avenue
    game.apply(DeclineBuy(0))
    game.apply(PassBid(0))
    game.apply(PassBid(1))
    assert game.owner[23] == -1
    game.apply(Roll(1))  # 10
    game.apply(Roll(1))  # 20
    game.apply(Roll(1))  # 23
    game.apply(DeclineBuy(1))
    game.apply(PassBid(1))
    game.apply(PassBid(0))
    game.apply(Roll(0))  # doubles: 25 (B. & O.)
    assert game.jail_turns[0] == -1
    assert game.position[0] == 25


def test_r_turn_5_doubles_onto_go_to_jail_end_the_turn() -> None:
    game = start({"players": [{"position": 26}, {}]}, dice=[(2, 2)])
    events = game.apply(Roll(0))
    assert ev.DiceRolled(0, (2, 2), True) in events
    assert game.position[0] == 10
    assert game.jail_turns[0] == 0
    assert waiting(game) == (ROLL, 1)  # no roll for the doubles


def test_r_turn_6_dice_pass_to_the_next_player() -> None:
    game = start(players=3, dice=[(1, 2), (1, 2), (1, 2), (1, 2)])
    game.apply(Roll(0))  # 3 Baltic
    game.apply(Buy(0))
    assert waiting(game) == (ROLL, 1)
    game.apply(Roll(1))  # 3: pays rent to seat 0
    assert waiting(game) == (ROLL, 2)
    game.apply(Roll(2))
    assert waiting(game) == (ROLL, 0)  # round again from seat 0


def test_r_turn_6_bankrupt_players_are_skipped() -> None:
    position = {"players": [{}, {"bankrupt": True}, {}, {"bankrupt": True}], "turn": 2}
    game = start(position, dice=[(3, 4), (3, 4)])
    assert waiting(game) == (ROLL, 2)
    game.apply(Roll(2))  # 7 Chance: advance to Boardwalk (printed order)
    game.apply(DeclineBuy(2))
    game.apply(PassBid(2))
    game.apply(PassBid(0))
    assert waiting(game) == (ROLL, 0)  # seat 3 is skipped
    assert_illegal(game, Roll(3), "bankrupt")
    assert_illegal(game, Roll(1), "bankrupt")
    game.apply(Roll(0))  # 7 Chance again: advance to GO
    assert game.position[0] == 0
    assert waiting(game) == (ROLL, 2)  # seat 1 is skipped


# ====================================================================== R-LAND
def test_r_land_1_buy_unowned_property_at_printed_price() -> None:
    game = start(players=2, dice=[(1, 2)])
    game.apply(Roll(0))  # Baltic Avenue, price 60
    assert waiting(game) == (BUY, 0)
    assert set(game.legal_actions(0)) >= {Buy(0), DeclineBuy(0)}
    events = game.apply(Buy(0))
    assert ev.PropertyBought(0, 3, 60) in events
    assert game.owner[3] == 0
    assert game.cash == [1440, 1500]
    assert waiting(game) == (ROLL, 1)


def test_r_land_1_declined_property_is_auctioned_at_once() -> None:
    game = start(players=3, dice=[(1, 2)])
    game.apply(Roll(0))
    events = game.apply(DeclineBuy(0))
    assert ev.AuctionStarted(3, (0, 1, 2)) in events
    assert waiting(game) == (BID, 0)  # the decliner may bid and bids first
    game.apply(Bid(0, 10))
    game.apply(Bid(1, 20))
    game.apply(PassBid(2))
    game.apply(PassBid(0))
    assert game.owner[3] == 1
    assert game.cash == [1500, 1480, 1500]
    assert waiting(game) == (ROLL, 1)


def test_r_land_1_cannot_buy_without_the_cash() -> None:
    game = start({"players": [{"cash": 59}, {}]}, dice=[(1, 2)])
    game.apply(Roll(0))
    assert game.decision_actions() == [DeclineBuy(0)]
    assert_illegal(game, Buy(0), "costs 60", "59")
    assert_illegal(game, Buy(1), "not your decision")


def test_r_land_1_nobody_bids_property_stays_with_the_bank() -> None:
    game = start(players=2, dice=[(1, 2)])
    game.apply(Roll(0))
    game.apply(DeclineBuy(0))
    game.apply(PassBid(0))
    events = game.apply(PassBid(1))
    assert ev.AuctionUnsold(3) in events
    assert game.owner[3] == -1
    assert game.cash == [1500, 1500]


def test_r_land_2_rent_to_the_owner() -> None:
    position = {"players": [{}, {}], "properties": {"3": {"owner": 1}}}
    game = start(position, dice=[(1, 2)])
    events = game.apply(Roll(0))
    assert ev.RentPaid(0, 1, 3, 4) in events  # Baltic Avenue base rent 4
    assert game.cash == [1496, 1504]
    assert waiting(game) == (ROLL, 1)


def test_r_land_2_mortgaged_property_no_rent() -> None:
    position = {"players": [{}, {}], "properties": {"3": {"owner": 1, "mortgaged": True}}}
    game = start(position, dice=[(1, 2)])
    events = game.apply(Roll(0))
    assert not any(isinstance(e, ev.RentPaid) for e in events)
    assert game.cash == [1500, 1500]
    assert waiting(game) == (ROLL, 1)


def test_r_land_2_own_property_nothing_happens() -> None:
    position = {"players": [{}, {}], "properties": {"3": {"owner": 0}}}
    game = start(position, dice=[(1, 2)])
    game.apply(Roll(0))
    assert game.cash == [1500, 1500]
    assert waiting(game) == (ROLL, 1)


def test_r_land_3_card_space_draws_top_card_and_puts_it_under() -> None:
    chance = ["dividend"] + [k for k in PRINTED_DECKS["chance"] if k != "dividend"]
    game = start({"players": [{"position": 4}, {}]}, dice=[(1, 2)], decks={"chance": chance})
    events = game.apply(Roll(0))
    assert ev.CardDrawn(0, "chance", "dividend") in events
    assert game.cash[0] == 1550
    assert list(game.decks["chance"]) == [*chance[1:], "dividend"]
    assert list(game.decks["community_chest"]) == PRINTED_DECKS["community_chest"]


def test_r_land_3_get_out_of_jail_free_card_is_kept() -> None:
    chest = ["get_out_of_jail_free"] + [
        k for k in PRINTED_DECKS["community_chest"] if k != "get_out_of_jail_free"
    ]
    game = start(
        {"players": [{"position": 14}, {}]}, dice=[(1, 2)], decks={"community_chest": chest}
    )
    events = game.apply(Roll(0))
    assert ev.JailCardKept(0, "community_chest") in events
    assert game.jail_cards[0] == ["community_chest"]
    assert list(game.decks["community_chest"]) == chest[1:]  # not under the deck
    assert len(game.decks["community_chest"]) == 15


@pytest.mark.parametrize(
    ("start_at", "dice", "space", "tax"), [(0, (1, 3), 4, 200), (35, (1, 2), 38, 100)]
)
def test_r_land_4_tax_paid_to_the_bank(
    start_at: int, dice: tuple[int, int], space: int, tax: int
) -> None:
    game = start({"players": [{"position": start_at}, {}]}, dice=[dice])
    events = game.apply(Roll(0))
    assert game.position[0] == space
    assert ev.MoneyPaid(0, -1, tax, "tax") in events
    assert game.cash == [1500 - tax, 1500]


def test_r_land_5_go_to_jail_space() -> None:
    game = start({"players": [{"position": 24}, {}]}, dice=[(2, 4)])
    events = game.apply(Roll(0))
    assert ev.SentToJail(0) in events
    assert game.position[0] == 10
    assert game.jail_turns[0] == 0
    assert game.cash[0] == 1500
    assert waiting(game) == (ROLL, 1)


def test_r_land_5_jailed_player_starts_next_turn_with_jail_choice() -> None:
    game = start({"players": [{"position": 24}, {}]}, dice=[(2, 4), (1, 2)])
    game.apply(Roll(0))
    game.apply(Roll(1))
    game.apply(Buy(1))
    assert waiting(game) == ("jail", 0)
    assert PayJailFine(0) in game.decision_actions()
    assert_illegal(game, Roll(0), "not your decision")


def test_r_land_6_just_visiting_nothing_happens() -> None:
    game = start({"players": [{"position": 6}, {}]}, dice=[(1, 3)])
    game.apply(Roll(0))
    assert game.position[0] == 10
    assert game.jail_turns[0] == -1
    assert game.cash == [1500, 1500]
    assert waiting(game) == (ROLL, 1)


def test_r_land_6_free_parking_pays_nothing_even_after_taxes() -> None:
    position = {"players": [{}, {"position": 16}]}
    game = start(position, dice=[(1, 3), (1, 3)])
    game.apply(Roll(0))  # Income Tax 200 to the Bank
    assert game.cash[0] == 1300
    events = game.apply(Roll(1))
    assert game.position[1] == 20
    assert game.cash == [1300, 1500]
    assert not any(isinstance(e, ev.FreeParkingCollected) for e in events)
    assert waiting(game) == (ROLL, 0)


def test_r_turn_6_after_a_bankruptcy_the_next_player_in_seat_order() -> None:
    # Seat 1 cannot pay Income Tax and goes bankrupt on its own turn: seat 2 goes next.
    position = {"players": [{}, {"cash": 150}, {}], "turn": 1}
    game = start(position, dice=[(1, 3)])
    game.apply(Roll(1))
    assert waiting(game) == ("raise_cash", 1)
    game.apply(DeclareBankruptcy(1))
    assert not game.active[1]
    assert not game.over
    assert waiting(game) == (ROLL, 2)


@pytest.mark.parametrize("key", edition_keys())
def test_r_setup_1_six_players_get_six_distinct_edition_tokens(key: str) -> None:
    game = Game.new(6, edition=key)
    tokens = [p.token for p in game.setup.players]
    assert len(set(tokens)) == 6
    assert set(tokens) <= {t.key for t in get_edition(key).tokens}
    assert game.position == [0] * 6
    assert game.cash == [1500] * 6
