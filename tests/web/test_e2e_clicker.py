"""A browser player that plays whole games only by clicking what the page shows.

Debian's Chromium, driven by Playwright, sits at one seat of a real server; computer
players (no delay) take the others. At every step the player picks at random among the
visible, enabled controls: the decision panel's buttons, bid amounts and space pickers,
the board's highlighted spaces, and now and then the manage dialog (build, sell,
mortgage, lift) and the trade dialog (ticking deeds, proposing or cancelling). It plays
every rule set (standard, short, speed, short+speed) in both languages to the game-over
screen, and fails the moment the server waits for this seat while its page offers no
control — the class of bug where a debtor read "Waiting for" their own name.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from monopoly.core.editions import get_edition

from .servers import ServerThread
from .test_e2e_game import chromium, create, open_seat, watch_errors

STALL_SECONDS = 20.0
"""How long the game may stand still while the server waits for a computer player."""
MAX_STEPS = 900

SNAPSHOT = """() => {
  const screen = window.monopolyScreen;
  if (!screen || !screen.state || !screen.layout) return { ready: false };
  const state = screen.state;
  const me = state.game.players[screen.seat];
  const decision = state.decision;
  const visible = (el) => el.getClientRects().length > 0
    && getComputedStyle(el).visibility !== "hidden";
  const panel = document.querySelector("#decision");
  const controls = [...panel.querySelectorAll("button, input, select")]
    .filter((el) => !el.disabled && visible(el));
  const choosable = document.querySelectorAll(".space.choosable").length;
  return {
    ready: true,
    over: Boolean(screen.over) || state.game.over,
    mine: Boolean(decision && me && me.active && decision.seat === screen.seat),
    waiting_for: decision ? decision.seat : null,
    busy: screen.busy,
    state_id: state.state_id,
    kind: decision ? decision.kind : null,
    controls: controls.length + choosable,
    heading: panel.querySelector("h2")?.textContent || "",
    text: panel.innerText,
    name: me ? me.name : "",
    active: Boolean(me && me.active),
    dialog: document.querySelector("dialog[open]")?.className || "",
  };
}"""

STATE_CHANGED = """(previous) => {
  const screen = window.monopolyScreen;
  if (!screen || !screen.state) return false;
  if (screen.over || screen.state.game.over) return true;
  return screen.state.state_id !== previous && !screen.busy;
}"""


class Clicker:
    """Plays one seat by random clicks; counts what it saw and did."""

    def __init__(self, page: Page, rng: random.Random) -> None:
        self.page = page
        self.rng = rng
        self.kinds: Counter[str] = Counter()
        self.clicks: Counter[str] = Counter()

    # ------------------------------------------------------------------ the loop
    def play(self) -> dict[str, Any]:
        page = self.page
        page.wait_for_function("() => window.monopolyScreen && window.monopolyScreen.layout")
        for _ in range(MAX_STEPS):
            snap = self.snapshot()
            if snap["over"]:
                return snap
            if snap["dialog"]:
                self.close_dialogs()
                continue
            if snap["mine"] and not snap["busy"]:
                snap = self.controls_shown(snap)
                assert snap["controls"] > 0, (
                    f"the server waits for {snap['name']} ({snap['kind']}) but the page offers "
                    f"no control: {snap['heading']!r} / {snap['text']!r}"
                )
                assert snap["name"] not in snap["heading"], f"told to wait for oneself: {snap}"
                self.kinds[snap["kind"]] += 1
                self.take_a_turn(snap)
            else:
                self.wait_for_change(snap)
        raise AssertionError(f"{MAX_STEPS} steps and no game over; saw {self.kinds}")

    def snapshot(self) -> dict[str, Any]:
        snap: dict[str, Any] = self.page.evaluate(SNAPSHOT)
        if not snap["ready"]:
            self.page.wait_for_timeout(50)
            return self.snapshot()
        return snap

    def controls_shown(self, snap: dict[str, Any]) -> dict[str, Any]:
        """The page's controls for this seat's decision: with motion, the panel waits
        until the dice have settled and the tokens have walked (at most a few seconds)."""
        deadline = time.monotonic() + STALL_SECONDS
        while snap["controls"] == 0 and snap["mine"] and time.monotonic() < deadline:
            self.page.wait_for_timeout(100)
            snap = self.snapshot()
        return snap

    def wait_for_change(self, snap: dict[str, Any]) -> None:
        """Someone else decides (or an answer is on its way): the state must move on."""
        try:
            self.page.wait_for_function(
                STATE_CHANGED, arg=snap["state_id"], timeout=STALL_SECONDS * 1000
            )
        except PlaywrightError as problem:
            again = self.snapshot()
            if again["mine"] and not again["busy"]:
                return  # a refused action: the same state, the page offers controls again
            raise AssertionError(
                f"the game stood still for {STALL_SECONDS}s waiting for seat "
                f"{again['waiting_for']} ({again['kind']}): {again['text']!r}"
            ) from problem

    # ------------------------------------------------------------------ choices
    def take_a_turn(self, snap: dict[str, Any]) -> None:
        roll = self.rng.random()
        if roll < 0.06 and snap["active"]:
            self.use_manage_dialog()
        elif roll < 0.10 and snap["active"]:
            self.use_trade_dialog(self.page.locator("[data-testid=trade]"))
        elif roll < 0.13 and not self.page.locator(".space.choosable").count():
            self.look_at_a_space()
        else:
            self.click_in_panel(snap)

    def click_in_panel(self, snap: dict[str, Any]) -> None:
        page = self.page
        controls = page.locator(
            "#decision button:visible:enabled, #decision input:visible:enabled, "
            "#decision select:visible:enabled, .space.choosable"
        )
        count = controls.count()
        if not count:
            return
        control = controls.nth(self.rng.randrange(count))
        try:
            bankrupt = control.get_attribute("data-act") == "bankrupt"
            if bankrupt and count > 1 and self.rng.random() < 0.7:  # other ways out first
                control = controls.nth(self.rng.randrange(count))
            tag = control.evaluate("el => el.tagName.toLowerCase()")
            if tag == "input":
                self.type_amount(control)
                return
            if tag == "select":
                options = control.locator("option").all_inner_texts()
                control.select_option(index=self.rng.randrange(len(options)))
                self.clicks["select"] += 1
                return
            key = control.get_attribute("data-key") or control.get_attribute("data-testid") or tag
            control.click(timeout=3000)
            self.clicks[key.split("-")[0]] += 1
        except PlaywrightError:
            return  # re-drawn under the pointer: look again
        opened = page.locator("dialog[open]")
        if opened.count():  # "counter-offer", "propose a trade", "manage" in the panel
            if "trade-dialog" in (opened.first.get_attribute("class") or ""):
                self.fill_trade(opened.first)
            else:
                self.click_in_manage()
            return
        self.settle(snap["state_id"])

    def type_amount(self, control: Any) -> None:
        """A bid: some amount in the range the page states, then the bid button."""
        low = int(control.get_attribute("min") or 0)
        high = int(control.get_attribute("max") or 0)
        amount = min(high, low + int(self.rng.expovariate(1 / 40)))
        control.fill(str(amount))
        self.clicks["amount"] += 1

    def settle(self, state_id: int) -> None:
        """After a click that sends an action: wait for the answer (a new state or an
        error that gives the controls back)."""
        try:
            self.page.wait_for_function(
                """(previous) => {
                  const screen = window.monopolyScreen;
                  return !screen.busy || screen.state.state_id !== previous;
                }""",
                arg=state_id,
                timeout=STALL_SECONDS * 1000,
            )
        except PlaywrightError as problem:
            raise AssertionError("an action got no answer from the server") from problem

    # ------------------------------------------------------------------ dialogs
    def look_at_a_space(self) -> None:
        """Click a space on the board: its card opens (and is closed again)."""
        space = self.rng.randrange(40)
        try:
            self.page.locator(f".space[data-space='{space}']").click(timeout=3000)
            self.page.locator("dialog[data-testid=space-card][open]").wait_for(timeout=3000)
        except PlaywrightError:
            return
        self.clicks["space-card"] += 1
        self.close_dialogs()

    def use_manage_dialog(self) -> None:
        try:
            self.page.locator("[data-testid=manage]").click(timeout=3000)
            self.page.locator("dialog.manage-dialog[open]").wait_for(timeout=3000)
        except PlaywrightError:
            return  # the toolbar was re-drawn under the pointer: look again
        self.clicks["manage"] += 1
        self.click_in_manage()

    def click_in_manage(self) -> None:
        dialog = self.page.locator("dialog.manage-dialog[open]")
        for _ in range(self.rng.randint(1, 3)):
            buttons = dialog.locator(".dialog-body button:visible:enabled")
            if not buttons.count():
                break
            state_id = self.snapshot()["state_id"]
            try:
                buttons.nth(self.rng.randrange(buttons.count())).click(timeout=3000)
            except PlaywrightError:
                break
            self.clicks["manage-action"] += 1
            self.settle(state_id)
        self.close_dialogs()

    def use_trade_dialog(self, opener: Any) -> None:
        if not opener.count():
            return
        try:
            opener.click(timeout=3000)
        except PlaywrightError:
            return
        self.clicks["trade"] += 1
        dialog = self.page.locator("dialog.trade-dialog[open]")
        if dialog.count():
            self.fill_trade(dialog)

    def fill_trade(self, dialog: Any) -> None:
        """Tick a deed or two each way, wait for the server's check, propose or cancel."""
        boxes = dialog.locator("input[type=checkbox]:visible:enabled")
        for _ in range(self.rng.randint(1, 2)):
            if boxes.count():
                boxes.nth(self.rng.randrange(boxes.count())).click()
        propose = dialog.locator("[data-testid=propose]")
        with contextlib.suppress(PlaywrightError):  # no answer: cancel below
            self.page.wait_for_function(
                "() => { const s = document.querySelector('#trade-status');"
                " return s && (s.classList.contains('form-error') ||"
                " !document.querySelector('[data-testid=propose]').disabled); }",
                timeout=3000,
            )
        if propose.is_enabled() and self.rng.random() < 0.7:
            state_id = self.snapshot()["state_id"]
            propose.click()
            self.clicks["propose"] += 1
            self.settle(state_id)
        self.close_dialogs()

    def close_dialogs(self) -> None:
        for dialog in self.page.locator("dialog[open]").all():
            if dialog.get_attribute("data-testid") == "game-over":
                return
            dialog.locator("button.close").click()
            self.clicks["close"] += 1


# ---------------------------------------------------------------------- the games
GAMES = [
    # rule set, language, edition, computer levels, starting cash, turn limit
    ("standard", "en", "classic", ["random", "easy"], 150, 60),
    ("short", "de", "cthulhu", ["random"], 150, 60),
    ("speed", "de", "zelda", ["easy", "random"], 150, 60),
    ("short+speed", "en", "fallout", ["random"], 150, 60),
]


SCREENS = [(1366, 768), (390, 844)]
"""A desktop and a phone: the phone's board is larger than its window. The phone plays
with motion (dice that tumble, tokens that walk while the next states arrive), the
desktop with reduced motion."""


def tight_start(players: int, cash: int) -> dict[str, Any]:
    """The person is short of cash with houses to sell; the computers own built-up
    oranges and reds: debts come early, so every game meets raising cash (R-DEBT-1)."""
    built = {str(s): {"owner": 1, "buildings": 1} for s in (16, 18, 19)}
    built.update({str(s): {"owner": players - 1, "buildings": 2} for s in (21, 23, 24)})
    mine = {str(s): {"owner": 0, "buildings": 1} for s in (6, 8, 9)}
    mine.update({"5": {"owner": 0}, "12": {"owner": 0}})
    return {
        "players": [{"cash": cash, "position": 10}] + [{"cash": 1500}] * (players - 1),
        "properties": {**built, **mine},
        "turn": 0,
    }


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


@pytest.mark.parametrize("screen", SCREENS, ids=["desktop", "phone"])
@pytest.mark.parametrize(("preset", "language", "edition", "levels", "cash", "limit"), GAMES)
def test_random_clicks_play_a_whole_game_without_getting_stuck(
    server: ServerThread,
    browser: Browser,
    screen: tuple[int, int],
    preset: str,
    language: str,
    edition: str,
    levels: list[str],
    cash: int,
    limit: int,
) -> None:
    created = create(
        server.base,
        edition=edition,
        language=language,
        token=get_edition(edition).tokens[0].key,
        rules={"preset": preset, "options": {"starting_cash": cash, "turn_limit": limit}},
        seats=[{"type": "human"}] + [{"type": "bot", "level": level} for level in levels],
        seed=sum(map(ord, preset + language)),
        position=tight_start(1 + len(levels), cash),
    )
    motion = "no-preference" if screen == SCREENS[1] else "reduce"
    page = browser.new_page(
        viewport={"width": screen[0], "height": screen[1]}, reduced_motion=motion
    )
    errors = watch_errors(page)
    missing: list[str] = []
    page.on("console", lambda m: missing.append(m.text) if "missing label" in m.text else None)
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    page.locator("[data-testid=start]").click()
    clicker = Clicker(page, random.Random(limit * 31 + len(preset)))
    end = clicker.play()
    assert end["over"]
    page.locator("#decision[data-kind=over]").wait_for()
    results = page.locator("dialog[data-testid=game-over]")
    if not results.is_visible():  # closed with the other dialogs: the panel reopens it
        page.locator("#decision [data-key=results]").click()
    results.wait_for()
    assert results.locator("table.ranking tbody tr").count() == 1 + len(levels)
    assert results.locator("[data-testid=worth-chart] polyline").count() == 1 + len(levels)
    assert results.locator("[data-testid=stats] tbody tr").count() == 1 + len(levels)
    assert clicker.kinds["roll"] >= 1 and sum(clicker.kinds.values()) >= 3, clicker.kinds
    assert clicker.kinds["raise_cash"] >= 1, clicker.kinds
    assert sum(clicker.clicks.values()) >= 3, clicker.clicks
    if preset == "standard":  # the same table again, from the results
        results.locator("[data-testid=play-again]").click()
        page.locator(".waiting-card [data-testid=start]").wait_for()
        assert page.url != f"{server.base}/?game={created['game_id']}"
    assert errors == [], errors
    assert missing == [], missing
    page.close()
