"""Why an action is refused, as a keyed text that every language can render.

A :class:`Reason` is a ``str`` holding the English text (so logs, exceptions and tests
read it as before) plus its catalog ``key`` and ``params``. The templates live in the
locale catalogs as ``refusal_<key>``; :meth:`monopoly.core.narrate.Narrator.reason`
renders a reason in the game's language and edition words.

Only the refusal path builds a Reason: legal actions still cost a plain ``""``.

Parameters are typed by name: ``space`` is a space index (named in the edition's words),
``seat``/``owner`` are seats (a player's name), ``group`` a colour group's key (its
name in the edition's words), the names in :data:`MONEY_PARAMS` are
amounts (formatted money), ``deck`` is a deck role and ``decision`` a decision kind.
Anything else (counts, raw numbers such as an invalid index, technical text) is shown as
it is.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from .memo import remember
from .wording import Fields, one_stop

if TYPE_CHECKING:
    from .board import Names
    from .game import Game

PREFIX = "refusal_"
"""Catalog keys of refusal templates start with this prefix."""

SPACE_PARAMS = frozenset({"space"})
GROUP_PARAMS = frozenset({"group"})
PLAYER_PARAMS = frozenset({"seat", "owner"})
MONEY_PARAMS = frozenset(
    {"price", "cash", "cost", "fine", "low", "high", "owed", "raisable", "offered"}
)


class Reason(str):
    """An English refusal text that also carries its catalog ``key`` and ``params``."""

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, text: str, params: dict[str, Any]) -> Reason:
        self = super().__new__(cls, text)
        self.key = key
        self.params = params
        return self

    def __reduce__(self) -> tuple[type[Reason], tuple[str, str, dict[str, Any]]]:
        return (Reason, (self.key, str(self), self.params))

    def __repr__(self) -> str:
        return f"Reason({self.key!r}, {str(self)!r})"


@cache
def templates(language: str) -> dict[str, str]:
    """The refusal templates of a language, by reason key."""
    from .narrate import catalog

    size = len(PREFIX)
    return {k[size:]: v for k, v in catalog(language).items() if k.startswith(PREFIX)}


def fill(template: str, values: dict[str, Any], terms: dict[str, str]) -> str:
    """``template`` with ``values`` and the edition ``terms`` ({house}, {bank}...)."""
    return one_stop(template.format_map(Fields(values, terms)))


REASONS_KEPT = 10_000
"""Reasons with parameters kept per edition (see :data:`_MEMO`): a long simulation meets
ever new amounts, so the memo is emptied when full."""

_MEMO: dict[int, tuple[Names, dict[Any, Reason]]] = {}
"""Per edition (by the id of its English names, which the entry keeps alive): the reasons
made so far, by key and parameters. Listing the legal actions meets the same reasons by
the thousand, and a server judges a seat's refused steps again after many changes (the
same deeds, the same amounts). Reasons (and their params) are never changed, so one
object serves them all."""


def refuse(game: Game | None, key: str, /, **params: Any) -> Reason:
    """The reason ``key`` with ``params``; ``game`` names spaces and edition words (it may
    be None for reasons that use neither)."""
    if game is None:
        return Reason(key, fill(templates("en")[key], params, {}), params)
    english = game.edition.names["en"]
    slot: Any = (key, *params.items()) if params else key
    held = _MEMO.get(id(english))
    if held is None:
        held = _MEMO[id(english)] = (english, {})
    try:
        reason = held[1].get(slot)
    except TypeError:  # a parameter that cannot be a key (a list): made each time
        return _english(english, key, params)
    if reason is None:
        reason = remember(held[1], slot, _english(english, key, params), REASONS_KEPT)
    return reason


def _english(english: Names, key: str, params: dict[str, Any]) -> Reason:
    plain = {name: _plain(english, name, value) for name, value in params.items()}
    return Reason(key, fill(templates("en")[key], plain, english.terms), params)


def _plain(english: Names, name: str, value: Any) -> Any:
    """A parameter in the plain English text: spaces and groups by name, seats as "seat 2"."""
    if name in SPACE_PARAMS:
        return english.spaces[value]
    if name in GROUP_PARAMS:
        return english.groups[value]
    if name in PLAYER_PARAMS:
        return f"seat {value}"
    if name == "deck":
        return value or "?"
    return value
