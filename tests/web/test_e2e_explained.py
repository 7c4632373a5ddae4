"""The game explains itself: the create form and the waiting room say what each rule set
and house rule means and how much cash everyone really starts with (the Speed Die's
1,000 extra, R-SPEED-1); the board says what italic names are; in English and German."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser

from .servers import ServerThread
from .test_e2e_game import chromium, create, open_seat, watch_errors


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


def test_the_options_say_what_each_rule_set_means_and_adds(server: ServerThread) -> None:
    """R-SPEED-1, R-SHORT-1, R-SHORT-4 in words; the Speed Die's extra cash as a number."""
    options = httpx.get(f"{server.base}/api/options", params={"language": "en"}).json()
    presets = {p["key"]: p for p in options["presets"]}
    assert {key: p["extra_cash"] for key, p in presets.items()} == {
        "standard": 0,
        "short": 0,
        "speed": 1000,
        "short+speed": 1000,
    }
    assert "dealt three title deeds" in presets["short"]["about"]
    assert "first bankruptcy ends the game" in presets["short"]["about"]
    assert "1,000 extra" in presets["speed"]["about"]
    about = {o["key"]: o["about"] for o in options["rule_options"]}
    assert all(about.values()), about
    german = httpx.get(f"{server.base}/api/options", params={"language": "de"}).json()
    assert "1.000 mehr" in {p["key"]: p for p in german["presets"]}["speed"]["about"]


@pytest.mark.parametrize(
    ("language", "standard", "speed", "speed_1000"),
    [
        ("en", "Everyone starts with $1,500.", "Everyone starts with $2,500.", "$2,000"),
        ("de", "Alle beginnen mit 1.500\xa0€.", "Alle beginnen mit 2.500\xa0€.", "2.000\xa0€"),
    ],
)
def test_the_create_form_shows_the_real_starting_cash_and_the_rules_meaning(
    server: ServerThread,
    browser: Browser,
    language: str,
    standard: str,
    speed: str,
    speed_1000: str,
) -> None:
    page = browser.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/?lang={language}")
    cash = page.locator("form.create-form [data-testid=starting-cash]")
    page.wait_for_function(
        "text => document.querySelector('[data-testid=starting-cash]')?.textContent === text",
        arg=standard,
    )
    page.locator("select[name=preset]").select_option("speed")
    assert cash.inner_text() == speed
    assert (
        page.locator("[data-testid=preset-about]")
        .inner_text()
        .startswith("Speed Die:" if language == "en" else "Tempo-Würfel:")
    )
    page.locator("details.house-rules summary").click()
    page.locator("input[name=starting_cash]").fill("1000")
    assert speed_1000 in cash.inner_text()
    hints = page.locator("details.house-rules .hint").all_inner_texts()
    assert len(hints) >= 9 and all(hints)
    assert errors == []
    page.close()


def test_the_waiting_room_and_the_board_explain_rules_cash_and_italics(
    server: ServerThread, browser: Browser
) -> None:
    created = create(
        server.base,
        edition="zelda",
        token="hylian_shield",
        rules={"preset": "short+speed", "options": {"free_parking_pot": True}},
        seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
    )
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    page.locator(".waiting-card").wait_for()
    card = page.locator(".waiting-card").inner_text()
    assert "Everyone starts with" in card and "2,500" in card
    assert "first bankruptcy ends the game" in card
    assert "Free Parking" in page.locator(".waiting-card .rules-list").inner_text()
    page.locator("[data-testid=start]").click()
    page.locator(".board-svg").wait_for()
    assert page.locator(".space-name.italic").count() >= 1  # Zelda has a name of our own
    assert page.locator(".italics-note").text_content() == "Italics: names of our own choice"
    page.close()
