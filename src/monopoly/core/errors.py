"""Typed errors. Every one names what was wrong; none leaves the game half-changed."""

from __future__ import annotations


class MonopolyError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalActionError(MonopolyError):
    """A well-formed action that the rules do not allow now (e.g. buying without cash).

    ``reason`` is the English text; the engine's refusals are a
    :class:`~monopoly.core.reasons.Reason` (a ``str`` with a ``key`` and ``params``) that
    ``Narrator(game).reason(...)`` renders in the game's language."""

    def __init__(self, action: object, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action}: {reason}")


class NotYourTurnError(IllegalActionError):
    """An action for a seat that has no say at this moment."""


class MalformedActionError(MonopolyError):
    """Input that is not an action at all: unknown kind, missing or mistyped fields."""


class RecordError(MonopolyError):
    """A game record (or a set-up position) that cannot be loaded or replayed."""


class SetupError(MonopolyError):
    """A game setup that is inconsistent (player count, tokens, position...)."""
