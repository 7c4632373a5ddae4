"""The ladder: every entrant rated (openskill) in rotated 4-player and heads-up games."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest
from openskill.models import PlackettLuce
from typer.testing import CliRunner

from monopoly.bots.base import BotError, make_bot, play
from monopoly.cli.ladder import (
    LadderResult,
    Standing,
    lineups,
    rate_games,
    registered_levels,
    run_ladder,
)
from monopoly.cli.main import app
from monopoly.core.events import PlayerBankrupt
from monopoly.core.game import Game
from monopoly.core.rules import RuleSet
from monopoly.sim.matches import Outcome, finishing_places

LEVELS = ["easy", "normal", "random", "hard"]
EXTRA = "monopoly.bots.easy:EasyBot"
LINEUP = ("random", "easy", "normal", "random")


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


def _bankruptcies(game: Game) -> list[int]:
    return [event.seat for event in game.events if isinstance(event, PlayerBankrupt)]


def test_places_follow_the_order_players_went_out_then_net_worth() -> None:
    """R-BANKRUPT-1, R-SHORT-4: the ladder rates each game by its finishing order — the
    winner, the players still in by net worth, then the bankrupt players, the last one
    out ahead of the one before."""
    checked_out = checked_worth = 0
    for seed in range(12):
        game = Game.new(4, "classic", RuleSet.named("standard", turn_limit=150), seed)
        play(game, [make_bot(level, seed * 4 + s) for s, level in enumerate(LINEUP)])
        places = finishing_places(game)
        assert all(places[s] == 1 for s in game.winners)
        out = _bankruptcies(game)  # the events, in the order the game told them
        for earlier, later in pairwise(out):
            assert places[later] < places[earlier]
            checked_out += 1
        in_game = [s for s in range(4) if game.active[s] and s not in game.winners]
        for seat in in_game:
            assert all(places[seat] < places[gone] for gone in out)
            for other in in_game:
                if game.net_worth(seat) > game.net_worth(other):
                    assert places[seat] < places[other]
                    checked_worth += 1
    assert checked_out and checked_worth, "both orders were met"


def test_a_game_is_rated_by_finishing_order() -> None:
    """The second place gains on the fourth: with the rest tied they would be equal."""
    first = PlackettLuce().rating()
    result = LadderResult(
        ["a", "b", "c", "d"],
        1,
        0,
        "standard",
        1000,
        {n: Standing(n, first.mu, first.sigma) for n in "abcd"},
    )
    outcome = Outcome(("a", "b", "c", "d"), (0,), 100, 25, "last_player", (1, 2, 3, 4))
    rate_games(result, [("4p", outcome)])
    mus = [result.standings[n].mu for n in "abcd"]
    assert mus == sorted(mus, reverse=True) and len(set(mus)) == 4
    assert result.games == 1 and result.standings["a"].wins["4p"] == 1


def test_games_won_in_blocks_leave_equal_entrants_level() -> None:
    """The order the games are played in does not decide the table: two entrants of equal
    strength whose wins come in blocks (the ladder plays each line-up's games one after
    another) end level. Rated in the order played, the last block decided: ``b`` stood
    32 ordinal points above ``a``."""
    a_wins = Outcome(("a", "b"), (0,), 100, 25, "last_player", (1, 2))
    b_wins = Outcome(("b", "a"), (0,), 100, 25, "last_player", (1, 2))
    for first, then in ((a_wins, b_wins), (b_wins, a_wins)):
        result = LadderResult(
            ["a", "b"], 400, 0, "standard", 1000, {n: Standing(n, 25.0, 25 / 3) for n in "ab"}
        )
        rate_games(result, [("heads-up", first)] * 200 + [("heads-up", then)] * 200)
        a, b = result.standings["a"], result.standings["b"]
        assert a.games["heads-up"] == b.games["heads-up"] == 400
        assert a.wins["heads-up"] == b.wins["heads-up"] == 200
        assert abs(a.ordinal - b.ordinal) < 2.0, (a.ordinal, b.ordinal)
        assert a.sigma < 2.0 and b.sigma < 2.0
