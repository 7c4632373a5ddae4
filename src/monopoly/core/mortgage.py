"""Mortgages (R-MORT-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import debt
from . import events as ev
from .actions import Mortgage, Unmortgage
from .board import BANK, BOARD_SIZE
from .reasons import Reason, refuse
from .state import Decision
from .tables import interest

if TYPE_CHECKING:
    from .game import Game


def mortgage_problem(game: Game, seat: int, space: int) -> Reason | None:
    refusal = _mortgage_refusal(game, seat, space)
    if not refusal:
        return None
    if refusal == "not_a_property":
        return not_a_property(game, space)
    return refuse(game, refusal)


def _mortgage_refusal(game: Game, seat: int, space: int) -> str:
    """The key of the reason why ``seat`` may not mortgage ``space`` now, "" when it may:
    :func:`mortgage_problem` words it, :func:`mortgageable` needs only the answer (the
    legal lists ask it of every deed at every decision)."""
    if not 0 <= space < BOARD_SIZE or not game.tables.is_property[space]:
        return "not_a_property"
    if game.owner[space] != seat:
        return "not_your_property"
    if game.mortgaged[space]:
        return "mortgaged_already"
    level = game.level
    for s in game.tables.members[space]:
        if level[s]:
            return "sell_group_buildings"
    return ""


def not_a_property(game: Game, space: int) -> Reason:
    """The refusal for ``space`` that is no property (or no space at all)."""
    if not 0 <= space < BOARD_SIZE:
        return refuse(game, "no_space", number=space)
    return refuse(game, "not_a_property", space=space)


def lift_problem(game: Game, seat: int, space: int) -> Reason | None:
    if not 0 <= space < BOARD_SIZE or not game.tables.is_property[space]:
        return not_a_property(game, space)
    if game.owner[space] != seat:
        return refuse(game, "not_your_property")
    if not game.mortgaged[space]:
        return refuse(game, "not_mortgaged")
    if debt.debt_of(game, seat) is not None:
        return refuse(game, "debtor_cannot_lift")  # R-DEBT-3
    cost = game.tables.lift_cost[space]
    if game.cash[seat] < cost:
        return refuse(game, "lifting_costs", cost=cost, cash=game.cash[seat])
    return None


def can_lift(game: Game, seat: int, space: int) -> bool:
    """``lift_problem(...) is None`` without building the refusal: the cheap question the
    legal lists ask (a refusal is a formatted text)."""
    if not 0 <= space < BOARD_SIZE or game.owner[space] != seat or not game.mortgaged[space]:
        return False  # only a property can have an owner and a mortgage
    return game.cash[seat] >= game.tables.lift_cost[space] and debt.debt_of(game, seat) is None


def mortgageable(game: Game, seat: int) -> list[int]:
    return [
        s
        for s in game.board.properties
        if game.owner[s] == seat and not _mortgage_refusal(game, seat, s)
    ]


def liftable(game: Game, seat: int) -> list[int]:
    return [
        s
        for s in game.board.properties
        if game.owner[s] == seat and game.mortgaged[s] and can_lift(game, seat, s)
    ]


def check_mortgage(game: Game, action: Mortgage, decision: Decision) -> Reason | None:
    return mortgage_problem(game, action.seat, action.space)


def check_lift(game: Game, action: Unmortgage, decision: Decision) -> Reason | None:
    return lift_problem(game, action.seat, action.space)


def mortgage(game: Game, action: Mortgage, decision: Decision) -> None:
    seat, space = action.seat, action.space  # each read of an action's field is a look-up
    value = game.tables.mortgage_value[space]
    game.set_mortgaged(space, True)
    game.move_cash(BANK, seat, value)
    if game.collect_events:
        game.events.append(ev.PropertyMortgaged(seat, space, value))


def lift(game: Game, seat: int, space: int) -> None:
    cost = game.tables.lift_cost[space]
    game.move_cash(seat, BANK, cost)
    game.set_mortgaged(space, False)
    if game.collect_events:
        game.events.append(ev.MortgageLifted(seat, space, cost))


def keep(game: Game, seat: int, space: int) -> None:
    """R-MORT-4: pay the 10 % alone and keep the property mortgaged."""
    fee = interest(game.tables.mortgage_value[space])
    if game.collect_events:
        game.events.append(ev.MortgageInterestPaid(seat, space, fee))
    game.push_pay(seat, BANK, fee, "interest")
