"""The analysis board: win chances, decisions judged, trade advice, a game reviewed.

Rollouts are seeded, so every number here is reproducible; the counts are kept small
(the pure-Python build plays a few hundred rollouts a second)."""

from __future__ import annotations

import json
import pickle
import tomllib
from importlib import resources
from typing import Any

import pytest

from monopoly.analysis import (
    Estimate,
    Mark,
    Pool,
    RolloutSettings,
    analyse_game,
    judge,
    mark_of,
    trade_advice,
    win_chances,
)
from monopoly.analysis.calibration import calibrate
from monopoly.analysis.rollout import scores, turns_ahead
from monopoly.analysis.runner import position_at
from monopoly.bots.base import BotError, make_bot, play
from monopoly.core.actions import (
    ACTION_TYPES,
    AcceptTrade,
    Buy,
    DeclineBuy,
    ProposeTrade,
    RejectTrade,
    Roll,
)
from monopoly.core.errors import IllegalActionError
from monopoly.core.game import Game
from monopoly.core.records import record_of
from monopoly.core.rules import RuleSet

HOTEL_STREETS = (16, 18, 19, 21, 23, 24, 26, 27, 29, 31, 32, 34)
"""Orange, red, yellow and green: the 12 streets that take the Bank's 12 hotels."""


def hotels_position() -> dict[str, Any]:
    """Seat 0 owns every property and all 12 hotels; the others have their $1,500."""
    game = Game.new(3)
    properties: dict[str, Any] = {str(s): {"owner": 0} for s in game.board.properties}
    for space in HOTEL_STREETS:
        properties[str(space)] = {"owner": 0, "buildings": "hotel"}
    return {
        "players": [{"cash": 0}, {"cash": 1500}, {"cash": 1500}],
        "properties": properties,
        "bank": {"houses": 32, "hotels": 0},
    }


def orange_blunder_game() -> Game:
    """Heads-up: every group split, seat 0 with two of each three-street group (the
    orange St. James Place and Tennessee Avenue among them) and $2,000; seat 1 holds New
    York Avenue, the third orange. Seat 0 offers $1 for it: seat 1 must answer."""
    game = Game.new(2)
    properties = {
        str(space): {"owner": index % 2}
        for spaces in game.board.groups.values()
        for index, space in enumerate(spaces)
    }
    properties["19"] = {"owner": 1}
    position = {"players": [{"cash": 2000}, {"cash": 2000}], "properties": properties}
    game = Game.new(["Ann", "Bob"], seed=4, position=position)
    game.apply(ProposeTrade(0, partner=1, give_cash=1, take=(19,)))
    return game


def game_at_a_buy() -> tuple[Game, int]:
    """A heads-up game played on until a player may buy a street; that player's seat."""
    game = Game.new(["Ann", "Bob"], seed=9)
    game.apply(Roll(0))
    while game.decision is not None and game.decision.kind != "buy":
        play(game, [make_bot("normal", 1), make_bot("normal", 2)], max_actions=1)
    assert game.decision is not None
    return game, game.decision.seat


def test_all_hotels_win_chance_near_one() -> None:
    game = Game.new(["Ann", "Bob", "Cem"], seed=2, position=hotels_position())
    chances = win_chances(game, RolloutSettings(rollouts=40, horizon=60))
    assert chances[0].mean > 0.95
    assert chances[1].mean + chances[2].mean < 0.05
    assert sum(c.mean for c in chances.chances) == pytest.approx(1.0)


def test_same_move_on_the_same_dice_gives_the_same_chance() -> None:
    game, seat = game_at_a_buy()
    judgement = judge(
        game, Buy(seat), RolloutSettings(rollouts=30, horizon=40), alternatives=[(Buy(seat),)]
    )
    first, second = (option.chances[seat] for option in judgement.options)
    assert first == second
    assert judgement.loss == Estimate(0.0, 0.0)
    assert first.half_width > 0  # the rollouts differ among themselves: the dice do
    assert judgement.mark is Mark.GOOD


def test_other_move_on_the_same_dice_differs() -> None:
    """Common random numbers do not make different moves equal: declining a street is
    not buying it."""
    game, seat = game_at_a_buy()
    judgement = judge(game, Buy(seat), RolloutSettings(rollouts=30, horizon=40))
    labels = [option.label for option in judgement.options]
    assert labels == [str(Buy(seat)), str(DeclineBuy(seat))]
    assert judgement.options[0].chances[seat] != judgement.options[1].chances[seat]


def test_accepting_one_dollar_for_the_third_orange_is_a_blunder() -> None:
    game = orange_blunder_game()
    judgement = judge(game, AcceptTrade(1), RolloutSettings(rollouts=160))
    assert [option.label for option in judgement.options] == [
        str(AcceptTrade(1)),
        str(RejectTrade(1)),
    ]
    assert judgement.best == 1
    assert judgement.loss.low > 0
    assert judgement.mark is Mark.BLUNDER
    assert game.owner[19] == 1  # the analysis changed nothing


def test_trade_advice_sides_move_opposite_ways() -> None:
    game = orange_blunder_game()
    offer = game.decision.data if game.decision else None
    assert isinstance(offer, ProposeTrade)
    advice = trade_advice(game, offer, RolloutSettings(rollouts=160), budget=0)
    assert advice.change[0].mean > 0.10
    assert advice.change[1].mean == pytest.approx(-advice.change[0].mean)
    assert advice.with_trade[0].mean > advice.without[0].mean


def test_trade_advice_refuses_an_illegal_offer() -> None:
    game = Game.new(["Ann", "Bob"], seed=1)
    with pytest.raises(IllegalActionError):
        trade_advice(game, ProposeTrade(0, partner=1, take=(19,)))


def test_marks_honour_the_interval() -> None:
    assert mark_of(Estimate(0.12, 0.03)) is Mark.BLUNDER
    assert mark_of(Estimate(0.07, 0.03)) is Mark.MISTAKE
    assert mark_of(Estimate(0.03, 0.01)) is Mark.INACCURACY
    assert mark_of(Estimate(0.15, 0.16)) is Mark.GOOD  # within the noise
    assert mark_of(Estimate(0.01, 0.005)) is Mark.GOOD


def position_game(cash: tuple[int, int], deeds: tuple[tuple[int, ...], ...] = ((), ())) -> Game:
    properties = {str(space): {"owner": seat} for seat in (0, 1) for space in deeds[seat]}
    players = [{"cash": cash[0]}, {"cash": cash[1]}]
    return Game.new(["Ann", "Bob"], seed=1, position={"players": players, "properties": properties})


def test_an_open_game_at_the_horizon_is_scored_by_the_fallback_model() -> None:
    """A rollout stopped at its horizon scores chances that add up to 1: even for equal
    holdings, sharper than the net-worth share for the richer player (the fitted model:
    three times the worth is not three times as likely to win but far more), and a whole
    colour group above scattered streets of the same worth (its future rent)."""
    assert scores(position_game((500, 500))) == pytest.approx([0.5, 0.5])
    richer = scores(position_game((300, 100)))
    assert sum(richer) == pytest.approx(1.0) and richer[0] > 0.9
    oranges, scattered = (16, 18, 19), (6, 11, 21)  # $560 against $460 of deeds
    group = scores(position_game((500, 600), (oranges, scattered)))
    assert group[0] > 0.6


def test_the_horizon_ends_after_whole_rounds() -> None:
    """Every player still in moves equally often before the fallback judges."""
    assert [turns_ahead(4, players) for players in (2, 3, 4, 5)] == [4, 6, 4, 5]
    assert turns_ahead(120, 4) == 120 and turns_ahead(120, 7) == 126


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="horizon"):
        RolloutSettings(horizon=0)
    with pytest.raises(ValueError, match="rollouts"):
        RolloutSettings(rollouts=1)
    with pytest.raises(BotError):
        RolloutSettings(level="grandmaster")


def recorded_game(turns: int) -> dict[str, Any]:
    game = Game.new(["Ann", "Bob"], seed=11, rules=RuleSet.named("standard", turn_limit=turns))
    play(game, [make_bot("hard", 1), make_bot("hard", 2)])
    return record_of(game)


def test_whole_game_chart_and_decisions() -> None:
    record = recorded_game(12)
    settings = RolloutSettings(rollouts=6, horizon=10)
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> None:
        seen.append((done, total))

    analysis = analyse_game(record, settings, progress=progress)
    assert analysis.complete
    assert [point.turn for point in analysis.points] == list(range(1, 13))
    assert all(sum(c.mean for c in p.chances.chances) == pytest.approx(1) for p in analysis.points)
    kinds = {type(d.judgement.options[0].actions[0]).__name__ for d in analysis.decisions}
    assert "Buy" in kinds or "DeclineBuy" in kinds
    assert seen[-1] == (len(analysis.points) + len(analysis.decisions),) * 2


def test_the_pool_gives_the_numbers_of_one_process() -> None:
    """Rollouts are seeded by their index: two workers give the same chances as one."""
    record = recorded_game(4)
    settings = RolloutSettings(rollouts=6, horizon=8)
    alone = analyse_game(record, settings, Pool(workers=1))
    with Pool(workers=2) as pool:
        shared = analyse_game(record, settings, pool)
    assert [p.chances for p in alone.points] == [p.chances for p in shared.points]


def test_a_live_game_and_its_replayed_record_give_the_same_chances() -> None:
    """Rollouts start from a copy of the position (Game.clone), not from a replay of its
    record: a game in memory, deep in its play, and the same position replayed from its
    record give the same chances on the same seeds, and the game itself is not changed."""
    game = Game.new(["Ann", "Bob", "Cem"], seed=11)
    play(game, [make_bot("normal", seat) for seat in range(3)], max_actions=400)
    assert not game.over and game.turn > 10
    before = record_of(game)
    settings = RolloutSettings(rollouts=8, horizon=20)
    live = win_chances(game, settings)
    replayed = win_chances(position_at(before, len(before["log"])), settings)
    assert live == replayed
    assert record_of(game) == before


def test_every_text_in_english_and_german() -> None:
    folder = resources.files("monopoly")
    toml = [
        tomllib.loads(folder.joinpath("locales", f"analysis_{lang}.toml").read_text("utf-8"))
        for lang in ("en", "de")
    ]
    assert toml[0].keys() == toml[1].keys()
    page = [
        json.loads(folder.joinpath("web", "static", "i18n", f"analysis_{lang}.json").read_text())
        for lang in ("en", "de")
    ]
    assert page[0].keys() == page[1].keys()


def test_calibration_pairs_predictions_with_results() -> None:
    settings = RolloutSettings(level="easy", rollouts=2, horizon=20)
    first = calibrate(3, players=2, settings=settings)
    again = calibrate(3, players=2, settings=settings)
    assert first.games == 3
    assert first.predictions == again.predictions  # seeded: reproducible
    assert sum(pairs for *_, pairs in first.bins()) == 6
    for predicted, outcome in zip(first.predictions, first.outcomes, strict=True):
        assert sum(predicted) == pytest.approx(1)
        assert sum(outcome) == pytest.approx(1)
    assert 0 <= first.brier() <= 2
    assert first.baseline_brier() == pytest.approx(0.5)


def test_the_package_example_runs() -> None:
    import doctest

    import monopoly.analysis

    result = doctest.testmod(monopoly.analysis)
    assert result.attempted >= 4
    assert result.failed == 0


def test_actions_pickle_for_the_worker_processes() -> None:
    """A job names its alternatives by actions, sent to worker processes by pickle: every
    action comes back equal (the compiled build's frozen native classes included)."""
    offer = ProposeTrade(0, partner=1, give_cash=1, take=(19,), give=(1, 3))
    for action in (offer, Buy(1), RejectTrade(1), *(cls(seat=2) for cls in ACTION_TYPES.values())):
        assert pickle.loads(pickle.dumps(action)) == action
