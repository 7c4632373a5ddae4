"""The analysis board in the browser: a finished stored game, analysed on the server
while the page shows its progress, then the win-chance chart and the marked decisions;
clicking a mark shows the board at that moment. Debian's Chromium via Playwright."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import httpx

from monopoly.bots.base import make_bot, play
from monopoly.core.game import Game
from monopoly.core.records import record_of
from monopoly.core.rules import RuleSet
from monopoly.web.storage import SeatData, Store, StoredGame

from .servers import ServerProcess
from .test_e2e_game import WAIT_MS, chromium


def store_finished_game(db: Path, game_id: str, turns: int = 8) -> Game:
    """A short game between computer players, finished by its turn limit, stored as the
    server stores games."""
    rules = RuleSet.named("standard", turn_limit=turns)
    game = Game.new(["Ann", "Bob"], rules=rules, seed=21)
    play(game, [make_bot("easy", 1), make_bot("easy", 2)])
    record = record_of(game)
    store = Store(str(db))
    store.prepare()
    seats = [SeatData("computer", level="easy", name=name) for name in game.names]
    setup = record["setup"]
    store.create_game(
        StoredGame(game_id, "running", setup, {"preset": "standard"}, datetime.now(UTC), seats)
    )
    store.append_log(game_id, 0, record["log"], "over", record.get("result"))
    store.close()
    return game


def test_analysis_page_shows_the_chart_after_a_game(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    game = store_finished_game(db, "done1")
    assert game.over
    with ServerProcess(db) as server, chromium() as browser:
        page = browser.new_page()
        page.goto(f"{server.base}/analysis.html?game=done1&lang=en")
        page.wait_for_selector("[data-testid=analysis-chart]", timeout=WAIT_MS * 6)
        lines = page.locator("[data-testid=analysis-chart] polyline")
        assert lines.count() == 2
        assert "Game analysis" in page.locator("h1").inner_text()
        answer = httpx.get(f"{server.base}/api/games/done1/analysis").json()
        assert answer["state"] == "done"
        assert [p["turn"] for p in answer["analysis"]["chart"]] == list(range(1, 9))
        marks = page.locator("[data-testid=analysis-mark]")
        assert marks.count() == len(answer["marks"]) >= 1  # the seeded rollouts find some
        marks.first.click()
        page.wait_for_selector("[data-testid=analysis-board] .cell", timeout=WAIT_MS)
        assert page.locator("[data-testid=analysis-board] .cell").count() == 40
        moment = page.locator("[data-testid=analysis-moment]").inner_text()
        first = answer["marks"][0]
        assert f"Better: {first['better']}" in moment and f"Taken: {first['taken']}" in moment


def test_german_page_and_refusals(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    store_finished_game(db, "done2", turns=4)
    with ServerProcess(db) as server, chromium() as browser:
        missing = httpx.post(f"{server.base}/api/games/nothing/analysis")
        assert missing.status_code == 404
        not_started = httpx.get(f"{server.base}/api/games/done2/analysis")
        assert not_started.status_code == 404
        page = browser.new_page()
        page.goto(f"{server.base}/analysis.html?game=done2&lang=de")
        page.wait_for_selector("[data-testid=analysis-chart]", timeout=WAIT_MS * 6)
        assert "Spielanalyse" in page.locator("h1").inner_text()
