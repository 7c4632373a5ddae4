"""Scripted scenarios for rule tests: a start position, chosen dice, then actions.

    game = start({"players": [{"position": 35}, {}]}, dice=[(2, 2), (1, 2)])
    game.apply(Roll(0))

``dice`` are consumed in order whenever the game needs a roll (moves, jail rolls,
utility rent rolls, turn-order rolls); each is a tuple of 2 white dice, or 3 with the
Speed Die (faces 1, 2, 3, BUS = 4, MR_MONOPOLY = 5). Decks default to their printed order
(top first) unless the position gives ``decks``. It is the same mechanism game records
use: the script is a record log without the actions.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from monopoly.core.actions import Action, Build
from monopoly.core.board import DECK_ROLES, CardKind
from monopoly.core.editions import get_edition
from monopoly.core.errors import IllegalActionError
from monopoly.core.game import Game, PlayerSetup, Setup
from monopoly.core.position import dump_position
from monopoly.core.rules import RuleSet


def start(
    position: dict[str, Any] | None = None,
    *,
    players: int | None = None,
    rules: RuleSet | str = "standard",
    edition: str = "classic",
    dice: list[tuple[int, ...]] | tuple[tuple[int, ...], ...] = (),
    decks: dict[str, list[str]] | None = None,
    language: str = "en",
    seed: int = 0,
) -> Game:
    """A game at ``position`` (everyone on GO with starting cash, seat 0 to move)."""
    position = copy.deepcopy(position) if position is not None else {}
    count = players or len(position.get("players", [])) or 2
    position.setdefault("players", [{} for _ in range(count)])
    rule_set = RuleSet.named(rules) if isinstance(rules, str) else rules
    board = get_edition(edition).board
    held = {
        role: any(role in p.get("jail_cards", []) for p in position["players"])
        for role in DECK_ROLES
    }
    default_decks = {
        role: [
            c.key
            for c in board.decks[role]
            if not (held[role] and c.kind == CardKind.GET_OUT_OF_JAIL)
        ]
        for role in DECK_ROLES
    }
    position.setdefault("decks", {**default_decks, **(decks or {})})
    seats = tuple(PlayerSetup(f"P{i}") for i in range(count))
    setup = Setup(seats, edition, language, rule_set, seed, position)
    script = [("dice", tuple(d)) for d in dice]
    return Game(setup, script)


def new_game(
    players: int = 2,
    *,
    rules: RuleSet | str = "standard",
    edition: str = "classic",
    dice: list[tuple[int, ...]] | tuple[tuple[int, ...], ...] = (),
    deal: list[int] | None = None,
    seed: int = 0,
) -> Game:
    """A game from the box: decks in printed order, the short game's deeds dealt in board
    order (unless ``deal`` gives the order), then ``dice`` (the turn-order rolls first)."""
    rule_set = RuleSet.named(rules) if isinstance(rules, str) else rules
    seats = tuple(PlayerSetup(f"P{i}") for i in range(players))
    board = get_edition(edition).board
    script: list[tuple[Any, ...]] = [
        ("shuffle", role, tuple(card.key for card in board.decks[role])) for role in DECK_ROLES
    ]
    if rule_set.short_game:
        script.append(("deal", tuple(deal) if deal is not None else board.properties))
    script.extend(("dice", tuple(d)) for d in dice)
    return Game(Setup(seats, edition, "en", rule_set, seed, None), script)


def shortage_game() -> Game:
    """R-BUILD-6: three players, seat 0 to move with the Bank down to 2 houses — seat 0
    owns both browns, seat 1 the light blues, seat 2 the dark blues, and the houses the
    Bank lacks stand on seat 0's orange, red and yellow streets. Building the browns
    (``Build(0, (1, 3))``) asks the others what they want."""
    rows = {"0": (1, 3), "1": (6, 8, 9), "2": (37, 39)}
    properties = {str(s): {"owner": int(seat)} for seat, row in rows.items() for s in row}
    for s in (16, 18, 19, 21, 23, 24):
        properties[str(s)] = {"owner": 0, "buildings": 4}
    for s in (26, 27, 29):
        properties[str(s)] = {"owner": 0, "buildings": 2}
    return start({"players": [{}, {}, {}], "properties": properties}, seed=1)


def hotel_breakdown_game() -> Game:
    """R-BUILD-4: :func:`shortage_game` with a hotel on 16 (the Bank gets its 4 houses
    back) and a third house on each yellow: the Bank holds 3 houses, too few to exchange
    the hotel for 4, so selling it (``SellBuilding(0, 16)``) lets seat 0 choose how the
    oranges come down."""
    game = shortage_game()
    for space in (16, 26, 27, 29):
        game.apply(Build(0, (space,)))
    assert game.level[16] == 5 and game.level[18] == game.level[19] == 4
    assert game.bank_houses == 3
    return game


def apply_all(game: Game, *actions: Action) -> None:
    for action in actions:
        game.apply(action)


def dice_left(game: Game) -> int:
    """Scripted dice not used yet (a test can check its script was used up)."""
    return game.chance.script_left


def assert_illegal(game: Game, action: Action, *fragments: str) -> IllegalActionError:
    """``action`` is refused with a message naming every fragment, and changes nothing:
    the position, the pending decision, the bid range, the record and the events."""
    before = dump_position(game)
    decision = game.decision
    waiting_for = (decision.kind, decision.seat, decision.space) if decision else None
    bid_range, log, events = game.bid_range(), len(game.record), len(game.events)
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    for fragment in fragments:
        assert fragment in str(info.value), str(info.value)
    assert dump_position(game) == before
    after = game.decision
    assert after is decision
    assert ((after.kind, after.seat, after.space) if after else None) == waiting_for
    assert game.bid_range() == bid_range
    assert (len(game.record), len(game.events)) == (log, events)
    return info.value


def waiting(game: Game) -> tuple[str, int] | None:
    """(decision kind, seat) the game waits for, or None when it is over."""
    decision = game.decision
    return None if decision is None else (decision.kind, decision.seat)
