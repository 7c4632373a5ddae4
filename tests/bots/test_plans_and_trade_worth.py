"""What the computer players build next (R-BUILD-2: evenly) and what a trade is worth to
them, read from the tables and memos they keep per board: the same answers in every
position that calls for them."""

from __future__ import annotations

import math

from monopoly.bots.normal import NormalBot
from monopoly.bots.trading import set_offers, terms_gains
from monopoly.core.actions import Build, ProposeTrade
from monopoly.core.view import PlayerView
from tests.scenario import start
from tests.spaces import BOARDWALK, NEW_YORK, ORANGE, ST_JAMES, TENNESSEE


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


def test_an_offer_short_of_cash_is_made_once_the_cash_is_there() -> None:
    """Seat 0 holds St. James and Tennessee, seat 1 New York. The search for an offer
    tells the least spare cash that buys New York; the normal player finds nothing with
    less (again at a later turn, after a deed changed hands elsewhere) and, with more,
    offers exactly that cash."""
    properties = {str(ST_JAMES): {"owner": 0}, str(TENNESSEE): {"owner": 0}}
    properties[str(NEW_YORK)] = {"owner": 1}
    game = start({"players": [{"cash": 3000}, {}], "properties": properties})
    view = PlayerView(game, 0)
    player = NormalBot()
    player.prepare(view)
    offers, least = set_offers(player.valuation, view, 0, 1, False, lambda key: 0.5)
    assert offers == []
    assert 100 < least < math.inf
    price = int(least)
    assert player.propose_trade(view, 0, price - 100) is None
    game.turn += 1
    game.give_deed(BOARDWALK, 1)
    assert player.propose_trade(view, 0, price - 1) is None
    game.turn += 1
    offer = player.propose_trade(view, 0, price + 99)  # a search 100 richer than the last
    assert offer == ProposeTrade(0, 1, give_cash=price, take=(NEW_YORK,))
