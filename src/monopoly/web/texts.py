"""The lobby's words in English and German (``texts.toml`` beside this module)."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

from monopoly.core.wording import one_stop, plural_key

LANGUAGES = ("en", "de")


@cache
def catalog(language: str) -> dict[str, str]:
    data = tomllib.loads(resources.files("monopoly.web").joinpath("texts.toml").read_text("utf-8"))
    texts: dict[str, str] = data[language]
    return texts


def text(language: str, key: str, **values: Any) -> str:
    """The text ``key`` in ``language``; an unknown key falls back to the key itself."""
    template = catalog(language).get(plural_key(catalog(language), key, language, values))
    return key if template is None else one_stop(template.format(**values))


def level_name(language: str, level: str) -> str:
    """A computer-player level's name; levels without a text keep their key."""
    return catalog(language).get(f"level_{level}", level)
