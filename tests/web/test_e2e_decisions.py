"""The debtor's decision panel, and decisions the page has no special form for, in
Debian's Chromium against a real server.

A player who owes more than they hold but can still sell is never told to wait for
themself: the panel says what they owe, to whom and why, how much is missing, how much
selling and mortgaging can still raise, offers each sale and mortgage with its amount and
a trade, and keeps bankruptcy back while it is not allowed (R-DEBT-1, R-DEBT-2).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from .servers import ServerThread
from .test_e2e_game import chromium, create, log_text, open_seat, watch_errors

NEW_YORK = 19
DEBT_START = {
    "players": [{"cash": 60, "position": 10}, {"cash": 1500}],
    "properties": {
        "16": {"owner": 1, "buildings": 1},
        "18": {"owner": 1, "buildings": 1},
        "19": {"owner": 1, "buildings": 1},
        "6": {"owner": 0, "buildings": 1},
        "8": {"owner": 0, "buildings": 1},
        "9": {"owner": 0, "buildings": 1},
        "12": {"owner": 0},
    },
    "turn": 0,
}
"""Ann has $60, a house on each light blue and the Electric Company; the computer's
oranges have a house each."""
SEED = 8
"""The server's dice for this seed: Ann's first roll is 3 + 6, onto New York Avenue
(rent $80 with one house)."""

TEXTS = {
    "en": {
        "heading": "You must raise cash",
        "owe": "You owe $80 to Bot 2 (Easy): rent.",
        "missing": "Your cash: $60 — still missing: $20.",
        "raisable": "Selling buildings and mortgaging can still raise $310.",
        "sell": "Sell a house on {oriental} (+$25)",
        "mortgage": "Mortgage {electric} for $75",
        "trade": "Propose a trade",
        "paid": "Ann pays Bot 2 (Easy) $80 rent for {new_york}.",
    },
    "de": {  # the page's amounts never break between number and symbol (no-break space)
        "heading": "Du musst Geld beschaffen",
        "owe": "Du schuldest Bot 2 (Leicht) 80\xa0€: Miete.",
        "missing": "Dein Geld: 60\xa0€ — es fehlen noch 20\xa0€.",
        "raisable": (
            "Durch Verkaufen von Gebäuden und Hypotheken kannst du noch 310\xa0€ beschaffen."
        ),
        "sell": "Haus auf {oriental} verkaufen (+25\xa0€)",
        "mortgage": "{electric} mit Hypothek belasten (75\xa0€)",
        "trade": "Handel vorschlagen",
        "paid": "Ann zahlt Bot 2 (Leicht) 80 € Miete für {new_york}.",
    },
}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_debtor_sees_the_debt_and_every_way_to_raise_it(
    server: ServerThread, browser: Browser, language: str
) -> None:
    """R-DEBT-1, R-DEBT-2: the panel of a debtor who can still sell, then the payment."""
    created = create(
        server.base,
        language=language,
        rules={"preset": "standard", "options": {}},
        seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
        position=DEBT_START,
        seed=SEED,
    )
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = watch_errors(page)
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    page.goto(f"{server.base}/?game={created['game_id']}&lang={language}")  # the page's choice
    page.locator("[data-testid=start]").click()
    panel = page.locator("#decision")
    panel.locator("[data-act=roll]").click()
    page.locator("#decision[data-kind=raise_cash]").wait_for()
    names = {
        "oriental": space_name(server.base, language, 6),
        "electric": space_name(server.base, language, 12),
        "new_york": space_name(server.base, language, 19),
    }
    words = {key: value.format(**names) for key, value in TEXTS[language].items()}
    text = panel.inner_text()
    assert panel.locator("h2").inner_text() == words["heading"]
    for key in ("owe", "missing", "raisable"):
        assert words[key] in text, (key, text)
    raise_list = panel.locator(".raise-list button")
    labels = raise_list.all_inner_texts()
    assert len(labels) == 4 and words["sell"] in labels and words["mortgage"] in labels, labels
    assert panel.get_by_role("button", name=words["trade"]).is_enabled()
    assert panel.locator("[data-act=bankrupt]").count() == 0  # R-DEBT-2: not yet allowed
    panel.get_by_role("button", name=words["trade"]).click()
    page.locator("dialog.trade-dialog[open]").wait_for()
    page.locator("dialog.trade-dialog button.close").click()
    raise_list.filter(has_text=words["sell"]).click()  # $60 + $25 covers the $80
    page.wait_for_function("document.querySelector('#decision').dataset.kind !== 'raise_cash'")
    assert words["paid"] in log_text(page)
    assert errors == []
    page.close()


@pytest.mark.parametrize(
    ("language", "owed", "logged"),
    [
        ("en", "You owe $100 to the Bank", "Ann owes $100 to the Bank and must raise cash."),
        (
            "de",
            "Du schuldest der Bank 100\xa0€",
            "Ann schuldet der Bank 100 € und muss Geld beschaffen.",
        ),
    ],
)
def test_a_debt_to_the_bank_names_the_bank_with_its_article(
    server: ServerThread, browser: Browser, language: str, owed: str, logged: str
) -> None:
    """Luxury Tax with $50 in hand: "to the Bank" / "der Bank", not a bare "Bank"."""
    created = create(
        server.base,
        language=language,
        seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
        position={"players": [{"position": 35, "cash": 50}, {}], "properties": {"5": {"owner": 0}}},
        seed=3,  # Ann rolls 2 + 1: Luxury Tax
    )
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    errors = watch_errors(page)
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    page.goto(f"{server.base}/?game={created['game_id']}&lang={language}")
    page.locator("[data-testid=start]").click()
    page.locator("#decision [data-act=roll]").click()
    page.locator("#decision[data-kind=raise_cash]").wait_for()
    assert owed in page.locator("#decision").inner_text()
    assert logged in log_text(page).splitlines()
    assert errors == []
    page.close()


def space_name(base: str, language: str, space: int) -> str:
    edition = httpx.get(f"{base}/api/editions/classic", params={"language": language}).json()
    name: str = edition["spaces"][space]["name"]
    return name


# ---------------------------------------------------------------------- unknown kinds
RENDER = """async ([decision, actions]) => {
  const { renderDecision } = await import("/js/decision.js");
  const response = await fetch("/api/editions/classic?language=en");
  const edition = await response.json();
  const level = Array(40).fill(0);
  level[37] = 5; level[39] = 5;
  const sent = [];
  const screen = {
    seat: 0, spectator: false, busy: false, over: null, edition,
    state: {
      decision, decision_actions: actions, free_actions: [], bid_range: null,
      game: {
        players: [{ seat: 0, name: "Ann", active: true, cash: 100, properties: [37, 39] },
                  { seat: 1, name: "Bob", active: true, cash: 100, properties: [] }],
        level, hotel_level: 5, mortgaged: Array(40).fill(false), claims: [], doubles: 0,
        current: 0, rules: {}, language: "en", bank: { houses: 1, hotels: 10 },
      },
    },
    board: { stopChoosing() {}, choose() {} },
    space: (i) => edition.spaces[i],
    spaceName: (i) => edition.spaces[i].name,
    player: (s) => screen.state.game.players[s],
    playerName: (s) => screen.state.game.players[s].name,
    money: (a) => "$" + a,
    act: (action) => sent.push(action),
  };
  window.sentActions = sent;
  const node = document.createElement("section");
  node.id = "fake-decision";
  document.body.append(node);
  renderDecision(screen, node, true);
  const buttons = [...node.querySelectorAll("button")].map((b) => b.textContent);
  return { kind: node.dataset.kind, buttons, text: node.innerText };
}"""


def render(browser: Browser, base: str, decision: dict[str, Any], actions: list[Any]) -> Any:
    page = browser.new_page()
    page.goto(f"{base}/?lang=en")
    page.locator("#lang-select").wait_for()
    result = page.evaluate(RENDER, [decision, actions])
    page.locator("#fake-decision button").first.click()
    result["sent"] = page.evaluate("window.sentActions")
    page.close()
    return result


def test_a_breakdown_decision_offers_one_button_per_arrangement(
    server: ServerThread, browser: Browser
) -> None:
    """Selling a hotel while the Bank lacks houses: each arrangement names the streets
    and their new buildings, and a click sends exactly that answer."""
    decision = {"kind": "breakdown", "seat": 0, "space": 39, "name": "Ann"}
    actions = [
        {"act": "choose_breakdown", "seat": 0, "levels": [1, 0]},
        {"act": "choose_breakdown", "seat": 0, "levels": [0, 1]},
    ]
    result = render(browser, server.base, decision, actions)
    assert result["kind"] == "breakdown"
    assert result["buttons"] == [
        "Park Place: 1 house · Boardwalk: no buildings",
        "Park Place: no buildings · Boardwalk: 1 house",
    ]
    assert result["sent"] == [actions[0]]


def test_a_decision_kind_the_page_does_not_know_gets_a_button_per_answer(
    server: ServerThread, browser: Browser
) -> None:
    decision = {"kind": "something_new", "seat": 0, "space": -1, "name": "Ann"}
    actions = [
        {"act": "pick_colour", "seat": 0, "colour": "red"},
        {"act": "pick_colour", "seat": 0, "colour": "blue"},
    ]
    result = render(browser, server.base, decision, actions)
    assert result["kind"] == "something_new"
    assert "Waiting" not in result["text"]
    assert result["buttons"] == ["Pick colour (colour: red)", "Pick colour (colour: blue)"]
    assert result["sent"] == [actions[0]]
    assert re.search("Your decision", result["text"])


# ---------------------------------------------------------------------- the Speed Die
DICE = """async (dice) => {
  const { Board } = await import("/js/board.js");
  const response = await fetch("/api/editions/classic?language=en");
  const edition = await response.json();
  const node = document.createElement("div");
  document.body.append(node);
  const board = new Board(node, edition, { language: "en" });
  board.drawDice(dice);
  return [...node.querySelectorAll(".die")].map((die) => ({
    face: die.dataset.face || "",
    pips: die.querySelectorAll(".pip").length,
    bus: die.querySelectorAll(".face-bus").length,
    mr: die.querySelectorAll(".face-mr").length,
    title: die.querySelector("title").textContent,
  }));
}"""


@pytest.mark.parametrize(
    ("dice", "face"),
    [([3, 4, "bus"], "bus"), ([3, 4, "mr_monopoly"], "mr_monopoly"), ([3, 4, 4], "bus")],
)
def test_the_speed_die_shows_the_bus_and_mr_monopoly(
    server: ServerThread, browser: Browser, dice: list[Any], face: str
) -> None:
    """R-SPEED-4/5: the third die shows a bus or Mr. Monopoly, never 4 or 5 pips (also
    for the engine's codes, as servers before the named faces sent them)."""
    page = browser.new_page()
    page.goto(f"{server.base}/?lang=en")
    page.locator("#lang-select").wait_for()
    white_a, white_b, speed = page.evaluate(DICE, dice)
    assert (white_a["pips"], white_b["pips"]) == (3, 4)
    assert speed["pips"] == 0 and speed["face"] == face
    assert (speed["bus"], speed["mr"]) == ((1, 0) if face == "bus" else (0, 1))
    assert speed["title"] == ("Speed Die: Bus" if face == "bus" else "Speed Die: Mr. Monopoly")
    page.close()


# ---------------------------------------------------------------------- layout
def fully_visible(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    view = page.viewport_size
    assert box is not None and view is not None
    return bool(
        box["y"] >= 0
        and box["x"] >= 0
        and box["y"] + box["height"] <= view["height"] + 1
        and box["x"] + box["width"] <= view["width"] + 1
    )


def debt_game(server: ServerThread, browser: Browser, width: int = 1366, height: int = 768) -> Page:
    """Ann ($60, houses on the light blues) about to roll onto New York Avenue."""
    created = create(
        server.base,
        rules={"preset": "standard", "options": {}},
        seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
        position=DEBT_START,
        seed=SEED,
    )
    page = browser.new_page(viewport={"width": width, "height": height})
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    page.locator("[data-testid=start]").click()
    page.locator("#decision [data-act=roll]").wait_for()
    return page


def test_at_1366_by_768_board_decision_and_last_log_line_show_without_scrolling(
    server: ServerThread, browser: Browser
) -> None:
    """The debtor's panel, the biggest one, still leaves the log's last lines in view;
    on a phone the decision comes first, above the board."""
    page = debt_game(server, browser)
    page.locator("#decision [data-act=roll]").click()
    page.locator("#decision[data-kind=raise_cash]").wait_for()
    assert fully_visible(page, ".board-svg")
    assert fully_visible(page, "#decision")
    assert fully_visible(page, "#log li:last-child")
    assert page.evaluate("document.scrollingElement.scrollTop") == 0
    page.set_viewport_size({"width": 390, "height": 844})
    decision_box = page.locator("#decision").bounding_box()
    board_box = page.locator("#board").bounding_box()
    assert decision_box is not None and board_box is not None
    assert decision_box["y"] + decision_box["height"] <= board_box["y"]
    page.close()
