"""Money interactions: payments to/from every player, debts raised by several means,
chains of bankruptcies (R-CARD-5, R-DEBT-*, R-BANKRUPT-*, R-MORT-4, R-TURN-5/6)."""

from __future__ import annotations

from typing import Any

from monopoly.core import events as ev
from monopoly.core.actions import (
    AcceptTrade,
    Bid,
    DeclareBankruptcy,
    KeepMortgaged,
    Mortgage,
    PassBid,
    ProposeTrade,
    Roll,
    SellBuilding,
    Unmortgage,
)
from monopoly.core.editions import get_edition
from monopoly.core.state import BID, MORTGAGE_RECEIVED, RAISE_CASH, ROLL
from tests.scenario import assert_illegal, start, waiting

BOARD = get_edition("classic").board
CHANCE_KEYS = [c.key for c in BOARD.decks["chance"]]
CHEST_KEYS = [c.key for c in BOARD.decks["community_chest"]]


def chance_top(key: str) -> dict[str, list[str]]:
    return {"chance": [key, *[k for k in CHANCE_KEYS if k != key]]}


def chest_top(key: str) -> dict[str, list[str]]:
    return {"community_chest": [key, *[k for k in CHEST_KEYS if k != key]]}


def owned(seat: int, *spaces: int, **extra: Any) -> dict[str, dict[str, Any]]:
    return {str(s): {"owner": seat, **extra} for s in spaces}


# ---------------------------------------------------------------- R-CARD-5
def test_r_card_5_chairman_six_players_bankrupt_to_the_first_unpaid_creditor() -> None:
    """Drawer with 120 cash: pays P1 and P2 50 each, cannot pay P3 (20 left) and goes
    bankrupt to P3, who gets the 20; P4 and P5 get nothing."""
    players = [{"position": 4, "cash": 120}, *[{} for _ in range(5)]]
    game = start({"players": players}, dice=[(1, 2)], decks=chance_top("chairman_of_the_board"))
    game.apply(Roll(0))
    assert game.position[0] == 7
    assert waiting(game) == (RAISE_CASH, 0)
    assert game.decision is not None and game.decision.data.creditor == 3
    game.apply(DeclareBankruptcy(0))
    assert not game.active[0]
    assert game.cash[1:] == [1550, 1550, 1520, 1500, 1500]
    assert waiting(game) == (ROLL, 1)  # R-TURN-6


def test_r_card_5_chairman_raises_cash_by_mortgaging_between_creditors() -> None:
    """30 cash and Mediterranean (mortgage 30): the first debt is raised by mortgaging,
    the second cannot be: bankrupt to P2, who receives the mortgaged street (R-MORT-4)."""
    players = [{"position": 4, "cash": 30}, {}, {}, {}]
    game = start(
        {"players": players, "properties": owned(0, 1)},
        dice=[(1, 2)],
        decks=chance_top("chairman_of_the_board"),
    )
    game.apply(Roll(0))
    assert waiting(game) == (RAISE_CASH, 0)
    assert_illegal(game, DeclareBankruptcy(0), "60", "50")
    game.apply(Mortgage(0, 1))  # 60: pays P1
    assert game.cash[1] == 1550
    assert waiting(game) == (RAISE_CASH, 0)
    assert game.decision is not None and game.decision.data.creditor == 2
    game.apply(DeclareBankruptcy(0))
    assert game.cash[2] == 1500 + 10
    assert game.owner[1] == 2 and game.mortgaged[1]
    assert waiting(game) == (MORTGAGE_RECEIVED, 2)
    game.apply(KeepMortgaged(2, 1))
    assert game.cash[2] == 1510 - 3  # 10 % of 30
    assert game.cash[3] == 1500
    assert waiting(game) == (ROLL, 1)


def test_r_card_5_birthday_two_players_cannot_pay() -> None:
    """P1 and P2 hold 5 each and nothing else: both go bankrupt to the drawer in seat
    order; P3 pays 10."""
    players = [{"position": 14}, {"cash": 5}, {"cash": 5}, {}]
    game = start(
        {"players": players},
        dice=[(1, 2)],
        decks=chest_top("birthday") if "birthday" in CHEST_KEYS else None,
    )
    game.apply(Roll(0))
    assert game.position[0] == 17
    assert waiting(game) == (RAISE_CASH, 1)
    game.apply(DeclareBankruptcy(1))
    assert waiting(game) == (RAISE_CASH, 2)
    game.apply(DeclareBankruptcy(2))
    assert game.active == [True, False, False, True]
    assert game.cash[0] == 1500 + 5 + 5 + 10
    assert game.cash[3] == 1490
    assert waiting(game) == (ROLL, 3)


def test_r_card_5_r_end_1_birthday_last_opponent_bankrupt_ends_the_game() -> None:
    game = start(
        {"players": [{"position": 14}, {"cash": 5}]},
        dice=[(1, 2)],
        decks=chest_top("birthday") if "birthday" in CHEST_KEYS else None,
    )
    game.apply(Roll(0))
    game.apply(DeclareBankruptcy(1))
    assert game.over and game.winners == (0,)
    assert game.cash[0] == 1505


# ---------------------------------------------------------------- R-DEBT-1
def test_r_debt_1_rent_raised_partly_by_mortgage_partly_by_trade() -> None:
    """Rent 200 on Boardwalk with a house, 50 cash: mortgage Oriental (+50), sell Vermont
    to P2 for 100: the debt is paid the moment the cash covers it."""
    game = start(
        {
            "players": [{"position": 35, "cash": 50}, {}, {}],
            "properties": {**owned(1, 37, 39, buildings=1), **owned(0, 6, 8)},
        },
        dice=[(1, 3)],
    )
    game.apply(Roll(0))
    assert game.position[0] == 39
    assert waiting(game) == (RAISE_CASH, 0)
    game.apply(Mortgage(0, 6))
    assert game.cash[0] == 100 and waiting(game) == (RAISE_CASH, 0)
    game.apply(ProposeTrade(0, partner=2, give=(8,), take_cash=100))
    game.apply(AcceptTrade(2))
    assert game.cash[0] == 0
    assert game.cash[1] == 1700
    assert game.owner[8] == 2
    assert waiting(game) == (ROLL, 1)


def test_r_debt_2_trade_value_does_not_count_for_bankruptcy() -> None:
    """Bankruptcy depends on what the Bank would pay (R-DEBT-2): mortgaged deeds add
    nothing even if a player might buy them."""
    game = start(
        {
            "players": [{"position": 35, "cash": 50}, {}, {}],
            "properties": {**owned(1, 37, 39, buildings=1), **owned(0, 6, 8, mortgaged=True)},
        },
        dice=[(1, 3)],
    )
    game.apply(Roll(0))
    assert DeclareBankruptcy(0) in game.legal_actions(0)


# ---------------------------------------------------------------- R-BANKRUPT-2 + R-MORT-4
def birthday_bankruptcy(players: list[dict[str, Any]]) -> Any:
    """P1 draws "birthday"; the others pay in seat order from P1's left (P2, ..., P0).
    P0 (5 cash, Park Place and Boardwalk mortgaged) cannot pay 10 and goes bankrupt to
    P1, who receives 5 and both mortgaged deeds (R-BANKRUPT-2, R-MORT-4)."""
    game = start(
        {"players": players, "properties": owned(0, 37, 39, mortgaged=True), "turn": 1},
        dice=[(1, 2)],
        decks=chest_top("birthday"),
    )
    game.apply(Roll(1))
    assert game.position[1] == 17
    assert waiting(game) == (RAISE_CASH, 0)
    game.apply(DeclareBankruptcy(0))
    assert game.owner[37] == 1 and game.mortgaged[37]
    assert game.owner[39] == 1 and game.mortgaged[39]
    assert waiting(game) == (MORTGAGE_RECEIVED, 1)
    assert game.decision is not None and game.decision.space == 37
    return game


def test_r_bankrupt_2_r_mort_4_creditor_cannot_pay_the_interest_goes_bankrupt_to_bank() -> None:
    """P1 (0 cash + 10 from P2 + 5 from P0) cannot lift Park Place (193) nor pay its 10 %
    (18): a debt to the Bank, bankrupt to the Bank; only P2 is left (R-END-1)."""
    game = birthday_bankruptcy([{"position": 10, "cash": 5}, {"position": 14, "cash": 0}, {}])
    assert game.cash[1] == 15
    assert_illegal(game, Unmortgage(1, 37), "193")
    game.apply(KeepMortgaged(1, 37))
    assert waiting(game) == (RAISE_CASH, 1)
    assert game.decision is not None and game.decision.data.creditor == -1
    assert game.decision.data.amount == 18
    game.apply(DeclareBankruptcy(1))
    assert game.over and game.winners == (2,)


def test_r_bankrupt_3_second_fee_unpaid_bankrupt_to_bank_auctions_with_four_players() -> None:
    """With P3 too, P1 holds 25: pays Park Place's 18, cannot pay Boardwalk's 20 (7 left):
    bankrupt to the Bank; both deeds are auctioned unmortgaged in board order, starting
    with the next player still in after P1 (whose turn it was)."""
    game = birthday_bankruptcy(
        [{"position": 10, "cash": 5}, {"position": 14, "cash": 0}, {}, {"cash": 110}]
    )
    assert game.cash[1] == 25
    game.apply(KeepMortgaged(1, 37))
    assert game.cash[1] == 7
    assert waiting(game) == (MORTGAGE_RECEIVED, 1)
    game.apply(KeepMortgaged(1, 39))
    assert waiting(game) == (RAISE_CASH, 1)
    game.apply(DeclareBankruptcy(1))
    assert game.active == [False, False, True, True]
    assert game.owner[37] == -1 and game.owner[39] == -1
    assert not game.mortgaged[37] and not game.mortgaged[39]
    assert waiting(game) == (BID, 2)
    assert game.decision is not None and game.decision.space == 37
    game.apply(Bid(2, 10))
    game.apply(Bid(3, 100))
    game.apply(PassBid(2))
    assert game.owner[37] == 3 and not game.mortgaged[37] and game.cash[3] == 0
    assert waiting(game) == (BID, 2)
    assert game.decision is not None and game.decision.space == 39
    game.apply(Bid(2, 1))
    assert [a for a in game.legal_actions(3) if isinstance(a, Bid)] == []  # no cash
    game.apply(PassBid(3))
    assert game.owner[39] == 2 and game.cash[2] == 1490 - 1  # outbid on Park Place
    assert waiting(game) == (ROLL, 2)


def test_r_bankrupt_2_creditor_can_lift_after_selling_buildings() -> None:
    """The creditor may raise cash for the 10 % fee by selling houses (R-DEBT-1)."""
    game = start(
        {
            "players": [{"position": 2, "cash": 0}, {"cash": 0}, {}],
            "properties": {
                **owned(1, 1, 3, buildings=1),
                **owned(0, 37, mortgaged=True),
                **owned(1, 5),
            },
        },
        dice=[(1, 2)],
    )
    game.apply(Roll(0))
    game.apply(DeclareBankruptcy(0))
    game.apply(KeepMortgaged(1, 37))
    assert waiting(game) == (RAISE_CASH, 1)
    game.apply(SellBuilding(1, 1))  # +25, the fee of 18 is paid at once
    assert game.cash[1] == 7 and game.level[1] == 0 and game.level[3] == 1
    assert waiting(game) == (ROLL, 1)


# ---------------------------------------------------------------- R-TURN-5/6
def test_r_bankrupt_3_current_player_bankrupt_during_doubles_no_further_roll() -> None:
    game = start(
        {"players": [{"cash": 100}, {}, {}], "properties": owned(0, 6)},
        dice=[(2, 2)],  # Income Tax 200
    )
    game.apply(Roll(0))
    assert waiting(game) == (RAISE_CASH, 0)
    game.apply(Mortgage(0, 6))  # 150 < 200: still short
    assert waiting(game) == (RAISE_CASH, 0)
    game.apply(DeclareBankruptcy(0))
    assert not game.active[0]
    # Oriental goes to auction, from the next player still in; then P1's turn.
    assert waiting(game) == (BID, 1)
    game.apply(PassBid(1))
    game.apply(PassBid(2))
    assert game.owner[6] == -1
    assert waiting(game) == (ROLL, 1)
    assert not any(isinstance(e, ev.DiceRolled) and e.seat == 0 for e in game.events[-5:])


def test_r_card_5_chairman_drawer_bankrupt_during_doubles() -> None:
    players = [{"position": 5, "cash": 10}, {}, {}]
    game = start({"players": players}, dice=[(1, 1)], decks=chance_top("chairman_of_the_board"))
    game.apply(Roll(0))
    assert waiting(game) == (RAISE_CASH, 0)
    game.apply(DeclareBankruptcy(0))
    assert game.cash[1:] == [1510, 1500]
    assert waiting(game) == (ROLL, 1)


def test_r_debt_3_a_player_raising_cash_cannot_give_it_away() -> None:
    """R-DEBT-3: while raising cash, no trade may lower what the debtor could pay — a gift
    to a third player would leave the creditor with less."""
    game = start(
        {
            "players": [{"position": 35, "cash": 150}, {}, {}],
            "properties": {**owned(1, 37, 39, buildings=1), **owned(0, 6)},
        },
        dice=[(1, 3)],
    )
    game.apply(Roll(0))
    assert waiting(game) == (RAISE_CASH, 0)
    assert_illegal(game, ProposeTrade(0, partner=2, give_cash=150), "lowers what")
    assert_illegal(game, ProposeTrade(0, partner=2, give=(6,)), "lowers")
    assert_illegal(game, ProposeTrade(2, partner=0, take=(6,), give_cash=49), "lowers")
    game.apply(ProposeTrade(2, partner=0, take=(6,), give_cash=60))  # a sale brings cash
    game.apply(AcceptTrade(0))
    assert game.owner[6] == 2
    assert game.cash[0] == 10 and game.cash[1] == 1700  # 150 + 60 - 200 rent
    assert waiting(game) == (ROLL, 1)


def test_r_mort_4_a_received_mortgaged_deed_cannot_be_traded_before_its_fee() -> None:
    """R-MORT-4 "at once": the receiver lifts the mortgage or pays the 10 % before the
    deed can change hands again."""
    game = birthday_bankruptcy([{"position": 10, "cash": 5}, {"position": 14}, {}])
    assert waiting(game) == (MORTGAGE_RECEIVED, 1)
    assert_illegal(game, ProposeTrade(1, partner=2, give=(37,), take_cash=100), "10 %")
    game.apply(KeepMortgaged(1, 37))
    assert waiting(game) == (MORTGAGE_RECEIVED, 1)  # Boardwalk's turn now
    game.apply(ProposeTrade(1, partner=2, give=(37,), take_cash=100))
    assert waiting(game) == ("trade", 2)
