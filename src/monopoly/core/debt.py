"""Debt and bankruptcy (R-DEBT-*, R-BANKRUPT-*, R-END-1, R-SHORT-4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import events as ev
from .reasons import refuse
from .state import MORTGAGE_RECEIVED, OP_AUCTION, Debt, Decision

if TYPE_CHECKING:
    from .game import Game


def raisable(game: Game, seat: int) -> int:
    """Cash plus all the Bank would pay: buildings at half price, mortgages (R-DEBT-2)."""
    total = game.cash[seat]
    for space in game.board.properties:
        if game.owner[space] != seat:
            continue
        deed = game.board.spaces[space]
        total += game.level[space] * (deed.house_cost // 2)
        if not game.mortgaged[space]:
            total += deed.mortgage_value
    return total


def can_still_pay(game: Game, seat: int, owed: Debt) -> bool:
    """R-DEBT-2: selling and mortgaging could still cover the debt."""
    return raisable(game, seat) >= owed.amount


def bankruptcy_problem(game: Game, seat: int, decision: Decision) -> str:
    owed: Debt = decision.data
    can_raise = raisable(game, seat)
    if can_raise >= owed.amount:
        return refuse(game, "can_still_raise", raisable=can_raise, owed=owed.amount)
    return ""


def declare_bankruptcy(game: Game, action: Any, decision: Decision) -> None:
    game.tasks.pop()
    go_bankrupt(game, action.seat, decision.data.creditor)


def go_bankrupt(game: Game, seat: int, creditor: int) -> None:
    """R-BANKRUPT-1..3: pay what you can and leave the game."""
    _sell_all_buildings(game, seat)
    spaces = game.properties_of(seat)
    cash, game.cash[seat] = game.cash[seat], 0
    game.active[seat] = False
    game.jail_turns[seat] = -1
    game.deeds_version += 1
    game.buildings_version += 1
    game.emit(ev.PlayerBankrupt, seat, creditor)
    if creditor >= 0:
        _to_player(game, seat, creditor, cash, spaces)
    else:
        _to_bank(game, seat, spaces)
    game.claims = [c for c in game.claims if seat not in (c[0], c[1])]
    left = game.active_seats()
    if game.rules.ends_on_first_bankruptcy:
        game.finish_by_worth("bankruptcy")
    elif len(left) == 1:
        game.finish((left[0],), "last_player")  # R-END-1


def _sell_all_buildings(game: Game, seat: int) -> None:
    for space in game.properties_of(seat):
        level = game.level[space]
        if not level:
            continue
        if level == game.hotel_level:
            game.bank_hotels += 1
        else:
            game.bank_houses += level
        game.cash[seat] += level * (game.board.spaces[space].house_cost // 2)
        game.level[space] = 0


def _to_player(game: Game, seat: int, creditor: int, cash: int, spaces: list[int]) -> None:
    """R-BANKRUPT-2: cash, deeds and jail cards to the creditor; R-MORT-4 for mortgages."""
    game.cash[creditor] += cash
    if cash:
        game.emit(ev.MoneyPaid, seat, creditor, cash, "bankruptcy")
    for space in spaces:
        game.owner[space] = creditor
    game.jail_cards[creditor].extend(game.jail_cards[seat])
    game.jail_cards[seat] = []
    for space in reversed(spaces):
        if game.mortgaged[space]:
            game.tasks.append(Decision(MORTGAGE_RECEIVED, creditor, space))


def _to_bank(game: Game, seat: int, spaces: list[int]) -> None:
    """R-BANKRUPT-3: deeds auctioned unmortgaged; jail cards back under their decks."""
    from .jail import _jail_card_key

    for role in game.jail_cards[seat]:
        game.decks[role].append(_jail_card_key(game, role))
    game.jail_cards[seat] = []
    for space in spaces:
        game.owner[space] = -1
        game.mortgaged[space] = False
    if game.rules.no_auctions:
        return
    starter = game.current if game.active[game.current] else game.next_active(game.current)
    for space in reversed(spaces):
        game.tasks.append((OP_AUCTION, space, starter))
