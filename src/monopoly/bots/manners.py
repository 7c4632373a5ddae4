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

from typing import Final

from monopoly.core.actions import ProposeTrade
from monopoly.core.view import PlayerView

CASH_CHANGE_FLOOR: Final = 100
"""The least change of either side's cash that makes an offer worth making again."""


class MadeOffer:
    """An offer as it was made: the deeds on the board then (the holder, buildings and
    mortgage of every space) and the cash of both sides."""

    def __init__(self, view: PlayerView, offer: ProposeTrade) -> None:
        self.deeds: Final = (view.deeds[offer.seat], view.deeds[offer.partner])
        """The deeds of both sides, in board order."""
        self.level: Final = view.level.snapshot()
        self.mortgaged: Final = view.mortgaged.snapshot()
        self.cash: Final = (view.cash[offer.seat], view.cash[offer.partner])
        self.cash_change: Final = max(CASH_CHANGE_FLOOR, offer.give_cash + offer.take_cash)
        """How far either side's cash must move for the offer to be worth making again."""

    def holdings_changed(self, view: PlayerView, seat: int, partner: int) -> bool:
        """Whether a deed that ``seat`` or ``partner`` holds now or held then changed its
        holder, buildings or mortgage since."""
        mine, theirs = self.deeds
        if view.deeds[seat] != mine or view.deeds[partner] != theirs:
            return True  # a deed changed its holder
        level, mortgaged = view.level, view.mortgaged
        for space in mine + theirs:
            if level[space] != self.level[space] or mortgaged[space] != self.mortgaged[space]:
                return True
        return False

    def cash_changed(self, view: PlayerView, seat: int, partner: int) -> bool:
        """Whether either side's cash moved by more than :attr:`cash_change`."""
        was_mine, was_theirs = self.cash
        return (
            abs(view.cash[seat] - was_mine) > self.cash_change
            or abs(view.cash[partner] - was_theirs) > self.cash_change
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
        return (
            made is None
            or made.holdings_changed(view, seat, partner)
            or made.cash_changed(view, seat, partner)
        )

    def note(self, view: PlayerView, offer: ProposeTrade) -> None:
        """Remember that ``offer`` is being made now."""
        self._round_of_last[offer.partner] = view.round
        self._made[(offer.partner, offer.take)] = MadeOffer(view, offer)
