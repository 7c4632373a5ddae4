"""Debt and bankruptcy (R-DEBT-*, R-BANKRUPT-*, R-END-1, R-SHORT-4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import auction
from . import events as ev
from .actions import DeclareBankruptcy, Resign
from .board import BANK, jail_card_key
from .reasons import Reason, refuse
from .state import (
    BID,
    BREAKDOWN,
    MORTGAGE_RECEIVED,
    PLACE,
    RAISE_CASH,
    TRADE,
    WANT,
    AuctionDue,
    BuildHeld,
    Debt,
    Decision,
    FinishGame,
    Pay,
    SettleShortage,
    Task,
)

if TYPE_CHECKING:
    from .game import Game


NO_LIMIT: Final = 1 << 60
"""More money than any game holds: :func:`raisable` counts everything."""


def raisable(game: Game, seat: int, enough: int = NO_LIMIT) -> int:
    """Cash plus all the Bank would pay: buildings at half price, mortgages (R-DEBT-2).
    The count stops once it reaches ``enough`` (the sum so far is returned then)."""
    level, mortgaged = game.level, game.mortgaged
    total = game.cash[seat]
    if total >= enough:
        return total
    for space in game.deeds[seat]:
        total += level[space] * game.tables.sale_price[space]
        if not mortgaged[space]:
            total += game.tables.mortgage_value[space]
        if total >= enough:
            return total
    return total


def can_still_pay(game: Game, seat: int, owed: Debt) -> bool:
    """R-DEBT-2: selling and mortgaging could still cover the debt (the count stops at
    the first deed that covers it: this is asked at every decision of a player raising
    cash)."""
    return raisable(game, seat, owed.amount) >= owed.amount


def debt_of(game: Game, seat: int) -> Debt | None:
    """The debt ``seat`` is raising cash for now (R-DEBT-1), or None.

    A debt to a player who has left the game does not count: it lapses (R-DEBT-3).
    """
    for task in game.tasks:
        if (
            type(task) is Decision
            and task.kind == RAISE_CASH
            and task.seat == seat
            and (task.data.creditor < 0 or game.active[task.data.creditor])
        ):
            owed: Debt = task.data
            return owed
    return None


def bankruptcy_problem(game: Game, seat: int, decision: Decision) -> Reason | None:
    owed: Debt = decision.data
    can_raise = raisable(game, seat)
    if can_raise >= owed.amount:
        return refuse(game, "can_still_raise", raisable=can_raise, owed=owed.amount)
    return None


def declare_bankruptcy(game: Game, action: DeclareBankruptcy, decision: Decision) -> None:
    game.tasks.pop()
    go_bankrupt(game, action.seat, decision.data.creditor)


def resign(game: Game, action: Resign, decision: Decision) -> None:
    """A player leaves the game (a lost game can always be left): bankrupt to the Bank,
    whose deeds are auctioned (R-BANKRUPT-3), or to the player they are raising cash
    for (R-BANKRUPT-2); in the short game the game ends once that is settled (R-SHORT-4).
    As with any bankruptcy, an offer from or to them lapses."""
    seat = action.seat
    owed = debt_of(game, seat)
    game.emit(ev.PlayerResigned, seat)
    go_bankrupt(game, seat, owed.creditor if owed is not None else BANK)


def go_bankrupt(game: Game, seat: int, creditor: int) -> None:
    """R-BANKRUPT-1..3: pay what you can and leave the game.

    Everything the bankrupt player owns goes through the game's one money and deed path,
    so a creditor who has left the game meanwhile receives nothing (R-DEBT-3): then the
    estate goes to the Bank.
    """
    if creditor >= 0 and not game.active[creditor]:
        creditor = -1
    _sell_all_buildings(game, seat)
    spaces = game.properties_of(seat)
    cash = game.cash[seat]
    if creditor >= 0 and cash:
        game.move_cash(seat, creditor, cash)
    else:
        game.move_cash(seat, BANK, cash)
    game.active[seat] = False
    game.jail_turns[seat] = -1
    game.emit(ev.PlayerBankrupt, seat, creditor)
    if creditor >= 0 and cash:
        game.emit(ev.MoneyPaid, seat, creditor, cash, "bankruptcy")
    auction.withdraw(game, seat)  # R-AUCTION-4
    _lapse_offers(game, seat)
    left = game.active_seats()
    short_game = game.rules.ends_on_first_bankruptcy
    if creditor >= 0:
        _to_player(game, seat, creditor, spaces)
    else:
        _to_bank(game, seat, spaces)
    if short_game and len(left) > 1:
        _finish_once_settled(game)
    game.claims[:] = [c for c in game.claims if seat not in (c[0], c[1])]  # views hold it
    if len(left) == 1 and short_game:
        game.finish_by_worth("bankruptcy")
    elif len(left) == 1:
        game.finish((left[0],), "last_player")  # R-END-1


def _lapse_offers(game: Game, seat: int) -> None:
    """R-DEBT-3: a trade offer from or to a player who leaves the game lapses."""
    for task in list(game.tasks):
        if not isinstance(task, Decision) or task.kind != TRADE:
            continue
        if seat in (task.seat, task.data.seat):
            game.tasks.remove(task)
            game.emit(ev.TradeLapsed, task.data.seat, task.seat)


SETTLING_DECISIONS: Final = frozenset({BID, MORTGAGE_RECEIVED, RAISE_CASH, WANT, PLACE, BREAKDOWN})
"""Decisions that settle what is already under way: an auction (of a deed or, in a
shortage, of a building), an R-MORT-4 choice, a debt, a building sale."""


def still_to_settle(task: Decision | Task) -> bool:
    """R-SHORT-4: a task the short game settles before the fortunes are counted: a
    running auction and the auctions due, R-MORT-4 choices, debts and payments due (the
    rest of the same card or space), a building shortage being settled. The course of
    the turn (another roll, a move, a purchase) and open trade offers are not."""
    if isinstance(task, Decision):
        return task.kind in SETTLING_DECISIONS
    return isinstance(task, (Pay, AuctionDue, SettleShortage, BuildHeld))


def _finish_once_settled(game: Game) -> None:
    """R-SHORT-4: the game ends at the first bankruptcy, once it is fully settled: the
    end goes below everything still to settle on the task stack. A second bankruptcy
    while the first is settled adds nothing: the end is on the stack already."""
    tasks = game.tasks
    if any(isinstance(task, FinishGame) for task in tasks):
        return
    lowest = next((i for i, task in enumerate(tasks) if still_to_settle(task)), len(tasks))
    tasks.insert(lowest, FinishGame("bankruptcy"))


def _sell_all_buildings(game: Game, seat: int) -> None:
    for space in game.properties_of(seat):
        level = game.level[space]
        if not level:
            continue
        if level == game.tables.hotel_level:
            game.bank_hotels += 1
        else:
            game.bank_houses += level
        game.move_cash(BANK, seat, level * game.tables.sale_price[space])
        game.set_level(space, 0)


def _to_player(game: Game, seat: int, creditor: int, spaces: list[int]) -> None:
    """R-BANKRUPT-2: deeds and jail cards to the creditor; R-MORT-4 for mortgages."""
    for space in spaces:
        game.give_deed(space, creditor)
    for role in list(game.jail_cards[seat]):
        game.give_jail_card(role, seat, creditor)
    for space in reversed(spaces):
        if game.mortgaged[space]:
            game.tasks.append(Decision(MORTGAGE_RECEIVED, creditor, space))


def _to_bank(game: Game, seat: int, spaces: list[int]) -> None:
    """R-BANKRUPT-3: deeds auctioned unmortgaged; jail cards back under their decks.

    R-AUCTION-4: when an auction is running, these auctions wait until it is over.
    """
    for role in game.jail_cards[seat]:
        game.decks[role].append(jail_card_key(game.board, role))
    game.jail_cards[seat] = []
    for space in spaces:
        game.give_deed(space, BANK)
        game.set_mortgaged(space, False)
    if game.rules.no_auctions:
        return
    starter = game.current if game.active[game.current] else game.next_active(game.current)
    waiting = [AuctionDue(space, starter) for space in reversed(spaces)]
    below = auction.running_index(game)
    if below < 0:
        game.tasks.extend(waiting)
    else:
        game.tasks[below:below] = waiting
