"""The dice stay in view while a player decides: on a 390×844 phone a title deed to buy
or an auction panel is taller than the screen's free space and pushes the board (and the
dice in its centre) down, so a strip with the dice and whose turn it is stays at the top
of the screen; on a 1366×768 desktop the board with its dice stays beside the panel.
Measured in Debian's Chromium from the rendered page, with the panel's own answer
buttons scrolled into view as a player reading them would."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .servers import ServerThread
from .test_e2e_game import chromium, click_act, create, decision, open_seat, watch_errors

HUMAN_AND_BOT = [{"type": "human"}, {"type": "bot", "level": "easy"}]
SEED = 3
"""The server's dice for this seed take Ann's first roll onto an unowned street."""

DICE_IN_VIEW = """() => {
  const inside = [];
  for (const dice of document.querySelectorAll('.dice')) {
    const r = dice.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || dice.dataset.settled !== 'true') continue;
    if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) continue;
    // Nothing covers it: the middle of each die is the die itself.
    const uncovered = [...dice.querySelectorAll('.die')].every((die) => {
      const b = die.getBoundingClientRect();
      return die.contains(document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2));
    });
    if (!uncovered) continue;
    inside.push({ dice: dice.querySelectorAll('.die').length,
                  label: dice.getAttribute('aria-label'), height: r.height });
  }
  return inside;
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as running:
        yield running


def dice_in_view(page: Page, answer: str) -> list[dict[str, Any]]:
    """Open the panel's "How this works" (a new player reads it) and scroll the panel's
    ``answer`` button into view; the dice then fully in view."""
    how = page.locator("#decision details.how")
    if how.count() and how.get_attribute("open") is None:
        how.locator("summary").click()
    page.locator(f"#decision [data-act='{answer}']").first.scroll_into_view_if_needed()
    page.wait_for_timeout(100)
    assert page.locator(f"#decision [data-act='{answer}']").first.is_visible()
    found: list[dict[str, Any]] = page.evaluate(DICE_IN_VIEW)
    return found


@pytest.mark.parametrize(
    ("size", "language"),
    [((390, 844), "de"), ((390, 844), "en"), ((1366, 768), "en")],
    ids=["phone-de", "phone-en", "desktop-en"],
)
def test_the_dice_stay_in_view_during_a_buy_decision_and_an_auction(
    server: ServerThread, browser: Browser, size: tuple[int, int], language: str
) -> None:
    created = create(
        server.base,
        seats=HUMAN_AND_BOT,
        position={"players": [{}, {}], "turn": 0},
        seed=SEED,
        language=language,
    )
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors = watch_errors(page)
    open_seat(page, server.base, created["game_id"], created["seat_token"])
    page.locator("[data-testid=start]").click()
    assert decision(page) == "roll"
    click_act(page, "roll")
    assert decision(page) == "buy"
    roll = page.evaluate("window.monopolyScreen.state.game.last_roll")
    label = ", ".join(str(value) for value in roll)
    for shown in (dice_in_view(page, "buy"), dice_in_view(page, "decline")):
        assert [d for d in shown if d["dice"] == len(roll) and d["label"].endswith(f": {label}")], (
            shown
        )
        assert min(d["height"] for d in shown) >= 24  # big enough to read the pips
    if size[0] < 900:
        total = page.locator("[data-testid=turn-strip] .strip-total").inner_text()
        assert total == f"= {sum(roll)}"
        assert "Ann" in page.locator("[data-testid=turn-strip]").inner_text()
    click_act(page, "decline")
    assert decision(page) == "bid"
    for answer in ("bid", "pass"):
        shown = dice_in_view(page, answer)
        assert [d for d in shown if d["dice"] == len(roll) and d["label"].endswith(f": {label}")], (
            shown
        )
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert errors == []
    page.close()
