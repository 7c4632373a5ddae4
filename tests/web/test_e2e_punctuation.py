"""The page shows no doubled punctuation: Ann lands on Fallout's Chance space, whose
German name "Sie sind S.P.E.C.I.A.L." ends in its own full stop, and neither the log,
the decision panel nor the space's card adds another; nothing on the page has a second
pair of brackets after the computer's "(Easy)" or engine jargon. In Debian's Chromium."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from .servers import ServerThread
from .test_e2e_game import chromium, click_act, create, decision, open_seat, wait_log, watch_errors
from .test_punctuation import BRACKETS_TWICE, DOUBLED, JARGON

SEED = 3
"""The server's dice for this seed: Ann's first roll is 2 + 1."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


@pytest.mark.parametrize("language", ["de", "en"])
def test_landing_on_a_name_with_its_own_stop_shows_one_stop(
    server: ServerThread, browser: Browser, language: str
) -> None:
    created = create(
        server.base,
        edition="fallout",
        language=language,
        token="vault_boy",
        seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
        position={"players": [{"position": 4}, {}], "turn": 0},
        seed=SEED,
    )
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors = watch_errors(page)
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    page.locator("[data-testid=start]").click()
    assert decision(page) == "roll"
    click_act(page, "roll")
    name = {"de": "Sie sind S.P.E.C.I.A.L.", "en": "You're S.P.E.C.I.A.L.!"}[language]
    wait_log(page, re.escape(name) + ":")  # the card drawn, after its deck's name
    page.locator(".space[data-space='7']").click()
    page.locator(".space-dialog[open]").wait_for()
    moved = {"de": f"Ann zieht auf {name}", "en": f"Ann moves to {name}"}[language]
    assert moved in page.locator("#log").inner_text().splitlines()
    shown = page.locator("body").inner_text()
    lines = [line for line in shown.splitlines() if DOUBLED.search(line)]
    assert lines == []
    odd = [
        line for line in shown.splitlines() if BRACKETS_TWICE.search(line) or JARGON.search(line)
    ]
    assert odd == []
    assert errors == []
    page.close()
