"""Answers worked out once and looked up after: the one way memos are kept.

A memo is a plain ``dict`` of answers by question, looked up with ``get`` and filled
through :func:`remember`, which holds it to ``limit`` answers (it forgets them all at
once when full, so a long simulation cannot grow it without end). For answers that come
up again game after game: an action made once, a plan for a group's buildings, a
trade's worth.

What is worked out from a seat's free actions in one game (the page's steps on its
deeds with their refusals, the RL mask's ids) is kept in a :class:`FreeActionsMemo`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

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
