"""The browser's analysis board: a finished game's win-chance chart and marked decisions.

``POST /api/games/{id}/analysis`` starts the analysis of a finished stored game (or
answers with the one under way), ``GET /api/games/{id}/analysis`` tells its progress and,
position by position, what is done; ``GET /api/games/{id}/analysis/position?prefix=N``
is the position at a marked decision, to show the board at that moment.

Analyses run in a pool of processes of their own, at most :data:`ANALYSIS_WORKERS`, one
position at a time per analysis: the server's event loop only waits for their answers,
so players' actions are not slowed by them (they share the machine's cores, not the
server's process). At most :data:`MOST_RUNNING` analyses run at once; more are refused
with 429 until one ends. Results are kept in memory (:data:`KEPT` games).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from fastapi import FastAPI

from monopoly.analysis.review import GameAnalysis, Position, add_scores, plan
from monopoly.analysis.rollout import RolloutSettings
from monopoly.analysis.runner import Job, position_at, record_key, run_job
from monopoly.analysis.texts import AnalysisTexts, marked_rows
from monopoly.core.errors import MonopolyError
from monopoly.core.game import Game
from monopoly.core.records import game_state, record_of, setup_from_json

from .lobby import ApiError, check_language

log = logging.getLogger("monopoly.analysis")
R = TypeVar("R")

ANALYSIS_WORKERS = 1
MOST_RUNNING = 2
MOST_LIVE = 4
"""Live advice jobs (win-chance bars, trade advice: web/advice.py) waiting or running at
once in the pool; more are dropped (a bar waits for the next turn, a request is told to
ask again)."""
KEPT = 32
WEB_SETTINGS = RolloutSettings(rollouts=48)
"""Fewer rollouts than the command's default: an answer in a minute or two on a busy
server (the intervals say how sure each number is)."""


@dataclass
class AnalysisRun:
    """One game's analysis, under way or done."""

    game_id: str
    record: dict[str, Any]
    settings: RolloutSettings
    final: Game | None = None
    analysis: GameAnalysis | None = None
    planned: int = 0
    error: str = ""
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def to_json(self, language: str) -> dict[str, Any]:
        analysis = self.analysis
        done = analysis.done if analysis else 0
        data: dict[str, Any] = {
            "game_id": self.game_id,
            "state": "failed" if self.error else "running" if self.running else "done",
            "planned": self.planned,
            "done": done,
            "error": self.error,
        }
        if analysis is not None and self.final is not None:
            data["analysis"] = analysis.to_json()
            data["marks"] = marks_json(analysis, self.final, language)
        return data


def marks_json(analysis: GameAnalysis, game: Game, language: str) -> list[dict[str, Any]]:
    """The marked decisions told in ``language``."""
    marks = []
    for row in marked_rows(analysis, game, AnalysisTexts(game.edition, language)):
        judgement = row.decision.judgement
        marks.append(
            {
                "turn": row.decision.turn,
                "prefix": row.decision.prefix,
                "seat": judgement.seat,
                "player": row.player,
                "mark": judgement.mark.value,
                "mark_text": row.mark,
                "taken": row.taken,
                "better": row.better,
                "loss": judgement.loss.to_json(),
                "taken_chance": judgement.chance_of(judgement.taken).to_json(),
                "better_chance": judgement.chance_of(judgement.best).to_json(),
            }
        )
    return marks


class AnalysisService:
    """The analyses of this server process and their pool of worker processes."""

    def __init__(self, store: Any, settings: RolloutSettings = WEB_SETTINGS) -> None:
        self.store = store
        self.settings = settings
        self.runs: dict[str, AnalysisRun] = {}
        self.live_jobs = 0
        """Live advice jobs waiting or running (at most :data:`MOST_LIVE`)."""
        self._executor: ProcessPoolExecutor | None = None

    @property
    def executor(self) -> ProcessPoolExecutor:
        if self._executor is None:  # started at first use: most servers never analyse
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(ANALYSIS_WORKERS, mp_context=context)
        return self._executor

    def stop(self) -> None:
        for run in self.runs.values():
            if run.task is not None:
                run.task.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)

    async def start(self, game_id: str) -> AnalysisRun:
        run = self.runs.get(game_id)
        if run is not None and not run.error:
            return run
        if sum(r.running for r in self.runs.values()) >= MOST_RUNNING:
            raise ApiError(429, "analyses_busy", "the server is analysing other games: try soon")
        record = await self._finished_record(game_id)
        run = AnalysisRun(game_id, record, self.settings)
        self._keep(run)
        run.task = asyncio.create_task(self._run(run))
        return run

    async def live(self, work: Callable[..., R], *args: Any) -> R | None:
        """``work(*args)`` in the pool, for a game under way; None if the pool already has
        :data:`MOST_LIVE` such jobs or the work failed (advice is a help, never a reason
        for a game to stop)."""
        if self.live_jobs >= MOST_LIVE:
            return None
        self.live_jobs += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, work, *args)
        except Exception as error:  # a broken worker, a position it could not replay
            log.warning("live advice failed: %s: %s", type(error).__name__, error)
            return None
        finally:
            self.live_jobs -= 1

    def get(self, game_id: str) -> AnalysisRun:
        run = self.runs.get(game_id)
        if run is None:
            raise ApiError(404, "no_analysis", f"game {game_id} has not been analysed")
        return run

    async def position(self, game_id: str, prefix: int) -> dict[str, Any]:
        run = self.get(game_id)
        if not 0 <= prefix <= len(run.record["log"]):
            raise ApiError(422, "bad_prefix", f"prefix must be 0 to {len(run.record['log'])}")
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor, state_at, run.record, prefix)
        except MonopolyError as error:
            raise ApiError(422, "bad_prefix", str(error)) from None

    async def _finished_record(self, game_id: str) -> dict[str, Any]:
        stored = await asyncio.to_thread(self.store.load, game_id)
        if stored is None:
            raise ApiError(404, "unknown_game", f"there is no game {game_id!r}")
        if stored.status != "over":
            raise ApiError(409, "game_not_over", "only a finished game can be analysed")
        record: dict[str, Any] = stored.record()
        return record

    def _keep(self, run: AnalysisRun) -> None:
        self.runs[run.game_id] = run
        while len(self.runs) > KEPT:
            oldest = next(iter(self.runs))
            if self.runs[oldest].running:
                break
            del self.runs[oldest]

    async def _run(self, run: AnalysisRun) -> None:
        """Replaying the record and every rollout run in the pool's processes: the
        server's own process (and the players' games in it) only waits for them."""
        loop = asyncio.get_running_loop()
        try:
            planned = await loop.run_in_executor(self.executor, plan_record, run.record)
            clean, positions, winners, turns = planned
            final = run.final = Game(setup_from_json(clean["setup"]))  # names and words
            run.planned = len(positions)
            run.analysis = GameAnalysis(tuple(final.names), run.settings, winners=winners)
            run.analysis.turns, run.analysis.planned = turns, len(positions)
            key = record_key(clean)
            for position in positions:
                job = _job(key, clean, position, run.settings)
                scores = await loop.run_in_executor(self.executor, run_job, job)
                add_scores(run.analysis, final, position, scores)
        except MonopolyError as error:
            run.error = str(error)


def plan_record(
    record: dict[str, Any],
) -> tuple[dict[str, Any], list[Position], tuple[int, ...], int]:
    """(the replayed record, the positions to analyse, the winners, the turns): what the
    server needs of :func:`~monopoly.analysis.review.plan`, in a form that pickles."""
    final, positions = plan(record)
    return record_of(final), positions, final.winners, final.turn


def state_at(record: dict[str, Any], prefix: int) -> dict[str, Any]:
    """The position before log entry ``prefix``, as JSON (``monopoly replay --json``)."""
    return game_state(position_at(record, prefix))


def _job(key: str, record: dict[str, Any], position: Position, settings: RolloutSettings) -> Job:
    return Job(key, record, position.prefix, position.alternatives, settings, 0, settings.rollouts)


def analysis_routes(app: FastAPI, service: AnalysisService) -> None:
    """The analysis board's HTTP routes (see the module's text)."""

    @app.post("/api/games/{game_id}/analysis", status_code=202)
    async def start(game_id: str, language: str = "en") -> dict[str, Any]:
        run = await service.start(game_id)
        return run.to_json(check_language(language))

    @app.get("/api/games/{game_id}/analysis")
    async def progress(game_id: str, language: str = "en") -> dict[str, Any]:
        return service.get(game_id).to_json(check_language(language))

    @app.get("/api/games/{game_id}/analysis/position")
    async def position(game_id: str, prefix: int) -> dict[str, Any]:
        return await service.position(game_id, prefix)
