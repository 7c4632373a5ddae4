"""Per-game results as a Parquet file (``monopoly simulate --out games.parquet``).

One row per game, in game order, written in row groups as the games come in: memory
holds one row group (``row_group`` games, 65,536 by default: a few megabytes), so ten
million games take no more memory than ten thousand. Load with
``pandas.read_parquet(path)`` or ``polars.read_parquet(path)``. Columns:

========================  ==============  ===============================================
``game``                  int64           index in the simulation (0-based)
``seed``                  int64           the game's seed (``runner.game_seed``)
``players``               int8            seats in the game
``levels``                list<string>    the level of each seat (seat 0 first)
``winner``                int8, nullable  the winning seat (0-based); null if shared or none
``winners``               list<int8>      every winning seat (several: a shared win)
``turns``                 int32           player-turns played (the engine's ``game.turn``)
``rolls``                 int32           dice rolls (landings)
``end_reason``            dictionary      ``last_player``, ``bankruptcy``, ``limit``, ...
``net_worths``            list<int32>     each seat's net worth at the end (0: bankrupt)
========================  ==============  ===============================================
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Any

from .stats import GameResult

ROW_GROUP = 65_536


class ParquetError(ValueError):
    """The Parquet file cannot be written; the message says why."""


class GameTable:
    """A streaming writer of :class:`GameResult` rows; use it in ``with`` and call it."""

    def __init__(self, path: Path, row_group: int = ROW_GROUP) -> None:
        try:
            import pyarrow as pa  # type: ignore[import-untyped]
            import pyarrow.parquet as pq  # type: ignore[import-untyped]
        except ImportError:
            raise ParquetError("--out needs pyarrow: pip install pyarrow") from None
        if row_group < 1:
            raise ParquetError(f"a row group holds at least one game, got {row_group}")
        self.pa: Any = pa
        self.schema = pa.schema(
            [
                ("game", pa.int64()),
                ("seed", pa.int64()),
                ("players", pa.int8()),
                ("levels", pa.list_(pa.string())),
                ("winner", pa.int8()),
                ("winners", pa.list_(pa.int8())),
                ("turns", pa.int32()),
                ("rolls", pa.int32()),
                ("end_reason", pa.dictionary(pa.int8(), pa.string())),
                ("net_worths", pa.list_(pa.int32())),
            ]
        )
        self.path = path
        self.row_group = row_group
        self.rows = 0
        self._columns: dict[str, list[Any]] = {name: [] for name in self.schema.names}
        try:
            self._writer = pq.ParquetWriter(str(path), self.schema, compression="zstd")
        except OSError as error:
            raise ParquetError(f"cannot write {path}: {error}") from None

    def __call__(self, result: GameResult) -> None:
        """Add one game; a full row group goes to the file at once."""
        columns = self._columns
        columns["game"].append(result.index)
        columns["seed"].append(result.seed)
        columns["players"].append(len(result.levels))
        columns["levels"].append(result.levels)
        columns["winner"].append(result.winners[0] if len(result.winners) == 1 else None)
        columns["winners"].append(result.winners)
        columns["turns"].append(result.turns)
        columns["rolls"].append(result.rolls)
        columns["end_reason"].append(result.end_reason)
        columns["net_worths"].append(result.net_worths)
        if len(columns["game"]) >= self.row_group:
            self._flush()

    def _flush(self) -> None:
        count = len(self._columns["game"])
        if not count:
            return
        batch = self.pa.record_batch(
            [self.pa.array(self._columns[f.name], f.type) for f in self.schema],
            schema=self.schema,
        )
        self._writer.write_batch(batch, row_group_size=self.row_group)
        self.rows += count
        for column in self._columns.values():
            column.clear()

    def __enter__(self) -> GameTable:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._flush()
        self._writer.close()
