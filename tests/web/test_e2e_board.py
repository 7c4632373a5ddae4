"""The board is readable where people play: every text on it is at least 12 CSS px on a
1366×768 desktop and 11 px on a 390×844 phone, in every edition and both languages, with
no name cut short; on the phone the board is drawn larger, in a window that follows the
token whose turn it is. Measured in Debian's Chromium from the rendered page."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from monopoly.core.editions import edition_keys, get_edition

from .servers import ServerThread
from .test_e2e_game import chromium, create, decision, open_seat, watch_errors

HUMAN_AND_BOT = [{"type": "human"}, {"type": "bot", "level": "easy"}]

BOARD_TEXTS = """() => {
  const texts = [];
  for (const el of document.querySelectorAll('.board-svg text, .board-svg tspan')) {
    if (el.tagName === 'text' && el.querySelector('tspan')) continue;
    const text = el.textContent.trim();
    if (!text) continue;
    const matrix = el.getScreenCTM();
    const px = parseFloat(getComputedStyle(el).fontSize) * Math.hypot(matrix.a, matrix.b);
    texts.push({ text, px });
  }
  const outside = [];
  for (const space of document.querySelectorAll('.board-svg .space')) {
    const bounds = space.querySelector('.space-bg').getBoundingClientRect();
    const labels = '.space-name, .space-price, .corner-name, .corner-note';
    for (const el of space.querySelectorAll(labels)) {
      const r = el.getBoundingClientRect();
      if (r.left < bounds.left - 1 || r.right > bounds.right + 1
          || r.top < bounds.top - 1 || r.bottom > bounds.bottom + 1) outside.push(el.textContent);
    }
  }
  return { texts, outside };
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


def open_board(server: ServerThread, browser: Browser, size: tuple[int, int], **game: Any) -> Page:
    edition = game.get("edition", "classic")
    created = create(
        server.base, seats=HUMAN_AND_BOT, token=get_edition(edition).tokens[0].key, **game
    )
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    page.locator("[data-testid=start]").click()
    page.locator(".board-svg").wait_for()
    decision(page)
    return page


@pytest.mark.parametrize(("size", "smallest"), [((1366, 768), 12.0), ((390, 844), 11.0)])
def test_every_text_on_the_board_is_readable_in_every_edition(
    server: ServerThread, browser: Browser, size: tuple[int, int], smallest: float
) -> None:
    for edition in edition_keys():
        for language in ("en", "de"):
            page = open_board(server, browser, size, edition=edition, language=language)
            errors = watch_errors(page)
            measured = page.evaluate(BOARD_TEXTS)
            texts = measured["texts"]
            assert len(texts) >= 80, (edition, language)  # names, prices, corners, centre
            too_small = [(t["text"], round(t["px"], 2)) for t in texts if t["px"] < smallest]
            assert too_small == [], (edition, language, too_small)
            cut = [t["text"] for t in texts if t["text"].endswith("…")]
            assert cut == [], (edition, language, cut)
            # an abbreviation breaks after a dot, not with a hyphen ("S.P.E.C.I.-")
            dot_hyphen = [t["text"] for t in texts if t["text"].endswith(".-")]
            assert dot_hyphen == [], (edition, language, dot_hyphen)
            assert measured["outside"] == [], (edition, language)
            assert errors == []
            page.close()


def test_on_a_phone_the_board_window_follows_the_token_and_the_page_does_not_scroll_sideways(
    server: ServerThread, browser: Browser
) -> None:
    position = {"players": [{"position": 34}, {"position": 0}], "turn": 0}
    page = open_board(server, browser, (390, 844), position=position)
    window = page.locator("#board").bounding_box()
    token = page.locator(".token[data-seat='0']").bounding_box()
    assert window is not None and token is not None
    board = page.locator(".board-svg").bounding_box()
    assert board is not None and board["width"] >= 600  # drawn larger than the screen
    assert window["width"] <= 390
    centre_x, centre_y = token["x"] + token["width"] / 2, token["y"] + token["height"] / 2
    assert window["x"] <= centre_x <= window["x"] + window["width"]  # Ann, on the right side
    assert window["y"] <= centre_y <= window["y"] + window["height"]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.close()


def test_a_keyboard_reaches_every_space_and_opens_its_card_and_the_log_is_announced(
    server: ServerThread, browser: Browser
) -> None:
    # the human moves first, so no bot has bought Boardwalk before the card is read
    page = open_board(server, browser, (1366, 768), position={"players": [{}, {}], "turn": 0})
    spaces = page.locator(".board-svg .space[tabindex='0'][role='button']")
    assert spaces.count() == 40
    boardwalk = page.locator(".space[data-space='39']")
    assert boardwalk.get_attribute("aria-label") == "Boardwalk: open its card"
    boardwalk.focus()
    page.keyboard.press("Enter")
    card = page.locator("dialog[data-testid=space-card][open]")
    card.wait_for()
    assert "Nobody owns it yet: it costs $400." in card.inner_text()
    page.keyboard.press("Escape")
    card.wait_for(state="hidden")
    log = page.locator(".log-scroll")
    assert (log.get_attribute("role"), log.get_attribute("aria-live")) == ("log", "polite")
    page.close()


SEAT_COLOURS = """async () => (await import("/js/tokens.js")).COLOURS"""


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def test_owner_marks_cannot_be_taken_for_a_colour_group_in_any_edition(
    server: ServerThread, browser: Browser
) -> None:
    """Seat colours stay far from every group colour of the five editions, and an owned
    deed's band is striped and carries the owner's shape, which no group bar has."""
    position = {"players": [{}, {}], "properties": {"39": {"owner": 0}, "5": {"owner": 1}}}
    page = open_board(server, browser, (1366, 768), position={**position, "turn": 0})
    seat_colours: list[str] = page.evaluate(SEAT_COLOURS)
    groups = set()
    for key in edition_keys():
        edition = httpx.get(f"{server.base}/api/editions/{key}", params={"language": "en"}).json()
        groups |= {g["colour"] for g in edition["groups"].values() if g["colour"]}
    closest = min(math.dist(rgb(s), rgb(g)) for s in seat_colours for g in groups)
    assert len(seat_colours) == 6 and closest >= 75, closest
    for space, seat in ((39, 0), (5, 1)):
        band = page.locator(f".space[data-space='{space}'] .owner-strip")
        assert band.get_attribute("fill") == f"url(#owner-stripes-{seat})"
        assert page.locator(f".space[data-space='{space}'] .owner-shape").count() == 1
    assert page.locator(".board-svg .bar .owner-shape, .board-svg .bar[fill^='url']").count() == 0
    page.close()


CORNERS_AND_CARDS = {
    "en": {
        0: ["Passing or landing on GO: collect $200.", "Here now: Ann"],
        4: ["Pay $200 to the Bank."],
        7: [
            "Landing here: draw the top card (Chance) and do what it says.",
            "Cards in the deck: 16",
        ],
        10: ["Just Visiting: nothing happens here.", "In Jail: Bot 2 (Easy)"],
        20: ["Nothing happens here."],
        30: [
            "Landing here sends you straight to Jail, without passing GO or collecting its money."
        ],
    },
    "de": {
        0: [
            "Wer über Los zieht, bekommt 200\u00a0€; wer darauf landet, 400\u00a0€.",
            "Steht hier: Ann",
        ],
        4: ["200\u00a0€ an die Bank zahlen."],
        7: [
            "Wer hier landet, zieht die oberste Karte (Ereigniskarte) und befolgt sie.",
            "Karten im Stapel: 16",
        ],
        10: ["Nur zu Besuch: hier passiert nichts.", "Im Gefängnis: Bot 2 (Leicht)"],
        20: ["Wer hier landet, bekommt den Topf: 0\u00a0€."],
        30: [
            "Wer hier landet, muss direkt ins Gefängnis, ohne über Los zu ziehen"
            " und ohne Geld dafür."
        ],
    },
}
"""What a tapped space that is no deed says: the English game with the official rules, the
German one with the house rules of double salary on GO and the Free Parking pot."""


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_tapped_corner_or_card_space_says_what_landing_there_does(
    server: ServerThread, browser: Browser, language: str
) -> None:
    """Tapping Go to Jail or Chance once opened a card with its name and nothing else."""
    options = {"double_go_salary": True, "free_parking_pot": True} if language == "de" else {}
    page = open_board(
        server,
        browser,
        (390, 844),
        language=language,
        rules={"preset": "standard", "options": options},
        position={"players": [{}, {"position": 10, "jail_turns": 0}], "turn": 0},
    )
    page.goto(page.url + f"&lang={language}")  # the person's own language, as the game's
    decision(page)
    card = page.locator("dialog[data-testid=space-card][open]")
    for space, facts in CORNERS_AND_CARDS[language].items():
        page.locator(f".space[data-space='{space}']").click()
        card.wait_for()
        assert card.locator(".space-facts li").all_inner_texts() == facts
        page.keyboard.press("Escape")
        card.wait_for(state="hidden")
    page.close()
