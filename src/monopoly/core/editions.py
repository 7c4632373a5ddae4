"""The registry of the shipped editions: it finds the edition files itself.

Adding an edition is adding one TOML file to ``editions/``: the registry lists the folder,
orders the files by the ``order`` of their ``[edition]`` table, loads each once and looks
an edition up by key or alias. Checking a file is :mod:`monopoly.core.edition_schema`,
assembling it :mod:`monopoly.core.edition_loader`; their public names are re-exported here.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from monopoly.core.board import Edition
from monopoly.core.edition_loader import load_edition_file
from monopoly.core.edition_schema import REQUIRED_TERMS, EditionError

__all__ = [
    "EDITIONS_DIR",
    "REQUIRED_TERMS",
    "EditionError",
    "EditionRegistry",
    "edition_keys",
    "get_edition",
    "load_edition_file",
]

EDITIONS_DIR = Path(__file__).resolve().parent.parent / "editions"
"""The folder holding the shipped edition files."""


class EditionRegistry:
    """The editions of one folder, loaded on first use and then kept."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._editions: dict[str, Edition] = {}
        """Key -> edition, in list order (empty until first used)."""
        self._lookup: dict[str, str] = {}
        """Case-folded key or alias -> key."""

    def keys(self) -> tuple[str, ...]:
        """The keys of the editions, in list order."""
        return tuple(self._loaded())

    def get(self, name: str) -> Edition:
        """The edition with this key or alias (case-insensitive)."""
        editions = self._loaded()
        key = self._lookup.get(name.strip().casefold())
        if key is None:
            known = ", ".join(
                f"{k} ({', '.join(editions[k].aliases)})" if editions[k].aliases else k
                for k in editions
            )
            raise EditionError(f"unknown edition {name!r}; known editions: {known}")
        return editions[key]

    def files(self) -> list[str]:
        """The keys of the edition files in the folder, in list order: the ``order`` of
        their [edition] table (0 if none), then the key."""
        found = []
        for path in self.folder.glob("*.toml"):
            try:
                head = tomllib.loads(path.read_text(encoding="utf-8")).get("edition", {})
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                head = {}  # loading the file reports the problem with its place
            order = head.get("order", 0) if isinstance(head, dict) else 0
            found.append((order if type(order) is int else 0, path.stem))
        return [key for _, key in sorted(found)]

    def _loaded(self) -> dict[str, Edition]:
        """Load every file once; a file whose key is not its name, or an alias used
        twice, is an error (nothing is kept then)."""
        if not self._editions:
            editions: dict[str, Edition] = {}
            lookup: dict[str, str] = {}
            for key in self.files():
                editions[key] = self._load(key)
                for name in (key, *editions[key].aliases):
                    folded = name.casefold()
                    if folded in lookup and lookup[folded] != key:
                        raise EditionError(
                            f"{key}.toml: edition: alias {name!r} is already used by "
                            f"{lookup[folded]}.toml"
                        )
                    lookup[folded] = key
            self._lookup.update(lookup)
            self._editions.update(editions)
        return self._editions

    def _load(self, key: str) -> Edition:
        edition = load_edition_file(self.folder / f"{key}.toml")
        if edition.key != key:
            raise EditionError(
                f"{key}.toml: edition: 'key' must be {key!r} (the file name), got {edition.key!r}"
            )
        return edition


_SHIPPED = EditionRegistry(EDITIONS_DIR)


def edition_keys() -> tuple[str, ...]:
    """The keys of the shipped editions, in list order (classic first)."""
    return _SHIPPED.keys()


def get_edition(name: str) -> Edition:
    """The shipped edition with this key or alias (case-insensitive); cached."""
    return _SHIPPED.get(name)
