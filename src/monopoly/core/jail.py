"""Jail: paying, cards and rolling for doubles (R-JAIL-*, R-SHORT-3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import events as ev
from . import movement
from .actions import JAIL_FINES, ROLLS_FOR_DOUBLES, Action, PayJailFine, RollForDoubles, UseJailCard
from .board import BANK, jail_card_key
from .reasons import Reason, refuse
from .state import AFTER_ROLLS, ROLL_DECISIONS, Decision, Move

if TYPE_CHECKING:
    from .game import Game

JAIL_ROLLS: Final = 3
_ROLLS_FOR_DOUBLES: Final = ROLLS_FOR_DOUBLES
"""The rolls for doubles by seat, held in a constant: the compiled build reads it from a
static instead of looking the name up in the module's dictionary."""


def actions(game: Game, decision: Decision) -> list[Action]:
    seat = decision.seat
    result: list[Action] = [_ROLLS_FOR_DOUBLES[seat]]
    if game.cash[seat] >= game.board.jail_fine:
        result.append(JAIL_FINES[seat])
    if game.jail_cards[seat]:
        result.extend(UseJailCard(seat, role) for role in sorted(set(game.jail_cards[seat])))
    return result


def check_pay(game: Game, action: PayJailFine, decision: Decision) -> Reason | None:
    fine = game.board.jail_fine
    if game.cash[action.seat] < fine:
        return refuse(game, "fine_exceeds_cash", fine=fine, cash=game.cash[action.seat])
    return None


def check_card(game: Game, action: UseJailCard, decision: Decision) -> Reason | None:
    if action.deck not in game.jail_cards[action.seat]:
        return refuse(game, "no_jail_card", deck=action.deck)
    return None


def _release(game: Game, seat: int, how: str) -> None:
    game.jail_turns[seat] = -1
    game.emit(ev.LeftJail, seat, how)


def pay_fine(game: Game, action: PayJailFine, decision: Decision) -> None:
    """R-JAIL-1: pay before rolling, then roll and move normally."""
    game.tasks.pop()
    game.pay(action.seat, BANK, game.board.jail_fine, "jail_fine")
    _release(game, action.seat, "fine")
    game.tasks.append(ROLL_DECISIONS[action.seat])


def use_card(game: Game, action: UseJailCard, decision: Decision) -> None:
    """R-JAIL-1: the used card goes to the bottom of its deck."""
    game.tasks.pop()
    game.jail_cards[action.seat].remove(action.deck)
    game.decks[action.deck].append(jail_card_key(game.board, action.deck))
    _release(game, action.seat, "card")
    game.tasks.append(ROLL_DECISIONS[action.seat])


def roll_for_doubles(game: Game, action: RollForDoubles, decision: Decision) -> None:
    """R-JAIL-2, R-JAIL-3, R-SHORT-3, R-SPEED-2 (white dice only)."""
    game.tasks.pop()
    seat = action.seat
    dice = game.chance.dice(2)
    game.last_roll = dice
    if game.claims:  # as in movement.roll: a call only when a claim is open
        movement.forget_claims(game, seat)
    doubles = dice[0] == dice[1]
    if game.collect_events:
        game.events.append(ev.DiceRolled(seat, dice, doubles))
    if doubles:
        _release(game, seat, "doubles")
        game.tasks.append(AFTER_ROLLS[seat][False])
        movement.move_and_resolve(game, seat, dice[0] + dice[1])
        return
    game.jail_turns[seat] += 1
    if game.jail_turns[seat] < JAIL_ROLLS and not game.rules.short_game:
        game.emit(ev.StayedInJail, seat, game.jail_turns[seat])
        return
    _release(game, seat, "fine")
    game.tasks.append(Move(seat, dice[0] + dice[1]))
    game.push_pay(seat, BANK, game.board.jail_fine, "jail_fine")
