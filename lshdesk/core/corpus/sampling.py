"""A uniform random sample of a dataset's rows, read a record batch at a time: planning a scan too large to run here.

Every subset of ``n`` rows is equally likely, and the same seed draws the same rows. When every file's metadata
counts its rows (Parquet, Arrow IPC files) the rows are drawn by number (``Generator.choice`` without replacement)
and only the batches holding them are kept: a Parquet row group holding none is not read. Otherwise (JSON Lines,
CSV, Arrow streams) one pass gives every row a random key, in row order, and keeps the rows of the ``n`` smallest
(a reservoir: only rows whose key beats the ``n``-th smallest so far are held, about ``n ln(N / n)`` of them in
all, compacted whenever ``2 n`` are held). Memory holds the sample's texts and one batch, never the dataset.
"""

from __future__ import annotations

import threading
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from lshdesk.core.arrays import unique
from lshdesk.core.corpus import datasets
from lshdesk.core.errors import ParamError, check_cancel


@dataclass(frozen=True)
class RowSample:
    """The rows drawn: their numbers (across the files, in order) and their text and id columns."""

    files: tuple[str, ...]
    starts: npt.NDArray[np.int64]  # file f holds rows starts[f] to starts[f + 1] - 1 (all of them, drawn or not)
    rows: npt.NDArray[np.int64]  # the rows drawn, ascending
    texts: Any  # their texts: a pyarrow (large) string array, in the order of ``rows``
    ids: Any  # their id column's values (a pyarrow array), or None
    seed: int

    @property
    def n_rows(self) -> int:
        """Rows in the whole dataset."""
        return int(self.starts[-1])


def draw_sample(
    files: Sequence[str],
    text_column: str,
    id_column: str | None,
    n: int,
    seed: int = 0,
    cancel: threading.Event | None = None,
) -> Generator[int, None, RowSample]:
    """Draw ``n`` rows of the dataset files (all of them when there are fewer), yielding the rows gone through so far."""
    if n < 1:
        raise ParamError(f"a sample needs at least one row, not {n}")
    counts = [datasets.row_count(f) for f in files]
    columns = [text_column] + ([id_column] if id_column and id_column != text_column else [])
    if None in counts:
        return (yield from _reservoir(files, columns, text_column, id_column, n, seed, cancel))
    starts = np.zeros(len(files) + 1, dtype=np.int64)
    np.cumsum([c or 0 for c in counts], out=starts[1:])
    total = int(starts[-1])
    rng = np.random.default_rng(seed)
    rows = np.arange(total, dtype=np.int64) if n >= total else np.sort(rng.choice(total, n, replace=False))
    texts: list[Any] = []
    ids: list[Any] = []
    for f, path in enumerate(files):
        mine = rows[(rows >= starts[f]) & (rows < starts[f + 1])] - starts[f]  # positions in this file
        for groups, first in _reads(path, mine):
            at = first
            for b in datasets.batches(path, columns, text_column, groups):
                check_cancel(cancel)
                lo, hi = np.searchsorted(mine, [at, at + b.num_rows])
                if hi > lo:
                    take = datasets.pyarrow().array(mine[lo:hi] - at)
                    texts.append(b.column(0).take(take))
                    if id_column:
                        ids.append(b.column(id_column).take(take))
                at += b.num_rows
                yield int(starts[f]) + at
    return RowSample(tuple(files), starts, rows, _joined(texts, True), _joined(ids) if id_column else None, seed)


def _reads(path: str, positions: npt.NDArray[np.int64]) -> list[tuple[list[int] | None, int]]:
    """How to read a file for rows at these positions: (row groups, first row) per read; (None, 0): read it whole.
    A Parquet file's row groups holding none of them are not read; a file holding none is not opened."""
    if not len(positions):
        return []
    if (datasets.format_of(path) or ("", None))[0] != "parquet":
        return [(None, 0)]
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(path).metadata
    bounds = np.zeros(meta.num_row_groups + 1, dtype=np.int64)
    np.cumsum([meta.row_group(g).num_rows for g in range(meta.num_row_groups)], out=bounds[1:])
    held = unique(np.searchsorted(bounds, positions, side="right") - 1).tolist()
    if len(held) == meta.num_row_groups:
        return [(None, 0)]
    return [([g], int(bounds[g])) for g in held]


def _joined(chunks: list[Any], text: bool = False) -> Any:
    """One pyarrow array of the chunks (texts as large strings, whatever each file held)."""
    pa = datasets.pyarrow()
    if not chunks:
        return pa.array([], pa.large_string())
    if text:
        chunks = [c if pa.types.is_large_string(c.type) else c.cast(pa.large_string()) for c in chunks]
    elif len({c.type for c in chunks}) > 1:
        chunks = [c.cast(pa.large_string()) if pa.types.is_string(c.type) else c for c in chunks]
    return pa.concat_arrays(chunks)


def _reservoir(
    files: Sequence[str],
    columns: list[str],
    text_column: str,
    id_column: str | None,
    n: int,
    seed: int,
    cancel: threading.Event | None,
) -> Generator[int, None, RowSample]:
    """One pass: each row a random key in row order; the rows of the ``n`` smallest keys are the sample."""
    pa = datasets.pyarrow()
    rng = np.random.default_rng(seed)
    held = _Held(n)
    starts = [0]
    for path in files:
        at = starts[-1]
        for b in datasets.batches(path, columns, text_column):
            check_cancel(cancel)
            keys = rng.random(b.num_rows)  # drawn in row order: the same keys however the rows are batched
            beat = np.flatnonzero(keys < held.bar)
            if len(beat):
                take = pa.array(beat)
                idc = b.column(id_column).take(take) if id_column else None
                held.add(keys[beat], at + beat, b.column(0).take(take), idc)
            at += b.num_rows
            yield at
        starts.append(at)
    keys, rows, texts, ids = held.final()
    order = np.argsort(rows, kind="stable")
    take = pa.array(order)
    return RowSample(
        tuple(files),
        np.asarray(starts, dtype=np.int64),
        rows[order].astype(np.int64),
        texts.take(take),
        ids.take(take) if ids is not None else None,
        seed,
    )


class _Held:
    """The rows a reservoir holds: keys, row numbers, texts and ids, compacted to the ``n`` smallest keys."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.bar = 1.0  # a row with a key at or above this can never be among the n smallest
        self.keys: list[npt.NDArray[np.float64]] = []
        self.rows: list[npt.NDArray[np.int64]] = []
        self.texts: list[Any] = []
        self.ids: list[Any] = []
        self.count = 0

    def add(self, keys: npt.NDArray[np.float64], rows: npt.NDArray[np.int64], texts: Any, ids: Any) -> None:
        self.keys.append(keys)
        self.rows.append(rows.astype(np.int64))
        self.texts.append(texts)
        if ids is not None:
            self.ids.append(ids)
        self.count += len(keys)
        if self.count >= 2 * self.n:
            self._compact()

    def _compact(self) -> None:
        keys, rows, texts, ids = self.final()
        self.keys, self.rows, self.texts = [keys], [rows], [texts]
        self.ids = [ids] if ids is not None else []
        self.count = len(keys)
        if self.count >= self.n:
            self.bar = float(keys.max())

    def final(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], Any, Any]:
        """The ``n`` smallest keys held (all when fewer), with their rows, texts and ids."""
        pa = datasets.pyarrow()
        keys = np.concatenate(self.keys) if self.keys else np.zeros(0)
        rows = np.concatenate(self.rows) if self.rows else np.zeros(0, np.int64)
        keep = np.argsort(keys, kind="stable")[: self.n]
        take = pa.array(keep)
        texts = _joined(self.texts, True).take(take)
        ids = _joined(self.ids).take(take) if self.ids else None
        return keys[keep], rows[keep], texts, ids
