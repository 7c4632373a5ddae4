"""The exact long-run landing odds of every space: a Markov chain over the rules.

One step of the chain is one roll; its state is what the next roll depends on, taken
after the roll's landing (a roll's landing is where the token rests once everything the
roll caused is done; the simulator counts landings the same way, :mod:`monopoly.sim.stats`):

- ``(space, doubles)``: the token rests on ``space``; ``doubles`` (0, 1 or 2) counts the
  doubles of the current turn when the player rolls again, and is 0 when the turn ended;
- ``(in jail, failed)``: the player is in jail after ``failed`` (0, 1 or 2) failed rolls
  for doubles.

A roll is two dice (36 equally likely outcomes, taken from the engine's
:func:`monopoly.core.outcomes.dice_outcomes`). The third double in a turn goes to jail.
Landing on Go to Jail goes to jail. Chance and Community Chest draw one of their deck's
cards, each with the same probability; cards that move (advance to a space, to the
nearest railroad or utility, go back, go to jail) are followed where they lead, including
a card drawn on the space a card moved to (going back 3 from Chance onto Community
Chest). The jail strategy is ``leave`` (pay or use a card before rolling, then roll as
usual) or ``stay`` (roll for doubles: doubles move without a further roll; after the third
failed roll the fine is paid and the token moves by that roll).

A Get Out of Jail Free card kept by a player is a refinement ignored by default: it counts
as a card that does not move. ``jail_cards_kept=True`` models the opposite extreme, both
such cards held by players for good (each of their decks one card shorter).

The chain lives in the core, below the computer players (which value colour groups by
its landing frequencies, :mod:`monopoly.bots.landing`) and the simulator (``monopoly
odds``, and the landing check of ``tests/sim/test_odds.py``).

The stationary distribution solves ``pi P = pi`` with numpy; the landing probability of a
space adds up its states. ``variances`` are the asymptotic variances of each slot's
landing count per roll (from the fundamental matrix), which tell how far a simulated
frequency may stray from the exact one.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np
import numpy.typing as npt

from .board import (
    BOARD_SIZE,
    CHANCE,
    COMMUNITY_CHEST,
    JAIL_SLOT,
    SLOTS,
    Board,
    Card,
    CardKind,
    Edition,
    SpaceKind,
)
from .editions import get_edition
from .outcomes import dice_outcomes

JAIL_MODES = ("leave", "stay")
JAIL_ROLLS = 3
DOUBLES_STATES = 3
FREE_STATES = BOARD_SIZE * DOUBLES_STATES
STATES = FREE_STATES + JAIL_ROLLS
MAX_CARD_CHAIN = 8
"""A card leading to a space that draws again, more than this many times, is an error in
the edition data (no real board does it even twice)."""

Matrix = npt.NDArray[np.float64]
Outcomes = dict[int, float]
"""Resting slot (a space, or JAIL_SLOT) -> probability."""


class OddsError(ValueError):
    """Bad arguments for the landing odds."""


def free_state(space: int, doubles: int) -> int:
    return space * DOUBLES_STATES + doubles


def jail_state(failed: int) -> int:
    return FREE_STATES + failed


@dataclass(frozen=True)
class LandingOdds:
    """The long-run landing probabilities of an edition's board under a jail strategy."""

    edition: Edition
    jail: str
    jail_cards_kept: bool
    transitions: Matrix
    """The chain's transition matrix (STATES x STATES), rows summing to 1."""

    @cached_property
    def stationary(self) -> Matrix:
        """The stationary distribution over the chain's states."""
        return stationary_distribution(self.transitions)

    @cached_property
    def probabilities(self) -> Matrix:
        """Landing probability per slot (41: the spaces, then "in jail"); sums to 1."""
        result: Matrix = self.stationary @ _slot_indicators()
        return result

    @cached_property
    def _fundamental(self) -> Matrix:
        """Z = (I - P + 1 pi)^-1, the chain's fundamental matrix."""
        size = STATES
        shifted = np.eye(size) - self.transitions + np.outer(np.ones(size), self.stationary)
        return np.asarray(np.linalg.inv(shifted), dtype=np.float64)

    @cached_property
    def variances(self) -> Matrix:
        """Per slot, the asymptotic variance per roll of its landing count in one long game:
        a game of ``n`` rolls lands on a slot ``n p`` times, give or take ``sqrt(n v)``."""
        indicators = _slot_indicators()
        spread = np.einsum(
            "i,ik,ik->k", self.stationary, indicators, self._fundamental @ indicators
        )
        result: Matrix = 2 * spread - self.probabilities - self.probabilities**2
        return result

    def excess_landings(self, start: int = 0) -> Matrix:
        """Per slot, the landings a player starting on space ``start`` makes in a whole game
        beyond ``rolls x probability`` (the sum of sum_t (mu_t - pi) over its rolls); a game
        of ``n`` rolls expects ``n p + excess`` landings, up to terms that vanish fast."""
        begin = np.zeros(STATES)
        begin[free_state(start, 0)] = 1.0
        result: Matrix = (begin @ self._fundamental - begin) @ _slot_indicators()
        return result


def landing_odds(
    edition: str = "classic", jail: str = "leave", jail_cards_kept: bool = False
) -> LandingOdds:
    """The exact landing odds of ``edition`` with the jail strategy ``leave`` or ``stay``."""
    if jail not in JAIL_MODES:
        raise OddsError(f"unknown jail strategy {jail!r}: use {' or '.join(JAIL_MODES)}")
    chosen = get_edition(edition)
    matrix = _Chain(chosen.board, jail, jail_cards_kept).matrix()
    return LandingOdds(chosen, jail, jail_cards_kept, matrix)


def landings_per_turn(board: Board, jail: str = "stay") -> list[float]:
    """Expected landings per turn on each space (jail: turns spent there plus visits),
    the table the computer players value groups with (:mod:`monopoly.bots.landing`)."""
    pi = stationary_distribution(_Chain(board, jail, False).matrix())
    per_roll = [sum(pi[free_state(s, d)] for d in range(DOUBLES_STATES)) for s in range(BOARD_SIZE)]
    in_jail = sum(pi[jail_state(failed)] for failed in range(JAIL_ROLLS))
    per_roll[board.jail_index] += in_jail
    turn_ends = sum(pi[free_state(s, 0)] for s in range(BOARD_SIZE)) + in_jail
    return [float(p / turn_ends) for p in per_roll]


@cache
def _rolls() -> tuple[tuple[tuple[int, ...], float], ...]:
    """The two white dice's outcomes and odds, from the engine (one source of them)."""
    return tuple((roll, float(p)) for roll, p in dice_outcomes(False))


class _Chain:
    """Builds the transition matrix of one roll."""

    def __init__(self, board: Board, jail: str, jail_cards_kept: bool) -> None:
        self.board = board
        self.jail = jail
        self.jail_cards_kept = jail_cards_kept
        self._resting: dict[int, Outcomes] = {}

    def matrix(self) -> Matrix:
        matrix = np.zeros((STATES, STATES))
        for space in range(BOARD_SIZE):
            for doubles in range(DOUBLES_STATES):
                self._roll_from(matrix[free_state(space, doubles)], space, doubles)
        for failed in range(JAIL_ROLLS):
            row = matrix[jail_state(failed)]
            if self.jail == "leave":
                self._roll_from(row, self.board.jail_index, 0)
            else:
                self._roll_in_jail(row, failed)
        return matrix

    def _roll_from(self, row: Matrix, space: int, doubles: int) -> None:
        """A normal roll from ``space`` with ``doubles`` doubles so far this turn."""
        for (first, second), chance in _rolls():
            if first == second and doubles == DOUBLES_STATES - 1:
                row[jail_state(0)] += chance  # the third double
                continue
            after = doubles + 1 if first == second else 0
            self._land(row, (space + first + second) % BOARD_SIZE, after, chance)

    def _roll_in_jail(self, row: Matrix, failed: int) -> None:
        """A roll for doubles (``stay``): doubles move, no roll again; three misses pay."""
        jail = self.board.jail_index
        for (first, second), chance in _rolls():
            if first == second or failed == JAIL_ROLLS - 1:
                self._land(row, (jail + first + second) % BOARD_SIZE, 0, chance)
            else:
                row[jail_state(failed + 1)] += chance

    def _land(self, row: Matrix, space: int, doubles: int, weight: float) -> None:
        for slot, p in self.resting(space).items():
            state = jail_state(0) if slot == JAIL_SLOT else free_state(slot, doubles)
            row[state] += weight * p

    def resting(self, space: int, depth: int = 0) -> Outcomes:
        """Where a token that lands on ``space`` comes to rest, with probabilities."""
        if depth == 0 and space in self._resting:
            return self._resting[space]
        if depth > MAX_CARD_CHAIN:
            raise OddsError(f"the cards lead on and on from space {space}")
        kind = self.board.spaces[space].kind
        outcomes: Outcomes
        if kind == SpaceKind.GO_TO_JAIL:
            outcomes = {JAIL_SLOT: 1.0}
        elif kind == SpaceKind.CHANCE:
            outcomes = self._draw(space, CHANCE, depth)
        elif kind == SpaceKind.COMMUNITY_CHEST:
            outcomes = self._draw(space, COMMUNITY_CHEST, depth)
        else:
            outcomes = {space: 1.0}
        if depth == 0:
            self._resting[space] = outcomes
        return outcomes

    def _draw(self, space: int, role: str, depth: int) -> Outcomes:
        cards = [
            card
            for card in self.board.decks[role]
            if not (self.jail_cards_kept and card.kind == CardKind.GET_OUT_OF_JAIL)
        ]
        outcomes: Outcomes = defaultdict(float)
        for card in cards:
            for slot, p in self._card(space, card, depth).items():
                outcomes[slot] += p / len(cards)
        return dict(outcomes)

    def _card(self, space: int, card: Card, depth: int) -> Outcomes:
        kind = card.kind
        if kind == CardKind.GO_TO_JAIL:
            return {JAIL_SLOT: 1.0}
        if kind == CardKind.ADVANCE_TO:
            return self.resting(card.target, depth + 1)
        if kind == CardKind.NEAREST_RAILROAD:
            return self.resting(self.board.nearest(space, SpaceKind.RAILROAD), depth + 1)
        if kind == CardKind.NEAREST_UTILITY:
            return self.resting(self.board.nearest(space, SpaceKind.UTILITY), depth + 1)
        if kind == CardKind.GO_BACK:
            return self.resting((space - card.amount) % BOARD_SIZE, depth + 1)
        return {space: 1.0}


def stationary_distribution(transitions: Matrix) -> Matrix:
    """The distribution ``pi`` with ``pi P = pi`` and ``sum(pi) = 1``."""
    size = transitions.shape[0]
    system = np.vstack([transitions.T - np.eye(size), np.ones(size)])
    target = np.zeros(size + 1)
    target[-1] = 1.0
    solution = np.linalg.lstsq(system, target, rcond=None)[0]
    solution[np.abs(solution) < 1e-15] = 0.0
    result: Matrix = solution / solution.sum()
    return result


def _slot_indicators() -> Matrix:
    """STATES x SLOTS: which landing slot each state belongs to."""
    indicators = np.zeros((STATES, SLOTS))
    for space in range(BOARD_SIZE):
        for doubles in range(DOUBLES_STATES):
            indicators[free_state(space, doubles), space] = 1.0
    for failed in range(JAIL_ROLLS):
        indicators[jail_state(failed), JAIL_SLOT] = 1.0
    return indicators
