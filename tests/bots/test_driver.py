"""The seat driver: one loop and one policy for a computer player's bad answer."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from monopoly.bots.base import make_bot
from monopoly.bots.driver import BadAnswerError, SeatDriver, fallback
from monopoly.core.actions import Action, Buy, Mortgage, Roll
from monopoly.core.game import Game
from monopoly.core.position import dump_position
from monopoly.core.rules import RuleSet
from monopoly.core.view import PlayerView
from tests.scenario import start, waiting
from tests.spaces import BALTIC, BOARDWALK, MED, PARK_PLACE


class Cheater:
    """Buys whatever it is asked about, even when it is another seat's decision."""

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return Buy(1 - view.seat)


class Crasher:
    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        raise RuntimeError("bug in the player")


def two_bots(first: object, second: object) -> dict[int, object]:
    return {0: first, 1: second}


def test_strict_policy_stops_at_a_bad_answer_and_changes_nothing() -> None:
    game = Game.new(2, seed=3)
    before, entries = dump_position(game), len(game.record)
    driver = SeatDriver(game, two_bots(Cheater(), Cheater()).get)  # type: ignore[arg-type]
    with pytest.raises(BadAnswerError, match=r"seat \d answered seat \d: buy"):
        driver.step()
    assert dump_position(game) == before and len(game.record) == entries


def test_lenient_policy_reports_and_plays_a_legal_move() -> None:
    game = Game.new(2, seed=3)
    seat = game.decision.seat if game.decision else 0
    reported: list[tuple[int, Action | None, str]] = []
    driver = SeatDriver(
        game,
        two_bots(Crasher(), Crasher()).get,  # type: ignore[arg-type]
        report=lambda s, a, e: reported.append((s, a, str(e))),
    )
    assert driver.step() == Roll(seat)  # the fallback: the first legal answer
    assert reported == [(seat, None, "bug in the player")]
    assert any(entry[0] == "action" and entry[1] == Roll(seat) for entry in game.record)


def test_fallback_while_raising_cash_sells_or_mortgages() -> None:
    """R-DEBT-1: owing more than held with deeds to mortgage: no answer, a free action."""
    position = {
        "players": [{"position": 35, "cash": 50}, {}],
        "properties": {
            str(PARK_PLACE): {"owner": 1},
            str(BOARDWALK): {"owner": 1},
            str(MED): {"owner": 0},
            str(BALTIC): {"owner": 0},
        },
    }
    game = start(position, dice=[(1, 3)])
    game.apply(Roll(0))
    assert waiting(game) == ("raise_cash", 0)
    assert fallback(game, 0) == Mortgage(0, MED)


def test_a_person_seat_is_left_to_the_person() -> None:
    game = Game.new(2, seed=3)
    driver = SeatDriver(game, {}.get)
    before = dump_position(game)
    assert driver.step() is None
    assert dump_position(game) == before


def test_computer_players_finish_a_game_through_the_driver() -> None:
    rules = RuleSet.named("standard", rent_must_be_claimed=True, turn_limit=300)
    game = Game.new(3, rules=rules, seed=11)
    bots = {seat: make_bot(level, seat) for seat, level in enumerate(("hard", "normal", "easy"))}
    SeatDriver(game, bots.get).run()
    assert game.over
    claimed = [e for e in game.record if e[0] == "action" and e[1].name == "claim_rent"]
    assert claimed  # R-RENT-5: the computer players claim through the driver


class Copier:
    """Answers with an equal copy of the first listed answer, never the listed object."""

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return Action.parse(str(legal[0]))


class Mortgager:
    """Mortgages Mediterranean Avenue once, after asking its view whether it may."""

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        mortgage = Mortgage(view.seat, MED)
        return mortgage if view.is_legal(mortgage) else legal[0]


def test_an_answer_not_listed_is_checked_then_played() -> None:
    game = Game.new(2, seed=3)
    seat = game.decision.seat if game.decision else 0
    played: list[Action] = []
    driver = SeatDriver(
        game,
        two_bots(Copier(), Copier()).get,  # type: ignore[arg-type]
        observe=lambda s, a: played.append(a),
    )
    assert driver.step() == Roll(seat)
    assert played == [Roll(seat)]
    assert any(entry[0] == "action" and entry[1] == Roll(seat) for entry in game.record)


def test_a_free_action_the_view_found_legal_is_played() -> None:
    """R-MORT-1: a player may mortgage an unimproved deed at any time, for its value."""
    game = start({"players": [{"cash": 100}, {}], "properties": {str(MED): {"owner": 0}}})
    driver = SeatDriver(game, two_bots(Mortgager(), Mortgager()).get)  # type: ignore[arg-type]
    assert driver.step() == Mortgage(0, MED)
    assert game.mortgaged[MED] and game.cash[0] == 130
    assert waiting(game) == ("roll", 0)
