"""The board's tables: made once per board and rule set, shared by games and views."""

from __future__ import annotations

from monopoly import Game
from monopoly.core.board import BOARD_SIZE, CHANCE
from monopoly.core.editions import get_edition
from monopoly.core.rules import RuleSet
from monopoly.core.tables import tables_for
from monopoly.core.view import PlayerView


def test_games_of_one_board_and_rule_set_share_one_tables_object() -> None:
    first, second = Game.new(2, seed=1), Game.new(3, seed=2)
    assert first.tables is second.tables
    assert PlayerView(first, 0).tables is first.tables
    assert first.clone().tables is first.tables
    assert Game.new(2, "zelda").tables is not first.tables
    assert Game.new(2, rules="speed").tables is not first.tables


def test_r_mort_2_the_lift_cost_is_the_mortgage_value_plus_ten_percent() -> None:
    tables = Game.new(2).tables
    assert tables.mortgage_value[39] == 200  # Boardwalk
    assert tables.lift_cost[39] == 220
    assert tables.lift_cost[1] == 33  # Mediterranean Avenue: 30 + 3 (10 % rounded up)
    assert tables.lift_cost[0] == 0  # GO is no property


def test_r_card_2_r_card_3_the_nearest_railroad_and_utility_forward() -> None:
    tables = Game.new(2).tables
    chance_spaces = [7, 22, 36]
    assert [tables.nearest_railroad[s] for s in chance_spaces] == [15, 25, 5]  # 36: past GO
    assert [tables.nearest_utility[s] for s in chance_spaces] == [12, 28, 12]
    assert len(tables.nearest_railroad) == BOARD_SIZE


def test_groups_are_numbered_once_for_the_rules_and_the_players() -> None:
    tables = tables_for(get_edition("classic").board, RuleSet())
    dark_blue = tables.group_of[39]
    assert tables.groups[dark_blue] == (37, 39)
    assert tables.members[37] == (37, 39)
    assert tables.is_street_group[dark_blue]
    assert tables.is_railroad_group[tables.group_of[5]]
    assert dark_blue in tables.street_groups
    assert tables.group_of[0] == -1


def test_a_card_is_found_by_its_deck_and_key() -> None:
    tables = Game.new(2).tables
    assert tables.card(CHANCE, "advance_to_boardwalk").target == 39
