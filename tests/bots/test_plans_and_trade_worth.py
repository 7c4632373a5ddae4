"""What the computer players build next (R-BUILD-2: evenly) and what a trade is worth to
them, read from the tables and memos they keep per board: the same answers in every
position that calls for them."""

from __future__ import annotations

from monopoly.bots.normal import NormalBot
from monopoly.bots.trading import terms_gains
from monopoly.core.actions import Build
from monopoly.core.view import PlayerView
from tests.scenario import start
from tests.spaces import NEW_YORK, ORANGE, ST_JAMES, TENNESSEE


def orange_player(levels: tuple[int | str, ...]) -> tuple[NormalBot, PlayerView]:
    """Seat 0 holds the orange group with ``levels`` (St. James, Tennessee, New York;
    houses, or "hotel")."""
    properties = {
        str(space): {"owner": 0, "buildings": level}
        for space, level in zip(ORANGE, levels, strict=True)
    }
    game = start({"players": [{"cash": 3000}, {}], "properties": properties})
    view = PlayerView(game, 0)
    player = NormalBot()
    player.prepare(view)
    return player, view


def test_r_build_2_one_more_level_goes_on_the_lowest_street_only() -> None:
    player, view = orange_player((2, 1, 2))
    assert player.build_action(view, 0, 1000, 5) == Build(0, (TENNESSEE,))


def test_r_build_2_a_budget_for_two_houses_builds_on_the_two_most_visited() -> None:
    player, view = orange_player((1, 1, 1))
    action = player.build_action(view, 0, 200, 5)  # orange houses cost 100 each
    assert action is not None
    assert sorted(action.spaces) == [TENNESSEE, NEW_YORK]  # St. James is landed on least


def test_nothing_to_build_on_a_group_of_hotels() -> None:
    player, view = orange_player(("hotel", "hotel", "hotel"))
    assert player.build_action(view, 0, 3000, 5) is None


def test_a_trade_is_worth_the_same_between_other_seats_in_the_same_standing() -> None:
    """Seat 0 asks seat 1 for New York (the last orange street); then seat 2 asks seat 1
    for it in the same standing: the same gains. A mortgage on it changes them (the
    receiver pays the 10 % fee, R-MORT-4)."""

    def gains(proposer: int, mortgaged: bool) -> tuple[float, float]:
        properties = {
            str(ST_JAMES): {"owner": proposer},
            str(TENNESSEE): {"owner": proposer},
            str(NEW_YORK): {"owner": 1, "mortgaged": mortgaged},
        }
        game = start({"players": [{}, {}, {}], "properties": properties})
        view = PlayerView(game, proposer)
        player = NormalBot()
        player.prepare(view)
        player.start_game(view)
        terms = (proposer, 1, (), 0, (), (NEW_YORK,), 0, ())
        return terms_gains(player.valuation, view, terms)

    first = gains(0, mortgaged=False)
    assert first[0] > 0 and first[1] < 0  # the set is worth more to its completer
    assert gains(2, mortgaged=False) == first
    mortgaged = gains(0, mortgaged=True)
    assert mortgaged != first
    assert gains(2, mortgaged=True) == mortgaged
