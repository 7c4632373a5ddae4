"""Debt and bankruptcy: R-DEBT-1..3, R-BANKRUPT-1..3, R-END-1."""

from __future__ import annotations

from typing import Any

from monopoly.core import events as ev
from monopoly.core.actions import (
    AcceptTrade,
    Bid,
    Build,
    DeclareBankruptcy,
    DeclareWant,
    KeepMortgaged,
    Mortgage,
    PassBid,
    ProposeTrade,
    Roll,
    SellBuilding,
    Unmortgage,
)
from monopoly.core.game import Game
from monopoly.core.state import BID, MORTGAGE_RECEIVED, RAISE_CASH, ROLL
from tests.scenario import apply_all, assert_illegal, start, waiting
from tests.spaces import (
    ATLANTIC,
    B_AND_O,
    BALTIC,
    BOARDWALK,
    CONNECTICUT,
    ELECTRIC,
    ILLINOIS,
    INCOME_TAX,
    INDIANA,
    KENTUCKY,
    MARVIN,
    MED,
    NEW_YORK,
    ORIENTAL,
    PARK_PLACE,
    PENNSYLVANIA_RR,
    READING,
    SHORT_LINE,
    ST_JAMES,
    TENNESSEE,
    VENTNOR,
    VERMONT,
    WATER,
)

JAIL_CARD = "get_out_of_jail_free"


def boardwalk_rent(
    seat0: dict[str, Any], properties: dict[int, Any], players: int = 2, houses: int = 0
) -> Game:
    """Seat 0 on Short Line rolls 1+3 onto Boardwalk; seat 1 owns the dark blues (rent 100
    unbuilt and doubled, 200 with one house each)."""
    position = {
        "players": [{"position": 35, **seat0}] + [{} for _ in range(players - 1)],
        "properties": {
            PARK_PLACE: {"owner": 1, "buildings": houses},
            BOARDWALK: {"owner": 1, "buildings": houses},
            **properties,
        },
    }
    game = start(position, dice=[(1, 3), (6, 4), (6, 4)])
    game.apply(Roll(0))
    assert game.position[0] == BOARDWALK
    return game


# ---------------------------------------------------------------------- R-DEBT-1
def test_r_debt_1_sell_buildings_then_payment_is_automatic() -> None:
    game = boardwalk_rent(
        {"cash": 60},
        {MED: {"owner": 0, "buildings": 1}, BALTIC: {"owner": 0, "buildings": 1}},
    )
    assert waiting(game) == (RAISE_CASH, 0)
    assert game.cash == [60, 1500]  # nothing paid yet
    assert_illegal(game, Roll(1), "not your decision")  # play does not go on
    game.apply(SellBuilding(0, MED))
    assert game.cash[0] == 85
    assert waiting(game) == (RAISE_CASH, 0)  # still 15 short
    game.apply(SellBuilding(0, BALTIC))
    assert game.cash == [110 - 100, 1600]
    assert game.bank_houses == 32
    assert waiting(game) == (ROLL, 1)


def test_r_debt_1_mortgage_to_pay() -> None:
    game = boardwalk_rent({"cash": 60}, {READING: {"owner": 0}})
    assert waiting(game) == (RAISE_CASH, 0)
    game.apply(Mortgage(0, READING))
    assert game.cash == [60 + 100 - 100, 1600]
    assert game.mortgaged[READING]
    assert waiting(game) == (ROLL, 1)


def test_r_debt_1_trade_to_pay() -> None:
    game = boardwalk_rent({"cash": 60}, {READING: {"owner": 0}}, players=3)
    assert waiting(game) == (RAISE_CASH, 0)
    game.apply(ProposeTrade(0, partner=2, give=(READING,), take_cash=150))
    game.apply(AcceptTrade(2))
    assert game.owner[READING] == 2
    assert game.cash == [60 + 150 - 100, 1600, 1350]
    assert waiting(game) == (ROLL, 1)


def test_r_debt_1_debt_to_the_bank() -> None:
    position = {
        "players": [{"cash": 50}, {}],
        "properties": {ORIENTAL: {"owner": 0}, READING: {"owner": 0}},
    }
    game = start(position, dice=[(1, 3)])
    game.apply(Roll(0))  # 0 -> 4 Income Tax 200
    assert game.position[0] == INCOME_TAX
    assert waiting(game) == (RAISE_CASH, 0)
    # 50 + 50 + 100 = 200 covers the tax: no bankruptcy (R-DEBT-2).
    assert_illegal(game, DeclareBankruptcy(0), "you can still raise 200 of the 200")
    game.apply(Mortgage(0, ORIENTAL))
    assert waiting(game) == (RAISE_CASH, 0)
    events = game.apply(Mortgage(0, READING))
    assert ev.MoneyPaid(0, -1, 200, "tax") in events
    assert game.cash == [0, 1500]
    assert waiting(game) == (ROLL, 1)


def test_r_debt_1_not_enough_raised_keeps_waiting() -> None:
    game = boardwalk_rent({"cash": 10}, {ORIENTAL: {"owner": 0}, READING: {"owner": 0}})
    game.apply(Mortgage(0, ORIENTAL))
    assert game.cash[0] == 60
    assert waiting(game) == (RAISE_CASH, 0)
    game.apply(Mortgage(0, READING))
    assert game.cash == [60, 1600]


# ---------------------------------------------------------------------- R-DEBT-2
def test_r_debt_2_bankruptcy_refused_while_selling_and_mortgaging_could_cover() -> None:
    game = boardwalk_rent(
        {"cash": 60},
        {MED: {"owner": 0, "buildings": 1}, BALTIC: {"owner": 0, "buildings": 1}},
    )
    # 60 cash + 2 houses at 25 + mortgages 30 + 30 = 170 >= 100.
    assert_illegal(game, DeclareBankruptcy(0), "you can still raise 170 of the 100 owed")
    assert DeclareBankruptcy(0) not in game.legal_actions(0)
    assert game.decision_actions() == []


def test_r_debt_2_bankruptcy_refused_when_raising_covers_exactly() -> None:
    game = boardwalk_rent({"cash": 50}, {ORIENTAL: {"owner": 0}})
    assert_illegal(game, DeclareBankruptcy(0), "raise 100 of the 100")


def test_r_debt_2_bankruptcy_allowed_one_short() -> None:
    game = boardwalk_rent({"cash": 49}, {ORIENTAL: {"owner": 0}})
    assert game.decision_actions() == [DeclareBankruptcy(0)]
    game.apply(DeclareBankruptcy(0))
    assert not game.active[0]


def test_r_debt_2_no_bankruptcy_without_a_debt() -> None:
    game = start({"players": [{"cash": 0}, {}]})
    assert_illegal(game, DeclareBankruptcy(0), "not your decision")


# ---------------------------------------------------------------------- R-BANKRUPT-1/2
def test_r_bankrupt_2_creditor_player_gets_everything() -> None:
    game = boardwalk_rent(
        {"cash": 10, "jail_cards": ["chance"]},
        {
            MED: {"owner": 0, "buildings": 1},
            BALTIC: {"owner": 0, "buildings": 1},
            READING: {"owner": 0, "mortgaged": True},
        },
        players=3,
        houses=1,
    )
    assert waiting(game) == (RAISE_CASH, 0)
    assert game.bank_houses == 28
    # 10 + 2 x 25 + 30 + 30 = 120 < 200 rent: bankruptcy is allowed.
    assert game.decision_actions() == [DeclareBankruptcy(0)]
    events = game.apply(DeclareBankruptcy(0))
    assert ev.PlayerBankrupt(0, 1) in events
    # R-BANKRUPT-1: out of the game with nothing left.
    assert not game.active[0]
    assert game.cash[0] == 0
    assert game.properties_of(0) == []
    assert game.jail_cards[0] == []
    # R-BANKRUPT-2: houses sold to the Bank at half price first, then cash, deeds, cards.
    assert game.bank_houses == 30
    assert game.cash[1] == 1500 + 10 + 2 * 25
    assert (game.owner[MED], game.owner[BALTIC], game.owner[READING]) == (1, 1, 1)
    assert (game.level[MED], game.level[BALTIC]) == (0, 0)
    assert game.jail_cards[1] == ["chance"]
    # R-MORT-4 at once for the mortgaged railroad.
    assert waiting(game) == (MORTGAGE_RECEIVED, 1)
    assert game.decision is not None and game.decision.space == READING
    game.apply(KeepMortgaged(1, READING))
    assert game.cash[1] == 1560 - 10
    assert game.mortgaged[READING]
    assert not game.over
    # Play goes on without seat 0.
    assert waiting(game) == (ROLL, 1)
    game.apply(Roll(1))
    assert waiting(game) == (ROLL, 2)
    game.apply(Roll(2))
    assert waiting(game) == (ROLL, 1)
    assert game.cash[2] == 1500


def test_r_bankrupt_2_creditor_lifts_received_mortgage() -> None:
    game = boardwalk_rent(
        {"cash": 0},
        {READING: {"owner": 0, "mortgaged": True}},
        players=3,
    )
    game.apply(DeclareBankruptcy(0))
    assert waiting(game) == (MORTGAGE_RECEIVED, 1)
    game.apply(Unmortgage(1, READING))
    assert game.cash[1] == 1500 - 110
    assert not game.mortgaged[READING]


def test_r_bankrupt_1_bankrupt_player_cannot_act() -> None:
    game = boardwalk_rent({"cash": 0}, {READING: {"owner": 0, "mortgaged": True}}, players=3)
    game.apply(DeclareBankruptcy(0))
    assert game.legal_actions(0) == []
    assert_illegal(game, Mortgage(0, READING), "bankrupt")
    assert_illegal(game, ProposeTrade(1, partner=0, give_cash=10), "bankrupt")


# ---------------------------------------------------------------------- R-BANKRUPT-3
def test_r_bankrupt_3_owed_to_bank_buildings_back_deeds_auctioned_cards_to_decks() -> None:
    position = {
        "players": [{}, {"cash": 10, "position": MED, "jail_cards": ["community_chest"]}, {}],
        "properties": {
            MED: {"owner": 1, "buildings": 1},
            BALTIC: {"owner": 1, "buildings": 1},
            READING: {"owner": 1, "mortgaged": True},
        },
        "turn": 1,
    }
    game = start(position, dice=[(1, 2)])
    game.apply(Roll(1))  # 1 -> 4 Income Tax 200
    assert waiting(game) == (RAISE_CASH, 1)
    # 10 + 50 from houses + 60 from mortgages = 120 < 200.
    events = game.apply(DeclareBankruptcy(1))
    assert ev.PlayerBankrupt(1, -1) in events
    assert not game.active[1] and game.cash[1] == 0
    assert game.bank_houses == 32
    assert (game.level[MED], game.level[BALTIC]) == (0, 0)
    assert game.jail_cards[1] == []
    assert game.decks["community_chest"][-1] == JAIL_CARD
    assert len(game.decks["community_chest"]) == 16
    assert not any(game.mortgaged[s] for s in (MED, BALTIC, READING))
    # Auctions at once, one deed after the other, from the next player still in the game.
    assert ev.AuctionStarted(MED, (2, 0)) in events
    assert waiting(game) == (BID, 2)
    game.apply(Bid(2, 40))
    game.apply(PassBid(0))
    assert waiting(game) == (BID, 2)
    assert game.decision is not None and game.decision.space == BALTIC
    game.apply(PassBid(2))
    game.apply(PassBid(0))
    assert game.decision is not None and game.decision.space == READING
    game.apply(PassBid(2))
    game.apply(Bid(0, 150))
    assert game.owner[MED] == 2 and not game.mortgaged[MED]
    assert game.owner[BALTIC] == -1
    assert game.owner[READING] == 0 and not game.mortgaged[READING]
    assert game.cash == [1350, 0, 1460]
    assert not game.over
    assert waiting(game) == (ROLL, 2)


# ---------------------------------------------------------------------- R-END-1
def test_r_end_1_last_player_standing_wins_bankrupt_to_player() -> None:
    game = boardwalk_rent({"cash": 0}, {READING: {"owner": 0, "mortgaged": True}})
    events = game.apply(DeclareBankruptcy(0))
    assert game.over
    assert game.winners == (1,)
    assert game.end_reason == "last_player"
    assert any(isinstance(e, ev.GameOver) and e.winners == (1,) for e in events)
    assert game.decision is None
    assert game.legal_actions(1) == []
    assert_illegal(game, Roll(1), "the game is over")
    assert_illegal(game, Build(1, (PARK_PLACE,)), "the game is over")


def test_r_end_1_last_player_standing_wins_bankrupt_to_bank() -> None:
    position = {"players": [{}, {"cash": 10, "position": MED}], "turn": 1}
    game = start(position, dice=[(1, 2)])
    game.apply(Roll(1))
    game.apply(DeclareBankruptcy(1))
    assert game.over
    assert game.winners == (0,)
    assert game.cash[0] == 1500


def test_r_end_1_game_goes_on_while_two_remain() -> None:
    position = {"players": [{}, {"cash": 10, "position": MED}, {}, {"bankrupt": True}], "turn": 1}
    game = start(position, dice=[(1, 2)])
    game.apply(Roll(1))
    game.apply(DeclareBankruptcy(1))
    assert not game.over
    assert game.active == [True, False, True, False]
    assert waiting(game) == (ROLL, 2)


# ---------------------------------------------------------------------- R-DEBT-3
def test_r_debt_3_an_offer_lapses_when_its_player_goes_bankrupt_in_a_shortage_auction() -> None:
    """Reachable under the default rules: P1's offer to P2 waits while a house shortage is
    auctioned; P1 bids all its cash, lifts its mortgages, wins and cannot pay, and goes
    bankrupt to the Bank. The offer lapses: P2 keeps its card and nothing moves."""
    mortgaged = (
        READING,
        PENNSYLVANIA_RR,
        B_AND_O,
        SHORT_LINE,
        ELECTRIC,
        WATER,
        PARK_PLACE,
        BOARDWALK,
    )
    built = (KENTUCKY, INDIANA, ILLINOIS, ATLANTIC, VENTNOR, MARVIN)
    position = {
        "players": [{}, {"cash": 1100}, {"jail_cards": ["chance"]}],
        "properties": {
            **{s: {"owner": 0} for s in (ORIENTAL, VERMONT, CONNECTICUT)},
            **{s: {"owner": 0, "buildings": 4} for s in built},
            **{s: {"owner": 0, "buildings": 2} for s in (ST_JAMES, TENNESSEE, NEW_YORK)},
            **{s: {"owner": 1} for s in (MED, BALTIC)},
            **{s: {"owner": 1, "mortgaged": True} for s in mortgaged},
        },
    }
    game = start(position, players=3)
    assert game.bank_houses == 2
    game.apply(ProposeTrade(1, partner=2, give_cash=10, take_cards=("chance",)))
    game.apply(Build(0, (ORIENTAL, VERMONT)))  # 2 wanted, 2 in the Bank, P1 wants 1
    game.apply(DeclareWant(1, 1))
    apply_all(game, Bid(0, 10), Bid(1, 1100), *(Unmortgage(1, s) for s in mortgaged))
    game.apply(PassBid(0))  # P1 owes 1,100 and could raise only 81 + 60 + 925
    assert waiting(game) == (RAISE_CASH, 1)
    events = game.apply(DeclareBankruptcy(1))
    assert ev.TradeLapsed(1, 2) in events
    assert_illegal(game, AcceptTrade(2), "no trade offer is waiting", "R-DEBT-3")
    assert game.jail_cards == [[], [], ["chance"]]
    assert game.cash[1:] == [0, 1500]
