"""Manners in trading: what a computer player remembers of the offers it made.

A person at the table is interrupted by every offer. So a computer player

* does not make an offer again — the same streets asked of the same player — unless
  something relevant to it changed since: the deeds either side holds (who holds them,
  their buildings, their mortgages), or either side's cash by more than the cash in the
  offer (at least :data:`CASH_CHANGE_FLOOR`, so that a swap without cash is not made
  again for the small change of a rent);
* makes no more than one offer to the same player in a round.

An offer that was accepted changes the deeds, so it needs no note of its answer: an
offer is "made again" only while nothing relevant changed, which means it was refused
(or countered). The rules apply towards every player, people and computer players
alike (see docs/bots.md): a player's view does not say who is a person, and the levels
play the same game against everyone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from monopoly.core.actions import ProposeTrade
from monopoly.core.view import PlayerView

CASH_CHANGE_FLOOR: Final = 100
"""The least change of either side's cash that makes an offer worth making again."""

Holdings = tuple[tuple[int, int, int, bool], ...]
"""(space, owner, buildings, mortgaged) of every deed either side of an offer holds."""


@dataclass(frozen=True, slots=True)
class MadeOffer:
    """An offer as it was made: the round, what the two sides held and their cash."""

    round: int
    holdings: Holdings
    cash: tuple[int, int]
    cash_change: int
    """How far either side's cash must move for the offer to be worth making again."""


def holdings(view: PlayerView, seat: int, partner: int) -> Holdings:
    """What ``seat`` and ``partner`` hold: the deeds, their buildings and mortgages."""
    owner, level, mortgaged = view.owner, view.level, view.mortgaged
    return tuple(
        (space, holder, level[space], mortgaged[space])
        for space, holder in enumerate(owner)
        if holder in (seat, partner)
    )


class OfferMemory:
    """The offers one computer player made in the current game, by (partner, streets)."""

    def __init__(self) -> None:
        self._made: dict[tuple[int, tuple[int, ...]], MadeOffer] = {}
        self._round_of_last: dict[int, int] = {}
        """Per partner: the round of the last offer made to them."""

    def clear(self) -> None:
        """Forget everything (a new game)."""
        self._made.clear()
        self._round_of_last.clear()

    def may_offer(self, view: PlayerView, seat: int, partner: int, take: tuple[int, ...]) -> bool:
        """Whether ``seat`` may ask ``partner`` for ``take`` now: not a second offer to
        them this round, and not the same streets again while nothing relevant changed."""
        if self._round_of_last.get(partner) == view.round:
            return False
        made = self._made.get((partner, take))
        return made is None or self._changed(view, seat, partner, made)

    def note(self, view: PlayerView, offer: ProposeTrade) -> None:
        """Remember that ``offer`` is being made now."""
        seat, partner = offer.seat, offer.partner
        self._round_of_last[partner] = view.round
        self._made[(partner, offer.take)] = MadeOffer(
            round=view.round,
            holdings=holdings(view, seat, partner),
            cash=(view.cash[seat], view.cash[partner]),
            cash_change=max(CASH_CHANGE_FLOOR, offer.give_cash + offer.take_cash),
        )

    @staticmethod
    def _changed(view: PlayerView, seat: int, partner: int, made: MadeOffer) -> bool:
        if holdings(view, seat, partner) != made.holdings:
            return True
        was_mine, was_theirs = made.cash
        return (
            abs(view.cash[seat] - was_mine) > made.cash_change
            or abs(view.cash[partner] - was_theirs) > made.cash_change
        )
