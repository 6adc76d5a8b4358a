"""A dataset scan's outputs for a data pipeline: every row's cluster and whether it is kept, and the kept rows.

A cluster is a group of the scan (``ScanResult.groups``) named by its first row's number (rows are numbered
across the files in scan order); a row in no group is a cluster of its own, and kept. In a group one row is kept,
by a rule: ``first`` (the lowest row number), ``longest`` (the most bytes of text, the first of equals), or
``max:COLUMN`` / ``min:COLUMN`` (that column's greatest or least value, the first of equals). Both files are
written atomically (``atomic.write_atomic_with``), as Parquet or JSON Lines by their name, a batch at a time.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from lshdesk.core.corpus import datasets
from lshdesk.core.corpus.datasets import DatasetError, DatasetRows
from lshdesk.core.errors import ParamError
from lshdesk.core.persistence.atomic import write_atomic_with
from lshdesk.core.scan.pipeline import ScanResult

OUT_ROWS = 65536  # rows written together


def parse_keep(text: str) -> tuple[str, str | None]:
    """``first``, ``longest``, ``max:COLUMN`` or ``min:COLUMN`` as (rule, column)."""
    rule, _, column = text.partition(":")
    if rule in ("first", "longest") and not column:
        return rule, None
    if rule in ("max", "min") and column:
        return rule, column
    raise ParamError(f"keep one row per cluster by first, longest, max:COLUMN or min:COLUMN, not {text!r}")


def output_format(path: str) -> str:
    """'parquet' or 'jsonl', told by the output's name."""
    low = path.lower()
    if low.endswith(".parquet"):
        return "parquet"
    if low.endswith((".jsonl", ".ndjson")):
        return "jsonl"
    raise ParamError(f"{path}: name a .parquet or .jsonl file to write")


def _column_values(rows: DatasetRows, column: str) -> npt.NDArray[np.float64]:
    """A numeric column's value in every row, read a batch at a time (NaN where there is none)."""
    out = np.full(rows.n_rows, np.nan)
    for f, path in enumerate(rows.files):
        at = int(rows.starts[f])
        for b in datasets.batches(path, [column], None):
            col = b.column(0)
            try:
                out[at : at + len(col)] = col.to_numpy(zero_copy_only=False).astype(np.float64)
            except (TypeError, ValueError):
                raise DatasetError(
                    f"column {column!r} of {os.path.basename(path)} holds {col.type}, not numbers"
                ) from None
            at += len(col)
    return out


def clusters(result: ScanResult, keep: str = "first") -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """Every row's cluster (its first row's number) and whether it is kept, by the rule ``keep``."""
    rows = result.dataset
    if rows is None:
        raise ParamError("clusters of rows are for dataset scans (Parquet, JSON Lines, CSV, Arrow)")
    rule, column = parse_keep(keep)
    cluster = np.arange(rows.n_rows, dtype=np.int64)
    kept = np.ones(rows.n_rows, dtype=bool)
    if not result.groups:
        return cluster, kept
    if rule == "longest":
        score = np.zeros(rows.n_rows)
        score[rows.row] = result.docs.size
    elif column is not None:
        values = _column_values(rows, column)
        score = values if rule == "max" else -values
        score = np.where(np.isnan(score), -np.inf, score)
    for g in result.groups:
        members = np.sort(rows.row[g])
        cluster[members] = members[0]
        kept[members] = False
        best = members[0] if rule == "first" else members[int(np.argmax(score[members]))]  # argmax: the first of equals
        kept[best] = True
    return cluster, kept


def _chunks(result: ScanResult, cluster: np.ndarray, kept: np.ndarray, ids: list | None) -> Iterator[dict[str, Any]]:
    rows = result.dataset
    assert rows is not None
    several = len(rows.files) > 1
    for f, path in enumerate(rows.files):
        a, z = int(rows.starts[f]), int(rows.starts[f + 1])
        for s in range(a, z, OUT_ROWS):
            e = min(z, s + OUT_ROWS)
            cols: dict[str, Any] = {"file": [path] * (e - s)} if several else {}
            cols["row"] = np.arange(s - a, e - a, dtype=np.int64)
            if ids is not None:
                cols["id"] = ids[s:e]
            cols["cluster"], cols["kept"] = cluster[s:e], kept[s:e]
            yield cols


def _row_ids(rows: DatasetRows) -> list | None:
    """Every row's id column value (the rows skipped too), or None without an id column."""
    if rows.id_column is None:
        return None
    out: list = []
    for path in rows.files:
        for b in datasets.batches(path, [rows.id_column], None):
            out += b.column(0).to_pylist()
    return out


def write_clusters(result: ScanResult, path: str, keep: str = "first") -> tuple[int, int]:
    """Write every row's cluster and kept flag to ``path`` (.parquet or .jsonl); (rows, rows kept)."""
    fmt = output_format(path)
    cluster, kept = clusters(result, keep)
    ids = _row_ids(result.dataset) if result.dataset is not None else None
    write_atomic_with(path, lambda f: _write_tables(f, fmt, (_table(c) for c in _chunks(result, cluster, kept, ids))))
    return len(kept), int(kept.sum())


def _table(cols: dict[str, Any]) -> Any:
    return datasets.pyarrow().table(cols)


def _write_tables(f: BinaryIO, fmt: str, tables: Iterator[Any]) -> None:
    """Tables one after the other as one Parquet file or JSON Lines into ``f``."""
    if fmt == "jsonl":
        for t in tables:
            f.write("".join(json.dumps(r, ensure_ascii=False, default=str) + "\n" for r in t.to_pylist()).encode())
        return
    import pyarrow.parquet as pq

    writer, schema = None, None
    try:
        for t in tables:
            if writer is None:
                writer, schema = pq.ParquetWriter(f, t.schema), t.schema
            writer.write_table(t if t.schema == schema else _cast(t, schema))
    finally:
        if writer is not None:
            writer.close()


def _cast(table: Any, schema: Any) -> Any:
    """A later file's rows in the first file's columns (a folder's files must share them)."""
    try:
        return table.select(schema.names).cast(schema)
    except (KeyError, ValueError, datasets.pyarrow().ArrowException) as e:
        raise DatasetError(
            f"the dataset's files have different columns, so their rows cannot be written together: {e}"
        ) from None


def write_deduplicated(result: ScanResult, path: str, keep: str = "first") -> int:
    """Write the kept rows, with all their columns, to ``path`` (.parquet or .jsonl); the rows written."""
    fmt = output_format(path)
    rows = result.dataset
    if rows is None:
        raise ParamError("--write-deduplicated is for dataset scans (Parquet, JSON Lines, CSV, Arrow)")
    _, kept = clusters(result, keep)
    pa = datasets.pyarrow()

    def tables() -> Iterator[Any]:
        for f, src in enumerate(rows.files):
            at = int(rows.starts[f])
            for b in datasets.batches(src, None, rows.text_column):
                mask = kept[at : at + b.num_rows]
                at += b.num_rows
                if mask.any():
                    yield pa.Table.from_batches([b.filter(pa.array(mask))])

    write_atomic_with(path, lambda f: _write_tables(f, fmt, tables()))
    return int(kept.sum())
