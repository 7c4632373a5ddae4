"""Build the package with its hot path compiled by mypyc, as black and mypy ship theirs.

``pip install .`` (and so ``./run`` and ``./test``) compiles the modules listed below
into C extensions that sit beside their ``.py`` sources in the
package. When that is impossible here (no C compiler, no mypyc, or ``MONOPOLY_PURE=1`` at
install time) the package is installed as pure Python and still works; ``monopoly
--version`` says which build runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "monopoly"
# Written beside the compiled modules: which modules were compiled from which sources, so
# that the package can tell an edited source from its compiled module (monopoly/build.py).
STAMP_NAME = "_compiled.json"
SEMANTIC_INTERPOSITION_OFF = "-fno-semantic-interposition"
METADATA_COMMANDS = frozenset({"egg_info", "dist_info", "sdist"})
"""setup.py's commands that only describe the package (they list the extensions' sources
but build nothing)."""


# The hot path: the rules engine, the computer players, the simulator's play loop, the
# RL environments' mask and observation (asked at every environment step), and what the
# game server builds for its clients after every action (the events narrated with their
# notes, the table and its patch, the seat's answers).
# Left as Python: bots/base.py (a runtime-checkable Protocol), the rest of the simulator
# (its frozen config must pickle to worker processes), core/reasons.py (a refusal is a
# str subclass, which mypyc cannot compile), core/wording.py and web/texts.py (compiled,
# they saved the server less than 1 % per action), the server's network and storage
# layers, the terminal and the records.
COMPILED_MODULES = (
    "core/actions.py",
    "core/auction.py",
    "core/building.py",
    "core/cards.py",
    "core/chance.py",
    "core/debt.py",
    "core/game.py",
    "core/jail.py",
    "core/memo.py",
    "core/mortgage.py",
    "core/movement.py",
    "core/narrate.py",
    "core/rent.py",
    "core/rules.py",
    "core/state.py",
    "core/tables.py",
    "core/trade.py",
    "core/view.py",
    "bots/driver.py",
    "bots/easy.py",
    "bots/hard.py",
    "bots/judge.py",
    "bots/manners.py",
    "bots/normal.py",
    "bots/player.py",
    "bots/trading.py",
    "bots/valuation.py",
    "sim/loop.py",
    "rl/catalogue.py",
    "rl/driver.py",
    "rl/mask.py",
    "rl/observation.py",
    "web/explain.py",
    "web/states.py",
    "web/views.py",
)


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def say(message: str) -> None:
    print(f"monopoly build: {message}", file=sys.stderr, flush=True)


class OptionalBuildExt(build_ext):  # type: ignore[misc]
    """Compile the extensions; if the C compiler fails, leave the package pure Python.

    mypyc translates the modules to C when the package is built, not whenever
    ``setup.py`` is read: pip runs it three times per install (for the build's
    requirements, the metadata and the wheel), and the translation takes a minute."""

    def finalize_options(self) -> None:
        if not set(self.distribution.commands) <= METADATA_COMMANDS:
            self.distribution.ext_modules = extensions()
        super().finalize_options()

    def run(self) -> None:
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as error:  # whatever failed in the C compiler: stay pure
            say(f"compiling failed ({error}); installing the pure Python package")
            self._remove_outputs()
            return
        self._write_stamp()

    def _remove_outputs(self) -> None:
        for output in self.get_outputs():
            Path(output).unlink(missing_ok=True)

    def _write_stamp(self) -> None:
        """Record the digest of each compiled module's source next to the package."""
        package_dir = Path(self.get_ext_fullpath("monopoly.core.game")).parent.parent
        stamp = {module: source_digest(PACKAGE / module) for module in COMPILED_MODULES}
        (package_dir / STAMP_NAME).write_text(json.dumps(stamp, indent=1, sort_keys=True) + "\n")


def extensions() -> list[Any]:
    if os.environ.get("MONOPOLY_PURE") == "1":
        say("MONOPOLY_PURE=1: installing the pure Python package")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        say("mypyc is not installed; installing the pure Python package")
        return []
    say("compiling the hot path with mypyc (a minute or two) ...")
    paths = [str((PACKAGE / module).relative_to(ROOT)) for module in COMPILED_MODULES]
    # The compiled modules import the standard library, the package and, at most, Babel
    # (narration); the package's dependencies (Babel, numpy, fastapi...) need not be
    # installed to compile them (what mypy cannot find is Any to it).
    options = ["--ignore-missing-imports", "--follow-imports=silent", "--config-file", ""]
    extensions: list[Any] = mypycify([*options, *paths], opt_level="3", group_name="monopoly")
    if os.name == "posix":
        for extension in extensions:
            # The compiled modules are one shared library whose functions call each other
            # natively. Without this flag a call between them goes through the library's
            # symbol table (another library could replace the callee), and the C compiler
            # may not inline even a two-line method such as a view's read.
            if SEMANTIC_INTERPOSITION_OFF not in extension.extra_compile_args:  # a shared list
                extension.extra_compile_args.append(SEMANTIC_INTERPOSITION_OFF)
    return extensions


# Until build_ext translates the real ones, one stand-in extension tells setuptools that
# the package has compiled parts (its wheel is then tagged for this platform).
PENDING = [Extension("monopoly.__pending_compilation__", sources=[])]

setup(ext_modules=PENDING, cmdclass={"build_ext": OptionalBuildExt})
