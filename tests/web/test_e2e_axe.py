"""WCAG 2.2 AA, checked by axe-core in Debian's Chromium: no serious or critical violation
on the lobby, the game table (decision, board, log, players), its dialogs (space card,
manage properties, trade) and the results, on a desktop and a phone screen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from .servers import ServerThread
from .test_e2e_game import Plan, chromium, create, open_seat, play, watch_errors

WCAG_22_AA = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"],
    },
    "resultTypes": ["violations"],
}
SIZES = [(1366, 768), (390, 844)]
RESULTS_FIT = """() => {
  const dialog = document.querySelector('dialog[data-testid=game-over]');
  const boxes = [dialog, ...dialog.querySelectorAll('.table-scroll')];
  return boxes.every((box) => box.scrollWidth <= box.clientWidth + 1);
}"""
CHART_LABELS = """() => [...document.querySelectorAll('[data-testid=worth-chart] text')]
  .map((el) => {
    const matrix = el.getScreenCTM();
    return parseFloat(getComputedStyle(el).fontSize) * Math.hypot(matrix.a, matrix.b);
  })"""
"""The rendered size (CSS px) of each label of the results' net worth chart."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


def serious(page: Page, where: str) -> list[str]:
    """The serious and critical violations on the page as it is now, one line each."""
    results = Axe().run(page, options=WCAG_22_AA)
    found: list[dict[str, Any]] = results.response["violations"]
    return [
        f"{where}: {v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("size", SIZES)
def test_lobby_table_dialogs_and_results_have_no_serious_violations(
    server: ServerThread, browser: Browser, size: tuple[int, int]
) -> None:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors = watch_errors(page)
    page.goto(f"{server.base}/?lang=en")
    page.locator("form.create-form").wait_for()
    problems = serious(page, "lobby")
    created = create(
        server.base,
        seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
        rules={"preset": "standard", "options": {"turn_limit": 4}},
        position={"players": [{}, {}], "properties": {"6": {"owner": 0}}, "turn": 0},
        seed=3,
    )
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    page.locator(".waiting-card").wait_for()
    problems += serious(page, "waiting room")
    page.locator("[data-testid=start]").click()
    page.locator("#decision [data-act=roll]").wait_for()
    problems += serious(page, "game")
    page.locator(".space[data-space='6']").click()
    page.locator("dialog[data-testid=space-card][open]").wait_for()
    problems += serious(page, "space card")
    page.locator("dialog[data-testid=space-card] button.close").click()
    for dialog in ("manage", "trade"):
        page.locator(f"[data-testid={dialog}]").click()
        page.locator(f"dialog.{dialog}-dialog[open]").wait_for()
        problems += serious(page, dialog)
        page.locator(f"dialog.{dialog}-dialog button.close").click()
    assert play(page, Plan(), lambda kind: False) == "over"
    page.locator("dialog[data-testid=game-over][open]").wait_for()
    problems += serious(page, "results")
    assert page.evaluate(RESULTS_FIT), "the results must read without scrolling sideways"
    labels = page.evaluate(CHART_LABELS)
    assert len(labels) == 3 and min(labels) >= 11, labels  # the chart's axis, readable too
    assert problems == [], "\n".join(problems)
    assert errors == []
    page.close()
