"""The ``learned`` level: it loads and plays with numpy alone, in every rule set, and any
core-mode policy file plays as a level (simulator, tournament, ladder)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from monopoly.bots.base import BotError, make_bot, play
from monopoly.cli.ladder import registered_levels, run_ladder
from monopoly.core.actions import SellBuilding
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from monopoly.core.state import JAIL, ROLL
from monopoly.core.view import PlayerView
from monopoly.rl.catalogue import CATALOGUE, SIZE
from monopoly.rl.driver import Helper
from monopoly.rl.learned import CoreModeBot, LearnedBot, MaskedMLP, packaged_policy
from monopoly.rl.observation import OBS_SIZE, observe
from tests.scenario import hotel_breakdown_game


def _tiny_policy(path: Path, seed: int = 0) -> Path:
    """A random network of the right shape (a policy file as a researcher makes one)."""
    rng = np.random.default_rng(seed)
    shapes = [(OBS_SIZE, 16), (16, SIZE)]
    MaskedMLP([(rng.normal(size=s), rng.normal(size=s[1])) for s in shapes]).save(path)
    return path


def test_the_level_loads_and_plays_without_torch() -> None:
    """torch made unimportable: the level still loads its weights and plays a game."""
    script = (
        "import sys; sys.modules['torch'] = None\n"
        "from monopoly.bots.base import make_bot, play\n"
        "from monopoly.core.game import Game\n"
        "game = Game.new(2, 'classic', 'standard', 5)\n"
        "play(game, [make_bot('learned', 1), make_bot('normal', 2)])\n"
        "assert game.over and game.winners\n"
        "assert sys.modules['torch'] is None and 'sb3_contrib' not in sys.modules\n"
        "print('played', game.turn)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("played")


def test_the_shipped_policy_is_small_and_registered() -> None:
    assert "learned" in registered_levels()
    assert packaged_policy().stat().st_size < 2_000_000
    bot = make_bot("learned", 3)
    assert isinstance(bot, LearnedBot)
    assert bot.policy.layers[0][0].shape[0] == OBS_SIZE


@pytest.mark.parametrize("rules", ["standard", "short", "speed", "short+speed"])
def test_learned_plays_whole_games_against_every_level(rules: str) -> None:
    """Strict play (any refused answer raises), two and four players."""
    rule_set = RuleSet.named(rules, turn_limit=400)
    for players, others in ((2, ["normal"]), (4, ["expert", "hard", "learned"])):
        game = Game.new(players, "classic", rule_set, seed=players * 7 + len(rules))
        bots = [
            make_bot("learned", 11),
            *(make_bot(level, 12 + i) for i, level in enumerate(others)),
        ]
        play(game, bots)
        assert game.over and game.winners


def test_a_policy_file_is_a_level(tmp_path: Path) -> None:
    path = _tiny_policy(tmp_path / "mine.npz")
    bot = make_bot(str(path), 4)
    assert isinstance(bot, LearnedBot)
    game = Game.new(2, "classic", RuleSet.named("standard", turn_limit=200), 8)
    play(game, [bot, make_bot("easy", 1)])
    assert game.over


def test_the_ladder_accepts_a_policy_file(tmp_path: Path) -> None:
    path = str(_tiny_policy(tmp_path / "mine.npz"))
    result = run_ladder([path], games=1, seed=2, turn_limit=60, levels=["easy", "learned"])
    assert result.entrants == ["easy", "learned", path] and result.complete
    ratings = result.to_json()["ratings"]
    assert ratings[path]["heads-up"]["games"] == 2  # one game against each other entrant


def test_bad_policy_files_are_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(BotError, match="cannot read the policy file"):
        make_bot(str(tmp_path / "missing.npz"))
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, format=np.array(1), w0=np.zeros((3, 4)), b0=np.zeros(4))
    with pytest.raises(BotError, match=r"1116 -> 746\.\.749"):
        make_bot(str(wrong))
    other = tmp_path / "other.npz"
    np.savez(other, weights=np.zeros(3))
    with pytest.raises(BotError, match="not a policy file"):
        make_bot(str(other))


class _Recording(CoreModeBot):
    """Answers each decision with its first listed answer (no building) and keeps the
    masks it was given at roll and jail decisions."""

    def __init__(self) -> None:
        super().__init__(0, "normal")
        self.masks: list[np.ndarray] = []

    def choose(self, view: PlayerView, mask: np.ndarray) -> int:
        decision = view.decision
        assert decision is not None
        if decision.kind in (ROLL, JAIL):
            self.masks.append(mask.copy())
        for action in view.decision_actions():
            action_id = CATALOGUE.id_of(action, view)
            if action_id is not None and mask[action_id]:
                return action_id
        return int(np.flatnonzero(mask)[0])


def test_core_mode_masks_hold_building_and_no_trades() -> None:
    """Before it rolls a core-mode player may build (its sets) but never offer trades."""
    bot = _Recording()
    game = Game.new(2, "classic", RuleSet.named("standard", turn_limit=300), 21)
    play(game, [bot, make_bot("expert", 1)])
    blocks = {CATALOGUE.split(int(i))[0] for mask in bot.masks for i in np.flatnonzero(mask)}
    assert "roll" in blocks and "mortgage" in blocks
    assert not blocks & {"trade_buy", "trade_buy_high", "trade_sell", "accept", "done"}


def test_expert_as_helper_offers_trades() -> None:
    """expert holds its judge: the helper finds its trade search there (it offered
    nothing before, which left a core-mode agent with expert's help without trades)."""
    helper = Helper("expert", 5)
    offers = 0
    game = Game.new(2, "classic", RuleSet.named("standard", turn_limit=300), 13)
    bots = [make_bot("expert", 1), make_bot("expert", 2)]
    while game.decision is not None and not game.over:
        decision = game.decision
        if decision.kind == ROLL and decision.seat == 0:
            offer = helper.offer(PlayerView(game, 0))
            offers += offer is not None and game.is_legal(offer)
        game.apply(bots[decision.seat].decide(PlayerView(game, decision.seat),
                                              game.decision_actions()))  # fmt: skip
    assert offers > 0


@pytest.mark.slow  # a training run (torch): the full ./test runs it
def test_the_training_recipe_runs_and_writes_its_curve(tmp_path: Path) -> None:
    """The training script with tiny settings (the train extra, which ./test installs):
    a cloning round and a DAgger round, each writing a policy the level can play, and
    the learning curve as JSON and a chart."""
    from monopoly.rl.train import train

    curve = train(tmp_path, seed=1, games=3, rounds=1, epochs=2, hidden=16, eval_games=2)
    assert [entry["round"] for entry in curve] == [0, 1]
    assert curve[1]["decisions"] > curve[0]["decisions"] > 50
    for entry in curve:
        assert len(entry["losses"]) == 2 and entry["losses"][1] < entry["losses"][0]
        assert 0.0 <= entry["win_share_vs_normal"] <= 1.0
    assert json.loads((tmp_path / "curve.json").read_text()) == curve
    assert (tmp_path / "curve.png").stat().st_size > 10_000
    bot = make_bot(str(tmp_path / "policy.npz"), 1)
    game = Game.new(2, "classic", RuleSet.named("standard", turn_limit=100), 3)
    play(game, [bot, make_bot("normal", 2)])
    assert game.over


def test_a_hotel_breakdown_is_the_networks_when_it_scores_those_ids(tmp_path: Path) -> None:
    """R-BUILD-4: the shipped network (catalogue version 2) has no outputs for the
    ``breakdown`` ids, so its helper ``expert`` chooses how the hotel comes down; a
    network scoring all the ids chooses itself, the arrangement it scores best."""
    game = hotel_breakdown_game()
    game.apply(SellBuilding(0, 16))
    view, legal = PlayerView(game, 0), game.decision_actions()
    assert len(legal) == 3
    shipped = make_bot("learned", 0)
    assert isinstance(shipped, LearnedBot) and shipped.policy.actions == SIZE - 3
    assert shipped.decide(view, legal) == make_bot("expert", 0).decide(view, legal)
    full = LearnedBot(0, _tiny_policy(tmp_path / "all-ids.npz", seed=4))
    assert full.policy.actions == SIZE
    scores = full.policy.scores(observe(view))
    best = max(range(3), key=lambda i: scores[CATALOGUE.id("breakdown", i)])
    assert full.decide(view, legal) == legal[best]
