"""Seeds, seats and the landing count of the simulator, in single scripted games."""

from __future__ import annotations

import gc
import signal
from collections.abc import Sequence
from pathlib import Path

import pytest

from monopoly.bots.base import make_bot
from monopoly.core.actions import Action, DeclineBuy, PassBid, Roll
from monopoly.core.editions import get_edition
from monopoly.core.errors import RecordError
from monopoly.core.game import Game
from monopoly.core.records import load_record, record_of
from monopoly.core.view import PlayerView
from monopoly.sim.runner import (
    SimConfig,
    game_seed,
    lineup,
    play_counting,
    play_game,
    record_name,
    run,
)
from monopoly.sim.stats import GameResult
from monopoly.sim.texts import JAIL_SLOT
from tests.cli.ctrl_c import ctrl_c_raises
from tests.memory import alive_check
from tests.scenario import start


class RollAndDecline:
    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return next(a for a in legal if isinstance(a, Roll | DeclineBuy | PassBid))


def landed(game: Game, actions: int) -> dict[int, int]:
    counts = play_counting(game, [RollAndDecline(), RollAndDecline()], max_actions=actions)
    return {slot: n for slot, n in enumerate(counts) if n}


def on_top(role: str, key: str) -> list[str]:
    keys = [card.key for card in get_edition("classic").board.decks[role]]
    return [key, *(k for k in keys if k != key)]


def test_go_to_jail_lands_in_jail_not_on_its_space() -> None:
    game = start({"players": [{"position": 27}, {}]}, dice=[(1, 2)])
    assert landed(game, 1) == {JAIL_SLOT: 1}


def test_a_card_move_counts_where_it_ends() -> None:
    decks = {
        "chance": on_top("chance", "go_back_3"),
        "community_chest": on_top("community_chest", "bank_error"),
    }
    game = start({"players": [{"position": 33}, {}]}, dice=[(1, 2)], decks=decks)
    assert landed(game, 1) == {33: 1}  # Chance (36), back 3 to Community Chest, stays


def test_doubles_land_twice() -> None:
    game = start(dice=[(3, 3), (4, 5)])
    assert landed(game, 6) == {6: 1, 15: 1}  # Oriental Avenue, declined; then Pennsylvania RR


def test_every_roll_is_one_landing() -> None:
    game = Game.new(3, seed=5, rules="standard")
    bots = [make_bot("random", seat) for seat in range(3)]
    counts = play_counting(game, bots)
    rolls = sum(
        1
        for entry in game.record
        if entry[0] == "action" and entry[1].name in ("roll", "roll_doubles")
    )
    assert sum(counts) == rolls > 0


def test_game_seeds_differ_by_index_and_seed_and_never_change() -> None:
    seeds = {game_seed(seed, index) for seed in range(5) for index in range(200)}
    assert len(seeds) == 1000
    assert game_seed(7, 3) == game_seed(7, 3)
    assert all(0 <= s < 2**63 for s in seeds)


def test_several_levels_move_one_seat_on_each_game() -> None:
    assert lineup(["easy", "hard", "random"], 3, 0) == ("easy", "hard", "random")
    assert lineup(["easy", "hard", "random"], 3, 1) == ("hard", "random", "easy")
    assert lineup(["random"], 3, 4) == ("random", "random", "random")


def test_a_game_replays_from_its_index_alone() -> None:
    config = SimConfig.create(5, players=3, seed=9, workers=1, turn_limit=300)
    summary = run(config)
    again = play_game(config, 3)
    assert summary.turns[3] == again.turns
    assert summary.games == 5


def test_ctrl_c_keeps_the_chunks_summed_whole() -> None:
    """Ctrl-C while a chunk of games (25 here) is being summed stops the run once that
    chunk is summed: the summary and the rows sent on hold the same games, the first."""
    config = SimConfig.create(200, players=2, bots=["random"], workers=1, turn_limit=60)
    rows: list[int] = []

    def sink(result: GameResult) -> None:
        rows.append(result.index)
        if len(rows) == 30:  # the fifth game of the second chunk
            signal.raise_signal(signal.SIGINT)

    with ctrl_c_raises():
        summary = run(config, sink=sink)
    assert not summary.complete and summary.planned == 200
    assert summary.games == 50 and rows == list(range(50))
    assert len(summary.turns) == 50 and sum(summary.end_reasons.values()) == 50
    assert summary.seconds > 0


def test_games_without_records_are_the_games_the_records_show(tmp_path: Path) -> None:
    """A simulation that writes no records keeps none while playing; its games are the
    same as those of a run that writes them, and each written record replays to them."""
    plain = SimConfig.create(4, players=3, seed=4, workers=1, turn_limit=250)
    recorded = SimConfig.create(4, players=3, seed=4, workers=1, turn_limit=250, records=tmp_path)
    for index in range(4):
        without, written = play_game(plain, index), play_game(recorded, index)
        assert (without.winners, without.turns, without.net_worths) == (
            written.winners,
            written.turns,
            written.net_worths,
        )
        replayed = load_record(tmp_path / record_name(index))
        assert replayed.winners == written.winners and replayed.turn == written.turns


def test_a_game_that_keeps_no_record_says_so() -> None:
    game = Game.new(2, seed=3, rules="standard")
    game.chance.keeping = False
    assert game.decision is not None
    game.apply(Roll(game.decision.seat))
    assert game.last_roll  # the game plays on: only its record is not kept
    with pytest.raises(RecordError, match="keeps no record"):
        record_of(game)


def test_a_finished_game_is_freed_without_the_cyclic_collector() -> None:
    """The simulator pauses garbage collection during a game and counts on each game
    being freed by reference counting once played: a player holding a reference cycle
    (its own bound methods, say) would keep every game it saw alive, record and all,
    until a collection scanned them."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for levels in (["normal"] * 4, ["hard", "easy", "random", "normal"]):
            game = Game.new(len(levels), seed=11, rules="standard")
            game.collect_events = False
            bots = [make_bot(level, seat) for seat, level in enumerate(levels)]
            play_counting(game, bots)
            assert game.turn > 0
            alive = alive_check(game)
            del game, bots
            assert not alive(), levels
    finally:
        if was_enabled:
            gc.enable()
