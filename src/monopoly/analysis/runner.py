"""Where rollouts run: in this process, or in parallel on a backend of the simulator.

A :class:`Job` names a position by its game record and a prefix of the record's log
(the position just before log entry ``prefix``), the alternatives to try there and a range
of rollout indexes. Jobs pickle small (plain JSON and frozen actions), so they run on
the local process pool or on a Ray cluster alike (:mod:`monopoly.sim.backends`); each
worker replays a position once and keeps it for the jobs that follow.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing.pool
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from monopoly.core.actions import Action
from monopoly.core.game import Game
from monopoly.core.records import record_of, replay
from monopoly.sim.backends import LocalBackend, RayBackend, open_backend, process_pool

from .rollout import RolloutSettings, rollout

J = TypeVar("J")
R = TypeVar("R")
Scores = list[list[float]]
"""One score per seat, for each rollout."""
Alternatives = tuple[tuple[Action, ...], ...]
"""What to try at a position: each alternative is the actions applied first (an empty
one: the level plays on from the position as it is)."""


@dataclass(frozen=True, slots=True)
class Job:
    """Rollouts ``start``..``stop`` of every alternative at one position."""

    key: str
    record: dict[str, Any]
    prefix: int
    alternatives: Alternatives
    settings: RolloutSettings
    start: int
    stop: int


_POSITIONS: dict[tuple[str, int], Game] = {}
"""The positions this worker replayed (a few: jobs come in the order of the positions)."""


def position_at(record: dict[str, Any], prefix: int) -> Game:
    """The game of ``record`` just before log entry ``prefix`` (an action's entry)."""
    data = {key: value for key, value in record.items() if key != "result"}
    data["log"] = record["log"][:prefix]
    return replay(data)


def _position(job: Job) -> Game:
    where = (job.key, job.prefix)
    game = _POSITIONS.get(where)
    if game is None:
        if len(_POSITIONS) > 8:
            _POSITIONS.clear()
        game = _POSITIONS[where] = position_at(job.record, job.prefix)
    return game


def run_job(job: Job) -> list[Scores]:
    """The scores of the job's rollouts, one list per alternative."""
    game = _position(job)
    return [
        [rollout(game, job.settings, index, first) for index in range(job.start, job.stop)]
        for first in job.alternatives
    ]


def scores_here(game: Game, alternatives: Alternatives, settings: RolloutSettings) -> list[Scores]:
    """Every rollout of every alternative, in this process."""
    return [
        [rollout(game, settings, index, first) for index in settings.indexes]
        for first in alternatives
    ]


def split(indexes: range, parts: int) -> list[tuple[int, int]]:
    """``indexes`` in ``parts`` ranges of about equal size (fewer, larger jobs: each
    replays its position once)."""
    size = max(1, -(-len(indexes) // parts))
    return [(start, min(start + size, indexes.stop)) for start in indexes[::size]]


class Pool:
    """Runs rollouts: here (``workers`` 1), on the local process pool or on Ray.

    ``Pool(workers=None)`` uses all cores; ``backend="ray"`` and ``address`` as in
    ``monopoly simulate``. Used in ``with``, a local pool keeps its worker processes
    (and the positions they replayed) from one call to the next: batches of a trade's
    advice then start at once.
    """

    def __init__(
        self, workers: int | None = 1, backend: str = "local", address: str | None = None
    ) -> None:
        self.backend: LocalBackend | RayBackend = open_backend(backend, workers, address)
        self.workers = self.backend.workers
        self._processes: multiprocessing.pool.Pool | None = None

    @property
    def is_local_only(self) -> bool:
        return isinstance(self.backend, LocalBackend) and self.workers <= 1

    def __enter__(self) -> Pool:
        self.backend.__enter__()
        self.workers = self.backend.workers
        if isinstance(self.backend, LocalBackend) and self.workers > 1:
            self._processes = process_pool(self.workers)
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._processes is not None:
            self._processes.terminate()
            self._processes.join()
            self._processes = None
        self.backend.__exit__(None, None, None)

    def map(self, func: Callable[[J], R], jobs: list[J]) -> Iterator[R]:
        """``func`` over ``jobs``, results in the jobs' order."""
        if self._processes is not None:
            return self._processes.imap(func, jobs)
        return self.backend.map(func, jobs)

    def run(
        self, game: Game, alternatives: Alternatives, settings: RolloutSettings
    ) -> list[Scores]:
        """The scores of every alternative at ``game``'s position."""
        if self.is_local_only:
            return scores_here(game, alternatives, settings)
        record = record_of(game)
        return self.run_many([(record, len(record["log"]), alternatives, settings)])[0]

    def run_many(
        self,
        positions: Sequence[tuple[dict[str, Any], int, Alternatives, RolloutSettings]],
        done: Callable[[int, list[Scores]], None] | None = None,
    ) -> list[list[Scores]]:
        """The scores at each position ``(record, prefix, alternatives, settings)``, in
        order; ``done(i, scores)`` is told as each position completes (a progress bar)."""
        jobs = list(_jobs(positions, self.workers))
        results: list[list[Scores]] = [[[] for _ in p[2]] for p in positions]
        left = Counter(owner for owner, _ in jobs)
        parts = self.map(run_job, [job for _, job in jobs])
        for (owner, _), part in zip(jobs, parts, strict=True):
            for scores, more in zip(results[owner], part, strict=True):
                scores.extend(more)
            left[owner] -= 1
            if left[owner] == 0 and done is not None:
                done(owner, results[owner])
        return results


def _jobs(
    positions: Sequence[tuple[dict[str, Any], int, Alternatives, RolloutSettings]], workers: int
) -> Iterator[tuple[int, Job]]:
    """The jobs of each position: one each when there are positions enough to keep the
    workers busy, else a position's rollouts split between the workers."""
    keys: dict[int, str] = {}
    parts = 1 if len(positions) >= workers else workers
    for owner, (record, prefix, alternatives, settings) in enumerate(positions):
        key = keys.get(id(record))
        if key is None:
            key = keys[id(record)] = record_key(record)
        for start, stop in split(settings.indexes, parts):
            yield owner, Job(key, record, prefix, alternatives, settings, start, stop)


def record_key(record: dict[str, Any]) -> str:
    """A name of a record's content (workers keep positions by it)."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
