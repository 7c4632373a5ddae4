"""Refusals are explained: a step on one's own title deed that the rules refuse now is
shown disabled in "Manage properties", with the engine's reason in the page's language
(R-BUILD-1: no building without the whole colour group; R-MORT-1: no mortgage while the
group has buildings). Debian's Chromium against a real server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page

from .servers import ServerThread
from .test_e2e_game import chromium, create, open_seat, watch_errors

ORIENTAL, VERMONT, CONNECTICUT = 6, 8, 9
HUMAN_AND_BOT = [{"type": "human"}, {"type": "bot", "level": "easy"}]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


def manage(
    server: ServerThread,
    browser: Browser,
    properties: dict[str, dict[str, int]],
    page_language: str = "en",
) -> Page:
    position = {"players": [{"cash": 1500}, {}], "properties": properties, "turn": 0}
    created = create(server.base, seats=HUMAN_AND_BOT, position=position)
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{server.base}/?lang={page_language}")
    page.evaluate(
        "([id, token]) => localStorage.setItem('monopoly.seat.' + id, token)",
        [created["game_id"], created["seat_token"]],
    )
    page.goto(f"{server.base}/?game={created['game_id']}&lang={page_language}")
    page.locator("[data-testid=start]").click()
    page.locator("#decision [data-act=roll]").wait_for()
    page.locator("[data-testid=manage]").click()
    return page


def refused(page: Page, space: int, act: str) -> Locator:
    return page.locator(
        f"dialog.manage-dialog .manage-row[data-space='{space}'] [data-refused='{act}']"
    )


def test_a_refused_build_is_shown_disabled_with_the_reason(
    server: ServerThread, browser: Browser
) -> None:
    """R-BUILD-1: Ann owns Oriental and Connecticut Avenue, not Vermont."""
    page = manage(
        server,
        browser,
        {str(ORIENTAL): {"owner": 0}, str(CONNECTICUT): {"owner": 0}, str(VERMONT): {"owner": 1}},
    )
    errors = watch_errors(page)
    build = refused(page, CONNECTICUT, "build")
    button = build.locator("button")
    assert button.is_disabled()
    assert button.inner_text() == "Build a house ($50)"
    reason = "You need every one of the 3 Light Blue streets"  # words, not the rule's ID
    assert build.locator(".refusal").inner_text() == reason
    reason_id = button.get_attribute("aria-describedby")
    assert page.locator(f"#{reason_id}").inner_text().startswith("You need every one of the 3")
    # Mortgaging it is still allowed: an enabled button, no refusal.
    assert page.locator(f"dialog.manage-dialog [data-key='mortgage-{CONNECTICUT}']").is_enabled()
    assert refused(page, CONNECTICUT, "mortgage").count() == 0
    assert errors == []
    page.close()


def test_a_refused_mortgage_says_to_sell_the_buildings_first_in_the_pages_language(
    server: ServerThread, browser: Browser
) -> None:
    """R-MORT-1, on a German page of an English game: the reason in German."""
    group = {str(space): {"owner": 0, "buildings": 1} for space in (ORIENTAL, VERMONT, CONNECTICUT)}
    page = manage(server, browser, group, page_language="de")
    mortgage = refused(page, ORIENTAL, "mortgage")
    assert mortgage.locator("button").is_disabled()
    assert mortgage.locator(".refusal").inner_text() == (
        "Verkaufe zuerst die Häuser und Hotels auf dieser Farbgruppe"
    )
    english = manage(server, browser, group)
    assert refused(english, ORIENTAL, "mortgage").locator(".refusal").inner_text() == (
        "Sell the houses and hotels on this colour group first"
    )
    english.close()
    page.close()


def open_game(server: ServerThread, page: Page, position: dict[str, Any]) -> Page:
    created = create(server.base, seats=HUMAN_AND_BOT, position=position, seed=5)
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    page.locator("[data-testid=start]").click()
    return page


def test_the_jail_panel_tells_the_three_tries_and_how_it_works_is_at_hand(
    server: ServerThread, browser: Browser
) -> None:
    """R-JAIL: three tries at doubles, then the fine. "How this works" is at hand, marked
    new the first time this browser meets a jail decision, and not the next time."""
    jailed = {"players": [{"position": 10, "jail_turns": 0}, {}], "turn": 0}
    page = open_game(server, browser.new_page(), jailed)
    panel = page.locator("#decision[data-kind=jail]")
    panel.wait_for()
    assert "You get 3 tries to roll doubles" in panel.inner_text()
    assert "you must pay $50" in panel.inner_text()
    how = panel.locator("details[data-testid=how]")
    assert how.get_attribute("data-first") == "true"
    assert how.locator("summary").inner_text() == "New How this works"
    how.locator("summary").click()
    assert "Three ways out" in how.inner_text()
    again = open_game(server, page, jailed)  # the same browser profile: seen before
    how_again = again.locator("#decision[data-kind=jail] details[data-testid=how]")
    how_again.wait_for()
    assert how_again.get_attribute("data-first") == "false"
    how_again.locator("summary").click()
    assert "Three ways out" in how_again.inner_text()
    page.close()


def test_the_auction_panel_says_what_an_auction_is(server: ServerThread, browser: Browser) -> None:
    page = open_game(server, browser.new_page(), {"players": [{"position": 1}, {}], "turn": 0})
    page.locator("#decision [data-act=roll]").click()
    decline = page.locator("#decision [data-act=decline]")
    decline.click()
    about = page.locator("#decision[data-kind=bid] .auction-about")
    about.wait_for()
    assert about.inner_text() == (
        "An auction: every player may bid, the highest bid buys it from the Bank."
    )
    page.close()
