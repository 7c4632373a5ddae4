"""House-rule options of RuleSet: off by default, each a named option (see docs/rules.md,
"House rules"), plus the options of the official rules (auction minimum, max players)."""

from __future__ import annotations

from typing import Any

import pytest

from monopoly.core import events as ev
from monopoly.core.actions import (
    Bid,
    Build,
    Buy,
    DeclareBankruptcy,
    DeclineBuy,
    PassBid,
    PayJailFine,
    Roll,
)
from monopoly.core.editions import get_edition
from monopoly.core.errors import IllegalActionError, SetupError
from monopoly.core.game import Game, PlayerSetup, Setup
from monopoly.core.position import dump_position
from monopoly.core.rules import RuleSet
from monopoly.core.state import BID, BUY, ROLL, WANT
from tests.scenario import apply_all, dice_left, start, waiting

BOARD = get_edition("classic").board
CHANCE_KEYS = [c.key for c in BOARD.decks["chance"]]
CHEST_KEYS = [c.key for c in BOARD.decks["community_chest"]]


def rules(**options: Any) -> RuleSet:
    return RuleSet.named("standard", **options)


def test_house_rules_are_off_by_default() -> None:
    default = RuleSet()
    assert not default.free_parking_pot
    assert not default.double_go_salary
    assert not default.no_auctions
    assert default.turn_limit == 0 and default.round_limit == 0
    assert default.auction_minimum_bid == 1 and default.max_players == 6
    assert default.to_json() == {}
    assert rules(free_parking_pot=True, turn_limit=9).to_json() == {
        "free_parking_pot": True,
        "turn_limit": 9,
    }


def test_unknown_or_mistyped_options_are_refused() -> None:
    with pytest.raises(SetupError, match="unknown rule option 'free_parking'"):
        rules(free_parking=True)
    with pytest.raises(SetupError, match="must be bool"):
        rules(no_auctions=1)
    with pytest.raises(SetupError, match="must be int"):
        rules(turn_limit="10")
    with pytest.raises(SetupError, match="must not be negative"):
        rules(round_limit=-1)
    with pytest.raises(SetupError, match="unknown rule set 'fast'"):
        RuleSet.named("fast")


# ------------------------------------------------------------------ free parking pot
def test_free_parking_pot_collects_taxes_and_pays_the_lander() -> None:
    position = {"players": [{"position": 1}, {"position": 17}]}
    game = start(position, rules=rules(free_parking_pot=True), dice=[(1, 2), (1, 2)])
    game.apply(Roll(0))  # Income Tax 200
    assert game.cash[0] == 1300 and game.free_parking_pot == 200
    game.apply(Roll(1))  # Free Parking
    assert game.position[1] == 20
    assert game.cash[1] == 1700 and game.free_parking_pot == 0


def test_free_parking_pot_takes_jail_fines_and_card_payments() -> None:
    deck = ["speeding_fine", *[k for k in CHANCE_KEYS if k != "speeding_fine"]]
    position = {"players": [{"position": 10, "jail_turns": 0}, {"position": 4}]}
    game = start(
        position, rules=rules(free_parking_pot=True), dice=[(1, 2), (1, 2)], decks={"chance": deck}
    )
    game.apply(PayJailFine(0))
    assert game.free_parking_pot == 50
    game.apply(Roll(0))  # 13: States Avenue, declined and not auctioned by anyone
    apply_all(game, DeclineBuy(0), PassBid(0), PassBid(1))
    game.apply(Roll(1))  # 7: Chance, speeding fine 15
    assert game.cash[1] == 1500 - 15
    assert game.free_parking_pot == 65


def test_free_parking_pot_not_fed_by_purchases_or_auctions() -> None:
    position = {"players": [{"position": 1}, {}], "free_parking_pot": 10}
    game = start(position, rules=rules(free_parking_pot=True), dice=[(1, 2)])
    game.apply(Roll(0))  # 4: Income Tax -> 210
    assert game.free_parking_pot == 210
    game = start({"players": [{}, {}]}, rules=rules(free_parking_pot=True), dice=[(1, 2)])
    game.apply(Roll(0))  # Baltic Avenue
    apply_all(game, DeclineBuy(0), Bid(0, 30), PassBid(1))
    assert game.owner[3] == 0 and game.cash[0] == 1470
    assert game.free_parking_pot == 0


def test_without_the_pot_free_parking_pays_nothing() -> None:
    position = {"players": [{"position": 1}, {"position": 17}]}
    game = start(position, dice=[(1, 2), (1, 2)])
    game.apply(Roll(0))
    game.apply(Roll(1))
    assert game.cash == [1300, 1500] and game.free_parking_pot == 0


# ------------------------------------------------------------------ double GO salary
def test_double_go_salary_landing_exactly_on_go() -> None:
    position = {"players": [{"position": 37}, {"position": 37}]}
    game = start(position, rules=rules(double_go_salary=True), dice=[(1, 2), (2, 4)])
    game.apply(Roll(0))  # lands on GO
    assert game.position[0] == 0 and game.cash[0] == 1900
    game.apply(Roll(1))  # passes GO to Baltic Avenue
    assert game.position[1] == 3 and game.cash[1] == 1700


def test_double_go_salary_advance_to_go_card_lands_on_go() -> None:
    position = {"players": [{"position": 4}, {}]}
    game = start(
        position,
        rules=rules(double_go_salary=True),
        dice=[(1, 2)],
        decks={"chance": ["advance_to_go", *[k for k in CHANCE_KEYS if k != "advance_to_go"]]},
    )
    game.apply(Roll(0))
    assert game.position[0] == 0 and game.cash[0] == 1900


def test_go_salary_single_by_default() -> None:
    game = start({"players": [{"position": 37}, {}]}, dice=[(1, 2)])
    game.apply(Roll(0))
    assert game.cash[0] == 1700


# ------------------------------------------------------------------ no auctions
def test_no_auctions_declined_property_stays_with_the_bank() -> None:
    game = start(players=2, rules=rules(no_auctions=True), dice=[(1, 2)])
    game.apply(Roll(0))
    events = game.apply(DeclineBuy(0))
    assert game.owner[3] == -1
    assert not any(isinstance(e, ev.AuctionStarted) for e in events)
    assert waiting(game) == (ROLL, 1)


def test_auctions_by_default() -> None:
    game = start(players=2, dice=[(1, 2)])
    game.apply(Roll(0))
    game.apply(DeclineBuy(0))
    assert waiting(game) == (BID, 0)


def test_no_auctions_bankruptcy_to_the_bank_returns_deeds_unsold() -> None:
    position = {
        "players": [{"position": 35, "cash": 10}, {}, {}],
        "properties": {"5": {"owner": 0, "mortgaged": True}, "15": {"owner": 0, "mortgaged": True}},
    }
    game = start(position, rules=rules(no_auctions=True), dice=[(1, 2)])
    game.apply(Roll(0))  # Luxury Tax 100
    game.apply(DeclareBankruptcy(0))
    assert game.owner[5] == game.owner[15] == -1
    assert not game.mortgaged[5] and not game.mortgaged[15]
    assert waiting(game) == (ROLL, 1)


def shortage_position() -> dict[str, Any]:
    # Seat 0: brown, unbuilt; seat 1: 31 houses out and orange unbuilt: the Bank keeps 1.
    props: dict[str, Any] = {"1": {"owner": 0}, "3": {"owner": 0}}
    for space, houses in (
        (31, 4),
        (32, 4),
        (34, 4),
        (37, 4),
        (39, 4),
        (21, 3),
        (23, 3),
        (24, 3),
        (26, 1),
        (27, 1),
        (29, 0),
    ):
        props[str(space)] = {"owner": 1, "buildings": houses}
    props["16"] = {"owner": 1}
    props["18"] = {"owner": 1}
    props["19"] = {"owner": 1}
    return {"players": [{}, {"cash": 5000}], "properties": props}


def test_no_auctions_no_building_shortage_procedure() -> None:
    game = start(shortage_position(), rules=rules(no_auctions=True))
    assert game.bank_houses == 32 - 32 + 1
    game.apply(Build(0, (1,)))
    assert game.level[1] == 1 and game.bank_houses == 0


def test_building_shortage_procedure_by_default() -> None:
    game = start(shortage_position())
    assert game.bank_houses == 1
    game.apply(Build(0, (1,)))
    assert waiting(game) == (WANT, 1)  # seat 1 could build on orange too


# ------------------------------------------------------------------ turn and round limits
def test_turn_limit_richest_wins_after_the_limit() -> None:
    position = {"players": [{"position": 20}, {"position": 20}], "properties": {"39": {"owner": 1}}}
    game = start(position, rules=rules(turn_limit=2), dice=[(1, 2), (2, 2), (1, 3)])
    game.apply(Roll(0))  # Indiana Avenue
    apply_all(game, DeclineBuy(0), PassBid(0), PassBid(1))
    assert not game.over
    game.apply(Roll(1))  # doubles: the same turn goes on
    apply_all(game, DeclineBuy(1), PassBid(1), PassBid(0))
    assert waiting(game) == (ROLL, 1)
    game.apply(Roll(1))  # 28 Water Works
    apply_all(game, DeclineBuy(1), PassBid(1), PassBid(0))
    assert game.over and game.end_reason == "limit"
    assert game.turn == 2
    assert game.net_worth(1) == 1500 + 400 and game.net_worth(0) == 1500
    assert game.winners == (1,)
    assert dice_left(game) == 0


def test_turn_limit_equal_fortunes_share() -> None:
    game = start(
        {"players": [{"position": 20}, {"position": 20}]},
        rules=rules(turn_limit=2),
        dice=[(1, 2), (1, 3)],
    )
    game.apply(Roll(0))
    apply_all(game, DeclineBuy(0), PassBid(0), PassBid(1))
    game.apply(Roll(1))  # Illinois Avenue
    apply_all(game, DeclineBuy(1), PassBid(1), PassBid(0))
    assert game.over and game.winners == (0, 1)
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.apply(Roll(0))


def test_round_limit_every_player_plays_each_round() -> None:
    position = {
        "players": [{"position": 20}, {"position": 20}, {"position": 20, "cash": 1600}],
        "turn": 1,
    }
    game = start(position, rules=rules(round_limit=1), dice=[(3, 4), (3, 5), (2, 5)])
    game.apply(Roll(1))  # 27
    apply_all(game, DeclineBuy(1), PassBid(1), PassBid(2), PassBid(0))
    game.apply(Roll(2))  # 28
    apply_all(game, DeclineBuy(2), PassBid(2), PassBid(0), PassBid(1))
    assert not game.over
    game.apply(Roll(0))  # 27 again (still unowned)
    apply_all(game, DeclineBuy(0), PassBid(0), PassBid(1), PassBid(2))
    assert game.over and game.end_reason == "limit" and game.turn == 3
    assert game.winners == (2,)


def test_round_limit_counts_from_the_player_who_starts() -> None:
    # The turn-order roll makes seat 1 start; one round is seat 1, then seat 0.
    script: list[tuple[Any, ...]] = [
        ("shuffle", "chance", tuple(CHANCE_KEYS)),
        ("shuffle", "community_chest", tuple(CHEST_KEYS)),
        ("dice", (1, 2)),
        ("dice", (3, 3)),
        ("dice", (4, 5)),
        ("dice", (4, 6)),
    ]
    seats = (PlayerSetup("A"), PlayerSetup("B"))
    game = Game(Setup(seats, "classic", "en", rules(round_limit=1), 0, None), script)
    assert waiting(game) == (ROLL, 1)
    game.apply(Roll(1))  # 9: Connecticut Avenue
    apply_all(game, DeclineBuy(1), PassBid(1), PassBid(0))
    assert not game.over and waiting(game) == (ROLL, 0)
    game.apply(Roll(0))  # 10: Just Visiting
    assert game.over and game.turn == 2 and game.winners == (0, 1)


# ------------------------------------------------------------------ auction minimum bid
def test_auction_minimum_bid() -> None:
    game = start(players=2, rules=rules(auction_minimum_bid=10), dice=[(1, 2)])
    game.apply(Roll(0))
    game.apply(DeclineBuy(0))
    assert game.bid_range() == (10, 1500)
    assert game.decision_actions() == [PassBid(0), Bid(0, 10)]
    before = dump_position(game)
    with pytest.raises(IllegalActionError, match="a bid must be at least 10"):
        game.apply(Bid(0, 9))
    assert dump_position(game) == before
    apply_all(game, Bid(0, 10), PassBid(1))
    assert game.owner[3] == 0 and game.cash[0] == 1490
    with pytest.raises(SetupError, match="at least 1"):
        rules(auction_minimum_bid=0)


def test_auction_minimum_bid_then_one_above_the_last() -> None:
    game = start(players=2, rules=rules(auction_minimum_bid=10), dice=[(1, 2)])
    game.apply(Roll(0))
    apply_all(game, DeclineBuy(0), Bid(0, 25))
    assert game.bid_range() == (26, 1500)


# ------------------------------------------------------------------ player count
def test_max_players_default_six() -> None:
    assert len(Game.new(6).names) == 6
    with pytest.raises(SetupError, match="a game needs 2 to 6 players, got 7"):
        Game.new(7)
    with pytest.raises(SetupError, match="got 1"):
        Game.new(1)


def test_max_players_eight_on_classic() -> None:
    game = Game.new(8, rules=rules(max_players=8), seed=3)
    assert game.players == 8 and game.cash == [1500] * 8
    assert len({p.token for p in game.setup.players}) == 8
    with pytest.raises(SetupError, match="a game needs 2 to 8 players, got 9"):
        Game.new(9, rules=rules(max_players=8))
    with pytest.raises(SetupError, match=r"max_players must be 2\.\.8"):
        rules(max_players=9)


@pytest.mark.parametrize("edition", ["zelda", "cthulhu", "fallout", "transformers"])
def test_max_players_above_six_only_on_classic(edition: str) -> None:
    with pytest.raises(SetupError, match="only on the classic edition"):
        Game.new(7, edition=edition, rules=rules(max_players=7))
    assert Game.new(6, edition=edition, rules=rules(max_players=6)).players == 6


def test_turn_limit_lets_the_last_turn_finish() -> None:
    game = start({"players": [{}, {}]}, rules=rules(turn_limit=1), dice=[(1, 2)])
    game.apply(Roll(0))
    assert waiting(game) == (BUY, 0) and not game.over
    game.apply(Buy(0))
    assert game.over and game.owner[3] == 0
    assert game.net_worth(0) == 1500 - 60 + 60 == game.net_worth(1)
    assert game.winners == (0, 1)
