"""The terminal's words for a decision: the header that asks it and a menu label per
answer, in the game's language and the edition's words."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from monopoly.core.actions import (
    AcceptTrade,
    Build,
    Buy,
    ChooseBreakdown,
    ChooseMove,
    ClaimRent,
    DeclareBankruptcy,
    DeclareWant,
    DeclineBuy,
    KeepMortgaged,
    Mortgage,
    PassBid,
    PayJailFine,
    PlaceBuilding,
    ProposeTrade,
    RejectTrade,
    Roll,
    RollForDoubles,
    SellBuilding,
    Unmortgage,
    UseJailCard,
)
from monopoly.core.board import BOARD_SIZE
from monopoly.core.state import (
    BREAKDOWN,
    BUY,
    JAIL,
    MORTGAGE_RECEIVED,
    PLACE,
    RAISE_CASH,
    TRADE,
    WANT,
    Decision,
)
from monopoly.core.tables import interest

LineReader = Callable[[str], str]

if TYPE_CHECKING:
    from monopoly.cli.terminal import TerminalGame


# ---------------------------------------------------------------------- decision headers
def _jail_details(ui: TerminalGame, decision: Decision) -> dict[str, Any]:
    return {"count": ui.game.jail_turns[decision.seat]}


def _buy_details(ui: TerminalGame, decision: Decision) -> dict[str, Any]:
    price = ui.game.board.spaces[decision.space].price
    return {"space": ui.space(decision.space), "price": ui.money(price)}


def _debt_details(ui: TerminalGame, decision: Decision) -> dict[str, Any]:
    owed = decision.data
    return {"amount": ui.money(owed.amount), "creditor": ui.narrator.creditor(owed.creditor)}


def _received_details(ui: TerminalGame, decision: Decision) -> dict[str, Any]:
    return {"space": ui.space(decision.space)}


def _trade_details(ui: TerminalGame, decision: Decision) -> dict[str, Any]:
    offer: ProposeTrade = decision.data
    return {
        "proposer": ui.game.names[offer.seat],
        "get": ui.bundle(offer.give, offer.give_cash, offer.give_cards),
        "give": ui.bundle(offer.take, offer.take_cash, offer.take_cards),
    }


def _want_details(ui: TerminalGame, decision: Decision) -> dict[str, Any]:
    hotel = decision.data.hotel
    stock = ui.game.bank_hotels if hotel else ui.game.bank_houses
    return {"stock": stock, "kind": ui.t.terms["hotels" if hotel else "houses"]}


def _place_details(ui: TerminalGame, decision: Decision) -> dict[str, Any]:
    placement = decision.data
    how = ui.t("place_printed_price" if placement.printed_price else "place_won")
    return {"kind": ui.t.terms["hotel" if placement.hotel else "house"], "how": how}


def _breakdown_details(ui: TerminalGame, decision: Decision) -> dict[str, Any]:
    return {"space": ui.space(decision.space)}


HEADER_DETAILS: dict[str, Callable[[TerminalGame, Decision], dict[str, Any]]] = {
    JAIL: _jail_details,
    BUY: _buy_details,
    RAISE_CASH: _debt_details,
    MORTGAGE_RECEIVED: _received_details,
    TRADE: _trade_details,
    WANT: _want_details,
    PLACE: _place_details,
    BREAKDOWN: _breakdown_details,
}


# ---------------------------------------------------------------------- menu labels
def _build_label(ui: TerminalGame, action: Any) -> str:
    space = action.spaces[0]
    key = (
        "do_build_hotel"
        if ui.game.level[space] + 1 == ui.game.tables.hotel_level
        else "do_build_house"
    )
    return ui.t(key, space=ui.space(space), amount=ui.money(ui.game.board.spaces[space].house_cost))


def _sell_label(ui: TerminalGame, action: Any) -> str:
    key = (
        "do_sell_hotel"
        if ui.game.level[action.space] == ui.game.tables.hotel_level
        else "do_sell_house"
    )
    amount = ui.game.board.spaces[action.space].building_sale_price
    return ui.t(key, space=ui.space(action.space), amount=ui.money(amount))


def _move_label(ui: TerminalGame, action: Any) -> str:
    target = (ui.game.position[action.seat] + action.steps) % BOARD_SIZE
    return ui.t("do_move", steps=action.steps, space=ui.space(target))


def _claim_label(ui: TerminalGame, action: Any) -> str:
    for owner, payer, space, amount in ui.game.claims:
        if owner == action.seat and space == action.space:
            return ui.t(
                "do_claim",
                amount=ui.money(amount),
                player=ui.game.names[payer],
                space=ui.space(space),
            )
    return str(action)


def _buy_label(ui: TerminalGame, action: Any) -> str:
    decision = ui.game.decision
    assert decision is not None
    price = ui.game.board.spaces[decision.space].price
    return ui.t("do_buy", space=ui.space(decision.space), amount=ui.money(price))


def _decline_label(ui: TerminalGame, action: Any) -> str:
    return ui.t("do_decline_no_auction" if ui.game.rules.no_auctions else "do_decline")


def _keep_label(ui: TerminalGame, action: Any) -> str:
    value = ui.game.board.spaces[action.space].mortgage_value
    return ui.t("do_keep", space=ui.space(action.space), amount=ui.money(interest(value)))


def _place_label(ui: TerminalGame, action: Any) -> str:
    decision = ui.game.decision
    if decision is not None and decision.kind == PLACE and decision.data.printed_price:
        cost = ui.game.board.spaces[action.space].house_cost
        return ui.t("do_place_paying", space=ui.space(action.space), amount=ui.money(cost))
    return ui.t("do_place", space=ui.space(action.space))


def _breakdown_label(ui: TerminalGame, action: Any) -> str:
    """R-BUILD-4: each street of the group with the buildings it keeps, and the refund."""
    game = ui.game
    decision = game.decision
    assert decision is not None
    group = game.board.groups[game.board.spaces[decision.space].group]
    parts = []
    refund = 0
    for space, level in zip(group, action.levels, strict=True):
        refund += (game.level[space] - level) * game.board.spaces[space].building_sale_price
        kept = ui.t.terms["hotel"] if level == game.tables.hotel_level else str(level)
        parts.append(f"{ui.space(space)} {kept}")
    return ui.t("do_breakdown", levels=", ".join(parts), amount=ui.money(refund))


LABELS: dict[type, Callable[[TerminalGame, Any], str]] = {
    Roll: lambda ui, a: ui.t("do_roll"),
    RollForDoubles: lambda ui, a: ui.t("do_roll_doubles"),
    PayJailFine: lambda ui, a: ui.t("do_pay_fine", amount=ui.money(ui.game.board.jail_fine)),
    UseJailCard: lambda ui, a: ui.t("do_use_card", deck=ui.t.terms[a.deck]),
    Buy: _buy_label,
    DeclineBuy: _decline_label,
    PassBid: lambda ui, a: ui.t("do_pass"),
    DeclareBankruptcy: lambda ui, a: ui.t("do_bankrupt"),
    KeepMortgaged: _keep_label,
    AcceptTrade: lambda ui, a: ui.t("do_accept"),
    RejectTrade: lambda ui, a: ui.t("do_reject"),
    ChooseMove: _move_label,
    DeclareWant: lambda ui, a: ui.t("do_want", count=a.count),
    PlaceBuilding: _place_label,
    ChooseBreakdown: _breakdown_label,
    Build: _build_label,
    SellBuilding: _sell_label,
    Mortgage: lambda ui, a: ui.t(
        "do_mortgage",
        space=ui.space(a.space),
        amount=ui.money(ui.game.board.spaces[a.space].mortgage_value),
    ),
    Unmortgage: lambda ui, a: ui.t(
        "do_unmortgage", space=ui.space(a.space), amount=ui.money(ui.game.tables.lift_cost[a.space])
    ),
    ClaimRent: _claim_label,
}
