"""The ladder: every entrant rated (openskill) in rotated 4-player and heads-up games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from monopoly.bots.base import BotError
from monopoly.cli.ladder import lineups, registered_levels, run_ladder
from monopoly.cli.main import app

LEVELS = ["easy", "normal", "random", "hard"]
EXTRA = "monopoly.bots.easy:EasyBot"


def test_every_set_and_pair_plays_and_every_game_is_rated() -> None:
    result = run_ladder([EXTRA], games=2, seed=3, turn_limit=80, levels=LEVELS)
    entrants = [*LEVELS, EXTRA]
    assert result.entrants == entrants and result.complete
    sets = list(lineups(entrants))
    assert sum(kind == "4p" for kind, _ in sets) == 5  # every 4 of 5
    assert sum(kind == "heads-up" for kind, _ in sets) == 10  # every pair
    assert result.games == 15 * 2
    data = result.to_json()
    ratings = data["ratings"]
    assert set(ratings) == set(entrants)
    for kind, per_game in (("4p", 4), ("heads-up", 2)):
        played = sum(r[kind]["games"] for r in ratings.values())
        assert played == per_game * sum(k == kind for k, _ in sets) * 2
        wins = sum((r[kind]["win_share"] or 0) * r[kind]["games"] for r in ratings.values())
        assert wins == pytest.approx(played / per_game)  # one win (maybe shared) a game
    for rating in ratings.values():
        assert rating["sigma"] < 25 / 3, "every entrant's uncertainty went down"
        assert rating["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"], abs=1e-2)
    ordinals = [r["ordinal"] for r in ratings.values()]
    assert ordinals == sorted(ordinals, reverse=True)


def test_the_pool_plays_the_same_ladder() -> None:
    one = run_ladder(None, games=2, seed=1, turn_limit=60, levels=["easy", "random", "normal"])
    two = run_ladder(
        None, games=2, seed=1, turn_limit=60, levels=["easy", "random", "normal"], workers=2
    )
    assert one.to_json() == two.to_json()


def test_stopping_keeps_the_games_played() -> None:
    def stop(done: int, total: int) -> None:
        if done >= 2:
            raise KeyboardInterrupt

    result = run_ladder(None, games=2, turn_limit=60, levels=["easy", "random"], progress=stop)
    assert not result.complete and result.games == 2


def test_registered_levels_all_enter() -> None:
    assert {"random", "easy", "normal", "hard", "expert"} <= set(registered_levels())


def test_bad_entrants_are_refused() -> None:
    with pytest.raises(BotError, match="nope"):
        run_ladder(["nope:Nothing"], games=1, levels=["easy"])
    with pytest.raises(BotError, match="two entrants"):
        run_ladder(None, games=1, levels=["easy"])


def test_ladder_command_prints_the_table_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "ladder.json"
    runner = CliRunner()
    args = ["ladder", EXTRA, "--games", "1", "--turn-limit", "40", "--out", str(out)]
    result = runner.invoke(app, [*args, "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "ordinal" in result.output and "expert" in result.output
    data = json.loads(out.read_text())
    assert EXTRA in data["ratings"] and data["games"] > 0
    bad = runner.invoke(app, ["ladder", "nope:Nothing", "--out", str(out)])
    assert bad.exit_code != 0 and "nope" in bad.output
