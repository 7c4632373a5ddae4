"""The review's game records (tests/cases/review-2/): each replays to what the rules ask.

A record that shows a rule broken now either replays to the right outcome, or stops at the
action the rules refuse — then the test asserts the refusal and its reason, and plays on
from the legal part of the record. Rules: R-DEBT-3, R-BANKRUPT-1, R-BANKRUPT-2,
R-BANKRUPT-3, R-SHORT-4, R-MORT-4, R-SPEED-7, R-SPEED-9, R-BUILD-4, R-BUILD-6,
R-AUCTION-2, R-AUCTION-4.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from monopoly.core import events as ev
from monopoly.core.actions import (
    Build,
    ChooseBreakdown,
    DeclareBankruptcy,
    KeepMortgaged,
    Mortgage,
    PlaceBuilding,
    SellBuilding,
    Unmortgage,
)
from monopoly.core.errors import RecordError
from monopoly.core.game import Game
from monopoly.core.records import replay
from monopoly.core.state import BID, BREAKDOWN, BUY, MORTGAGE_RECEIVED, PLACE, RAISE_CASH, ROLL
from tests.scenario import assert_illegal, waiting

CASES = Path(__file__).parent.parent / "cases" / "review-2"


def record(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CASES / name).read_text())
    return data


def replay_first(name: str, entries: int, **extra: Any) -> Game:
    """Replay the first ``entries`` log entries of a case (the legal part)."""
    data = record(name)
    data["log"] = data["log"][:entries] + extra.get("then", [])
    return replay(data)


def refused_at(name: str, entry: int, *fragments: str) -> None:
    """The whole record stops at log entry ``entry`` with a refusal naming ``fragments``."""
    with pytest.raises(RecordError) as info:
        replay(record(name))
    message = str(info.value)
    assert f"log entry {entry}:" in message, message
    for fragment in fragments:
        assert fragment in message, message


# ---------------------------------------------------------------------- R-DEBT-3
def test_r_debt_3_rent_is_never_paid_to_a_bankrupt_owner() -> None:
    """rent_to_bankrupt.json: P1 owes P0 rent; P0 goes bankrupt to the Bank meanwhile.
    The debt lapses, P1 stays in the game with Baltic, and collects its rent."""
    refused_at("rent_to_bankrupt.json", 10, "not your decision")
    game = replay_first("rent_to_bankrupt.json", 9)
    assert not game.active[0] and game.active[1]
    assert game.cash[0] == 0 and 0 not in game.owner
    assert game.cash[1] == 20 and game.owner[3] == 1
    assert any(isinstance(e, ev.DebtLapsed) and (e.seat, e.creditor) == (1, 0) for e in game.events)
    assert waiting(game) == (ROLL, 2)
    cash_before = list(game.cash)
    rest = record("rent_to_bankrupt.json")["log"][10:]  # P2 rolls 1 + 2, to Baltic Avenue
    game = replay_first("rent_to_bankrupt.json", 9, then=rest)
    assert game.position[2] == 3
    assert game.cash[1] == cash_before[1] + 4 and game.cash[2] == cash_before[2] - 4
    assert game.cash[0] == 0


def test_r_debt_3_a_debt_to_a_player_who_left_lapses() -> None:
    """creditor_gone_pay.json: a birthday; P1 owes P0 10 and P0 goes bankrupt before it
    is paid: P1 pays nothing, nor do P2 and P3 after them."""
    game = replay(record("creditor_gone_pay.json"))
    assert not game.active[0] and game.cash[0] == 0 and 0 not in game.owner
    assert game.cash[1:] == [5 + 30, 500 + 100, 500]  # P1's 30 is its own mortgage
    assert not any(isinstance(e, ev.MoneyPaid) and e.payee == 0 for e in game.events)
    assert waiting(game) == (ROLL, 1)


def test_r_debt_2_building_cannot_unlock_bankruptcy() -> None:
    """debt_build.json: 150 cash and two unmortgaged browns raise 210 of the 200 owed,
    so bankruptcy is refused (R-DEBT-2)."""
    refused_at("debt_build.json", 3, "you can still raise 210 of the 200 owed")


def test_r_debt_3_no_building_while_in_debt() -> None:
    """debt_build2.json: building a house would have lowered what P0 could raise below
    the debt and unlocked bankruptcy; R-DEBT-3 refuses the house."""
    refused_at("debt_build2.json", 3, "no building until the debt is paid", "R-DEBT-3")
    game = replay_first("debt_build2.json", 2)
    assert waiting(game) == (RAISE_CASH, 0)
    # The debtor is offered only what can settle the debt: mortgaging the browns.
    assert game.legal_actions() == [Mortgage(0, 1), Mortgage(0, 3)]
    assert_illegal(game, Build(0, (1,)), "R-DEBT-3")
    assert_illegal(game, DeclareBankruptcy(0), "you can still raise 210")


def test_r_debt_3_no_gift_while_in_debt() -> None:
    """debt_gift.json: giving Oriental away for 1 would leave the creditor with less;
    refused. Bankruptcy is legal anyway, and then P1 receives Oriental too."""
    refused_at("debt_gift.json", 3, "no trade that lowers what", "R-DEBT-3")
    game = replay_first("debt_gift.json", 2)
    assert waiting(game) == (RAISE_CASH, 0)
    game.apply(DeclareBankruptcy(0))
    assert game.owner[6] == 1 and game.owner[5] == 1  # R-BANKRUPT-2
    assert waiting(game) == (MORTGAGE_RECEIVED, 1)  # R-MORT-4 for the railroad


# ---------------------------------------------------------------------- R-SHORT-4
@pytest.mark.parametrize("lift", [False, True])
def test_r_short_4_the_game_ends_once_the_fees_are_paid(lift: bool) -> None:
    """short_fee.json: P1 receives mortgaged Boardwalk from the first bankruptcy; the game
    ends only after P1's 10 % (or the lifting) — and that makes P2 the richest."""
    game = replay(record("short_fee.json"))
    assert not game.over
    assert waiting(game) == (MORTGAGE_RECEIVED, 1)
    game.apply(Unmortgage(1, 39) if lift else KeepMortgaged(1, 39))
    assert game.over and game.winners == (2,)
    assert game.net_worth(1) == 1280 and game.net_worth(2) == 1290


# ---------------------------------------------------------------------- Speed Die
def test_r_speed_9_a_payer_before_go_rolls_three_dice_for_utility_rent() -> None:
    """util_speed2b.json gave two dice for the rent roll: the engine now asks for three."""
    refused_at("util_speed2b.json", 3, "expected 3 dice")
    data = record("util_speed2b.json")
    data["log"][2] = {"dice": [2, 3, 1]}
    game = replay(data)
    assert game.cash[:2] == [2500 - 4 * 6, 2500 + 4 * 6]


def test_r_speed_7_triples_jump_without_salary() -> None:
    """triples_go.json: from Go To Jail's space to Reading Railroad: no salary."""
    game = replay(record("triples_go.json"))
    assert game.position[0] == 5 and game.cash[0] == 2500
    assert not any(isinstance(e, ev.SalaryCollected) for e in game.events)
    assert waiting(game) == (BUY, 0)


# ---------------------------------------------------------------------- shortages
def test_r_build_6_a_sole_applicant_buys_at_the_printed_price() -> None:
    """shortage_sole.json: after P2 wins one of the two houses, only P1 still wants one:
    no auction (the record's bid of 1 is refused); P1 pays the printed 200 for green."""
    refused_at("shortage_sole.json", 7, "not your decision")
    game = replay_first("shortage_sole.json", 6)
    assert waiting(game) == (PLACE, 1)
    assert game.cash[1:] == [3000, 3000 - 1]
    game.apply(PlaceBuilding(1, 31))
    assert game.level[31] == 3 and game.level[16] == 3
    assert game.cash[1:] == [3000 - 200, 3000 - 1]
    assert game.bank_houses == 0
    assert waiting(game) == (ROLL, 0)


def test_r_auction_2_a_shortage_auction_starts_with_the_player_whose_turn_it_is() -> None:
    """shortage_start.json: P1 asked for the houses, but bidding starts with P0."""
    game = replay(record("shortage_start.json"))
    assert waiting(game) == (BID, 0)
    started = [e for e in game.events if isinstance(e, ev.AuctionStarted)]
    assert started[-1].bidders == (0, 1, 2)


def test_r_build_4_the_owner_chooses_the_hotel_breakdown() -> None:
    """hotel_break.json: three orange hotels, two houses in the Bank; selling one hotel
    brings the group down to two houses, placed as the owner chooses."""
    game = replay(record("hotel_break.json"))
    assert waiting(game) == (BREAKDOWN, 0)
    options = [a.levels for a in game.decision_actions()]  # type: ignore[attr-defined]
    assert options == [(1, 1, 0), (1, 0, 1), (0, 1, 1)]
    assert_illegal(game, SellBuilding(0, 18), "first choose")
    game.apply(ChooseBreakdown(0, (1, 0, 1)))
    assert [game.level[s] for s in (16, 18, 19)] == [1, 0, 1]
    assert game.cash[0] == 100 + 13 * 50  # 15 levels down to 2, at half of 100
    assert (game.bank_houses, game.bank_hotels) == (0, 12)
    assert waiting(game) == (ROLL, 0)


# ---------------------------------------------------------------------- R-AUCTION-4
def test_r_auction_4_a_bankrupt_bidder_leaves_and_their_bid_lapses() -> None:
    """auction_bk.json: P0 bids all its cash on Oriental, then goes bankrupt to the Bank.
    The bid lapses, Oriental's auction goes on, Boardwalk's waits."""
    game = replay(record("auction_bk.json"))
    assert not game.active[0]
    assert waiting(game) == (BID, 1)
    assert game.decision is not None and game.decision.space == 6
    assert game.bid_range() == (1, 500)
    assert not any(isinstance(e, ev.AuctionStarted) and e.space == 39 for e in game.events)


def test_r_auction_4_the_bankrupts_auction_follows_the_running_one() -> None:
    """auction_bk2.json: nobody bids for Oriental; then Boardwalk is auctioned."""
    game = replay(record("auction_bk2.json"))
    assert game.owner[6] == -1
    assert any(isinstance(e, ev.AuctionUnsold) and e.space == 6 for e in game.events)
    assert waiting(game) == (BID, 2)
    assert game.decision is not None and game.decision.space == 39
    assert game.bid_range() == (51, 600)
