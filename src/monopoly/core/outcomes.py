"""The next chance event and its outcomes with their probabilities.

Search (expectimax, MCTS with chance nodes) and OpenSpiel need to see a chance event
before it happens: which dice are rolled, which deck is shuffled, which deeds are dealt,
and how likely each outcome is. :func:`next_chance_event` finds it by applying the
action to a clone of the game (the game itself is not changed); the engine's own
:class:`~.chance.ChanceSource` stays the one place where outcomes are drawn.

Dice: each white die shows 1..6 with probability 1/6; the Speed Die's faces are 1, 2, 3,
Bus and Mr. Monopoly twice (R-SPEED-1), so Mr. Monopoly has probability 2/6. Shuffles
and deals: every order is equally likely.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from .chance import MR_MONOPOLY, Entry

if TYPE_CHECKING:
    from .actions import Action
    from .game import Game

SPEED_FACE_ODDS = {1: Fraction(1, 6), 2: Fraction(1, 6), 3: Fraction(1, 6), 4: Fraction(1, 6)}
SPEED_FACE_ODDS[MR_MONOPOLY] = Fraction(2, 6)


@cache
def dice_outcomes(speed: bool = False) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every roll of two white dice (and the Speed Die) with its exact probability."""
    white = [(a, b) for a in range(1, 7) for b in range(1, 7)]
    if not speed:
        return tuple((roll, Fraction(1, 36)) for roll in white)
    return tuple(
        ((a, b, face), Fraction(1, 36) * odds)
        for a, b in white
        for face, odds in SPEED_FACE_ODDS.items()
    )


@dataclass(frozen=True, slots=True)
class ChanceEvent:
    """A chance event: ``dice`` (two white dice, ``speed`` adds the Speed Die),
    ``shuffle`` (the deck ``role`` gets an order of ``items``) or ``deal`` (the title
    deeds ``items`` are dealt in some order)."""

    kind: str
    speed: bool = False
    role: str = ""
    items: tuple[str | int, ...] = ()

    def outcomes(self) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
        """The dice outcomes and probabilities (orders: every one equally likely, too
        many to list; draw them item by item instead)."""
        if self.kind != "dice":
            raise ValueError(f"a {self.kind} has {len(self.items)}! equally likely orders")
        return dice_outcomes(self.speed)


def event_of(entry: Entry) -> ChanceEvent:
    """The chance event whose outcome a record entry is."""
    kind = entry[0]
    if kind == "dice":
        return ChanceEvent("dice", speed=len(entry[1]) == 3)
    if kind == "shuffle":
        return ChanceEvent("shuffle", role=entry[1], items=tuple(sorted(entry[2])))
    if kind == "deal":
        return ChanceEvent("deal", items=tuple(sorted(entry[1])))
    raise ValueError(f"{kind!r} is not a chance entry")


def next_chance_event(
    game: Game, action: Action, outcomes: list[Entry] | None = None
) -> ChanceEvent | None:
    """The chance event that ``action`` meets after the given ``outcomes`` (chance
    entries, in order) have been used, or None when it needs no more. The game is not
    changed; illegal actions raise like :meth:`Game.apply`."""
    probe = game.clone()
    probe.collect_events = False
    given = list(outcomes or [])
    probe.chance.script = given
    probe.chance.position = 0
    probe.chance.keeping = True  # what the action draws is read from the log
    start = len(probe.chance.log)
    probe.apply(action)
    drawn = [entry for entry in probe.chance.log[start:] if entry[0] != "action"]
    if len(drawn) <= len(given):
        return None
    return event_of(drawn[len(given)])
