"""Game.clone: an independent copy that plays on exactly like the original."""

from __future__ import annotations

import random

from monopoly.bots.base import make_bot
from monopoly.bots.driver import SeatDriver
from monopoly.core.actions import Build
from monopoly.core.game import Game
from monopoly.core.state import BID, PLACE, WANT
from tests.scenario import shortage_game


def _state(game: Game) -> tuple[object, ...]:
    return (
        game.cash, game.position, game.owner, game.level, game.mortgaged, game.turn,
        game.jail_turns, game.jail_cards, {r: list(d) for r, d in game.decks.items()},
        game.bank_houses, game.winners, game.record,
    )  # fmt: skip


def _play(game: Game, actions: int, seed: int) -> None:
    bots = [make_bot("random", seed * 10 + s) for s in range(game.players)]
    SeatDriver(game, bots.__getitem__).run(actions)


def _attributes(game: Game) -> dict[str, object]:
    """Every attribute of a game's state, on either build (a compiled Game has no
    ``__dict__``: its class lists its attributes)."""
    names = getattr(type(game), "__mypyc_attrs__", None) or tuple(vars(game))
    return {name: getattr(game, name) for name in names if not name.startswith("__")}


def test_clone_has_every_attribute_of_the_game_and_shares_no_list_it_changes() -> None:
    game = Game.new(4, "classic", "speed", seed=3)
    _play(game, 200, 3)
    original, twin = _attributes(game), _attributes(game.clone())
    assert twin.keys() == original.keys()
    for name in ("cash", "position", "owner", "level", "mortgaged", "jail_cards", "claims"):
        assert twin[name] == original[name], name
        assert twin[name] is not original[name], f"{name} is shared with the original"


def test_clone_plays_on_like_the_original_and_apart_from_it() -> None:
    for seed in range(6):
        game = Game.new(3, "classic", "standard", seed=seed)
        rng = random.Random(seed)
        _play(game, rng.randrange(50, 400), seed)
        # stop inside an auction when one comes: its running bids must be copied too
        for _ in range(300):
            if game.decision is None or game.decision.kind == BID:
                break
            _play(game, 1, seed + 100)
        before = _state(game)
        twin = game.clone()
        assert _state(twin) == before
        _play(twin, 500, seed + 7)
        assert _state(game) == before, "playing the clone changed the original"
        _play(game, 500, seed + 7)
        assert _state(game) == _state(twin)


def test_clone_in_a_building_shortage_copies_the_shortage_once() -> None:
    """R-BUILD-6: seat 0 asks for a row with 2 houses left in the Bank; the others'
    wants, the auction and the placing run on the clone as on the original."""
    game = shortage_game()
    game.apply(Build(0, (1, 3)))
    kinds = []
    for _ in range(40):
        decision = game.decision
        assert decision is not None
        kinds.append(decision.kind)
        twin = game.clone()
        answers = game.decision_actions()
        # bid once, then pass: the auction ends and the winner places the house
        bidding_on = decision.kind == BID and decision.data.high_bid == 0
        answer = answers[-1] if decision.kind != BID or bidding_on else answers[0]
        game.apply(answer)
        twin.apply(answer)
        assert _state(twin) == _state(game) and len(twin.tasks) == len(game.tasks)
        if decision.kind not in (WANT, BID, PLACE):
            break
    assert {WANT, BID, PLACE} <= set(kinds), kinds
