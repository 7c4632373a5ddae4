"""A new turn that asks the same as the last still gets its buttons.

Ann clicks "Roll the dice"; the panel's buttons go off until the server answers. With
computer players moving at once, the computer's whole turn arrives while her token still
walks, so the page draws only the newest state, and that state asks what the panel last
showed: Ann's roll, with nobody's cash changed. Seen in a browser game before this was
fixed: the panel kept its disabled button and the game stalled.
"""

from __future__ import annotations

from playwright.sync_api import Page

from .servers import ServerThread
from .test_e2e_game import chromium, click_act, create, decision, open_seat, wait_log, watch_errors

NOT_DEEDS = (0, 2, 4, 7, 10, 17, 20, 22, 30, 33, 36, 38)
DEEDS = [space for space in range(40) if space not in NOT_DEEDS]
QUIET_BOARD = {
    "players": [{"cash": 1500, "position": 1}, {"cash": 0, "position": 3}],
    "properties": {str(space): {"owner": 1, "mortgaged": True} for space in DEEDS},
    "turn": 0,
}
"""The computer owns every deed, all mortgaged, and has no cash: landing on a deed costs
nobody anything and offers nothing to buy."""
SEED = 0
"""The server's dice for this seed: Ann's roll and the computer's land on deeds, no
doubles, no card, no tax, so Ann's next turn asks the same as her first."""


def cash_shown(page: Page) -> list[str]:
    return page.locator(".player-card .player-cash").all_inner_texts()


def test_the_roll_button_comes_back_when_the_next_turn_asks_the_same(
    server: ServerThread,
) -> None:
    created = create(
        server.base,
        seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
        position=QUIET_BOARD,
        seed=SEED,
    )
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors = watch_errors(page)
        open_seat(page, server.base, created["game_id"], created["seat_token"])
        page.locator("[data-testid=start]").click()
        assert decision(page) == "roll"
        cash_before = cash_shown(page)
        click_act(page, "roll")
        wait_log(page, r"Turn \d+: Ann —[\s\S]*Bot 2 \(Easy\) rolls[\s\S]*Turn \d+: Ann —")
        assert decision(page) == "roll"
        assert cash_shown(page) == cash_before  # the same question as before the roll
        assert page.locator("#decision [data-act='roll']").is_enabled()
        assert errors == []
