"""A game created with "advice on" in the lobby, in Debian's Chromium: everyone sees the
badge, the win-chance bar fills after the server's estimate, and the trade dialog says
what an offer does to both sides' win chances (docs/analysis.md)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from .servers import ServerThread
from .test_e2e_game import WAIT_MS, chromium, click_act, create, decision, open_seat, watch_errors

ANALYSIS_MS = WAIT_MS * 4
"""The bar and the advice come from the analysis pool: seconds on a loaded machine."""

WORDS = {
    "en": {
        "name": "Your name",
        "advice": "Advice on: win chances and trade advice for everyone",
        "create": "Create game",
        "badge": "Advice on",
        "notice": "everyone at this table sees the win chances",
        "line": r"This trade: you (about [+−]\d+ %|no clear change), Bot 2 .+ \(±\d+ points\)",
    },
    "de": {
        "name": "Dein Name",
        "advice": "Tipps an: Gewinnchancen und Handelstipps für alle",
        "create": "Spiel erstellen",
        "badge": "Tipps an",
        "notice": "alle an diesem Tisch sehen die Gewinnchancen",
        "line": r"Dieser Handel: du (etwa [+−]\d+ %|keine klare Änderung), Bot 2 .+"
        r" \(±\d+ Punkte\)",
    },
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_advice_on_shows_the_bar_and_the_trade_advice(server: ServerThread, language: str) -> None:
    words = WORDS[language]
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors = watch_errors(page)
        page.goto(f"{server.base}/?lang={language}")
        page.get_by_label(words["name"]).fill("Ann")
        page.get_by_label(words["advice"]).check()
        page.get_by_role("button", name=words["create"]).click()
        notice = page.locator("[data-testid=advice-notice]")
        notice.wait_for()
        assert words["notice"] in notice.inner_text()
        page.locator("[data-testid=start]").click()
        page.locator(".board-svg").wait_for()
        assert page.locator("[data-testid=advice-badge]").inner_text() == words["badge"]

        bar = page.locator("[data-testid=win-chances]")
        bar.locator(".win-chance").nth(1).wait_for(timeout=ANALYSIS_MS)
        values = bar.locator(".win-chance-value").all_inner_texts()
        percents = [int(re.match(r"(\d+) %", value).group(1)) for value in values]  # type: ignore[union-attr]
        assert len(percents) == 3 and 97 <= sum(percents) <= 103  # the form's 3 seats

        decision(page)
        page.locator("[data-testid=trade]").click()
        dialog = page.locator("dialog.trade-dialog")
        dialog.locator("#trade-give_cash").fill("300")
        page.wait_for_function("!document.querySelector('[data-testid=propose]').disabled")
        line = dialog.locator("[data-testid=advice-line]")
        page.wait_for_function(
            "() => { const line = document.querySelector("
            "'dialog.trade-dialog [data-testid=advice-line]');"
            " return line !== null && !line.textContent.includes('…'); }",
            timeout=ANALYSIS_MS,
        )
        assert re.fullmatch(words["line"], line.inner_text()), line.inner_text()
        assert errors == []
        page.close()


PHONE_ORDER = """() => {
  const top = (selector) => document.querySelector(selector).getBoundingClientRect().top;
  const strip = document.querySelector('[data-testid=turn-strip]').getBoundingClientRect();
  const panel = document.querySelector('#decision').getBoundingClientRect();
  return { strip: strip.top, stripBottom: strip.bottom, decision: panel.top,
           decisionBottom: panel.bottom, board: top('.board-area'), toolbar: top('.toolbar'),
           chances: top('[data-testid=win-chances]'), log: top('.log'),
           height: innerHeight, scrolled: scrollY };
}"""


NAMES_SHOWN = """() => {
  const names = [...document.querySelectorAll('.win-chance-name')].map((name) => ({
    text: name.textContent, cut: name.scrollWidth > name.clientWidth }));
  const who = document.querySelector('[data-testid=turn-strip] .strip-who');
  const name = who.querySelector('.strip-name');
  const dice = document.querySelector('[data-testid=turn-strip] .strip-dice');
  return { names, strip: { text: name.textContent, title: who.title,
    cut: name.scrollWidth > name.clientWidth,
    ellipsis: getComputedStyle(name).textOverflow === 'ellipsis',
    right: name.getBoundingClientRect().right, dice: dice.getBoundingClientRect().left } };
}"""
CHAT_PROMPT_FITS = """() => {
  const input = document.querySelector('#chat-input');
  input.value = input.placeholder;  // the prompt as text, to measure it
  const fits = input.scrollWidth <= input.clientWidth;
  input.value = '';
  return fits;
}"""
LONG_NAME = "Anna-Lena Müller-Westpha"
"""As long as the lobby allows (24 characters)."""


@contextmanager
def phone_game(
    server: ServerThread, language: str, **game: Any
) -> Iterator[tuple[Page, list[str], Locator]]:
    """Ann against an easy computer player, advice on, on a 390×844 phone in ``language``
    (the game's and her page's); started, with the first win chances shown. Yields the
    page, its script errors and the win-chance bar."""
    created = create(
        server.base,
        seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
        language=language,
        advice=True,
        **game,
    )
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        errors = watch_errors(page)
        open_seat(page, server.base, created["game_id"], created["seat_token"])
        page.goto(f"{server.base}/?game={created['game_id']}&lang={language}")  # Ann's choice
        page.locator("[data-testid=start]").click()
        bar = page.locator("[data-testid=win-chances]")
        bar.locator(".win-chance").nth(1).wait_for(timeout=ANALYSIS_MS)
        yield page, errors, bar
        page.close()


def names_shown(page: Page) -> None:
    """Ann's long name in full in the win chances; in the dice strip, cut with "…"."""
    shown = page.evaluate(NAMES_SHOWN)
    assert len(shown["names"]) == 2 and shown["names"][0]["text"] == LONG_NAME, shown
    assert not any(name["cut"] for name in shown["names"]), shown
    strip = shown["strip"]
    assert strip["text"] == strip["title"] == LONG_NAME, strip
    assert strip["ellipsis"] or not strip["cut"], strip
    assert strip["right"] <= strip["dice"], strip


@pytest.mark.parametrize("language", ["en", "de"])
def test_on_a_phone_the_decision_comes_before_the_win_chances(
    server: ServerThread, language: str
) -> None:
    """On a 390×844 phone the page is one column: the dice strip, the decision panel, the
    board and its tools, then the win chances, so the bar never pushes what the player
    must answer down the screen. The bar shows a name of 24 characters in full; the dice
    strip ends it in "…" before the dice (and names it in full as its tooltip). The chat's
    prompt under the log's heading is not cut."""
    with phone_game(
        server,
        language,
        name=LONG_NAME,
        position={"players": [{}, {}], "turn": 0},
        seed=3,  # Ann's first roll ends on an unowned street: a tall buy panel
    ) as (page, errors, bar):
        for kind, answer in (("roll", "roll"), ("buy", "buy")):
            assert decision(page) == kind
            assert bar.locator(".win-chance").count() == 2  # the chances are on show
            page.evaluate("window.scrollTo(0, 0)")
            at = page.evaluate(PHONE_ORDER)
            assert at["scrolled"] == 0
            assert at["strip"] < at["decision"] < at["board"] < at["toolbar"], at
            assert at["toolbar"] < at["chances"] < at["log"], at
            # The panel starts on the first screen, right under the dice strip.
            assert at["decision"] - at["stripBottom"] < 80, at
            assert at["decision"] < at["height"] / 2, at
            assert page.locator("#decision h2").first.is_visible()
            names_shown(page)
            click_act(page, answer)
        assert page.evaluate(CHAT_PROMPT_FITS), "the chat's prompt is cut"
        assert errors == []


@pytest.mark.parametrize(("language", "final"), [("en", "{} % (final)"), ("de", "{} % (Endstand)")])
def test_after_the_game_the_bar_shows_how_it_ended(
    server: ServerThread, language: str, final: str
) -> None:
    """Ann resigns against one computer player: the results name the computer the winner,
    and the bar beside them says 100 % for it and 0 % for Ann, not its last estimate."""
    with phone_game(server, language) as (page, errors, bar):
        assert decision(page) == "roll"
        page.locator("[data-testid=resign]").click()
        page.locator("dialog[data-testid=resign-dialog] [data-testid=resign-confirm]").click()
        page.wait_for_function("() => window.monopolyScreen.state.game.over")
        values = bar.locator(".win-chance-value").all_inner_texts()
        assert values == [final.format(0), final.format(100)], values
        widths = bar.locator(".win-chance-fill").evaluate_all(
            "(fills) => fills.map((fill) => fill.style.width)"
        )
        assert widths == ["0%", "100%"]
        assert bar.locator("[data-testid=win-chances-updating]").count() == 0
        assert errors == []
