"""Every level answers every kind of decision with a legal action (positions set up with
``tests.scenario.start``), and takes the free actions the rules offer it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from monopoly.bots.base import make_bot
from monopoly.core.actions import (
    Action,
    Build,
    ClaimRent,
    DeclineBuy,
    ProposeTrade,
    Roll,
)
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from monopoly.core.state import (
    BID,
    BUS,
    BUY,
    JAIL,
    MORTGAGE_RECEIVED,
    PLACE,
    RAISE_CASH,
    ROLL,
    TRADE,
    TRIPLES,
    WANT,
)
from monopoly.core.view import PlayerView
from tests.bots.drive import LEVELS, bots_for, play_checked
from tests.scenario import start
from tests.spaces import DARK_BLUE, GREEN, ORANGE, PINK, RED, YELLOW


def owned(owner: int, spaces: tuple[int, ...], **extra: object) -> dict[int, object]:
    return {s: {"owner": owner, **extra} for s in spaces}


def roll_decision() -> Game:
    return start(players=3)


def jail_decision() -> Game:
    return start({"players": [{"position": 10, "jail_turns": 0, "jail_cards": ["chance"]}, {}]})


def buy_decision() -> Game:
    game = start({"players": [{}, {}]}, dice=[(1, 2)])
    game.apply(Roll(0))  # Baltic Avenue
    return game


def bid_decision() -> Game:
    game = buy_decision()
    game.apply(DeclineBuy(0))
    return game


def raise_cash_decision() -> Game:
    position = {
        "players": [{"cash": 20}, {}],
        "properties": {**owned(0, ORANGE, buildings=2), 15: {"owner": 0}},
    }
    game = start(position, dice=[(1, 3)])
    game.apply(Roll(0))  # Income Tax, 200
    return game


def trade_decision() -> Game:
    game = start({"players": [{}, {}], "properties": {5: {"owner": 1, "mortgaged": True}}})
    game.apply(ProposeTrade(1, 0, give=(5,)))  # a gift of a mortgaged railroad
    return game


def mortgage_received_decision() -> Game:
    game = trade_decision()
    game.apply(make_bot("hard").decide(PlayerView(game, 0), game.decision_actions()))
    return game


def bus_decision() -> Game:
    game = start({"players": [{"speed_die": True}, {}]}, rules="speed", dice=[(1, 2, 4)])
    game.apply(Roll(0))
    return game


def triples_decision() -> Game:
    game = start({"players": [{"speed_die": True}, {}]}, rules="speed", dice=[(2, 2, 2)])
    game.apply(Roll(0))
    return game


def shortage_position() -> dict[str, object]:
    """Seat 0 has 31 houses on the board (1 left in the Bank); seat 1 can build too."""
    properties = {
        **owned(0, ORANGE, buildings=2),
        **owned(0, RED, buildings=2),
        **owned(0, YELLOW, buildings=2),
        **owned(0, GREEN, buildings=3),
        **owned(0, DARK_BLUE, buildings=2),
        **owned(1, PINK),
    }
    return {"players": [{"cash": 3000}, {"cash": 3000}], "properties": properties}


def want_decision() -> Game:
    game = start(shortage_position())
    game.apply(Build(0, (16,)))
    return game


SCENARIOS: dict[str, Callable[[], Game]] = {
    ROLL: roll_decision,
    JAIL: jail_decision,
    BUY: buy_decision,
    BID: bid_decision,
    RAISE_CASH: raise_cash_decision,
    TRADE: trade_decision,
    MORTGAGE_RECEIVED: mortgage_received_decision,
    BUS: bus_decision,
    TRIPLES: triples_decision,
    WANT: want_decision,
}


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("kind", list(SCENARIOS))
def test_every_decision_kind_is_answered_legally(level: str, kind: str) -> None:
    game = SCENARIOS[kind]()
    decision = game.decision
    assert decision is not None and decision.kind == kind
    bot = make_bot(level, 1)
    view = PlayerView(game, decision.seat)
    for _ in range(50):  # free actions first, then the answer
        action = bot.decide(view, game.decision_actions())
        game.apply(action)
        if game.decision is not decision or game.decision.kind != kind:
            break
    assert game.decision is not decision or decision.kind in (BID, RAISE_CASH)


@pytest.mark.parametrize("level", LEVELS)
def test_a_building_won_in_a_shortage_is_placed(level: str) -> None:
    # R-BUILD-6: the shortage is settled by wants, an auction and placing the building.
    game = want_decision()
    seen: list[tuple[str, Action]] = []
    play_checked(
        game,
        bots_for([level, level]),
        until=lambda g: g.decision is not None and g.decision.kind in (ROLL, JAIL),
        seen=seen,
    )
    kinds = {kind for kind, _action in seen}
    assert WANT in kinds
    houses_on_board = sum(game.level[s] for s in range(40) if game.level[s] < 5)
    assert houses_on_board + game.bank_houses == 32
    if BID in kinds:
        assert PLACE in kinds or game.bank_houses > 0


def test_triples_goes_to_a_good_space() -> None:
    # R-SPEED-7: an unowned property the player can buy beats landing on a hotel.
    position = {
        "players": [{"speed_die": True, "position": 5}, {}],
        "properties": {**owned(1, DARK_BLUE, buildings="hotel")},
    }
    game = start(position, rules="speed", dice=[(2, 2, 2)])
    game.apply(Roll(0))
    action = make_bot("hard").decide(PlayerView(game, 0), game.decision_actions())
    assert action.space not in DARK_BLUE  # type: ignore[attr-defined]
    assert game.board.spaces[action.space].is_property  # type: ignore[attr-defined]
    assert game.owner[action.space] == -1  # type: ignore[attr-defined]


@pytest.mark.parametrize("level", LEVELS)
def test_rent_is_claimed_at_once(level: str) -> None:
    # R-RENT-5 option: the owner (seat 1) claims while seat 0 still decides.
    position = {"players": [{}, {}], "properties": {3: {"owner": 1}}}
    claiming = RuleSet.named("standard", rent_must_be_claimed=True)
    game = start(position, rules=claiming, dice=[(1, 2)])
    game.apply(Roll(0))
    assert game.claims
    bots = bots_for([level, level])
    action = bots[1].interject(PlayerView(game, 1))  # type: ignore[attr-defined]
    assert action == ClaimRent(1, 3)
    cash = game.cash[1]
    game.apply(action)
    assert game.cash[1] == cash + 4
