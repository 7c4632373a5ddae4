"""Issue 23 in Chromium: a person resigns through the page (with a confirmation), in the
standard and the short game; and computer players do not nag a person at the table with
the same trade offer (checked on the game's stored record, offer by offer)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from monopoly.core.actions import ProposeTrade
from monopoly.core.game import Game
from monopoly.core.records import entry_from_json, replay, setup_from_json
from monopoly.core.state import TRADE
from monopoly.web.storage import Store
from tests.bots.test_manners import Seen, assert_mannerly, seen

from .servers import ServerProcess
from .test_e2e_game import (
    WAIT_MS,
    Plan,
    chromium,
    create,
    decision,
    open_seat,
    play,
    space_attr,
    wait_log,
    watch_errors,
)

DARK_BLUES_BUILT = {
    "players": [{"cash": 1500}, {"cash": 1500}, {"cash": 1500}],
    "properties": {"37": {"owner": 0, "buildings": 1}, "39": {"owner": 0, "buildings": 1}},
    "turn": 0,
}


@contextmanager
def ann_at_the_table(db: Path, **request: Any) -> Iterator[tuple[Page, list[str], str]]:
    """A server, a game created with ``request`` and started by Ann in Chromium: her
    page, its script errors and the game's id."""
    with ServerProcess(db) as server:
        created = create(server.base, **request)
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            errors = watch_errors(page)
            open_seat(page, server.base, created["game_id"], created["seat_token"])
            page.locator("[data-testid=start]").click()
            page.locator(".board-svg").wait_for()
            decision(page)
            yield page, errors, created["game_id"]


ANN_AND_TWO_BOTS = [
    {"type": "human"},
    {"type": "bot", "level": "easy"},
    {"type": "bot", "level": "normal"},
]


def resign_through_the_dialog(page: Page) -> None:
    """Open the dialog, think better of it once, then resign."""
    page.locator("[data-testid=resign]").click()
    dialog = page.locator("dialog[data-testid=resign-dialog]")
    assert dialog.is_visible()
    assert "bankrupt to the Bank" in dialog.inner_text()
    dialog.locator("[data-testid=resign-cancel]").click()
    assert not dialog.is_visible()
    page.locator("[data-testid=resign]").click()
    dialog.locator("[data-testid=resign-confirm]").click()
    wait_log(page, "Ann resigns and leaves the game.")


def test_a_person_resigns_and_the_computer_players_play_on(tmp_path: Path) -> None:
    """R-BANKRUPT-3: the houses go back to the Bank, the deeds are auctioned."""
    with ann_at_the_table(
        tmp_path / "games.sqlite3",
        rules={"preset": "standard", "options": {"turn_limit": 30}},
        seats=ANN_AND_TWO_BOTS,
        position=DARK_BLUES_BUILT,
        seed=5,
    ) as (page, errors, _game):
        assert space_attr(page, 39, "level") == "1"
        resign_through_the_dialog(page)
        wait_log(page, "Ann is bankrupt.")
        assert page.locator("[data-testid=resign]").count() == 0
        # The deeds are auctioned among the computer players, who play on to the end.
        wait_log(page, "Up for auction: Park Place.")
        wait_log(page, "Up for auction: Boardwalk.")
        page.locator("dialog[data-testid=game-over]").wait_for(timeout=WAIT_MS * 3)
        assert space_attr(page, 39, "owner") != "0"
        assert space_attr(page, 37, "owner") != "0"
        ranking = page.locator("dialog[data-testid=game-over] table.ranking tbody tr")
        assert "Ann" in ranking.last.inner_text()
        assert errors == []


def test_resigning_ends_the_short_game(tmp_path: Path) -> None:
    """R-SHORT-4: the first bankruptcy ends the short game once it is settled."""
    with ann_at_the_table(
        tmp_path / "games.sqlite3",
        rules={"preset": "short", "options": {}},
        seats=ANN_AND_TWO_BOTS,
        seed=2,
    ) as (page, errors, _game):
        page.locator("[data-testid=resign]").click()
        dialog = page.locator("dialog[data-testid=resign-dialog]")
        assert "In the short game this ends the game" in dialog.inner_text()
        dialog.locator("[data-testid=resign-confirm]").click()
        over = page.locator("dialog[data-testid=game-over]")
        over.wait_for(timeout=WAIT_MS)
        assert "went bankrupt" in over.inner_text() or "bankruptcy" in over.inner_text()
        assert "Ann" not in over.locator("table.ranking tbody tr").first.inner_text()
        assert errors == []


IN_DEBT_TO_BOT = {
    "players": [{"position": 36, "cash": 50}, {}],
    "properties": {"37": {"owner": 1}, "39": {"owner": 1}, "5": {"owner": 0}},
    "turn": 0,
}
"""Ann, with $50 and Reading Railroad, three spaces before the computer's Boardwalk."""


def test_resigning_in_debt_to_a_player_says_that_player_gets_the_deeds(tmp_path: Path) -> None:
    """R-BANKRUPT-2: raising cash for rent owed to a player, resigning makes Ann bankrupt
    to that player, and the dialog says so before she confirms (R-BANKRUPT-3 otherwise)."""
    with ann_at_the_table(
        tmp_path / "games.sqlite3",
        seats=[{"type": "human"}, {"type": "bot", "level": "easy"}],
        position=IN_DEBT_TO_BOT,
        seed=3,  # Ann rolls 2 + 1: Boardwalk, $100 rent
    ) as (page, errors, _game):
        dialog = page.locator("dialog[data-testid=resign-dialog]")
        page.locator("[data-testid=resign]").click()
        assert "go bankrupt to the Bank" in dialog.inner_text()  # no debt yet
        assert "title deeds are auctioned" in dialog.inner_text()
        dialog.locator("[data-testid=resign-cancel]").click()
        page.locator("#decision [data-act=roll]").click()
        assert decision(page) == "raise_cash"
        page.locator("[data-testid=resign]").click()
        said = dialog.inner_text()
        assert "You owe $100 to Bot 2 (Easy), so you go bankrupt to Bot 2 (Easy)" in said
        assert "Bot 2 (Easy) receives your cash, your title deeds" in said
        assert "auctioned" not in said
        dialog.locator("[data-testid=resign-confirm]").click()
        wait_log(page, "Ann is bankrupt.")
        assert space_attr(page, 5, "owner") == "1"  # Reading Railroad went to the creditor
        assert "Up for auction" not in page.locator("#log").inner_text()
        assert errors == []


# ---------------------------------------------------------------------- manners
ROUNDS = 50
"""The issue's measure: no repeated offer over 50 rounds of a seeded game."""
NAGGING_START = {
    "players": [{"cash": 1500}, {"cash": 1500}, {"cash": 1500}],
    "properties": {
        "39": {"owner": 0},
        "37": {"owner": 1},
        "19": {"owner": 0},
        "16": {"owner": 2},
        "18": {"owner": 2},
    },
    "turn": 0,
}
"""Ann holds the last street of each computer player's set: Boardwalk and New York."""


def offers_in(record: dict[str, object]) -> list[Seen]:
    """The computer players' own offers of a stored game, each with the table it met."""
    log = record["log"]
    assert isinstance(log, list)
    script = [entry_from_json(entry, number) for number, entry in enumerate(log, 1)]
    game = Game(setup_from_json(record["setup"]), script)
    offers = []
    while (action := game.next_scripted_action()) is not None:
        pending = game.decision
        assert pending is not None
        if isinstance(action, ProposeTrade) and pending.kind is not TRADE and action.seat:
            offers.append(seen(game, action))
        game.apply(action)
    return offers


def test_computer_players_do_not_nag_a_person_who_says_no(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with ann_at_the_table(
        db,
        rules={"preset": "standard", "options": {"round_limit": ROUNDS}},
        seats=[{"type": "human"}] + [{"type": "bot", "level": "hard"}] * 2,
        position=NAGGING_START,
        seed=4,
    ) as (page, errors, game_id):
        plan = Plan()
        assert play(page, plan, lambda kind: False, limit=2000) == "over"
        assert "trade" in plan.kinds  # Ann was asked, and said no each time
        assert errors == []
    stored = Store(str(db)).load(game_id)
    assert stored is not None
    record = stored.record()
    offers = offers_in(record)
    assert_mannerly(offers)
    assert len(offers) >= 3  # the computers did offer, and kept their manners
    finished = replay(record)
    assert finished.round >= ROUNDS  # 50 rounds were played
