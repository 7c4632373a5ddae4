"""Trades between players, at any time (R-TRADE-*, R-MORT-4)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from . import debt
from . import events as ev
from .actions import ACCEPTS, REJECTS, AcceptTrade, Action, ProposeTrade, RejectTrade
from .board import BOARD_SIZE
from .mortgage import not_a_property
from .reasons import Reason, refuse
from .state import MORTGAGE_RECEIVED, TRADE, Decision
from .tables import interest

if TYPE_CHECKING:
    from .game import Game


def offer_problem(game: Game, offer: ProposeTrade) -> Reason | None:
    """Why the offer could not be carried out now, or ""."""
    seat, partner = offer.seat, offer.partner
    if not 0 <= partner < game.players or partner == seat:
        return refuse(game, "no_partner", number=partner)
    if not (game.active[seat] and game.active[partner]):  # R-DEBT-3: the offer lapsed
        return refuse(game, "player_bankrupt")
    # Each field read once: an action's field is a Python attribute look-up.
    give, take, give_cash, take_cash = offer.give, offer.take, offer.give_cash, offer.take_cash
    give_cards, take_cards = offer.give_cards, offer.take_cards
    if not (give or take or give_cash or take_cash or give_cards or take_cards):
        return refuse(game, "empty_trade")
    if give_cash < 0 or take_cash < 0:
        return refuse(game, "negative_cash")
    if give_cash > game.cash[seat]:
        return refuse(game, "offer_exceeds_cash", offered=give_cash, cash=game.cash[seat])
    if take_cash > game.cash[partner]:
        return refuse(game, "partner_cash", cash=game.cash[partner])
    for spaces, owner in ((give, seat), (take, partner)):
        problem = _property_problem(game, spaces, owner)
        if problem:
            return problem
    for cards, owner in ((give_cards, seat), (take_cards, partner)):
        if cards and Counter(cards) - Counter(game.jail_cards[owner]):
            return refuse(game, "jail_card_not_held")
    return _pending_decision_problem(game, offer)


def _pending_decision_problem(game: Game, offer: ProposeTrade) -> Reason | None:
    """R-DEBT-3: a player raising cash may make no trade that lowers what they could pay,
    and every trade they make must bring them cash; **Decision**: a received mortgaged
    property cannot change hands again before its owner settled the 10 % (R-MORT-4 "at
    once")."""
    for task in game.tasks:
        if (
            type(task) is Decision
            and task.kind == MORTGAGE_RECEIVED
            and (task.space in offer.give or task.space in offer.take)
        ):
            return refuse(game, "mortgage_fee_pending", space=task.space)
    for seat in (offer.seat, offer.partner):
        if debt.debt_of(game, seat) is None:
            continue
        if raisable_change(game, offer, seat) < 0:
            return refuse(game, "debtor_trade_lowers", seat=seat)
        if cash_received(offer, seat) <= 0:  # nothing given away for nothing
            return refuse(game, "debtor_trade_no_cash", seat=seat)
    return None


def cash_received(offer: ProposeTrade, seat: int) -> int:
    """The cash the trade brings ``seat`` (negative when ``seat`` pays)."""
    cash_in = offer.take_cash - offer.give_cash
    return cash_in if seat == offer.seat else -cash_in


def raisable_change(game: Game, offer: ProposeTrade, seat: int) -> int:
    """How the trade changes what ``seat`` could pay (R-DEBT-2's cash plus what the Bank
    would give): cash, the mortgage value of unmortgaged deeds, and the 10 % due at once
    on a mortgaged deed received (R-MORT-4). Traded streets carry no buildings."""
    gives, takes = (offer.give, offer.take) if seat == offer.seat else (offer.take, offer.give)
    change = cash_received(offer, seat)
    for space in takes:
        value = game.tables.mortgage_value[space]
        change += -interest(value) if game.mortgaged[space] else value
    for space in gives:
        if not game.mortgaged[space]:
            change -= game.tables.mortgage_value[space]
    return change


def _property_problem(game: Game, spaces: tuple[int, ...], owner: int) -> Reason | None:
    if len(spaces) > 1 and len(set(spaces)) != len(spaces):
        return refuse(game, "listed_twice")
    level = game.level
    for space in spaces:
        if not 0 <= space < BOARD_SIZE or not game.tables.is_property[space]:
            return not_a_property(game, space)
        if game.owner[space] != owner:
            return refuse(game, "not_theirs", space=space, owner=owner)
        for s in game.tables.members[space]:  # a loop, not any() of a generator: no call
            if level[s]:
                return refuse(game, "trade_buildings")
    return None


def check_proposal(game: Game, action: ProposeTrade, decision: Decision) -> Reason | None:
    pending = _pending(game)
    if pending is not None and not _is_counter(pending, action):
        return refuse(game, "trade_waiting")
    return offer_problem(game, action)


def _pending(game: Game) -> Decision | None:
    tasks = game.tasks  # newest first; an index loop keeps the module compilable by mypyc
    for index in range(len(tasks) - 1, -1, -1):
        task = tasks[index]
        if isinstance(task, Decision) and task.kind == TRADE:
            return task
    return None


def offer_pending(game: Game) -> bool:
    """A trade offer waits for an answer."""
    return _pending(game) is not None


def _is_counter(pending: Decision, action: ProposeTrade) -> bool:
    return pending.seat == action.seat and pending.data.seat == action.partner


def propose(game: Game, action: ProposeTrade, decision: Decision) -> None:
    pending = _pending(game)
    if pending is not None:  # a counter-offer rejects the offer it answers
        game.tasks.remove(pending)
        game.emit(ev.TradeRejected, pending.seat, pending.data.seat)
    game.emit(ev.TradeProposed, action.seat, action.partner, action)
    game.tasks.append(Decision(TRADE, action.partner, data=action))


def answer_actions(game: Game, decision: Decision) -> list[Action]:
    if offer_problem(game, decision.data):
        return [REJECTS[decision.seat]]
    return [ACCEPTS[decision.seat], REJECTS[decision.seat]]


def check_accept(game: Game, action: AcceptTrade, decision: Decision) -> Reason | None:
    return offer_problem(game, decision.data)


def accept(game: Game, action: AcceptTrade, decision: Decision) -> None:
    game.tasks.pop()
    offer: ProposeTrade = decision.data
    seat, partner, give, take = offer.seat, offer.partner, offer.give, offer.take
    game.move_cash(seat, partner, offer.give_cash)
    game.move_cash(partner, seat, offer.take_cash)
    for role in offer.give_cards:
        game.give_jail_card(role, seat, partner)
    for role in offer.take_cards:
        game.give_jail_card(role, partner, seat)
    for space in give:
        game.give_deed(space, partner)
    for space in take:
        game.give_deed(space, seat)
    game.emit(ev.TradeAccepted, partner, seat)
    for receiver, spaces in ((partner, give), (seat, take)):
        for space in reversed(spaces):
            if game.mortgaged[space]:
                game.tasks.append(Decision(MORTGAGE_RECEIVED, receiver, space))


def reject(game: Game, action: RejectTrade, decision: Decision) -> None:
    game.tasks.pop()
    game.emit(ev.TradeRejected, decision.seat, decision.data.seat)


def check_reject(game: Game, action: RejectTrade, decision: Decision) -> Reason | None:
    return None
