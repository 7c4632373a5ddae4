"""The browser game around the board: joining by invite link, watching, the German UI,
playing by keyboard, a phone-sized screen, absent players handed to a computer — in
Debian's Chromium driven by Playwright, against a real server."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page

from .servers import Player, ServerThread, join_game
from .test_e2e_game import (
    chromium,
    create,
    decision,
    log_text,
    open_seat,
    wait_log,
    watch_errors,
)

STATIC = Path(__file__).resolve().parents[2] / "src" / "monopoly" / "web" / "static"
HUMAN_AND_BOT = [{"type": "human"}, {"type": "bot", "level": "easy"}]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


def start(base: str, created: dict[str, object]) -> None:
    response = httpx.post(
        f"{base}/api/games/{created['game_id']}/start", json={"seat_token": created["seat_token"]}
    )
    assert response.status_code == 200, response.text


def test_a_friend_joins_by_the_invite_link_and_an_absent_seat_goes_to_a_computer(
    server: ServerThread, browser: Browser
) -> None:
    host = browser.new_context(locale="en-US")
    host.grant_permissions(["clipboard-read", "clipboard-write"])
    ann = host.new_page()
    errors = watch_errors(ann)
    ann.goto(f"{server.base}/?lang=en")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_label("Seat 2: person or computer").select_option("human")
    ann.get_by_role("button", name="Remove a seat").click()
    ann.get_by_role("button", name="Create game").click()
    ann.locator("[data-testid=copy-invite]").click()
    invite = ann.locator("#invite-url").input_value()
    assert re.fullmatch(rf"{server.base}/\?join=[\w-]+", invite)
    assert ann.evaluate("navigator.clipboard.readText()") == invite
    assert ann.locator("[data-testid=start]").is_disabled()

    bob = browser.new_context(locale="en-US").new_page()
    bob.goto(invite)
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_label("Your token").select_option(label="Top hat")
    bob.locator("[data-testid=join]").click()
    bob.get_by_text("Waiting for the host to start the game.").wait_for()
    ann.locator(".seat-entry", has_text="Bob").wait_for()
    ann.locator("[data-testid=start]").click()
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        page.locator(".board-svg").wait_for()
        assert page.locator(".player-card.me .player-name").inner_text().startswith(name)
    assert bob.locator(".token title", has_text="Bob — Top hat").count() == 1

    game_url = bob.url
    bob.goto("about:blank")
    ann.locator(".player-card[data-seat='1'] .tag-offline").wait_for()
    ann.locator("[data-testid=hand-to-bot]").click()
    ann.locator(".player-card[data-seat='1'] .tag-standin").wait_for()
    bob.goto(game_url)
    bob.locator(".board-svg").wait_for()
    ann.locator(".player-card[data-seat='1'] .tag-online").wait_for()
    assert ann.locator(".player-card[data-seat='1'] .tag-standin").count() == 0
    assert errors == []


def test_a_spectator_sees_the_board_but_no_actions(server: ServerThread, browser: Browser) -> None:
    created = create(server.base, seats=HUMAN_AND_BOT)
    start(server.base, created)
    page = browser.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/?watch={created['game_id']}&lang=en")
    page.locator(".board-svg").wait_for()
    page.locator(".player-card").nth(1).wait_for()
    assert page.locator(".token").count() == 2
    assert page.locator("#decision h2").inner_text() == "Watching"
    assert page.get_by_text("You are watching").is_visible()
    assert page.locator("[data-act]").count() == 0
    assert page.locator("[data-testid=manage], [data-testid=trade]").count() == 0
    assert page.locator(".player-card.me").count() == 0
    assert "Turn-order rolls" in log_text(page)
    assert errors == []
    page.close()


def test_the_german_ui_creates_and_plays_a_zelda_game(
    server: ServerThread, browser: Browser
) -> None:
    page = browser.new_page()
    errors = watch_errors(page)
    page.goto(f"{server.base}/?lang=de")
    page.get_by_role("heading", name="Spiel erstellen").wait_for()
    page.get_by_label("Dein Name").fill("Anna")
    page.get_by_label("Ausgabe").select_option("zelda")
    page.get_by_label("Deine Spielfigur").select_option(label="Hylia-Schild")
    page.get_by_label("Regeln").select_option("speed")
    page.get_by_role("button", name="Spiel erstellen").click()
    page.get_by_role("heading", name="MONOPOLY The Legend of Zelda").wait_for()
    assert "Tempo-Würfel" in page.locator(".waiting-card").inner_text()
    page.get_by_role("button", name="Spiel starten").click()
    page.locator(".board-svg").wait_for()
    assert decision(page) == "roll"
    assert page.locator("#decision h2").inner_text() == "Du bist dran"
    deed = page.locator(".space[data-space='37'] > title").text_content() or ""
    assert deed.startswith("Schloss Hyrule\nDunkelblau\nPreis: 350\xa0◆")  # never split
    assert "Deku" in (page.locator(".stock-text").text_content() or "")
    page.get_by_role("button", name="Würfeln").click()
    wait_log(page, "Anna würfelt")
    assert page.get_by_role("button", name="Besitz verwalten").is_visible()
    assert errors == []
    page.close()


def test_a_keyboard_alone_reaches_and_rolls_the_dice(
    server: ServerThread, browser: Browser
) -> None:
    created = create(server.base, seats=HUMAN_AND_BOT, position={"players": [{}, {}], "turn": 0})
    start(server.base, created)
    page = browser.new_page()
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    assert decision(page) == "roll"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to your actions"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    focused = page.evaluate(
        "(() => { const e = document.activeElement;"
        " return [e.dataset.act, getComputedStyle(e).outlineStyle]; })()"
    )
    assert focused == ["roll", "solid"]
    page.keyboard.press("Enter")
    wait_log(page, "Ann rolls")
    page.close()


def test_a_trade_offer_from_a_friend_is_answered_with_a_counter_offer(
    server: ServerThread, browser: Browser
) -> None:
    start_position = {
        "players": [{}, {}],
        "properties": {"1": {"owner": 0}, "3": {"owner": 1}},
        "turn": 0,
    }
    created = create(server.base, seats=[{"type": "human"}] * 2, position=start_position)
    joined = join_game(server.base, created["game_id"], "Bob", "top_hat")
    bob = Player(server.base, created["game_id"], joined["seat_token"])
    start(server.base, created)
    bob.expect("state")
    page = browser.new_page()
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    decision(page)
    bob.act({"act": "propose_trade", "partner": 0, "give": [3], "take_cash": 100})
    page.locator("#decision[data-kind='trade']").wait_for()
    offer = page.locator("#decision .offer").inner_text()
    assert "You get\nBaltic Avenue" in offer and "You give\n$100" in offer
    page.locator("[data-testid=counter]").click()
    dialog = page.locator("dialog.trade-dialog")
    assert dialog.locator("#trade-give_cash").input_value() == "100"
    assert dialog.locator("[data-key='take-3']").is_checked()
    dialog.locator("#trade-give_cash").fill("50")
    page.wait_for_function("!document.querySelector('[data-testid=propose]').disabled")
    dialog.get_by_role("button", name="Send the counter-offer").click()
    counter = bob.wait_for(
        lambda s: s["decision"]["kind"] == "trade" and s["decision"]["seat"] == 1
    )
    assert counter["decision"]["offer"]["give_cash"] == 50
    assert counter["decision"]["offer"]["take"] == [3]
    bob.close()
    page.close()


def no_sideways_scroll(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_phone_sized_screen_stacks_the_panels_without_sideways_scrolling(
    server: ServerThread, browser: Browser
) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server.base}/?lang=en")
    page.locator("form.create-form").wait_for()
    assert no_sideways_scroll(page)
    created = create(server.base, seats=[*HUMAN_AND_BOT, {"type": "bot", "level": "normal"}])
    start(server.base, created)
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    decision(page)
    board = page.locator("#board").bounding_box()  # the window on the (larger) board
    panel = page.locator("#decision").bounding_box()
    assert board is not None and panel is not None
    assert 300 <= board["width"] <= 390
    assert panel["y"] + panel["height"] <= board["y"]  # the decision comes first
    assert no_sideways_scroll(page)
    page.locator("[data-testid=trade]").click()
    assert no_sideways_scroll(page)
    page.close()


def test_both_label_files_have_every_label_the_client_uses() -> None:
    english = _labels_used_and_known(
        "", [path for path in (STATIC / "js").glob("*.js") if path.name != "analysis.js"]
    )
    acts = ["roll", "pay_fine", "use_card", "roll_doubles", "buy", "decline", "bid", "pass"]
    acts += ["accept_trade", "reject_trade", "bankrupt", "build", "sell", "mortgage"]
    acts += ["unmortgage", "keep_mortgaged", "place", "claim_rent", "choose_space"]
    acts += ["choose_move", "want", "propose_trade"]
    assert {f"act_{act}" for act in acts} <= set(english)


@pytest.mark.parametrize(("language", "words"), [("en", "chose the dice"), ("de", "die Würfel")])
def test_a_game_with_chosen_dice_says_so_in_the_waiting_room(
    server: ServerThread, browser: Browser, language: str, words: str
) -> None:
    """A seed or position chosen by the creator (a --testing server) is shown to all."""
    chosen = create(server.base, seats=HUMAN_AND_BOT, language=language, seed=7)
    plain = create(server.base, seats=HUMAN_AND_BOT, language=language)
    page = browser.new_page()
    errors = watch_errors(page)
    for created, shown in ((chosen, True), (plain, False)):
        page.goto(f"{server.base}/?game={created['game_id']}&lang={language}")
        page.locator(".waiting-card").wait_for()
        notice = page.locator("[data-testid=test-setup]")
        assert notice.count() == (1 if shown else 0)
        if shown:
            assert words in notice.inner_text()
    assert errors == []
    page.close()


def _labels_used_and_known(prefix: str, scripts: list[Path]) -> dict[str, str]:
    """The English labels of one label file pair (``{prefix}en.json``/``{prefix}de.json``),
    after checking that both have the same keys, none empty, and every key ``scripts`` use."""
    english = json.loads((STATIC / "i18n" / f"{prefix}en.json").read_text(encoding="utf-8"))
    german = json.loads((STATIC / "i18n" / f"{prefix}de.json").read_text(encoding="utf-8"))
    assert set(english) == set(german)
    assert all(german[key].strip() for key in german)
    text = "\n".join(path.read_text(encoding="utf-8") for path in scripts)
    used = set(re.findall(r"\bt\(\s*\"([a-z0-9_]+)\"", text))
    assert used and used <= set(english), sorted(used - set(english))
    return english


def test_the_analysis_page_has_every_label_it_uses_in_both_languages() -> None:
    _labels_used_and_known("analysis_", [STATIC / "js" / "analysis.js"])
