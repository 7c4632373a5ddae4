"""The reviews' game records (tests/cases/review-*/): each replays to what the rules ask.

A record that shows a rule broken now either replays to the right outcome, or stops at the
action the rules refuse — then the test asserts the refusal and its reason, and plays on
from the legal part of the record. Rules: R-DEBT-3, R-BANKRUPT-1, R-BANKRUPT-2,
R-BANKRUPT-3, R-SHORT-4, R-MORT-4, R-SPEED-7, R-SPEED-9, R-BUILD-4, R-BUILD-6,
R-AUCTION-2, R-AUCTION-4. The review-3 records (the end of the short game, lapsed offers,
debtors in auctions and trades) and the narration slips that review saw come last.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from monopoly.core import events as ev
from monopoly.core.actions import (
    AcceptTrade,
    Bid,
    Build,
    ChooseBreakdown,
    DeclareBankruptcy,
    KeepMortgaged,
    Mortgage,
    PassBid,
    PlaceBuilding,
    ProposeTrade,
    SellBuilding,
    Unmortgage,
)
from monopoly.core.errors import RecordError
from monopoly.core.game import Game
from monopoly.core.narrate import Narrator
from monopoly.core.records import replay
from monopoly.core.state import BID, BREAKDOWN, BUY, MORTGAGE_RECEIVED, PLACE, RAISE_CASH, ROLL
from tests.scenario import assert_illegal, waiting

CASES = Path(__file__).parent.parent / "cases"


def record(name: str) -> dict[str, Any]:
    """A case by its file name (the names are unique across the reviews' folders)."""
    (path,) = CASES.glob(f"review-*/{name}")
    data: dict[str, Any] = json.loads(path.read_text())
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


# ====================================================================== review-3
def worth(game: Game) -> list[int]:
    return [game.net_worth(seat) if game.active[seat] else 0 for seat in range(game.players)]


def test_r_short_4_the_running_auction_and_the_estate_auctions_come_before_the_count() -> None:
    """short_end_mid_auction.json: P0 goes bankrupt to the Bank while Oriental is being
    auctioned. R-AUCTION-4: P0's bid lapses and P1's standing 20 buys Oriental; then
    R-BANKRUPT-3 auctions P0's deeds, and only then R-SHORT-4 counts the fortunes."""
    game = replay(record("short_end_mid_auction.json"))
    assert not game.over and not game.active[0]
    assert any(isinstance(e, ev.AuctionWon) and e[:3] == (1, 6, 20) for e in game.events)
    assert game.owner[6] == 1 and game.cash[1] == 500 - 20
    assert waiting(game) == (BID, 1)
    assert game.decision is not None and game.decision.space == 1  # Mediterranean first
    game.apply(PassBid(1))
    game.apply(PassBid(2))
    assert not game.over and game.decision is not None and game.decision.space == 39
    game.apply(Bid(1, 1))
    game.apply(PassBid(2))
    assert game.over and game.winners == (1,)
    assert game.owner[39] == 1 and game.owner[1] == -1
    assert worth(game) == [0, 480 - 1 + 100 + 400, 600]


def test_r_short_4_without_an_auction_the_estate_auctions_come_first() -> None:
    """short_end_no_auction.json, the same bankruptcy with no auction running."""
    game = replay(record("short_end_no_auction.json"))
    assert game.over and game.winners == (1,)
    assert worth(game) == [0, 499 + 400, 600]


def test_r_short_4_every_birthday_payer_pays_before_the_count() -> None:
    """short_birthday_unpaid.json: P1 pays P0 10, P2 goes bankrupt to P0 (5), and P3 still
    pays its 10 before the count: P0 wins with 1,025 against P3's 1,010."""
    game = replay(record("short_birthday_unpaid.json"))
    assert game.over and game.winners == (0,)
    assert game.cash == [1025, 490, 0, 1010]
    paid = [(e.payer, e.amount) for e in game.events if isinstance(e, ev.MoneyPaid)]
    assert paid == [(1, 10), (2, 5), (3, 10)]


def test_r_debt_3_the_offer_of_a_player_who_goes_bankrupt_lapses() -> None:
    """bankrupt_receives_card.json (rent must be claimed): P1 asks P2 for its jail card,
    then goes bankrupt to P0. The offer lapses; P2's acceptance is refused and P2 keeps
    the card."""
    refused_at("bankrupt_receives_card.json", 6, "no trade offer is waiting", "R-DEBT-3")
    game = replay_first("bankrupt_receives_card.json", 5)
    assert not game.active[1]
    assert ev.TradeLapsed(1, 2) in game.events
    assert game.jail_cards == [[], [], ["chance"]]
    assert game.cash == [500 + 50, 0, 500]
    assert waiting(game) == (ROLL, 2)
    error = assert_illegal(game, AcceptTrade(2), "no trade offer is waiting")
    assert error.reason.key == "no_trade_offer"


def test_r_debt_3_a_debtors_turn_to_bid_passes() -> None:
    """debt_estate_bid.json: P1 owes P0 100 rent while P2's estate is auctioned. P1 may
    not bid: their turn passes by itself (the record's pass is not needed, the bid of 80
    is refused), both deeds stay unsold, and P1 pays the rent by mortgaging Oriental."""
    refused_at("debt_estate_bid.json", 7, "not your decision")
    game = replay_first("debt_estate_bid.json", 6)
    assert not game.active[2]
    assert waiting(game) == (BID, 3)
    assert ev.BidPassedInDebt(1) in game.events
    error = assert_illegal(game, Bid(1, 80), "no bids until the debt is paid", "R-DEBT-3")
    assert error.reason.key == "debtor_cannot_bid"
    log = record("debt_estate_bid.json")["log"]
    # P3 and P0 pass twice (entries 8, 9, 11, 12); P1 mortgages Oriental (entry 13).
    game = replay_first("debt_estate_bid.json", 6, then=log[7:9] + log[10:13])
    assert game.owner[1] == -1 and game.owner[3] == -1
    assert [e for e in game.events if isinstance(e, ev.BidPassedInDebt)] == [
        ev.BidPassedInDebt(1),
        ev.BidPassedInDebt(1),
    ]
    assert not any(isinstance(e, ev.BidPlaced) for e in game.events)
    assert game.active[1] and game.mortgaged[6] and game.owner[6] == 1
    assert game.cash[:2] == [500 + 100, 90 + 50 - 100]
    assert waiting(game) == (ROLL, 3)  # P2 has left the game


def test_r_debt_3_a_debtors_trade_must_bring_them_cash() -> None:
    """debt_give_mortgaged.json: P0, in debt, gives mortgaged Reading and a jail card to
    P2 for nothing; refused. A trade that brings P0 cash is allowed; bankruptcy gives
    both to the creditor P1 (R-BANKRUPT-2)."""
    refused_at("debt_give_mortgaged.json", 3, "must bring seat 0 cash", "R-DEBT-3")
    game = replay_first("debt_give_mortgaged.json", 2)
    assert waiting(game) == (RAISE_CASH, 0)
    assert_illegal(game, ProposeTrade(0, partner=2, give=(5,)), "must bring seat 0 cash")
    assert_illegal(game, ProposeTrade(0, partner=2, take_cards=()), "empty")
    game.apply(ProposeTrade(0, partner=2, give=(5,), give_cards=("chance",), take_cash=10))
    game.apply(AcceptTrade(2))
    assert game.owner[5] == 2 and game.jail_cards[2] == ["chance"] and game.cash[0] == 10
    game = replay_first("debt_give_mortgaged.json", 2)
    game.apply(DeclareBankruptcy(0))
    assert game.owner[5] == 1 and game.jail_cards[1] == ["chance"]
    assert waiting(game) == (MORTGAGE_RECEIVED, 1)  # R-MORT-4


# ---------------------------------------------------------------------- narration
def lines(game: Game) -> list[str]:
    narrator = Narrator(game)
    return [narrator.describe(event) for event in game.events]


def test_a_house_won_at_auction_is_told_at_the_price_paid() -> None:
    """shortage_sole.json: P2 wins a house for 1 (R-BUILD-6) and places it: the log says
    1, not 0 (the bid was paid when the auction ended, and only then)."""
    game = replay_first("shortage_sole.json", 6)
    text = lines(game)
    assert "P2 wins one house for $1." in text
    assert "P2 puts the house won at auction for $1 on St. James Place." in text
    assert not any("$0" in line for line in text)
    assert game.cash[2] == 3000 - 1


@pytest.mark.parametrize("language", ["en", "de"])
def test_triples_onto_go_land_on_it(language: str) -> None:
    """triples_go.json, choosing GO itself: the salary is paid for landing on GO
    (R-SPEED-7), and the log says so."""
    data = record("triples_go.json")
    data["setup"]["language"] = language
    data["log"][-1]["space"] = 0
    game = replay(data)
    assert game.position[0] == 0 and game.cash[0] == 2500 + 200
    salary = [e for e in game.events if isinstance(e, ev.SalaryCollected)]
    assert salary == [ev.SalaryCollected(0, 200, landed=True)]
    told = Narrator(game).describe(salary[0])
    expected = {
        "en": "P0 lands on GO and collects $200.",
        "de": "P0 kommt auf Los und zieht 200 € ein.",
    }
    assert told == expected[language]


def test_the_ten_percent_is_told_once() -> None:
    """R-MORT-4: keeping a received deed mortgaged charges 10 % once, and the log names
    the amount once: the choice, then the payment."""
    game = replay(record("short_fee.json"))
    game.apply(KeepMortgaged(1, 39))
    text = lines(game)
    choice = text.index("P1 keeps Boardwalk mortgaged; the 10 % interest is due to the Bank.")
    assert text[choice + 1] == "P1 pays $20 to the Bank (interest)."
    assert sum("$20" in line for line in text[choice:]) == 1
