"""The page handles the server's messages in the order they came, even when one of them
waits: the waiting room (drawn once the rules' options have loaded) must not be drawn
over the board of the game's first state that came after it.

A slow answer to ``/api/options`` — a loaded server, a phone on a bad line — made the
waiting room of the ``lobby`` message appear after the board of the ``state`` message
that followed it: the person then looked at a waiting room while the game went on.
Debian's Chromium, driven by Playwright, holds that answer back until the game's first
state has reached the page.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, Route

from monopoly.web.session import ServerConfig

from .conftest import ROBOT_LIMITS
from .servers import WAIT, ServerThread, create_game, start_game
from .test_e2e_deltas import COUNT_MESSAGES
from .test_e2e_game import WAIT_MS, chromium, watch_errors

SEATS = [{"type": "human"}, {"type": "bot", "level": "easy"}]

RECORD_SCREENS = """{
  window.screensShown = [];
  new MutationObserver(() => {
    const shown = document.querySelector('main')?.firstElementChild?.className ?? '';
    if (shown && window.screensShown.at(-1) !== shown) window.screensShown.push(shown);
  }).observe(document, { childList: true, subtree: true });
}"""
"""Records each screen ``main`` shows, in order (its first child's class)."""

BOTH_SHOWN = """() => {
  const shown = window.screensShown ?? [];
  return shown.some((name) => name.includes('waiting-card'))
    && shown.some((name) => name.includes('game-layout'));
}"""


def test_the_board_of_the_first_state_is_not_covered_by_a_late_waiting_room(
    tmp_path: Path,
) -> None:
    config = ServerConfig(bot_delay=0, testing=True, limits=ROBOT_LIMITS)
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as server, chromium() as browser:
        created = create_game(server.base, SEATS)
        game_id, token = created["game_id"], created["seat_token"]
        page = browser.new_page()
        errors = watch_errors(page)
        page.goto(f"{server.base}/?lang=en")
        page.evaluate(
            "([id, token]) => localStorage.setItem('monopoly.seat.' + id, token)", [game_id, token]
        )
        page.add_init_script(RECORD_SCREENS)
        held: list[Route] = []

        def hold_the_first(route: Route) -> None:
            if held:
                route.continue_()
            else:
                held.append(route)

        page.route("**/api/options*", hold_the_first)
        page.add_init_script(COUNT_MESSAGES)
        page.goto(f"{server.base}/?game={game_id}")
        wait_until(page, lambda: bool(held), "the waiting room asked for the options")
        start_game(server.base, game_id, token)
        came = "window.messagesReceived.state > 0"
        wait_until(page, lambda: bool(page.evaluate(came)), "a state came")
        held[0].continue_()
        page.wait_for_function(BOTH_SHOWN, timeout=WAIT_MS)
        shown = page.evaluate("window.screensShown")
        assert "game-layout" in shown[-1], f"the page shows {shown[-1]!r} (screens: {shown})"
        spaces = page.evaluate("document.querySelectorAll('.board .space').length")
        assert spaces == 40
        assert errors == []


def wait_until(page: Page, happened: Callable[[], bool], what: str) -> None:
    """Let Playwright deliver its events until ``happened()`` is true (at most WAIT s)."""
    deadline = time.monotonic() + WAIT
    while not happened():
        assert time.monotonic() < deadline, f"waited in vain until {what}"
        page.wait_for_timeout(50)
