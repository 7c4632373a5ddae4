"""The expert level: registered, plays whole games legally on every edition (every rule
set: tests/bots/test_games.py), makes offers its partner accepts, honours its time
budget, and searches without peeking."""

from __future__ import annotations

import time

from monopoly.bots.base import LEVELS, make_bot, play
from monopoly.bots.expert import ExpertBot, confident_gain, score
from monopoly.bots.hard import HardBot
from monopoly.bots.judge import ExpertJudge
from monopoly.core.actions import AcceptTrade, Buy, DeclineBuy, ProposeTrade
from monopoly.core.editions import edition_keys
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from monopoly.core.state import BUY, TRADE
from monopoly.core.view import PlayerView
from tests.bots.drive import bots_for, play_checked
from tests.scenario import start
from tests.spaces import ORANGE


def test_expert_is_a_registered_level() -> None:
    assert isinstance(make_bot("expert", 3), ExpertBot)
    assert "expert" in LEVELS


def test_expert_plays_whole_games_on_every_edition() -> None:
    for number, edition in enumerate(edition_keys()):
        rules = ("standard", "short+speed", "speed", "short")[number % 4]
        game = Game.new(4, edition, RuleSet.named(rules, turn_limit=400), seed=number)
        play_checked(game, bots_for(["expert", "hard", "expert", "normal"], seed=number))
        assert game.over and game.winners


def test_expert_with_search_plays_whole_games_against_hard() -> None:
    for rules in ("standard", "short+speed"):
        game = Game.new(3, "classic", RuleSet.named(rules, turn_limit=150), seed=4)
        bot = ExpertBot(1, rollouts=2, rollout_turns=10, searched=(BUY, TRADE))
        play(game, [bot, make_bot("hard", 2), make_bot("hard", 3)])  # checked: every action
        assert game.over
        assert bot.searches > 0


def test_its_set_completing_offer_is_one_hard_accepts() -> None:
    """The expert builds its offers to pass hard's own test (an even split by hard's
    valuation): holding two orange streets, it offers for the third, and hard says yes
    (with two or more opponents; heads-up it makes hard's own offers)."""
    properties = {ORANGE[0]: {"owner": 0}, ORANGE[1]: {"owner": 0}, ORANGE[2]: {"owner": 1}}
    players = [{"cash": 1500}, {"cash": 1500}, {"cash": 1500}]
    game = start({"players": players, "properties": properties})
    expert = ExpertJudge(1)
    offer = expert.decide(PlayerView(game, 0), game.decision_actions())
    assert isinstance(offer, ProposeTrade) and offer.take == (ORANGE[2],)
    game.apply(offer)
    assert game.decision is not None and game.decision.kind == TRADE
    answer = HardBot(2).decide(PlayerView(game, 1), game.decision_actions())
    assert isinstance(answer, AcceptTrade)
    game.apply(answer)
    assert all(game.owner[s] == 0 for s in ORANGE)


def test_search_picks_one_of_the_legal_answers_and_keeps_the_game() -> None:
    # Seat 0 lands on Boardwalk (39) with cash to buy it.
    game = start({"players": [{"position": 35}, {}]}, dice=[(1, 3)])
    game.apply(game.decision_actions()[0])
    assert game.decision is not None and game.decision.kind == BUY
    before = (list(game.cash), list(game.owner), len(game.record))
    bot = ExpertBot(5, rollouts=3, rollout_turns=8)
    legal = game.decision_actions()
    choice = bot.decide(PlayerView(game, 0), legal)
    assert choice in (Buy(0), DeclineBuy(0))
    assert (list(game.cash), list(game.owner), len(game.record)) == before


def test_determinised_copy_redraws_the_hidden_deck_order_only() -> None:
    game = Game.new(3, "classic", "standard", 8)
    copies = [PlayerView(game, 0).sample_game(seed) for seed in range(6)]
    orders = {tuple(c.decks["chance"]) for c in copies}
    assert len(orders) > 1  # the real order is not what the search plays with
    for copy in copies:
        assert sorted(copy.decks["chance"]) == sorted(game.decks["chance"])
        assert copy.cash == game.cash and copy.position == game.position


def test_time_budget_stops_the_search() -> None:
    game = start({"players": [{"position": 35}, {}, {}, {}]}, dice=[(1, 3)])
    game.apply(game.decision_actions()[0])
    bot = ExpertBot(5, rollouts=10_000, rollout_turns=40, budget=0.2, searched=(BUY,))
    began = time.monotonic()
    bot.decide(PlayerView(game, 0), game.decision_actions())
    # Without the budget 10,000 rounds of rollouts; with it, one more round at most.
    assert time.monotonic() - began < 5
    assert bot.searches == 1


def test_score_is_the_win_share_at_the_end() -> None:
    game = Game.new(2, "classic", RuleSet.named("standard", turn_limit=1), seed=1)
    play(game, [make_bot("hard", 1), make_bot("hard", 2)])
    assert game.over
    assert score(game, game.winners[0]) == 1.0 / len(game.winners)


def test_only_a_gain_clear_of_the_noise_changes_the_answer() -> None:
    noisy = [0.3, -0.25, 0.2, -0.15, 0.1, -0.05]  # mean 0.025, large spread
    clear = [0.05, 0.06, 0.04, 0.05, 0.06, 0.04]
    tiny = [0.001, 0.002, 0.001, 0.002]  # consistent but below the margin
    assert confident_gain(noisy, 2.0, 0.02) == 0.0
    assert confident_gain(clear, 2.0, 0.02) == sum(clear) / len(clear)
    assert confident_gain(tiny, 2.0, 0.02) == 0.0
    assert confident_gain([0.5], 2.0, 0.02) == 0.0  # one sample is no evidence


def test_without_rollouts_it_is_exactly_its_judge() -> None:
    """The search only ever replaces answers; everything else is the judge's (a
    setting of the expert once changed hard's valuation horizon by name clash)."""
    records = []
    for first in (ExpertJudge(48), ExpertBot(48, rollouts=0)):
        game = Game.new(3, "classic", RuleSet.named("standard", turn_limit=200), seed=3)
        play(game, [first, HardBot(49), HardBot(50)])
        records.append([str(entry) for entry in game.record])
    assert records[0] == records[1]
