"""The one way memos are kept (remember), and the players' kept judgements."""

from __future__ import annotations

from monopoly import Game
from monopoly.bots.normal import NormalBot
from monopoly.core.actions import Mortgage, Unmortgage
from monopoly.core.memo import remember
from monopoly.core.view import PlayerView


def test_remember_keeps_answers_and_forgets_all_when_full() -> None:
    answers: dict[int, str] = {}
    for question in range(3):
        assert answers.get(question) is None
        assert remember(answers, question, f"answer {question}", 3) == f"answer {question}"
    assert answers.get(1) == "answer 1"
    assert len(answers) == 3
    remember(answers, 3, "answer 3", 3)  # full: everything before is forgotten
    assert answers == {3: "answer 3"}


def test_a_player_keeps_its_complete_groups_until_its_holdings_change() -> None:
    game = Game.new(2, seed=4)
    view = PlayerView(game, 0)
    player = NormalBot()
    player.prepare(view)
    assert player.complete_groups(view, 0) == []
    game.give_deed(37, 0)
    game.give_deed(39, 0)  # Park Place and Boardwalk: the dark blue group, whole
    dark_blue = game.tables.group_of[39]
    assert player.complete_groups(view, 0) == [dark_blue]
    game.give_deed(39, 1)
    assert player.complete_groups(view, 0) == []


def test_r_mort_1_r_mort_2_a_player_sees_its_mortgages_taken_and_lifted() -> None:
    game = Game.new(2, seed=5)
    view = PlayerView(game, 0)
    player = NormalBot()
    player.prepare(view)
    game.give_deed(1, 0)
    assert player.lift_candidates(view, 0) == []
    game.apply(Mortgage(0, 1))
    assert game.mortgaged[1]
    assert player.lift_candidates(view, 0) == [1]
    game.apply(Unmortgage(0, 1))
    assert player.lift_candidates(view, 0) == []
