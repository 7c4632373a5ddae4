"""The normal player keeps judgements between decisions and works them out again only
where the game changed: what it keeps must always equal what a fresh look finds."""

from __future__ import annotations

import pytest

from monopoly.bots.trading import set_candidates
from monopoly.core.game import Game
from tests.bots.drive import bots_for, each_normal_seat_after_each_action


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kept_trade_groups_equal_a_fresh_search(seed: int) -> None:
    """After every action of whole games (purchases, trades, mortgages, buildings,
    bankruptcies), the groups a trade could complete that each normal player keeps
    (by the game's ``deeds_version`` and ``buildings_version``) are those a search of
    the whole board finds."""
    game = Game.new(4, seed=seed)
    bots = bots_for(["normal"] * 4, seed)
    checked = 0
    for seat, bot, view in each_normal_seat_after_each_action(game, bots, 20_000):
        kept = bot._candidates(view, seat)
        fresh = set_candidates(bot.valuation, view, seat)
        assert kept == fresh, (seat, game.turn)
        checked += 1
    assert game.over
    assert checked > 1000
