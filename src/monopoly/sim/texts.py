"""The simulator's words in English and German, and the names of spaces and groups."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

from babel import Locale
from babel.numbers import format_decimal, format_percent

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

    def number(self, value: float, digits: int = 0) -> str:
        """``value`` written as this language writes numbers (12,345.6 in English,
        12.345,6 in German), with ``digits`` decimals."""
        return format_decimal(value, format=_decimals("#,##0", digits), locale=self.language)

    def percent(self, share: float, digits: int = 1) -> str:
        """``share`` (0.25) as a percentage in this language ("25.0%", "25,0 %")."""
        pattern = _percent_pattern(self.language).replace("#,##0", _decimals("#,##0", digits))
        return format_percent(share, format=pattern, locale=self.language)

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


def _decimals(pattern: str, digits: int) -> str:
    return f"{pattern}.{'0' * digits}" if digits else pattern


@cache
def _percent_pattern(language: str) -> str:
    """The language's own way to write a percentage ("#,##0%", "#,##0 %")."""
    pattern = Locale.parse(language).percent_formats[None].pattern
    return str(pattern)
