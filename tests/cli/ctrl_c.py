"""A ``monopoly`` command run as a real process and stopped with Ctrl-C, as a user stops it.

A terminal sends Ctrl-C's SIGINT to the command's whole process group, pool workers
included; so do these helpers. The command starts with Python's own Ctrl-C handling even
when the tests were started in the background (where a shell makes its jobs ignore
SIGINT, and the ignoring is inherited).
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

MONOPOLY = [sys.executable, "-m", "monopoly"]
COUNTED = re.compile(rb"\b[1-9]\d*/\d+")
"""A counting progress bar past zero ("25/200000")."""
PATIENCE = 240.0
"""Seconds to wait for the command to get going (the machine may be busy)."""


@dataclass(frozen=True, slots=True)
class Stopped:
    """How the stopped command ended: its exit code and everything it wrote."""

    code: int
    output: str


def ctrl_c_in_terminal(args: list[str], ready: re.Pattern[bytes] = COUNTED) -> Stopped:
    """Run ``monopoly ARGS`` in a pseudo-terminal (so its progress bar shows) and press
    Ctrl-C once its output matches ``ready``; the exit code and all the output."""
    leader, follower = pty.openpty()
    process = _start(args, stdout=follower, stderr=follower)
    os.close(follower)
    try:
        seen = _read_until(leader, ready, process)
        os.killpg(process.pid, signal.SIGINT)
        code = process.wait(timeout=PATIENCE)
        seen += _read_rest(leader)
    finally:
        _end(process)
        os.close(leader)
    return Stopped(code, seen.decode(errors="replace"))


def ctrl_c_when(args: list[str], ready: Callable[[], bool]) -> Stopped:
    """Run ``monopoly ARGS`` with its output in a pipe and press Ctrl-C once ``ready()``
    (asked every tenth of a second) is true."""
    process = _start(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + PATIENCE
        while not ready():
            assert process.poll() is None, process.communicate()[1].decode(errors="replace")
            assert time.monotonic() < deadline, "the command did not get going"
            time.sleep(0.1)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=PATIENCE)
    finally:
        _end(process)
    return Stopped(process.returncode, (out + err).decode(errors="replace"))


@contextmanager
def ctrl_c_raises() -> Iterator[None]:
    """Python's own Ctrl-C handling in this process during the block (KeyboardInterrupt),
    however the tests were started."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _start(args: list[str], **streams: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [*MONOPOLY, *args],
        env={**os.environ, "COLUMNS": "120"},
        start_new_session=True,  # its own process group, as a terminal gives a command
        preexec_fn=_python_handles_ctrl_c,
        **streams,
    )


def _python_handles_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _end(process: subprocess.Popen[bytes]) -> None:
    """A command that did not stop is killed with its workers (a failed test leaves none)."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _read_until(fd: int, pattern: re.Pattern[bytes], process: subprocess.Popen[bytes]) -> bytes:
    seen = b""
    deadline = time.monotonic() + PATIENCE
    while not pattern.search(seen):
        assert time.monotonic() < deadline and process.poll() is None, seen.decode(errors="replace")
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            seen += os.read(fd, 4096)
    return seen


def _read_rest(fd: int) -> bytes:
    rest = b""
    while select.select([fd], [], [], 0.5)[0]:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        rest += chunk
    return rest
