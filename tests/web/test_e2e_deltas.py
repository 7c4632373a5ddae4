"""Deltas in the browser: a page that followed a long game by ``delta`` messages shows
exactly what a page opened afresh (one whole ``state``) shows.

Debian's Chromium, driven by Playwright, opens the person's seat and only watches; the
person's moves come from a WebSocket client of the test, three computer players (no
delay) take the other seats, so hundreds of changes reach the page as deltas.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from monopoly.web.session import ServerConfig

from .conftest import ROBOT_LIMITS
from .servers import WAIT, Player, ServerThread, create_game, simple_answer, start_game
from .test_e2e_game import WAIT_MS, chromium, open_seat, watch_errors

SEATS = [{"type": "human"}] + [{"type": "bot", "level": "easy"}] * 3
FOLLOWER_LIMITS = replace(ROBOT_LIMITS, queue_messages=100_000, queue_bytes=256 * 1024 * 1024)
"""The follower may lag as far behind as it likes: on a busy machine Chromium can fall
200 messages behind, and the server would drop it as too slow (a rule with tests of its
own, test_hostile.py); its reconnection starts again from a whole state, and the page
would no longer have followed the game by deltas alone."""
CHECKPOINTS = (60, 150)
"""The person's decisions after which the page is compared with a fresh one."""

COUNT_MESSAGES = r"""(() => {
  // Counted in the page: DevTools' frame events, which the test counted before, can miss
  // frames on a busy machine (103 counted once, on a page that applied every delta).
  window.messagesReceived = { state: 0, delta: 0 };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const type = /^\{"type":"(state|delta)"/.exec(String(event.data));
        if (type) window.messagesReceived[type[1]] += 1;
      });
    }
  };
})();"""
"""Counts the whole states and the deltas the page receives."""

PAGE_STATE = """() => {
  const state = window.monopolyScreen.state;
  const spaces = [...document.querySelectorAll('.space')].map((node) => ({ ...node.dataset }));
  // A cash change floats beside the figure for a moment (an animation, not state): the
  // pages are compared without it.
  const panel = document.querySelector('.players')?.cloneNode(true);
  panel?.querySelectorAll('.money-floats').forEach((node) => node.remove());
  const players = panel?.textContent ?? '';
  const pick = ({ state_id, seat, game, decision, decision_actions, free_actions, bid_range }) =>
    ({ state_id, seat, game, decision, decision_actions, free_actions, bid_range });
  return { state: pick(state), spaces, players };
}"""


def play(ann: Player, decisions: int) -> dict[str, Any]:
    """Let the person answer ``decisions`` times (or until the end); the state then."""
    for _ in range(decisions):
        state = ann.wait_for(
            lambda s: s["game"]["over"] or bool(s["decision"] and s["decision"]["seat"] == 0)
        )
        if state["game"]["over"]:
            return state
        ann.act(simple_answer(state))
        ann.wait_for(lambda s, sent=state["state_id"]: s["state_id"] > sent)
    return ann.wait_for(
        lambda s: s["game"]["over"] or bool(s["decision"] and s["decision"]["seat"] == 0)
    )


def shown(page: Page, state_id: int) -> dict[str, Any]:
    """What the page shows once it has reached ``state_id``."""
    page.wait_for_function(
        "id => window.monopolyScreen?.state?.state_id === id && window.monopolyScreen.layout",
        arg=state_id,
        timeout=WAIT_MS,
    )
    snapshot: dict[str, Any] = page.evaluate(PAGE_STATE)
    return snapshot


def same_as_fresh(follower: Page, fresh: Page, state_id: int, errors: list[str]) -> None:
    """The pages agree (the players' panel may wait for the presence both are sent);
    a failure names the follower's page errors too."""
    deadline = time.monotonic() + WAIT
    while True:
        followed, anew = shown(follower, state_id), shown(fresh, state_id)
        if followed == anew or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert followed["state"] == anew["state"], errors
    assert followed["spaces"] == anew["spaces"], errors
    assert followed["players"] == anew["players"], errors


def test_a_page_that_followed_a_long_game_by_deltas_matches_a_fresh_page(tmp_path: Path) -> None:
    config = ServerConfig(bot_delay=0, absence_timeout=60, testing=True, limits=FOLLOWER_LIMITS)
    with ServerThread(str(tmp_path / "games.sqlite3"), config) as server, chromium() as browser:
        rules = {"preset": "standard", "options": {"turn_limit": 400}}
        created = create_game(server.base, SEATS, rules=rules, seed=11)
        game_id, token = created["game_id"], created["seat_token"]
        follower = browser.new_page()
        errors = watch_errors(follower)
        follower.add_init_script(COUNT_MESSAGES)
        open_seat(follower, server.base, game_id, token)
        start_game(server.base, game_id, token)
        ann = Player(server.base, game_id, token)
        done = 0
        for checkpoint in CHECKPOINTS:
            state = play(ann, checkpoint - done)
            done = checkpoint
            fresh = browser.new_page()
            open_seat(fresh, server.base, game_id, token)
            same_as_fresh(follower, fresh, state["state_id"], errors)
            fresh.close()
        ann.close()
        counted = follower.evaluate("window.messagesReceived")
        states, deltas = counted["state"], counted["delta"]
        assert states == 1, f"the page got {states} whole states: it did not follow by deltas"
        # at least one per decision of the person (the computers' moves come in batches)
        assert deltas >= CHECKPOINTS[-1], f"the page got {deltas} deltas: it must follow them all"
        assert state["state_id"] > 400
        assert errors == []
