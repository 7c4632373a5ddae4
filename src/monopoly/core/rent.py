"""Rent: streets, railroads and utilities (R-RENT-*, R-CARD-2, R-CARD-3, R-SPEED-9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev
from .chance import BUS
from .rules import UTILITY_ROLL_MOVING

if TYPE_CHECKING:
    from .game import Game


def rent_before_roll(game: Game, space: int) -> int:
    """What a visitor owes on ``space`` now, before any roll: a street's or railroad's
    rent, a utility's multiplier per pip; 0 when nobody owns it or it is mortgaged."""
    if game.owner[space] < 0 or game.mortgaged[space]:
        return 0
    if game.tables.is_street[space]:
        return street_rent(game, space)
    if game.tables.is_railroad[space]:
        return railroad_rent(game, space)
    return utility_multiplier(game, space)


def _owned_in_group(game: Game, space: int) -> int:
    owner = game.owner
    holder = owner[space]
    count = 0
    for s in game.tables.members[space]:
        if owner[s] == holder:
            count += 1
    return count


def railroad_rent(game: Game, space: int) -> int:
    """R-RENT-2: by the number of railroads the owner holds (mortgaged ones count)."""
    return game.board.railroad_rents[_owned_in_group(game, space) - 1]


def utility_multiplier(game: Game, space: int) -> int:
    """R-RENT-3: 4 or 10 times the roll, by the number of utilities the owner holds."""
    return game.board.utility_multipliers[_owned_in_group(game, space) - 1]


def street_rent(game: Game, space: int) -> int:
    """R-RENT-1: base rent, doubled on a whole unmortgaged group; else the building rent."""
    rents = game.tables.rents[space]
    level = game.level[space]
    if level:
        return rents[5 if level == game.tables.hotel_level else level]
    owner, mortgaged = game.owner, game.mortgaged
    holder = owner[space]
    for other in game.tables.members[space]:
        if owner[other] != holder or mortgaged[other]:
            return rents[0]
    return rents[0] * 2


def utility_roll(game: Game, payer: int, utility_card: bool) -> int:
    """R-RENT-3: a fresh roll (or, as an option, the roll that moved the player);
    R-SPEED-9: with the Speed Die in play all three dice, Bus and Mr. Monopoly count 0."""
    if game.rules.utility_roll == UTILITY_ROLL_MOVING and not utility_card and game.last_roll:
        dice = game.last_roll
    else:
        dice = game.chance.dice(2, game.rules.speed_die)  # R-SPEED-9: whoever pays
    total = dice[0] + dice[1]
    if len(dice) == 3 and dice[2] < BUS:
        total += dice[2]
    return total


def charge(
    game: Game, payer: int, owner: int, space: int, factor: int = 1, utility_card: bool = False
) -> None:
    """Work out the rent ``payer`` owes on ``space`` now (rolls the dice for a utility;
    ``factor`` multiplies a street's or railroad's rent, R-CARD-2; a utility card charges
    ten times the roll, R-CARD-3), then collect it, or open a claim when rent must be
    claimed (R-RENT-5)."""
    if game.tables.is_utility[space]:
        multiplier = 10 if utility_card else utility_multiplier(game, space)
        amount = multiplier * utility_roll(game, payer, utility_card)
    else:
        amount = rent_before_roll(game, space) * factor
    if game.rules.rent_must_be_claimed:
        game.claims.append((owner, payer, space, amount))
        game.emit(ev.RentOwed, payer, owner, space, amount)
        return
    collect(game, payer, owner, space, amount)


def collect(game: Game, payer: int, owner: int, space: int, amount: int) -> None:
    """Pay rent now; a payer short of cash owes it as a debt (R-DEBT-1). Through the one
    money path, so an owner who has left the game collects nothing (R-DEBT-3)."""
    game.pay(payer, owner, amount, "rent", space)
