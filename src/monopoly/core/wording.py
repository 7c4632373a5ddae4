"""Punctuation where a name meets a sentence's end.

Some printed names end in punctuation of their own (Fallout's "You're S.P.E.C.I.A.L.!",
German "Sie sind S.P.E.C.I.A.L."); a sentence that ends with such a name must not add
its own full stop ("zieht auf Sie sind S.P.E.C.I.A.L.." reads as a typo). An ellipsis
("...") is left alone."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from typing import Any

from babel import Locale

_DOUBLED_STOP = re.compile(r"((?<!\.)\.|[!?])\.(?![.\w])")


def one_stop(text: str) -> str:
    """``text`` without a full stop right after a name's own ".", "!" or "?"."""
    if ".." not in text and "!." not in text and "?." not in text:
        return text  # nothing the pattern could match: most sentences, every event's
    return _DOUBLED_STOP.sub(r"\1", text)


class Fields(dict[str, Any]):
    """A template's fields: its own values, then the edition's words ({house}, {bank}...)
    looked up only when the template names one (not copied into every call)."""

    def __init__(self, values: Mapping[str, Any], terms: Mapping[str, str]) -> None:
        super().__init__(values)
        self.terms = terms

    def __missing__(self, name: str) -> str:
        return self.terms[name]


COUNTED = ("count", "steps")
"""The fields whose number chooses a text's plural form ("1 Feld", "2 Felder")."""


def plural_key(
    messages: Mapping[str, str], key: str, language: str, values: Mapping[str, Any]
) -> str:
    """``key``, or its ``key_one`` form where the catalogue has one and the counted
    value is singular by the language's CLDR plural rules (Babel's)."""
    number = next((values[name] for name in COUNTED if name in values), None)
    if not isinstance(number, int) or f"{key}_one" not in messages:
        return key
    return f"{key}_one" if _plural_form(language, number) == "one" else key


@cache
def _plural_form(language: str, number: int) -> str:
    form: str = Locale.parse(language).plural_form(number)
    return form
