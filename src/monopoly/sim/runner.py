"""Play many games between computer players, in parallel, reproducibly.

Each game's seed comes from the simulation's seed and the game's index alone
(:func:`game_seed`), games are played in chunks by a backend (this process, a pool of
worker processes, or a Ray cluster: :mod:`monopoly.sim.backends`) and their results are
added up in game order, so a seed gives the same summary whatever the backend and the
number of workers. Games use the engine's fast path: no events, and answers from the legal list
applied unchecked (anything else a bot does is checked).
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from monopoly.bots.base import BotError, make_bot
from monopoly.core.editions import EditionError, get_edition
from monopoly.core.errors import MonopolyError
from monopoly.core.game import Game
from monopoly.core.records import record_of
from monopoly.core.rules import RuleSet

from .backends import BACKENDS, BackendError, play_in_chunks
from .loop import play_counting
from .matches import DEFAULT_TURN_LIMIT
from .stats import GameResult, Summary
from .texts import LANGUAGES

MASK64 = (1 << 64) - 1


class SimulationError(ValueError):
    """A simulation that cannot run as asked; the message says why."""


@dataclass(frozen=True, slots=True)
class SimConfig:
    """What to simulate. Build with :meth:`SimConfig.create`, which checks everything."""

    games: int
    players: int
    edition: str
    rules: RuleSet
    rules_spec: str
    bots: tuple[str, ...]
    seed: int
    workers: int | None
    """Worker processes (local) or chunks at once (Ray); None: all cores / the cluster's."""
    language: str = "en"
    records: Path | None = None
    backend: str = "local"
    address: str | None = None
    """Where the Ray cluster is (``auto``, ``ray://host:10001``); None: a local instance."""

    @classmethod
    def create(
        cls,
        games: int,
        players: int = 4,
        edition: str = "classic",
        rules: str = "standard",
        bots: Sequence[str] = ("random",),
        seed: int = 0,
        workers: int | None = None,
        turn_limit: int = DEFAULT_TURN_LIMIT,
        language: str = "en",
        records: Path | None = None,
        backend: str = "local",
        address: str | None = None,
    ) -> SimConfig:
        """Check the arguments (raising :class:`SimulationError`); ``workers`` None: all
        cores (local) or all of the cluster's CPUs (Ray)."""
        _check_counts(games, players, workers, turn_limit)
        if backend not in BACKENDS:
            raise SimulationError(f"unknown backend {backend!r}: use {' or '.join(BACKENDS)}")
        if address is not None and backend != "ray":
            raise SimulationError("--address is for --backend ray only")
        if language not in LANGUAGES:
            raise SimulationError(f"unknown language {language!r}: use {' or '.join(LANGUAGES)}")
        try:
            key = get_edition(edition).key
            rule_set = RuleSet.named(rules, turn_limit=turn_limit)
            Game.new(players, key, rule_set)
        except (EditionError, MonopolyError) as error:
            raise SimulationError(str(error)) from None
        levels = _check_bots(bots, players)
        return cls(
            games,
            players,
            key,
            rule_set,
            rules,
            levels,
            seed,
            workers,
            language,
            records,
            backend,
            address,
        )

    @property
    def rotated(self) -> bool:
        """Several levels: the line-up moves one seat on every game (see :func:`lineup`)."""
        return len(self.bots) > 1

    def setup_json(self) -> dict[str, object]:
        return {
            "edition": self.edition,
            "rules": self.rules.describe(),
            "turn_limit": self.rules.turn_limit,
            "players": self.players,
            "bots": list(self.bots),
            "seating": "rotated" if self.rotated else "fixed",
            "seed": self.seed,
            "backend": self.backend,
            "workers": self.workers,
        }


def _check_counts(games: int, players: int, workers: int | None, turn_limit: int) -> None:
    if games < 1:
        raise SimulationError(f"--games must be at least 1, got {games}")
    if not 2 <= players <= 8:
        raise SimulationError(f"--players must be 2 to 8, got {players}")
    if workers is not None and workers < 1:
        raise SimulationError(f"--workers must be at least 1, got {workers}")
    if turn_limit < 0:
        raise SimulationError(f"--turn-limit must be 0 (none) or more, got {turn_limit}")


def _check_bots(bots: Sequence[str], players: int) -> tuple[str, ...]:
    levels = tuple(b.strip() for b in bots if b.strip())
    if len(levels) not in (1, players):
        raise SimulationError(
            f"--bots lists {len(levels)} levels for {players} players: give one level for "
            "every seat, or a single level for all"
        )
    for level in sorted(set(levels)):
        try:
            make_bot(level, 0)
        except BotError as error:
            raise SimulationError(str(error)) from None
    return levels


# ---------------------------------------------------------------------- seeds and seats
def _mix(value: int) -> int:
    """SplitMix64's finaliser: spreads nearby numbers over 64 bits."""
    value = (value + 0x9E3779B97F4A7C15) & MASK64
    value = ((value ^ (value >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    value = ((value ^ (value >> 27)) * 0x94D049BB133111EB) & MASK64
    return value ^ (value >> 31)


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` (0-based) of a simulation with ``seed``; below 2**63."""
    return _mix(_mix(seed & MASK64) ^ index) >> 1


def bot_seed(seed_of_game: int, seat: int) -> int:
    return _mix(seed_of_game + seat + 1) >> 1


def lineup(bots: Sequence[str], players: int, index: int) -> tuple[str, ...]:
    """The level of each seat in game ``index``: one level everywhere, or the listed
    levels moved ``index`` seats on (seat ``s`` plays ``bots[(s + index) % players]``)."""
    if len(bots) == 1:
        return tuple(bots) * players
    return tuple(bots[(seat + index) % players] for seat in range(players))


def player_names(levels: Sequence[str]) -> list[str]:
    return [f"{level.rpartition(':')[2]} {seat + 1}" for seat, level in enumerate(levels)]


# ---------------------------------------------------------------------- one game
@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection during a game: a game makes no reference cycles
    worth collecting, yet its growing record makes every collection rescan it (about
    a tenth of the time). Collection resumes after the game, once the game is gone:
    freed by reference counting, it leaves the collector nothing to scan."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def play_game(config: SimConfig, index: int) -> GameResult:
    """Play game ``index`` of the simulation (and write its record if asked)."""
    with paused_gc():
        return _play_game(config, index)  # its game is freed before collection resumes


def _play_game(config: SimConfig, index: int) -> GameResult:
    seed = game_seed(config.seed, index)
    levels = lineup(config.bots, config.players, index)
    game = Game.new(player_names(levels), config.edition, config.rules, seed, config.language)
    game.collect_events = False
    game.chance.keeping = config.records is not None
    bots = [make_bot(level, bot_seed(seed, seat)) for seat, level in enumerate(levels)]
    try:
        landings = play_counting(game, bots)
    except MonopolyError as error:
        seat = game.decision.seat if game.decision else -1
        raise SimulationError(
            f"game {index + 1} (seed {seed}): the {levels[seat]!r} bot of seat {seat + 1} "
            f"made an illegal move: {error}"
        ) from None
    if config.records is not None:
        _write_record(config.records / record_name(index), game)
    return GameResult(
        index=index,
        seed=seed,
        levels=levels,
        winners=game.winners,
        end_reason=game.end_reason if game.over else "unfinished",
        turns=game.turn,
        rolls=sum(landings),
        landings=tuple(landings),
        rent=tuple(game.rent_income),
        net_worths=tuple(game.net_worth(seat) for seat in range(config.players)),
    )


def record_name(index: int) -> str:
    return f"game-{index + 1:06d}.json"


UNFINISHED = ".part"
"""The suffix of a record being written: renamed to its own name once it is whole."""


def _write_record(path: Path, game: Game) -> None:
    """Write the record whole or not at all: a run stopped (Ctrl-C ends the pool's
    workers) mid-write leaves a ``.part`` file, removed afterwards, never a cut record."""
    unfinished = path.with_name(path.name + UNFINISHED)
    unfinished.write_text(json.dumps(record_of(game), ensure_ascii=False), encoding="utf-8")
    unfinished.replace(path)


def _remove_unfinished_records(folder: Path) -> None:
    for unfinished in folder.glob(f"*.json{UNFINISHED}"):
        unfinished.unlink(missing_ok=True)


# ---------------------------------------------------------------------- many games
def _play_chunk(job: tuple[SimConfig, int, int]) -> list[GameResult]:
    config, start, stop = job
    return [play_game(config, index) for index in range(start, stop)]


def run(
    config: SimConfig,
    progress: Callable[[int], None] | None = None,
    sink: Callable[[GameResult], None] | None = None,
) -> Summary:
    """Play the simulation's games on its backend; ``progress(n)`` is told each time ``n``
    more are done, ``sink`` gets every game's result in game order (e.g. a Parquet file).
    Ctrl-C stops it with the games finished so far summed (``complete`` False)."""
    if config.records is not None:
        _prepare_records(config.records)
    summary = Summary(players=config.players, planned=config.games)

    def take(results: list[GameResult]) -> None:
        for result in results:
            summary.add(result)
            if sink is not None:
                sink(result)
        if progress is not None:
            progress(len(results))

    try:
        played = play_in_chunks(
            config, config.games, _play_chunk, take, config.backend, config.workers, config.address
        )
    except BackendError as error:
        raise SimulationError(str(error)) from None
    summary.workers, summary.seconds = played.workers, played.seconds
    summary.complete = played.complete
    if not played.complete and config.records is not None:
        _remove_unfinished_records(config.records)
    return summary


def _prepare_records(folder: Path) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SimulationError(f"cannot write records to {folder}: {error.strerror}") from None
