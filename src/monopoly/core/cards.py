"""Chance and Community Chest (R-LAND-3, R-CARD-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import events as ev
from . import movement
from .board import BANK, CardKind, SpaceKind

if TYPE_CHECKING:
    from .game import Game


def draw(game: Game, seat: int, role: str) -> None:
    """Draw the top card, carry it out, put it at the bottom (a jail card is kept)."""
    deck = game.decks[role]
    key = deck.popleft()
    card = game.board.card(role, key)
    if game.collect_events:
        game.events.append(ev.CardDrawn(seat, role, key))
    if card.kind == CardKind.GET_OUT_OF_JAIL:
        game.jail_cards[seat].append(role)
        game.emit(ev.JailCardKept, seat, role)
        return
    deck.append(key)
    kind = card.kind
    if kind == CardKind.ADVANCE_TO:
        movement.advance_to(game, seat, card.target)
        movement.resolve(game, seat)
    elif kind == CardKind.NEAREST_RAILROAD:
        movement.advance_to(game, seat, game.board.nearest(game.position[seat], SpaceKind.RAILROAD))
        movement.resolve(game, seat, rent_factor=2)  # R-CARD-2
    elif kind == CardKind.NEAREST_UTILITY:
        movement.advance_to(game, seat, game.board.nearest(game.position[seat], SpaceKind.UTILITY))
        movement.resolve(game, seat, utility_card=True)  # R-CARD-3
    elif kind == CardKind.COLLECT:
        game.pay(BANK, seat, card.amount, "card")
    elif kind == CardKind.PAY:
        game.push_pay(seat, BANK, card.amount, "card")
    elif kind == CardKind.GO_BACK:
        movement.move_back(game, seat, card.amount)
        movement.resolve(game, seat)  # R-CARD-4
    elif kind == CardKind.GO_TO_JAIL:
        movement.send_to_jail(game, seat)
    elif kind == CardKind.REPAIRS:
        houses, hotels = game.houses_and_hotels(seat)
        amount = houses * card.per_house + hotels * card.per_hotel  # R-CARD-6
        if amount:
            game.push_pay(seat, BANK, amount, "card")
    elif kind == CardKind.PAY_EACH_PLAYER:
        _pay_each(game, [(seat, other) for other in game.seats_from(seat)[1:]], card.amount)
    elif kind == CardKind.COLLECT_FROM_EACH_PLAYER:
        _pay_each(game, [(other, seat) for other in game.seats_from(seat)[1:]], card.amount)


def _pay_each(game: Game, pairs: list[tuple[int, int]], amount: int) -> None:
    """R-CARD-5: debts settled one after the other, in seat order from the drawer's left."""
    for payer, payee in reversed(pairs):
        game.push_pay(payer, payee, amount, "card")
