"""A player's view is read-only: nothing a player writes through it reaches the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from monopoly.core.actions import Mortgage
from monopoly.core.game import Game
from monopoly.core.records import game_state
from monopoly.core.rules import RuleSet
from monopoly.core.view import PlayerView

SEQUENCES = (
    "cash", "position", "active", "jail_turns", "jail_cards", "speed_active", "owner", "level",
    "mortgaged", "claims", "names", "holdings_version", "deeds",
)  # fmt: skip
"""Everything per seat or per space that a view hands out."""


def _game_in_play() -> Game:
    """Two players, seat 0 holding the brown streets (one with a house) and a jail card,
    seat 1 holding a mortgaged railroad, with rent to be claimed (R-RENT-5)."""
    game = Game.new(
        ["Ann", "Bob"], rules=RuleSet.named("standard", rent_must_be_claimed=True), seed=4
    )
    game.give_deed(1, 0)
    game.give_deed(3, 0)
    game.set_level(1, 1)
    game.give_deed(5, 1)
    game.set_mortgaged(5, True)
    game.jail_cards[0].append("chance")
    game.claims.append((0, 1, 1, 10))
    return game


WRITES: dict[str, Callable[[Any], None]] = {
    "an entry": lambda values: values.__setitem__(0, values[0]),
    "a slice": lambda values: values.__setitem__(slice(0, 1), [values[0]]),
    "a deletion": lambda values: values.__delitem__(0),
    "an append": lambda values: values.append(values[0]),
    "an extension": lambda values: values.extend([values[0]]),
    "a sort": lambda values: values.sort(),
    "a clear": lambda values: values.clear(),
    "an in-place addition": lambda values: values.__iadd__([values[0]]),
}


@pytest.mark.parametrize("name", SEQUENCES)
@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_writing_through_a_view_raises_and_changes_nothing(
    name: str, write: Callable[[Any], None]
) -> None:
    game = _game_in_play()
    view = PlayerView(game, 0)
    before = game_state(game)
    with pytest.raises((TypeError, AttributeError)):
        write(getattr(view, name))
    assert game_state(game) == before
    assert _same(getattr(view, name), getattr(game, name))


def _same(shown: Any, held: list[Any]) -> bool:
    """What a view shows of a list equals the game's list, entry by entry."""
    return [tuple(v) if isinstance(v, list) else v for v in held] == list(shown)


def test_view_cash_0_cannot_be_written() -> None:
    """The example of the issue: ``view.cash[0] = 5`` must be impossible."""
    game = _game_in_play()
    view = PlayerView(game, 1)
    with pytest.raises(TypeError):
        view.cash[0] = 5  # type: ignore[index]
    assert game.cash[0] == 1500 and view.cash[0] == 1500


def test_a_players_jail_cards_and_claims_cannot_be_changed_in_place() -> None:
    game = _game_in_play()
    view = PlayerView(game, 0)
    with pytest.raises(AttributeError):
        view.jail_cards[0].append("community_chest")  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        view.claims[0][3] = 0  # type: ignore[index]
    assert game.jail_cards[0] == ["chance"] and game.claims == [(0, 1, 1, 10)]


def test_a_copy_from_a_view_is_the_players_own() -> None:
    """``copy()`` gives a list to keep or change; changing it changes no game."""
    game = _game_in_play()
    view = PlayerView(game, 0)
    mine = view.owner.copy()
    mine[1] = 1
    assert game.owner[1] == 0 and view.owner[1] == 0


def test_a_view_shows_each_change_the_game_makes() -> None:
    """A view made once keeps showing the game as it is now (no copy to go stale)."""
    game = _game_in_play()
    game.give_deed(15, 1)
    view = PlayerView(game, 0)
    assert not view.mortgaged[15]
    game.apply(Mortgage(1, 15))  # R-MORT-1: any time, by the owner
    assert view.mortgaged[15] and game.mortgaged[15]
    assert view.cash[1] == game.cash[1] == 1500 + 100
    assert view.owner.count(1) == 2 and view.owner.index(0) == 1 and 1 in view.owner
    assert len(view.cash) == 2 and list(view.cash) == game.cash and view.cash == game.cash
