"""Answers worked out once and looked up after: the one way memos are kept.

A memo is a plain ``dict`` of answers by question, looked up with ``get`` and filled
through :func:`remember`, which holds it to ``limit`` answers (it forgets them all at
once when full, so a long simulation cannot grow it without end). For answers that come
up again game after game: an action made once, a plan for a group's buildings, a
trade's worth.

What is worked out from a seat's free actions in one game (the page's steps on its
deeds with their refusals, the RL mask's ids) is kept in a :class:`FreeActionsMemo`;
what a computer player works out from the board for a seat, in a :class:`CounterMemo`
keyed by the game's version counters.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar, final

if TYPE_CHECKING:
    from .game import Game

K = TypeVar("K")
V = TypeVar("V")


def remember(answers: dict[K, V], key: K, answer: V, limit: int) -> V:
    """Keep ``answer`` to ``key`` in ``answers`` (emptied first when it holds ``limit``
    answers) and return it."""
    if len(answers) >= limit:
        answers.clear()
    answers[key] = answer
    return answer


class FreeActionsMemo(Generic[V]):
    """Per seat, what was worked out from its free actions (building, selling,
    mortgaging, lifting, claiming rent), kept while ``Game.free_actions_key`` stays the
    same in the same game object: the rules' judgements of those steps are then the
    same. The game object is part of what is compared: a clone starts with equal
    counters and then goes its own way."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Game, tuple[Any, ...], V]] = {}

    def get(self, game: Game, seat: int, work_out: Callable[[], V]) -> V:
        """The answer for ``seat`` now: the kept one, or ``work_out()``'s."""
        key = game.free_actions_key(seat)
        kept = self._kept.get(seat)
        if kept is not None and kept[0] is game and kept[1] == key:
            return kept[2]
        answer = work_out()
        self._kept[seat] = (game, key, answer)
        return answer


@final
class CounterMemo(Generic[V]):
    """One answer a player worked out from the board, kept with what it was worked out
    for: the view (its game), the seat, and up to three numbers it read, the game's
    counters (``holdings_version``, ``deeds_version``, ``buildings_version``) or an
    argument. The counters grow inside the game's setters of what they count, the only
    way to change it, so an answer kept by them cannot outlive what it was worked out
    from. The key is compared field by field (no key is built per question: players ask
    some of these at every decision)::

        if memo.holds(view, seat, view.holdings_version[seat]):
            return memo.answer
        return memo.keep(view, seat, view.holdings_version[seat], 0, 0, work_out())
    """

    __slots__ = ("_a", "_b", "_c", "_seat", "_view", "answer")

    def __init__(self, answer: V) -> None:
        self._view: object = None
        self._seat = -1
        self._a = self._b = self._c = -1
        self.answer = answer
        """The answer last kept (``answer`` given here until then)."""

    def holds(self, view: object, seat: int, a: int, b: int = 0, c: int = 0) -> bool:
        """Whether :attr:`answer` was worked out for this view, seat and numbers."""
        return (
            view is self._view
            and a == self._a
            and seat == self._seat
            and b == self._b
            and c == self._c
        )

    def keep(self, view: object, seat: int, a: int, b: int, c: int, answer: V) -> V:
        """Keep ``answer`` for this view, seat and numbers, and return it."""
        self._view, self._seat, self._a, self._b, self._c = view, seat, a, b, c
        self.answer = answer
        return answer

    def forget(self) -> None:
        """Drop the answer's key: the next question works it out anew."""
        self._view = None
