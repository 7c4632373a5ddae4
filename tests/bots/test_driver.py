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
    assert driver.computer_to_move() is None and driver.step() is None


def test_computer_players_finish_a_game_through_the_driver() -> None:
    rules = RuleSet.named("standard", rent_must_be_claimed=True, turn_limit=300)
    game = Game.new(3, rules=rules, seed=11)
    bots = {seat: make_bot(level, seat) for seat, level in enumerate(("hard", "normal", "easy"))}
    SeatDriver(game, bots.get).run()
    assert game.over
    claimed = [e for e in game.record if e[0] == "action" and e[1].name == "claim_rent"]
    assert claimed  # R-RENT-5: the computer players claim through the driver
