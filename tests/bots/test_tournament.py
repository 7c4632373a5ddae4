"""The tournament's core function and command."""

from __future__ import annotations

import json
import signal

import pytest
from typer.testing import CliRunner

from monopoly.bots.base import BotError
from monopoly.cli.main import app
from monopoly.cli.tournament import lineup_for, run_tournament, wilson_interval
from tests.cli.ctrl_c import ctrl_c_raises


def test_win_rates_share_every_game_and_seats_rotate() -> None:
    result = run_tournament(6, 3, ["hard", "normal", "easy"], seed=4, turn_limit=300)
    data = result.to_json()
    assert sum(level["wins"] for level in data["levels"].values()) == pytest.approx(6)
    assert sum(level["win_rate"] for level in data["levels"].values()) == pytest.approx(1)
    for level in data["levels"].values():
        low, high = level["ci95"]
        assert low <= level["win_rate"] <= high
        assert level["games_per_seat"] == {"0": 2, "1": 2, "2": 2}
    assert sum(data["end_reasons"].values()) == 6
    assert data["mean_turns"] > 0 and data["turn_limit"] == 300


def test_a_process_pool_plays_the_same_tournament() -> None:
    one = run_tournament(9, 3, ["hard", "normal", "easy"], seed=2, turn_limit=200).to_json()
    two = run_tournament(9, 3, ["hard", "normal", "easy"], seed=2, turn_limit=200, workers=2)
    pooled = two.to_json()
    assert pooled["workers"] == 2 and one["workers"] == 1
    assert pooled["player_turns_per_second"] > 0
    for how_it_ran in ("workers", "seconds", "games_per_second", "player_turns_per_second"):
        one.pop(how_it_ran), pooled.pop(how_it_ran)
    assert pooled == one


def test_a_level_on_several_seats_counts_once_per_game() -> None:
    result = run_tournament(4, 4, ["hard", "normal", "normal", "normal"], seed=1)
    normal = result.levels["normal"]
    assert normal.seats == 3
    assert sum(normal.seat_games.values()) == 12
    assert result.levels["hard"].seat_games == {0: 1, 1: 1, 2: 1, 3: 1}
    assert result.levels["hard"].wins + normal.wins == pytest.approx(4)


def test_ctrl_c_keeps_the_games_played() -> None:
    """Ctrl-C after two chunks of 25 games: the standings count those 50 games alone."""

    def press_ctrl_c(done: int) -> None:
        if done == 50:
            signal.raise_signal(signal.SIGINT)

    with ctrl_c_raises():
        result = run_tournament(300, 3, ["random"], turn_limit=60, progress=press_ctrl_c)
    data = result.to_json()
    assert data["complete"] is False and data["planned_games"] == 300
    assert data["games"] == 50 and sum(data["end_reasons"].values()) == 50
    assert sum(level["wins"] for level in data["levels"].values()) == pytest.approx(50)
    assert sum(result.levels["random"].seat_games.values()) == 3 * 50


def test_wilson_interval() -> None:
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)
    low, high = wilson_interval(2.5, 10)  # shared wins count fractionally
    assert low < 0.25 < high


def test_bad_line_ups_are_refused() -> None:
    with pytest.raises(BotError, match="3 bots listed for 2 players"):
        lineup_for(["hard", "normal", "easy"], 2)
    with pytest.raises(BotError, match="unknown bot 'chess'"):
        run_tournament(2, 2, ["chess", "hard"])
    assert lineup_for(["hard", "normal"], 4) == ("hard", "normal", "hard", "normal")


def test_the_command_prints_json_and_a_table() -> None:
    runner = CliRunner()
    args = ["tournament", "--games", "3", "--players", "3", "--seed", "2", "--turn-limit", "200"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data["levels"]) == {"hard", "normal", "easy"} and data["games"] == 3
    table = runner.invoke(app, args)
    assert table.exit_code == 0
    assert "turn limit 200" in table.output and "95 % CI" in table.output
    bad = runner.invoke(app, ["tournament", "--bots", "nobody"])
    assert bad.exit_code == 2 and "unknown bot 'nobody'" in bad.output
