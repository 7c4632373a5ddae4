"""Which build of the package runs: compiled (mypyc) or pure Python.

``pip install .`` compiles the hot path (the modules named in ``setup.py``) into C
extensions beside their sources; ``_compiled.json`` records the digest of each source they
were compiled from. The package imports this module first, and it picks the pure Python
modules instead when

- ``MONOPOLY_PURE=1`` asks for them, or
- a compiled module's source was edited after compiling (an edited ``.py`` is never
  shadowed by a stale compiled module: the whole package then runs as pure Python, and the
  program says so once, until the package is built again).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

PACKAGE_DIR = Path(__file__).resolve().parent
STAMP = PACKAGE_DIR / "_compiled.json"
PURE_VARIABLE = "MONOPOLY_PURE"


@dataclass(frozen=True)
class Build:
    """The build this process runs, and why."""

    compiled: bool
    modules: tuple[str, ...]
    """The compiled modules (``core/game.py``...), empty for the pure build."""
    reason: str
    """Why it is the pure build: ``asked`` (MONOPOLY_PURE=1), ``not compiled`` or
    ``sources changed``; empty for the compiled build."""

    def describe(self) -> str:
        if self.compiled:
            return f"compiled (mypyc, {len(self.modules)} modules)"
        why = {
            "asked": f"{PURE_VARIABLE}=1",
            "not compiled": "no compiled modules on this machine",
            "sources changed": "sources edited since compiling; reinstall to compile again",
        }[self.reason]
        return f"pure Python ({why})"

    def as_json(self) -> dict[str, object]:
        return {"compiled": self.compiled, "modules": len(self.modules), "reason": self.reason}


def _recorded_digests() -> dict[str, str]:
    try:
        digests: dict[str, str] = json.loads(STAMP.read_text())
    except (OSError, ValueError):
        return {}
    return digests


def _edited(digests: dict[str, str]) -> list[str]:
    """The compiled modules whose source differs from the one they were compiled from."""
    edited = []
    for module, digest in digests.items():
        try:
            source = (PACKAGE_DIR / module).read_bytes()
        except OSError:
            continue
        if hashlib.sha256(source).hexdigest() != digest:
            edited.append(module)
    return edited


def _has_extension(module: str) -> bool:
    stem = PACKAGE_DIR / module.removesuffix(".py")
    return any(
        stem.with_name(stem.name + suffix).exists()
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
    )


class PureFinder(importlib.abc.MetaPathFinder):
    """Finds this package's modules as their ``.py`` sources, never as compiled modules."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("monopoly.") or path is None:
            return None
        name = fullname.rpartition(".")[2]
        for folder in path:
            source = os.path.join(folder, name + ".py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None  # a subpackage: its __init__.py is never compiled


def _choose() -> Build:
    digests = _recorded_digests()
    compiled = tuple(sorted(module for module in digests if _has_extension(module)))
    if not compiled:
        return Build(False, (), "not compiled")
    if os.environ.get(PURE_VARIABLE) == "1":
        reason = "asked"
    elif edited := _edited(digests):
        reason = "sources changed"
        print(
            f"monopoly: {', '.join(edited)} changed since compiling: running the pure Python "
            "build (reinstall the package, e.g. ./run, to compile again)",
            file=sys.stderr,
        )
    else:
        return Build(True, compiled, "")
    if not any(isinstance(finder, PureFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, PureFinder())
    return Build(False, (), reason)


BUILD = _choose()
"""The build this process runs (chosen when the package is first imported)."""


def running() -> Build:
    """The build that really runs: checks where the engine was loaded from."""
    import monopoly.core.game as game

    loaded_compiled = isinstance(game.__spec__.loader, importlib.machinery.ExtensionFileLoader)
    if loaded_compiled != BUILD.compiled:  # e.g. a compiled copy elsewhere on sys.path
        return Build(loaded_compiled, BUILD.modules, "" if loaded_compiled else BUILD.reason)
    return BUILD
