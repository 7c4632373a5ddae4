"""Where the games run: this process, a local process pool, or a Ray cluster.

A backend maps a function over chunks of games and yields the chunks' results *in the
order of the chunks*, whatever order the workers finish in. Callers add results up in
that order, so a seed gives the same summary on any backend and any number of workers.

Ray is optional (``pip install 'monopoly[ray]'``) and imported only when asked for.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from itertools import islice
from types import TracebackType
from typing import Any, TypeVar

BACKENDS = ("local", "ray")
CLIENT_TRIES = 3
CLIENT_SERVER_FAILED = "Initialization failure from server"
"""How a Ray client's ``ray.init`` fails when the head's proxy could not start the server
process it runs for each client (on a busy head it sometimes reports the new process
failed or a zombie)."""
J = TypeVar("J")
R = TypeVar("R")
S = TypeVar("S")


def _ignore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def process_pool(workers: int) -> multiprocessing.pool.Pool:
    """A local pool whose workers ignore Ctrl-C.

    A terminal sends Ctrl-C's SIGINT to the whole process group. A worker interrupted
    in the middle of taking a task from the pool's queue can leave the queue's lock
    held, and the pool's ``terminate`` then waits for it forever. So only the parent
    stops: it is interrupted, keeps what is done and ends the workers with
    ``terminate``.
    """
    return multiprocessing.get_context().Pool(workers, initializer=_ignore_ctrl_c)


class BackendError(ValueError):
    """A backend that cannot be used as asked; the message says why."""


class LocalBackend(AbstractContextManager["LocalBackend"]):
    """This machine: one worker plays in this process, several in a process pool."""

    name = "local"

    def __init__(self, workers: int | None) -> None:
        self.workers = workers or multiprocessing.cpu_count()
        self.most_per_chunk = 25

    def map(self, func: Callable[[J], R], jobs: Iterable[J]) -> Generator[R, None, None]:
        jobs = list(jobs)
        workers = min(self.workers, len(jobs))
        if workers <= 1:
            yield from map(func, jobs)
            return
        with process_pool(workers) as pool:
            yield from pool.imap(func, jobs)

    def __exit__(self, *exc: object) -> None:
        return None


class RayBackend(AbstractContextManager["RayBackend"]):
    """A Ray cluster: ``address`` None follows ``ray.init``'s rule (``RAY_ADDRESS``, the
    cluster last started on this machine, else a new local instance) unless this
    process is already connected, ``"auto"`` joins the cluster this machine belongs to,
    ``"ray://host:10001"`` connects as a client. ``workers`` is how many chunks run at
    once (default: the cluster's CPUs). Ray is shut down on exit only if started here.
    """

    name = "ray"

    def __init__(self, workers: int | None, address: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise BackendError(
                "--backend ray needs Ray: pip install 'monopoly[ray]' (or pip install ray)"
            ) from None
        self.ray: Any = ray
        self.address = address
        self.asked_workers = workers
        self.workers = workers or 1
        self.most_per_chunk = 100
        self.started_here = False

    def __enter__(self) -> RayBackend:
        ray = self.ray
        if not ray.is_initialized():
            try:
                self._init(ray)
            except (ConnectionError, ValueError, RuntimeError) as error:
                where = self.address or "a new local instance"
                hint = ""
                if (self.address or "").startswith("ray://"):
                    hint = " (a cluster with token authentication needs RAY_AUTH_MODE=token"
                    hint += " and its token)"
                raise BackendError(f"cannot start Ray on {where}: {error}{hint}") from None
            self.started_here = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.workers = self.asked_workers or max(1, cpus)
        return self

    def _init(self, ray: Any) -> None:
        """``ray.init``; a Ray client asks again (up to CLIENT_TRIES times) when the head
        failed to start the server process it runs for each client."""
        for attempt in range(1, CLIENT_TRIES + 1):
            try:
                ray.init(address=self.address, log_to_driver=False, include_dashboard=False)
                return
            except ConnectionError as error:
                if attempt == CLIENT_TRIES or CLIENT_SERVER_FAILED not in str(error):
                    raise
            ray.shutdown()
            time.sleep(attempt)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.started_here:
            self.ray.shutdown()

    def map(self, func: Callable[[J], R], jobs: Iterable[J]) -> Generator[R, None, None]:
        """Keep ``workers`` chunks running (one more queued each), collect them in order."""
        ray = self.ray
        remote = ray.remote(num_cpus=1, max_retries=2)(func)
        queue = iter(jobs)
        running = deque(remote.remote(job) for job in islice(queue, self.workers + 1))
        while running:
            ready = running.popleft()
            following = next(queue, None)
            if following is not None:
                running.append(remote.remote(following))
            try:
                yield ray.get(ready)
            except ray.exceptions.RayTaskError as error:
                raise error.as_instanceof_cause() from None


def open_backend(kind: str, workers: int | None, address: str | None) -> LocalBackend | RayBackend:
    """The backend ``kind`` (see :data:`BACKENDS`), not started yet: use it in ``with``."""
    if kind not in BACKENDS:
        raise BackendError(f"unknown backend {kind!r}: use {' or '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise BackendError(f"--workers must be at least 1, got {workers}")
    if kind == "local":
        if address is not None:
            raise BackendError("--address is for --backend ray only")
        return LocalBackend(workers)
    return RayBackend(workers, address)


@dataclass(frozen=True, slots=True)
class Played:
    """How :func:`play_in_chunks` went: where, how long, and ``complete`` False if
    Ctrl-C stopped it."""

    backend: str
    workers: int
    seconds: float
    complete: bool


def play_in_chunks(
    setup: S,
    games: int,
    func: Callable[[tuple[S, int, int]], R],
    take: Callable[[R], None],
    kind: str,
    workers: int | None,
    address: str | None,
) -> Played:
    """Play ``games`` games in chunks on the backend ``kind``: ``func((setup, start,
    stop))`` plays games ``start`` to ``stop - 1``, and ``take`` gets each chunk's result
    in game order. Ctrl-C stops it with the chunks taken so far (:func:`gather`)."""
    with open_backend(kind, workers, address) as backend:
        ranges = chunks(games, backend.workers, backend.most_per_chunk)
        jobs = ((setup, start, stop) for start, stop in ranges)
        started = time.perf_counter()
        complete = gather(backend, func, jobs, take)
        seconds = time.perf_counter() - started
    return Played(backend.name, backend.workers, seconds, complete)


def gather(
    backend: LocalBackend | RayBackend,
    func: Callable[[J], R],
    jobs: Iterable[J],
    take: Callable[[R], None],
) -> bool:
    """Map ``func`` over ``jobs`` on ``backend`` and hand each result to ``take``, in the
    order of the jobs; True if all were taken. Ctrl-C (KeyboardInterrupt) stops it and
    keeps what is done (False): it waits while ``take`` works, so every result is taken
    whole or not at all (a summary and a file of rows hold the same games), and the
    pool's workers are ended."""
    results = backend.map(func, jobs)
    try:
        for result in results:
            with ctrl_c_held():
                take(result)
    except KeyboardInterrupt:
        return False
    finally:
        results.close()  # a pool still running is terminated here
    return True


@contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Ctrl-C during the block takes effect when it ends (as the handler that was
    there would have: KeyboardInterrupt by default). Python runs signal handlers in the
    main thread only, so elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pressed: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, _frame: pressed.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if pressed and callable(previous):
        previous(signal.SIGINT, None)


def chunks(games: int, workers: int, most: int = 25) -> Iterator[tuple[int, int]]:
    """Game index ranges: about four per worker, at most ``most`` games each."""
    size = max(1, min(most, games // (workers * 4)))
    for start in range(0, games, size):
        yield start, min(start + size, games)
