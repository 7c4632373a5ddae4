"""The simulator's words in English and German, and the names of spaces and groups."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

from monopoly.core.board import JAIL_SLOT, SLOTS, Edition
from monopoly.core.wording import plural_key

LANGUAGES = ("en", "de")
__all__ = ["JAIL_SLOT", "LANGUAGES", "SLOTS", "Texts"]


@cache
def _catalog(language: str) -> dict[str, str]:
    path = resources.files("monopoly").joinpath("locales", f"sim_{language}.toml")
    return tomllib.loads(path.read_text("utf-8"))


class Texts:
    """Labels in one language, with the edition's own words filled in."""

    def __init__(self, edition: Edition, language: str = "en") -> None:
        if language not in LANGUAGES:
            raise ValueError(f"unknown language {language!r}: use {' or '.join(LANGUAGES)}")
        self.edition = edition
        self.language = language
        self.messages = _catalog(language)
        self.names = edition.names[language]

    def __call__(self, key: str, **values: Any) -> str:
        key = plural_key(self.messages, key, self.language, values)
        return self.messages[key].format(**self.names.terms, **values)

    def slot_name(self, slot: int) -> str:
        """The name of a landing slot: a space, or "In Jail" for :data:`JAIL_SLOT`."""
        if slot == JAIL_SLOT:
            return self("in_jail")
        if slot == self.edition.board.jail_index:
            return self("just_visiting")
        return self.names.spaces[slot]

    def group_name(self, group: str) -> str:
        return self.names.groups.get(group, group)

    def end_reason(self, reason: str) -> str:
        return self.messages.get(f"end_{reason}", reason)
