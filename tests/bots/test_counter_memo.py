"""A computer player's kept answers cannot go stale: they are kept by the game's
version counters, which grow inside the setters of what they count, so whatever
changes the board (a deed, a mortgage, a building), the next question finds what a
fresh look finds."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from monopoly.bots.hard import HardBot
from monopoly.bots.normal import NormalBot
from monopoly.core.actions import Build, Mortgage, Unmortgage
from monopoly.core.game import Game
from monopoly.core.view import PlayerView
from tests.bots.drive import bots_for, each_normal_seat_after_each_action

SEAT = 0
BROWN = (1, 3)
LIGHT_BLUE = (6, 8, 9)


def _judgements(bot: NormalBot, view: PlayerView, seat: int = SEAT) -> tuple[object, ...]:
    """Every answer the players keep by the game's counters, asked for ``seat``."""
    top = view.tables.hotel_level
    return (
        list(bot.complete_groups(view, seat)),
        list(view.deeds[seat]),
        list(bot.lift_candidates(view, seat)),
        bot.least_costs(view, seat),
        bot._build_plans(view, seat, top),
        bot._build_plans(view, seat, 2),
        list(bot._candidates(view, seat)),
        bot.rival_rents(view, seat) if isinstance(bot, HardBot) else None,
    )


def _fresh(view: PlayerView) -> HardBot:
    bot = HardBot(seed=1)
    bot.prepare(view)
    return bot


def _brown(game: Game) -> int:
    return game.tables.group_of[BROWN[0]]


CHANGES: list[tuple[str, Callable[[Game], None], Callable[[Game, tuple[object, ...]], bool]]] = [
    (
        "give_deed: seat 0 completes the browns",
        lambda g: [g.give_deed(s, SEAT) for s in BROWN] and None,
        lambda g, seen: seen[0] == [_brown(g)] and seen[1] == list(BROWN),
    ),
    (
        "set_mortgaged: a brown street mortgaged",
        lambda g: g.set_mortgaged(3, True),
        lambda g, seen: seen[0] == [] and seen[2] == [3],
    ),
    (
        "set_mortgaged: the mortgage lifted",
        lambda g: g.set_mortgaged(3, False),
        lambda g, seen: seen[0] == [_brown(g)] and seen[2] == [],
    ),
    (
        "set_level: a house on a brown street",
        lambda g: g.set_level(1, 1),
        lambda g, seen: seen[4][0][1] == (3,),  # the next house goes on the other street
    ),
    (
        "give_deed: the rival completes the light blues",
        lambda g: [g.give_deed(s, 1) for s in LIGHT_BLUE] and None,
        lambda g, seen: all(seen[7][0][s] > 0 for s in LIGHT_BLUE),  # type: ignore[index]
    ),
    (
        "set_level: the rival builds a hotel's worth of houses",
        lambda g: g.set_level(6, 2),
        lambda g, seen: seen[7][0][6] == g.tables.rents[6][2],  # type: ignore[index]
    ),
    (
        "give_deed: a brown street to the rival, who now has a group to trade for",
        lambda g: g.give_deed(3, 1),
        lambda g, seen: seen[0] == [] and seen[1] == [1],
    ),
]


def test_kept_judgements_follow_every_setter_of_the_board() -> None:
    game = Game.new(["Ann", "Bob"], seed=2)
    view = PlayerView(game, SEAT)
    bot = _fresh(view)
    before = _judgements(bot, view)
    for what, change, expected in CHANGES:
        change(game)
        kept = _judgements(bot, view)  # from the memo where the memo may answer
        assert kept == _judgements(_fresh(view), view), what
        assert kept != before, f"{what}: the change changed no judgement"
        assert expected(game, kept), what
        before = kept


def test_a_mortgage_changes_what_the_player_does_next() -> None:
    """The normal player builds on its browns; once one of them is mortgaged (R-MORT-1:
    no building on a group with a mortgage) its next free action lifts the mortgage."""
    game = Game.new(["Ann", "Bob"], seed=2)
    for space in BROWN:
        game.give_deed(space, SEAT)
    view = PlayerView(game, SEAT)
    bot = NormalBot(seed=1)
    bot.prepare(view)
    assert isinstance(bot.turn_actions(view, SEAT), Build)
    game.apply(Mortgage(SEAT, 3))
    assert bot.turn_actions(view, SEAT) == Unmortgage(SEAT, 3)
    game.apply(Unmortgage(SEAT, 3))
    assert isinstance(bot.turn_actions(view, SEAT), Build)


@pytest.mark.parametrize(("level", "seed"), [("normal", 4), ("hard", 5)])
def test_kept_answers_equal_a_fresh_look_after_every_action_of_whole_games(
    level: str, seed: int
) -> None:
    """Through purchases, auctions, trades, mortgages, buildings and bankruptcies:
    after every action, each seat's kept answers are those of a player that kept none."""
    game = Game.new(4, seed=seed)
    bots = bots_for([level] * 4, seed)
    checked = 0
    for seat, bot, view in each_normal_seat_after_each_action(game, bots, 3_000):
        fresh = type(bot)(seed=1)
        fresh.prepare(view)
        fresh.start_game(view)
        if isinstance(bot, HardBot) and isinstance(fresh, HardBot):
            # What it mortgaged when: not kept by the game, the hard player's own.
            fresh._mortgaged_at = dict(bot._mortgaged_at)
        kept, found = _judgements(bot, view, seat), _judgements(fresh, view, seat)
        if isinstance(bot, HardBot):
            # least_costs is the normal player's (the hard one plans its own turn).
            kept, found = kept[:3] + kept[4:], found[:3] + found[4:]
        assert kept == found, (seat, game.turn)
        checked += 1
    assert checked > 500
    assert (game.buildings_version > 0 and any(game.mortgaged)) or game.over
