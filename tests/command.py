"""The ``monopoly`` command run inside the test's own process.

The same Typer app, arguments, exit code, standard output and standard error as the
installed command, through Typer's ``CliRunner``, without a new interpreter importing the
package for every run (about 0.4 s of CPU each). Tests whose point is the process itself
(signals, a terminal, pool workers, the ``python -m monopoly`` entry) start a real one.
"""

from __future__ import annotations

import subprocess

from typer.testing import CliRunner

from monopoly.cli.main import app


def monopoly(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``monopoly ARGS`` with ``stdin`` piped in, as ``subprocess.run`` would report it.

    An exception the command does not handle is raised here (with its traceback) rather
    than turned into exit code 1."""
    result = CliRunner().invoke(app, list(args), input=stdin, catch_exceptions=False)
    return subprocess.CompletedProcess(
        ["monopoly", *args], result.exit_code, result.stdout, result.stderr
    )
