"""Chance and Community Chest (R-LAND-3, R-CARD-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import events as ev
from . import movement
from .board import BANK, CardKind

if TYPE_CHECKING:
    from .game import Game

# The card kinds as plain ints: compared natively when compiled (an enum member is
# looked up on its class at every use).
_ADVANCE_TO: Final = int(CardKind.ADVANCE_TO)
_NEAREST_RAILROAD: Final = int(CardKind.NEAREST_RAILROAD)
_NEAREST_UTILITY: Final = int(CardKind.NEAREST_UTILITY)
_COLLECT: Final = int(CardKind.COLLECT)
_PAY: Final = int(CardKind.PAY)
_GET_OUT_OF_JAIL: Final = int(CardKind.GET_OUT_OF_JAIL)
_GO_BACK: Final = int(CardKind.GO_BACK)
_GO_TO_JAIL: Final = int(CardKind.GO_TO_JAIL)
_REPAIRS: Final = int(CardKind.REPAIRS)
_PAY_EACH_PLAYER: Final = int(CardKind.PAY_EACH_PLAYER)
_COLLECT_FROM_EACH_PLAYER: Final = int(CardKind.COLLECT_FROM_EACH_PLAYER)


def draw(game: Game, seat: int, role: str) -> None:
    """Draw the top card, carry it out, put it at the bottom (a jail card is kept)."""
    deck = game.decks[role]
    key = deck.popleft()
    card, kind = game.tables.cards[role][key]
    if game.collect_events:
        game.events.append(ev.CardDrawn(seat, role, key))
    if kind == _GET_OUT_OF_JAIL:
        game.jail_cards[seat].append(role)
        game.emit(ev.JailCardKept, seat, role)
        return
    deck.append(key)
    if kind == _ADVANCE_TO:
        movement.advance_to(game, seat, card.target)
        movement.resolve(game, seat)
    elif kind == _NEAREST_RAILROAD:
        movement.advance_to(game, seat, game.tables.nearest_railroad[game.position[seat]])
        movement.resolve(game, seat, rent_factor=2)  # R-CARD-2
    elif kind == _NEAREST_UTILITY:
        movement.advance_to(game, seat, game.tables.nearest_utility[game.position[seat]])
        movement.resolve(game, seat, utility_card=True)  # R-CARD-3
    elif kind == _COLLECT:
        game.pay(BANK, seat, card.amount, "card")
    elif kind == _PAY:
        game.push_pay(seat, BANK, card.amount, "card")
    elif kind == _GO_BACK:
        movement.move_back(game, seat, card.amount)
        movement.resolve(game, seat)  # R-CARD-4
    elif kind == _GO_TO_JAIL:
        movement.send_to_jail(game, seat)
    elif kind == _REPAIRS:
        houses, hotels = game.houses_and_hotels(seat)
        amount = houses * card.per_house + hotels * card.per_hotel  # R-CARD-6
        if amount:
            game.push_pay(seat, BANK, amount, "card")
    elif kind == _PAY_EACH_PLAYER:
        _pay_each(game, [(seat, other) for other in game.seats_from(seat)[1:]], card.amount)
    elif kind == _COLLECT_FROM_EACH_PLAYER:
        _pay_each(game, [(other, seat) for other in game.seats_from(seat)[1:]], card.amount)


def _pay_each(game: Game, pairs: list[tuple[int, int]], amount: int) -> None:
    """R-CARD-5: debts settled one after the other, in seat order from the drawer's left."""
    for payer, payee in reversed(pairs):
        game.push_pay(payer, payee, amount, "card")
