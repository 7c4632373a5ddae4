"""The server's per-action write: CPU and wall time of one ``Store.append_log`` (two log
entries and the game's status, one transaction), on SQLite or PostgreSQL.

    .venv/bin/python benchmarks/bench_store.py [DB]   # DB: a SQLite file (default: a
                                                       # temporary one) or postgresql://…

Use an empty database (the script adds 20 games). Figures are in docs/server.md.
"""

from __future__ import annotations

import argparse
import secrets
import tempfile
import time
from pathlib import Path

from monopoly.web.storage import Store, StoredGame, now

GAMES = 20


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("db", nargs="?", default=None, help="database (default: temporary)")
    parser.add_argument("--writes", type=int, default=3000, help="append_log calls (3000)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(args.db or str(Path(folder) / "bench.sqlite3"))
        ids = [secrets.token_urlsafe(8) for _ in range(GAMES)]
        for game_id in ids:
            store.create_game(StoredGame(game_id, "running", {}, {"preset": "standard"}, now(), []))
        entries = [{"act": "roll", "seat": 0}, {"dice": [3, 4]}]
        wall, cpu = time.perf_counter(), time.process_time()
        for i in range(args.writes):
            store.append_log(ids[i % GAMES], 2 * (i // GAMES), entries, "running")
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        store.close()
    per = 1e6 / args.writes
    print(f"{store.url.split(':')[0]}: {wall * per:.0f} µs wall, {cpu * per:.0f} µs CPU per write")


if __name__ == "__main__":
    main()
