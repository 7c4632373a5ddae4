"""The Ray backend against a local Ray instance (two CPUs): the same games as locally."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
import ray
from typer.testing import CliRunner

from monopoly.cli.main import app
from monopoly.cli.tournament import run_tournament
from monopoly.core.actions import Action, Build
from monopoly.core.editions import get_edition
from monopoly.core.view import PlayerView
from monopoly.sim.runner import SimConfig, SimulationError, run
from monopoly.sim.stats import TIMING_KEYS, Summary
from monopoly.sim.texts import Texts

pytestmark = pytest.mark.xdist_group("ray")
"""One Ray instance at a time: ./test runs the Ray modules on one test worker."""


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        object_store_memory=80 * 1024 * 1024,
    )
    try:
        yield
    finally:
        ray.shutdown()


def games_only(summary: Summary, config: SimConfig) -> dict[str, Any]:
    edition = get_edition(config.edition)
    data = summary.to_json(config.setup_json(), edition, Texts(edition))
    for key in TIMING_KEYS:
        data.pop(key)
    return data


def test_ray_plays_the_same_games_as_this_process(local_ray: None) -> None:
    common: dict[str, Any] = {"players": 3, "bots": ["easy", "normal", "hard"], "seed": 11}
    local = SimConfig.create(18, workers=1, turn_limit=200, **common)
    on_ray = SimConfig.create(18, turn_limit=200, backend="ray", **common)
    seen: list[int] = []
    summary = run(on_ray, progress=seen.append)
    assert summary.workers == 2  # the instance's CPUs
    assert sum(seen) == 18 and len(seen) > 1  # told chunk by chunk
    assert games_only(summary, on_ray) == games_only(run(local), local)


def test_the_tournament_on_ray_matches_the_local_one(local_ray: None) -> None:
    args = (8, 3, ["hard", "normal", "easy"], 6)
    local = run_tournament(*args, turn_limit=150).to_json()
    on_ray = run_tournament(*args, turn_limit=150, backend="ray").to_json()
    assert on_ray["backend"] == "ray" and on_ray["player_turns_per_second"] > 0
    for key in ("backend", "workers", "seconds", "games_per_second", "player_turns_per_second"):
        local.pop(key), on_ray.pop(key)
    assert on_ray == local


def test_the_command_on_ray_writes_the_same_parquet_rows(local_ray: None, tmp_path: Path) -> None:
    args = ["simulate", "--json", "--games", "10", "--players", "2", "--seed", "3"]
    runner = CliRunner()
    outputs = []
    for backend in ("local", "ray"):  # local in this process: no fork beside Ray
        path = tmp_path / f"{backend}.parquet"
        how = ["--backend", backend, "--workers", "1" if backend == "local" else "2"]
        result = runner.invoke(app, [*args, *how, "--out", str(path)])
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["backend"] == backend
        outputs.append(pq.read_table(path).to_pylist())
    assert outputs[0] == outputs[1] and len(outputs[0]) == 10


def test_an_illegal_move_on_a_worker_names_the_game(local_ray: None) -> None:
    cheat = ["tests.sim.test_ray_backend:Cheat"]
    config = SimConfig.create(2, players=2, bots=cheat, workers=1)
    on_ray = SimConfig.create(2, players=2, bots=cheat, backend="ray")
    with pytest.raises(SimulationError, match=r"game 1 .*illegal move") as here:
        run(config)
    with pytest.raises(SimulationError, match=r"game 1 .*illegal move") as there:
        run(on_ray)
    assert str(here.value) in str(there.value)


def test_bad_backends_are_refused() -> None:
    result = CliRunner().invoke(app, ["simulate", "--games", "2", "--backend", "spark"])
    assert result.exit_code == 2 and "unknown backend 'spark'" in result.output
    result = CliRunner().invoke(app, ["simulate", "--games", "2", "--address", "auto"])
    assert result.exit_code == 2 and "--address is for --backend ray only" in result.output
    result = CliRunner().invoke(app, ["tournament", "--games", "2", "--backend", "spark"])
    assert result.exit_code == 2 and "unknown backend 'spark'" in result.output


class Cheat:
    """Builds a house on Boardwalk whatever the decision is: an illegal move."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def decide(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return Build(view.seat, (39,))
