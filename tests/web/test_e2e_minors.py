"""Small things a player notices, in Debian's Chromium against a real server: the page
keeps the person's language while the board and the log speak the game's; the join page
has no stray "null" line; money floats never cover the cash they change."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from monopoly.web.session import ServerConfig

from .conftest import ROBOT_LIMITS
from .servers import Player, ServerThread, create_game, join_game, start_game
from .test_e2e_game import Plan, chromium, create, decision, open_seat, play, wait_log, watch_errors

HUMAN_AND_BOT = [{"type": "human"}, {"type": "bot", "level": "easy"}]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


def test_a_german_game_on_an_english_page_keeps_the_page_english(
    server: ServerThread, browser: Browser
) -> None:
    created = create(server.base, seats=HUMAN_AND_BOT, language="de")
    page = browser.new_page()
    errors = watch_errors(page)
    open_seat(page, server.base, created["game_id"], created["seat_token"])  # ?lang=en first
    page.locator("[data-testid=start]").click()
    assert decision(page) == "roll"
    assert page.locator("[data-testid=manage]").inner_text() == "Manage properties"
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("#lang-select").input_value() == "en"
    go = page.locator(".space[data-space='0'] .corner-note").text_content() or ""
    assert go.startswith("Ziehe 200")  # the board in the game's language
    page.locator("#decision [data-act=roll]").click()
    wait_log(page, "Ann würfelt")  # and the log
    assert errors == []
    page.close()


def test_the_join_page_shows_no_null_line(server: ServerThread, browser: Browser) -> None:
    created = create(server.base, seats=[{"type": "human"}, {"type": "human"}])
    page = browser.new_page()
    page.goto(f"{server.base}/?join={created['game_id']}&lang=en")
    page.locator("[data-testid=starting-cash]").wait_for()
    text = page.locator("main").inner_text()
    assert "null" not in text and "undefined" not in text
    page.close()


def test_german_labels_take_the_singular_for_one(server: ServerThread, browser: Browser) -> None:
    """CLDR plural rules: "1 Feld bis …", "2 Felder bis …" (the Bus move's buttons), the
    decks' cards, the watchers and the seats still free."""
    page = browser.new_page()
    page.goto(f"{server.base}/?lang=de")
    page.locator("form.create-form").wait_for()
    labels = page.evaluate(
        """async () => {
          const { t } = await import("/js/i18n.js");
          return [1, 2].flatMap((count) => [
            t("act_choose_move", { steps: count, name: "Los" }), t("cards_left", { count }),
            t("watchers", { count }), t("waiting_for_players", { count })]);
        }"""
    )
    assert labels == [
        *["1 Feld bis Los", "1 Karte", " · 1 schaut zu", "Es fehlt noch 1 Mitspieler."],
        *["2 Felder bis Los", "2 Karten", " · 2 schauen zu", "Es fehlen noch 2 Mitspieler."],
    ]
    page.close()


def test_the_panel_says_an_offline_player_is_offline_with_the_hand_over_countdown(
    tmp_path: Path, browser: Browser
) -> None:
    """Bob's turn, and Bob is gone: Ann's panel says so and counts down, instead of
    "Bob is about to roll the dice"."""
    config = ServerConfig(bot_delay=0, absence_timeout=30, testing=True, limits=ROBOT_LIMITS)
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as server:
        position = {"players": [{}, {}], "turn": 1}
        created = create_game(
            server.base, [{"type": "human"}, {"type": "human"}], position=position
        )
        bob_token = join_game(server.base, created["game_id"], "Bob", "boot")["seat_token"]
        bob = Player(server.base, created["game_id"], bob_token)
        start_game(server.base, created["game_id"], created["seat_token"])
        page = browser.new_page()
        open_seat(page, server.base, created["game_id"], created["seat_token"])
        page.locator("#decision [data-testid=waiting]").wait_for()
        assert "Bob is about to roll" in page.locator("#decision").inner_text()
        bob.close()
        offline = page.locator("#decision [data-testid=offline]")
        offline.wait_for()
        assert re.fullmatch(
            r"Bob is offline: a computer may take over in \d+ s\.", offline.inner_text()
        )
        page.close()


def test_the_next_game_notice_shows_inside_the_results(
    server: ServerThread, browser: Browser
) -> None:
    """The results are a modal dialog, above every notification: "the next game is
    ready" appears in the dialog itself, with the way into that game."""
    rules = {"preset": "standard", "options": {"turn_limit": 2}}
    created = create(server.base, seats=HUMAN_AND_BOT, rules=rules, seed=3)
    page = browser.new_page()
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    page.locator("[data-testid=start]").click()
    assert play(page, Plan(), lambda kind: False) == "over"
    results = page.locator("dialog[data-testid=game-over][open]")
    results.wait_for()
    page.evaluate("window.monopolyScreen.nextGame({ type: 'play_again', game_id: 'abc' })")
    note = results.locator("[data-testid=next-note]")
    note.wait_for()
    assert note.inner_text() == "The next game with the same players is ready."
    assert results.locator("[data-testid=next-game]").is_visible()
    page.close()


TOKEN_WHEN_DECIDING = """() => { window.tokenWhenDeciding = new Promise((resolve) => {
  const panel = document.querySelector('#decision');
  new MutationObserver((changes, observer) => {
    if (panel.dataset.kind !== 'buy') return;
    observer.disconnect();
    resolve(document.querySelector(".token[data-seat='0']").dataset.space);
  }).observe(panel, { attributes: true, attributeFilter: ['data-kind'] });
}); }"""


def test_the_buy_decision_waits_until_the_token_has_walked_there(
    server: ServerThread, browser: Browser
) -> None:
    created = create(
        server.base, seats=HUMAN_AND_BOT, position={"players": [{}, {}], "turn": 0}, seed=3
    )
    page = browser.new_page()
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    page.locator("[data-testid=start]").click()
    assert decision(page) == "roll"
    page.evaluate(TOKEN_WHEN_DECIDING)
    page.locator("#decision [data-act=roll]").click()
    page.locator("#decision[data-kind=buy]").wait_for()
    space = page.evaluate("window.tokenWhenDeciding")
    target = page.evaluate("window.monopolyScreen.state.decision.space")
    assert space == str(target)  # the token stood there when the question came
    page.close()
