"""The table's feel, in Debian's Chromium against a real server: a space's card on a
click, money changes floating over the players' panels, one notification at a time and
never over the board, readable title-deed headers on every colour of every edition, and
the manage dialog's amounts with building and selling evenly."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from monopoly.core.editions import edition_keys
from monopoly.web.session import ServerConfig

from .servers import Player, ServerThread, join_game, start_game
from .test_e2e_decisions import debt_game
from .test_e2e_game import chromium, create, open_seat, wait_level, watch_errors

LIGHT_BLUE = (6, 8, 9)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


def space_card(page: Page, space: int) -> str:
    page.locator(f".space[data-space='{space}']").click()
    card = page.locator("dialog[data-testid=space-card][open]")
    card.wait_for()
    text = card.inner_text()
    card.locator("button.close").click()
    return text


def test_clicking_a_space_shows_owner_rent_buildings_and_mortgage(
    server: ServerThread, browser: Browser
) -> None:
    page = debt_game(server, browser)
    errors = watch_errors(page)
    new_york = space_card(page, 19)
    assert "Owner: Bot 2 (Easy)" in new_york
    assert "Rent now: $80" in new_york  # one house (R-LAND-2)
    assert "Buildings: 1 house" in new_york
    assert "Rent now: 4 × the dice" in space_card(page, 12)  # one utility (R-RENT-3)
    assert "Nobody owns it yet: it costs $400." in space_card(page, 39)
    page.locator("[data-testid=manage]").click()
    page.locator("dialog.manage-dialog [data-key='mortgage-12']").click()
    page.wait_for_function("document.querySelector(\".space[data-space='12'] .mortgage-cover\")")
    page.locator("dialog.manage-dialog button.close").click()
    assert "Mortgaged: no rent. Lifting the mortgage costs $83." in space_card(page, 12)
    assert "Pay $200 to the Bank." in space_card(page, 4)
    assert errors == []
    page.close()


@pytest.mark.parametrize(("preset", "per_hotel"), [("standard", 4), ("short", 3)])
def test_the_deed_on_a_space_card_shows_the_rule_sets_building_ladder(
    server: ServerThread, browser: Browser, preset: str, per_hotel: int
) -> None:
    """R-SHORT-2: in the short game a hotel follows 3 houses, so Boardwalk's deed has no
    4-house row and names the hotel after 3 houses (its rent stays the printed $2,000)."""
    created = create(
        server.base,
        rules={"preset": preset, "options": {}},
        seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
        seed=5,
    )
    page = browser.new_page()
    errors = watch_errors(page)
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    page.locator("[data-testid=start]").click()
    page.locator("#decision [data-act=roll]").wait_for()
    deed = space_card(page, 39)
    assert f"1 hotel (after {per_hotel} houses)\t$2,000" in deed
    assert "3 houses\t$1,400" in deed
    assert ("4 houses\t$1,700" in deed) == (per_hotel == 4)
    assert errors == []
    page.close()


def test_money_changes_float_over_the_players_panels(
    server: ServerThread, browser: Browser
) -> None:
    """Ann sells a house (+$25) and the $80 rent is paid at once: −$55 over her panel,
    +$80 over the owner's."""
    page = debt_game(server, browser)
    page.locator("#decision [data-act=roll]").click()
    page.locator("#decision[data-kind=raise_cash]").wait_for()
    page.locator("#decision .raise-list [data-act=sell]").first.click()
    page.locator(".player-card.me .money-float.loss", has_text="−$55").wait_for()
    page.locator(".player-card[data-seat='1'] .money-float.gain", has_text="+$80").wait_for()
    page.locator(".money-float").first.wait_for(state="detached", timeout=5000)
    page.close()


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (1024, 768), (390, 844)])
def test_one_notification_at_a_time_and_never_over_the_board(
    server: ServerThread, browser: Browser, width: int, height: int
) -> None:
    page = debt_game(server, browser, width, height)
    page.evaluate(
        """async () => {
          const { toast } = await import("/js/util.js");
          toast("first"); toast("second"); toast("third");
        }"""
    )
    toasts = page.locator(".toast")
    assert toasts.count() == 1 and toasts.inner_text() == "third"
    for scroll in (0, 400, 800):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        board = page.locator(".board-svg").bounding_box()
        note = toasts.bounding_box()
        assert board is not None and note is not None
        assert not boxes_overlap(board, note), (scroll, board, note)
    page.close()


CONTRAST = """async (colours) => {
  const { readableOn, contrastRatio } = await import("/js/util.js");
  const text = (colour) => (readableOn(colour) === "#000" ? "#000000" : "#ffffff");
  return colours.map((colour) => contrastRatio(colour, text(colour)));
}"""


def test_title_deed_headers_are_readable_on_every_group_colour(
    server: ServerThread, browser: Browser
) -> None:
    """WCAG 4.5:1 between a title deed's header text and its colour, every edition."""
    colours = set()
    for key in edition_keys():
        edition = httpx.get(f"{server.base}/api/editions/{key}", params={"language": "en"}).json()
        colours |= {group["colour"] for group in edition["groups"].values() if group["colour"]}
    page = browser.new_page()
    page.goto(f"{server.base}/?lang=en")
    page.locator("#lang-select").wait_for()
    ratios = page.evaluate(CONTRAST, sorted(colours))
    assert len(ratios) >= 8 and min(ratios) >= 4.5, dict(zip(sorted(colours), ratios, strict=True))
    page.close()


def manage_buttons(page: Page) -> list[str]:
    texts: list[str] = page.locator("dialog.manage-dialog button:not(.close)").all_inner_texts()
    return texts


def test_the_manage_dialog_shows_amounts_and_builds_and_sells_evenly(
    server: ServerThread, browser: Browser
) -> None:
    """R-BUILD-2, R-BUILD-4: a row of houses in one click, and back again."""
    position: dict[str, Any] = {
        "players": [{"cash": 1500}, {}],
        "properties": {"6": {"owner": 0}, "8": {"owner": 0}, "9": {"owner": 0}, "39": {"owner": 0}},
        "turn": 0,
    }
    created = create(
        server.base,
        rules={"preset": "standard", "options": {}},
        seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
        position=position,
    )
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = watch_errors(page)
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    page.locator("[data-testid=start]").click()
    page.locator("#decision [data-act=roll]").wait_for()
    page.locator("[data-testid=manage]").click()
    dialog = page.locator("dialog.manage-dialog")
    assert "Mortgage Boardwalk for $200" in manage_buttons(page)
    build = dialog.locator("[data-key^='build-evenly-']")
    assert "1 house on each of the 3 streets ($150)" in build.inner_text()
    build.click()
    for space in LIGHT_BLUE:
        wait_level(page, space, 1)
    assert "Sell a house (+$25)" in manage_buttons(page)
    sell = dialog.locator("[data-key^='sell-evenly-']")
    assert "1 building from each of the 3 streets (+$75)" in sell.inner_text()
    sell.click()
    for space in LIGHT_BLUE:
        wait_level(page, space, 0)
    dialog.locator("[data-key='mortgage-39']").click()
    dialog.locator("[data-key='unmortgage-39']").wait_for()
    assert "Lift the mortgage on Boardwalk ($220)" in manage_buttons(page)
    assert errors == []
    page.close()


def test_every_token_of_every_edition_is_drawn_and_each_edition_has_its_palette(
    server: ServerThread, browser: Browser
) -> None:
    tokens = []
    for key in edition_keys():
        edition = httpx.get(f"{server.base}/api/editions/{key}", params={"language": "en"}).json()
        tokens += [token["key"] for token in edition["tokens"]]
    page = browser.new_page()
    page.goto(f"{server.base}/?lang=en")
    page.locator("#lang-select").wait_for()
    missing = page.evaluate(
        """async (keys) => {
          const { hasTokenIcon } = await import("/js/tokenicons.js");
          return keys.filter((key) => !hasTokenIcon(key));
        }""",
        tokens,
    )
    assert len(tokens) >= 30 and missing == []
    palettes = {}
    for key in edition_keys():
        palettes[key] = page.evaluate(
            """(key) => {
              document.body.dataset.edition = key;
              const style = getComputedStyle(document.body);
              const value = (name) => style.getPropertyValue(name).trim();
              return ["--board", "--accent", "--bar"].map(value).join(" ");
            }""",
            key,
        )
    assert len(set(palettes.values())) == len(palettes), palettes
    page.close()
    game = debt_game(server, browser)
    assert game.locator(".token .token-icon").count() == 2
    assert game.locator(".player-card .token-badge .token-icon").count() == 2
    game.close()


def test_an_absent_players_panel_counts_down_to_the_hand_over(
    tmp_path: Any, browser: Browser
) -> None:
    """Before others may hand an absent person's seat to a computer, the panel shows how
    long that person still has; then the hand-over button appears. Watchers are counted."""
    config = ServerConfig(bot_delay=0, absence_timeout=8)  # a slow page still sees it count
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as server:
        created = create(server.base, seats=[{"type": "human"}, {"type": "human"}])
        game_id = created["game_id"]
        bob = join_game(server.base, game_id, "Bob", "boot")
        start_game(server.base, game_id, created["seat_token"])
        ann = browser.new_page(viewport={"width": 1366, "height": 768})
        open_seat(ann, server.base, game_id, created["seat_token"])
        ann.locator(".board-svg").wait_for()  # either may start: the turn order is rolled
        watcher = Player(server.base, game_id)
        ann.locator("[data-testid=watchers]", has_text="1 watching").wait_for()
        watcher.close()
        bob_card = ann.locator(".player-card[data-seat='1']")
        countdown = bob_card.locator("[data-testid=countdown]")
        countdown.wait_for()
        first = countdown.inner_text()
        assert re.fullmatch(r"a computer may take over in [1-8] s", first), first
        bob_card.locator("[data-testid=hand-to-bot]").wait_for(timeout=12_000)
        assert countdown.count() == 0
        ann.close()
        assert bob["seat"] == 1


def test_chat_in_the_waiting_room_and_in_the_game_shows_text_not_markup(
    server: ServerThread, browser: Browser
) -> None:
    created = create(server.base, seats=[{"type": "human"}, {"type": "human"}])
    game_id = created["game_id"]
    bob_seat = join_game(server.base, game_id, "Bob", "boot")
    ann = browser.new_page(viewport={"width": 1366, "height": 768})
    bob = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = watch_errors(ann) + watch_errors(bob)
    open_seat(ann, server.base, game_id, created["seat_token"])
    open_seat(bob, server.base, game_id, bob_seat["seat_token"])
    for page in (ann, bob):  # both connections are open before anyone chats
        page.locator("#conn[data-status=online]").wait_for()
    ann.locator(".waiting-card #chat-input").fill("<img src=x onerror=alert(1)> hi Bob")
    ann.locator(".waiting-card #chat-input").press("Enter")
    line = bob.locator("#chat-list li", has_text="hi Bob")
    line.wait_for()
    assert line.inner_text() == "Ann: <img src=x onerror=alert(1)> hi Bob"
    assert bob.locator("#chat-list img").count() == 0
    # A line typed while Ann's connection is down is kept, announced, and sent on return.
    ann.evaluate("window.monopolyScreen.connection.socket.close()")
    ann.locator(".waiting-card #chat-input").fill("back soon")
    ann.locator(".waiting-card #chat-input").press("Enter")
    queued = ann.locator("[data-testid=chat-queued]")
    assert queued.inner_text() == (
        "Not connected: your message will be sent when the connection is back."
    )
    bob.locator("#chat-list li", has_text="Ann: back soon").wait_for()
    ann.locator("#conn[data-status=online]").wait_for()
    ann.locator("#chat-list li", has_text="Ann: back soon").wait_for()
    queued.wait_for(state="hidden")
    ann.locator("[data-testid=start]").click()
    bob.locator(".board-svg").wait_for()
    assert "Ann: <img" in bob.locator("#log").inner_text()  # the earlier chat stays
    bob.locator(".log #chat-input").fill("good luck")
    bob.locator(".log [data-testid=chat-form] button").click()
    ann.locator("#log li.log-chat", has_text="Bob: good luck").wait_for()
    assert ann.locator(".log #chat-input").get_attribute("maxlength") == "300"
    assert errors == []
    ann.close()
    bob.close()


def test_the_host_gives_a_free_seat_to_a_computer_in_the_waiting_room(
    server: ServerThread, browser: Browser
) -> None:
    created = create(server.base, seats=[{"type": "human"}, {"type": "human"}])
    page = browser.new_page()
    errors = watch_errors(page)
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    start = page.locator(".waiting-card [data-testid=start]")
    assert start.is_disabled()
    page.locator("[data-testid=host-seat-1]").select_option("bot:easy")
    page.locator(".seat-table", has_text="Bot 2 (Easy)").wait_for()
    assert start.is_enabled()
    start.click()
    page.locator(".board-svg").wait_for()
    assert errors == []
    page.close()


def test_the_turn_timer_counts_down_in_the_decision_panel(tmp_path: Any, browser: Browser) -> None:
    config = ServerConfig(bot_delay=0, turn_timer=30)
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as server:
        created = create(server.base, seats=[{"type": "human"}, {"type": "bot", "level": "easy"}])
        start_game(server.base, created["game_id"], created["seat_token"])
        page = browser.new_page()
        open_seat(page, server.base, created["game_id"], created["seat_token"])
        clock = page.locator("#decision [data-testid=turn-timer]")
        clock.wait_for()
        first = int(re.sub(r"\D", "", clock.inner_text()))
        assert 25 <= first <= 30
        page.wait_for_function(
            "n => Number(document.querySelector('[data-testid=turn-timer]').textContent"
            ".replace(/\\D/g, '')) < n",
            arg=first,
            timeout=3000,
        )
        page.close()


def test_the_host_changes_the_rules_in_the_waiting_room(
    server: ServerThread, browser: Browser
) -> None:
    created = create(server.base, seats=[{"type": "human"}, {"type": "bot", "level": "easy"}])
    page = browser.new_page()
    errors = watch_errors(page)
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    card = page.locator(".waiting-card")
    card.locator("[data-testid=starting-cash]", has_text="$1,500").wait_for()
    page.locator("details.host-rules > summary").click()
    page.locator("#host-preset").select_option("speed")
    page.locator("[data-testid=host-rules]").click()
    card.locator("[data-testid=starting-cash]", has_text="$2,500").wait_for()
    assert "Speed Die" in card.inner_text()
    assert errors == []
    page.close()
