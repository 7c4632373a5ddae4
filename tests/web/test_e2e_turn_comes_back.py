"""A person's turn that comes back while their token still walks: Ann rolls, lands on a
railroad of her own, and the computer player's whole turn in Jail (a failed roll for
doubles) is over before her token arrives. Her next "Roll the dice" asks exactly what the
last one did (same decision, same cash), and it must be a button she can press: the panel
was once left as her first click had left it, disabled, and the game stood still.
Played with motion on (the clicking player's reduced motion hides this) in Chromium."""

from __future__ import annotations

import pytest

from monopoly.core.editions import get_edition

from .servers import ServerThread
from .test_e2e_game import (
    chromium,
    click_act,
    create,
    decision,
    log_text,
    open_seat,
    wait_log,
    watch_errors,
)

SEED = 0
"""The server's dice: Ann rolls 3 + 2 from Kentucky Avenue to B. & O. Railroad, the
computer 4 + 2 in Jail."""


def position() -> dict[str, object]:
    """Ann owns every deed (nothing to buy, no rent), the computer sits in Jail with no
    money (so it rolls for doubles)."""
    board = get_edition("classic").board
    return {
        "players": [
            {"cash": 1500, "position": 20},
            {"cash": 0, "position": 10, "jail_turns": 0},
        ],
        "properties": {str(space): {"owner": 0} for space in board.properties},
        "turn": 0,
    }


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)], ids=["phone", "desktop"])
def test_the_same_decision_again_can_be_answered(
    server: ServerThread, size: tuple[int, int]
) -> None:
    created = create(
        server.base,
        seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
        position=position(),
        seed=SEED,
    )
    with chromium() as browser:
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        errors = watch_errors(page)
        open_seat(page, server.base, created["game_id"], created["seat_token"])
        page.locator("[data-testid=start]").click()
        assert decision(page) == "roll"
        click_act(page, "roll")
        assert decision(page) == "roll"  # an enabled Roll button, or a timeout
        log = log_text(page)
        assert "Ann moves to B. & O. Railroad." in log
        assert "Bot 2 (Easy) stays in Jail (failed roll 1 of 3)." in log
        assert page.evaluate("window.monopolyScreen.state.game.turn") == 3
        click_act(page, "roll")
        wait_log(page, r"Turn 3: Ann —\s+Ann rolls")  # the click was taken
        assert errors == []
        page.close()
