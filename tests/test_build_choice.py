"""Which build runs: an edited source is never shadowed by its stale compiled module, and
MONOPOLY_PURE=1 gives the pure Python modules. A copy of the package stands in for an
installed one, with a "compiled module" that would crash if it were ever loaded."""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src" / "monopoly"


def installed_copy(tmp_path: Path, edited: bool) -> Path:
    package = tmp_path / "monopoly"
    shutil.copytree(SOURCE, package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    game = package / "core" / "game.py"
    digest = hashlib.sha256(game.read_bytes()).hexdigest()
    (package / "_compiled.json").write_text(json.dumps({"core/game.py": digest}))
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (package / "core" / f"game{suffix}").write_bytes(b"not a shared library")
    if edited:
        game.write_text(game.read_text() + "\n# edited after compiling\n")
    return tmp_path


def monopoly_version(root: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "monopoly", "--version"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root), **env},
        cwd=root,
        timeout=120,
        check=False,
    )


def test_an_edited_source_runs_instead_of_its_stale_compiled_module(tmp_path: Path) -> None:
    done = monopoly_version(installed_copy(tmp_path, edited=True))
    assert done.returncode == 0, done.stderr
    assert "pure Python (sources edited since compiling" in done.stdout
    assert "core/game.py changed since compiling" in done.stderr  # said once, at start


def test_monopoly_pure_runs_the_sources_of_a_compiled_package(tmp_path: Path) -> None:
    done = monopoly_version(installed_copy(tmp_path, edited=False), MONOPOLY_PURE="1")
    assert done.returncode == 0, done.stderr
    assert "pure Python (MONOPOLY_PURE=1)" in done.stdout
    assert done.stderr == ""


def test_a_package_without_compiled_modules_says_so(tmp_path: Path) -> None:
    package = tmp_path / "monopoly"
    shutil.copytree(SOURCE, package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    (package / "_compiled.json").unlink(missing_ok=True)
    done = monopoly_version(tmp_path)
    assert "pure Python (no compiled modules on this machine)" in done.stdout
