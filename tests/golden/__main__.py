"""Regenerate the golden records: ``python -m tests.golden`` (then read the diff)."""

from tests.golden import write_all

for path in write_all():
    print(path.name)
