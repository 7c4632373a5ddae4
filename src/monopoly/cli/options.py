"""Command-line options shared by several commands (one definition, one help text)."""

from __future__ import annotations

from typing import Annotated

import typer

Workers = Annotated[
    int | None,
    typer.Option(
        help="Worker processes (default: all cores; 1: no pool); with Ray, chunks at "
        "once (default: the cluster's CPUs)"
    ),
]
Backend = Annotated[
    str, typer.Option(help="local (a process pool) or ray (a Ray cluster: pip install .\\[ray])")
]
Address = Annotated[
    str | None,
    typer.Option(help="Ray cluster: auto or ray://host:10001 (default: a local instance)"),
]
