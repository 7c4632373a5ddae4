"""Answers worked out once and looked up after: the one way memos are kept.

A memo is a plain ``dict`` of answers by question, looked up with ``get`` and filled
through :func:`remember`, which holds it to ``limit`` answers (it forgets them all at
once when full, so a long simulation cannot grow it without end). For answers that come
up again game after game: an action made once, a plan for a group's buildings, a
trade's worth.
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def remember(answers: dict[K, V], key: K, answer: V, limit: int) -> V:
    """Keep ``answer`` to ``key`` in ``answers`` (emptied first when it holds ``limit``
    answers) and return it."""
    if len(answers) >= limit:
        answers.clear()
    answers[key] = answer
    return answer
