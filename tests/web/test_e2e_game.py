"""The browser game end to end: Debian's Chromium, driven by Playwright, plays a short game
against a computer player on a real server — building, an auction, a trade, a reload and
a server restart on the way — to the game-over screen.

The helpers here (browser, game table) are shared with ``test_e2e_lobby.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .servers import ServerProcess, free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
WAIT_MS = 20_000
"""How long a page may take to show what must come (a failing test stops here)."""

DECISION_READY = """() => {
  const panel = document.querySelector('#decision');
  if (!panel) return false;
  const kind = panel.dataset.kind;
  if (kind === 'over') return true;
  if (!kind || kind === 'wait') return false;
  return panel.querySelector('[data-act]:not([disabled])') !== null;
}"""


@contextmanager
def chromium() -> Iterator[Browser]:
    """Chromium from Debian, headless; every context gets a new empty profile.

    Pages bypass the server's Content-Security-Policy unless opened with
    ``bypass_csp=False``: Playwright evaluates ``wait_for_function`` predicates with
    ``eval``, which the policy forbids (test_hostile.py plays under the policy)."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        browser.new_page = partial(browser.new_page, bypass_csp=True)  # type: ignore[method-assign]
        browser.new_context = partial(browser.new_context, bypass_csp=True)  # type: ignore[method-assign]
        try:
            yield browser
        finally:
            browser.close()


def create(base: str, **request: Any) -> dict[str, Any]:
    """Create a game over HTTP (as the lobby form does); returns the server's answer."""
    body = {"edition": "classic", "language": "en", "name": "Ann", "token": "cat", **request}
    response = httpx.post(f"{base}/api/games", json=body)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def open_seat(page: Page, base: str, game_id: str, seat_token: str) -> None:
    """Open a game as the browser of the seat whose secret token this is."""
    page.goto(f"{base}/?lang=en")
    page.evaluate(
        "([id, token]) => localStorage.setItem('monopoly.seat.' + id, token)", [game_id, seat_token]
    )
    page.goto(f"{base}/?game={game_id}")


def watch_errors(page: Page) -> list[str]:
    """Collect the page's uncaught script errors (a test asserts there were none)."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def decision(page: Page) -> str:
    """Wait until the player must decide something (or the game is over); its kind.

    A page that stalls fails with what it shows: the panel, the connection's status and
    the last lines of the log."""
    try:
        page.wait_for_function(DECISION_READY, timeout=WAIT_MS)
    except PlaywrightTimeout:
        raise AssertionError(f"no decision to take: {stalled_page(page)}") from None
    kind: str = page.locator("#decision").get_attribute("data-kind") or ""
    return kind


def stalled_page(page: Page) -> str:
    """What a stalled page shows, for the failure's message."""
    return str(
        page.evaluate(
            """() => JSON.stringify({
              panel: document.querySelector('#decision')?.outerHTML.slice(0, 3000),
              conn: document.querySelector('#conn')?.dataset.status,
              log: document.querySelector('#log')?.innerText.split('\\n').slice(-15),
            }, null, 1)"""
        )
    )


def click_act(page: Page, act: str) -> None:
    page.locator(f"#decision [data-act='{act}']:not([disabled])").first.click()


def log_text(page: Page) -> str:
    return page.locator("#log").inner_text()


def wait_log(page: Page, pattern: str) -> None:
    """Wait until a line of the game log matches the regular expression ``pattern``."""
    page.wait_for_function(
        "pattern => new RegExp(pattern).test(document.querySelector('#log').innerText)",
        arg=pattern,
        timeout=WAIT_MS,
    )


def wait_level(page: Page, space: int, level: int) -> None:
    """Wait until the board shows ``level`` buildings on ``space``."""
    page.locator(f".space[data-space='{space}'][data-level='{level}']").wait_for()


def space_attr(page: Page, space: int, name: str) -> str:
    return page.locator(f".space[data-space='{space}']").get_attribute(f"data-{name}") or ""


@dataclass
class Plan:
    """What the main test wants to have done on the way through the game."""

    declined: int = 0
    bid: int | None = None
    kinds: set[str] = field(default_factory=set)


def answer(page: Page, kind: str, plan: Plan) -> None:
    """Answer one decision like a person who wants to see an auction and bid in it."""
    plan.kinds.add(kind)
    panel = page.locator("#decision")
    if kind == "buy":
        if plan.bid is None:
            plan.declined += 1
            click_act(page, "decline")
        else:
            click_act(page, "buy" if panel.locator("[data-act='buy']").count() else "decline")
    elif kind == "bid":
        if plan.bid is None and panel.locator("#bid-amount").count():
            bid_with_quick_button(page, plan)
        else:
            click_act(page, "pass")
    elif kind == "raise_cash":
        raising = panel.locator(".raise-list [data-act]:not([disabled])")
        if raising.count():
            raising.first.click()
        else:
            click_act(page, "bankrupt")
    elif kind == "trade":
        click_act(page, "reject_trade")
    else:
        panel.locator("[data-primary]:not([disabled]), [data-act]:not([disabled])").first.click()


def bid_with_quick_button(page: Page, plan: Plan) -> None:
    """Use +10 on the highest bid, check the amount it puts in, and bid it."""
    amount = page.locator("#bid-amount")
    low = int(amount.get_attribute("min") or 0)
    high = int(amount.get_attribute("max") or 0)
    page.locator("#decision [data-quick='10']").click()
    value = int(amount.input_value())
    assert low <= value <= high
    plan.bid = value
    click_act(page, "bid")


def play(page: Page, plan: Plan, until: Any, limit: int = 400) -> str:
    """Answer decisions until ``until(kind)`` holds for the pending one; returns its kind."""
    for _ in range(limit):
        kind = decision(page)
        if until(kind) or kind == "over":
            return kind
        answer(page, kind, plan)
    raise AssertionError(f"{limit} decisions and still not there; seen {plan.kinds}")


# ---------------------------------------------------------------------- the main game
LIGHT_BLUE = (6, 8, 9)
START = {
    "players": [{"cash": 1500, "position": 20}, {"cash": 1500, "position": 0}],
    "properties": {
        "6": {"owner": 0},
        "8": {"owner": 0},
        "9": {"owner": 0},
        "39": {"owner": 0},
        "37": {"owner": 1},
    },
    "turn": 0,
}
"""Ann owns the light blue group and Boardwalk, the computer Park Place; Ann stands on
Free Parking, where most rolls reach a property nobody owns."""
SEED = 3
"""Fixed dice (until the restart): Ann's first roll reaches a property nobody owns, so
the game has something to decline and auction before its turn limit."""


def test_a_short_game_against_a_computer_player_from_start_to_results(tmp_path: Path) -> None:
    db, port = tmp_path / "games.sqlite3", free_port()
    server = ServerProcess(db, "--port", str(port)).__enter__()
    try:
        created = create(
            server.base,
            rules={"preset": "standard", "options": {"turn_limit": 14}},
            seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
            position=START,
            seed=SEED,
        )
        game_id = created["game_id"]
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors = watch_errors(page)
            open_seat(page, server.base, game_id, created["seat_token"])
            start_from_the_waiting_room(page)
            build_evenly_and_sell(page)
            trade_with_the_computer(page)
            plan = Plan()
            play(page, plan, lambda kind: plan.bid is not None and kind == "roll")
            assert plan.declined >= 1
            assert re.search(r"(Ann|Bot 2 \(Easy\)) wins .+ for \$", log_text(page))
            reload_and_find_the_same_seat(page)
            server = restart_the_server(page, server, db, port)
            assert play(page, plan, lambda kind: False) == "over"
            results_are_shown(page)
            assert errors == []
    finally:
        server.__exit__(None, None, None)


def start_from_the_waiting_room(page: Page) -> None:
    page.get_by_role("heading", name="MONOPOLY (classic)").wait_for()
    assert "?join=" in page.locator("#invite-url").input_value()
    assert "?watch=" in page.locator("#watch-url").input_value()
    page.locator("[data-testid=start]").click()
    page.locator(".board-svg").wait_for()
    assert decision(page) == "roll"
    assert page.locator(".space[data-space='39'] .space-name").text_content() == "Boardwalk"
    assert space_attr(page, 39, "owner") == "0"
    assert page.locator(".token").count() == 2


def build_evenly_and_sell(page: Page) -> None:
    """The manage panel offers only even building; houses appear on the board."""
    page.locator("[data-testid=manage]").click()
    dialog = page.locator("dialog.manage-dialog")
    dialog.locator("[data-key='build-6']").click()
    wait_level(page, 6, 1)
    assert dialog.locator("[data-key='build-6']").count() == 0  # evenly: 8 and 9 first
    dialog.locator("[data-key='build-8']").click()
    dialog.locator("[data-key='build-9']").click()
    wait_level(page, 9, 1)
    assert [space_attr(page, s, "level") for s in LIGHT_BLUE] == ["1", "1", "1"]
    assert page.locator(".space[data-space='9'] .house").count() == 1
    assert dialog.locator("[data-key='mortgage-6']").count() == 0  # built on: no mortgage
    dialog.locator("[data-key='sell-9']").click()
    wait_level(page, 9, 0)
    dialog.locator("[data-key='mortgage-39']").click()
    page.wait_for_function("document.querySelector(\".space[data-space='39'] .mortgage-cover\")")
    dialog.locator("[data-key='unmortgage-39']").click()
    page.wait_for_function("!document.querySelector(\".space[data-space='39'] .mortgage-cover\")")
    dialog.locator("button.close").click()
    log = log_text(page)
    assert "Ann buys a house on Oriental Avenue for $50." in log
    assert "Ann mortgages Boardwalk for $200." in log


def trade_with_the_computer(page: Page) -> None:
    """Offer Boardwalk for Park Place; the computer answers and everyone sees how."""
    page.locator("[data-testid=trade]").click()
    dialog = page.locator("dialog.trade-dialog")
    dialog.locator("[data-key='give-39']").check()
    dialog.locator("[data-key='take-37']").check()
    page.wait_for_function("!document.querySelector('[data-testid=propose]').disabled")
    assert dialog.locator("#trade-status").inner_text() == "This offer is possible."
    # The send button is described by that status (why it is off, when it is).
    assert dialog.locator("[data-testid=propose]").get_attribute("aria-describedby") == (
        "trade-status"
    )
    dialog.locator("[data-testid=propose]").click()
    wait_log(page, "(accepts|rejects) the trade offered by Ann")
    accepted = "accepts the trade offered by Ann" in log_text(page)
    page.locator(".toast", has_text="the trade offered by Ann").first.wait_for()
    page.wait_for_function(DECISION_READY, timeout=WAIT_MS)
    expected = ("0", "1") if accepted else ("1", "0")
    assert (space_attr(page, 37, "owner"), space_attr(page, 39, "owner")) == expected


def reload_and_find_the_same_seat(page: Page) -> None:
    cash_before = page.locator(".player-card.me .player-cash").inner_text()
    lines_before = log_text(page).splitlines()
    page.reload()
    page.locator(".board-svg").wait_for()
    decision(page)
    assert page.locator(".player-card.me .player-name").inner_text().startswith("Ann")
    assert page.locator(".player-card.me .player-cash").inner_text() == cash_before
    assert log_text(page).splitlines()[: len(lines_before)] == lines_before


def restart_the_server(page: Page, server: ServerProcess, db: Path, port: int) -> ServerProcess:
    """Kill the server mid-game: the page says so, reconnects by itself, play goes on."""
    kind_before = decision(page)
    server.kill()
    server.__exit__(None, None, None)
    page.locator("#conn[data-status='reconnecting']").wait_for()
    assert "reconnecting" in page.locator("#conn").inner_text()
    again = ServerProcess(db, "--port", str(port)).__enter__()
    page.locator("#conn[data-status='online']").wait_for(timeout=WAIT_MS)
    assert decision(page) == kind_before
    return again


def results_are_shown(page: Page) -> None:
    dialog = page.locator("dialog[data-testid=game-over]")
    dialog.wait_for()
    assert "Game over" in dialog.locator(".winner-text").inner_text()
    rows = dialog.locator("table.ranking tbody tr")
    assert rows.count() == 2
    names = rows.locator("th").all_inner_texts()
    assert any("Ann" in name for name in names) and any("Bot 2" in name for name in names)
    first_worth = rows.first.locator("td.num").first.inner_text()
    assert first_worth.startswith("$")
    assert re.search("turn limit was reached|went bankrupt", dialog.inner_text())
