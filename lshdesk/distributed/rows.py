"""Datasets on the Dask engine, at the client: the files, their parts planned from metadata, the rows put together.

The client reads no rows. It lists the dataset files (a local path, as the local engine does, or an fsspec URL)
and cuts them into pieces from their metadata alone: Parquet into row groups (the footer), Arrow IPC files into
record batches (the footer), uncompressed JSON Lines into byte ranges (each owning the lines that start in it).
Compressed JSON Lines (.gz, .zst) cannot be cut without reading them from the start, CSV/TSV may hold newlines
inside quoted values (a byte offset cannot tell them from a row's end), and the Arrow stream format has no
footer: each of those is one piece. Consecutive pieces are packed into parts of about ``PART_BYTES``; each part
is read and signed by a worker (``row_parts.sign_rows``). From the parts' summaries (kept rows, skipped rows,
text sizes, ids) the client names the rows exactly as ``dataset_stage`` does, so both engines agree.
"""

from __future__ import annotations

import math
import os
import posixpath
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from lshdesk.core.arrays import unique
from lshdesk.core.corpus import datasets
from lshdesk.core.corpus.datasets import DatasetError, DatasetRows
from lshdesk.core.corpus.listing import TEXT_EXTENSIONS, Skipped
from lshdesk.core.corpus.sources import Storage, is_url
from lshdesk.core.params import CorpusOptions
from lshdesk.core.scan.pipeline import Documents
from lshdesk.distributed.graph import MAX_PARTITION_FILES
from lshdesk.distributed.row_parts import Piece, RowPart, RowSource, RowsSummary, open_binary

PART_BYTES = 64 << 20  # file bytes a part holds at most (unless one piece is more): its shingle sets stay on a worker
MIN_PART_BYTES = 4 << 20  # ~0.2 s of reading and signing: smaller parts cost more in scheduling than they spread
FOOTERS = 16  # files whose metadata is read at once (one or two requests each in a bucket)
PARTS_PER_THREAD = 2  # as folders' partitions (graph.PARTITIONS_PER_THREAD)
_NEUTRAL = (".csv", ".tsv", ".json")  # as datasets.is_dataset_root: rows in a dataset, documents in a folder
_SKIP = frozenset({".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv"})


@dataclass(frozen=True)
class DataFile:
    """A dataset file to scan: path or URL, the root it was found under, its bytes and its time (or version)."""

    path: str
    root: int
    size: int
    mtime: int


def dataset_files(roots: Sequence[str], storage: Storage = ()) -> list[DataFile] | None:
    """Every dataset file of the roots, in the local engine's order; None unless every root is a dataset."""
    out: list[DataFile] = []
    for r, root in enumerate(roots):
        if is_url(root):
            found = _url_files(root, storage)
            if found is None:
                return None
            out += [DataFile(u, r, size, version) for u, size, version in found]
        elif datasets.is_dataset_root(root):
            for f in datasets.dataset_files(root):
                st = os.stat(f)
                out.append(DataFile(f, r, st.st_size, st.st_mtime_ns))
        else:
            return None
    return out


def _url_files(root: str, storage: Storage) -> list[tuple[str, int, int]] | None:
    """A URL's dataset files (URL, bytes, version), sorted as ``os.walk`` walks a folder; None if not a dataset."""
    from lshdesk.core.corpus import remote

    fs = remote.filesystem(root, storage)
    base = fs._strip_protocol(root).rstrip("/")
    prefix = root.rstrip("/")
    try:  # the top level first, as datasets.is_dataset_root looks: a folder of documents is listed by the workers
        top = {i["name"].rstrip("/"): i for i in fs.ls(base, detail=True)}
    except Exception as e:  # the store's errors are many: one line for each (remote.explain)
        raise remote.explain(e, root) from None
    if base in top and top[base].get("type") == "file":  # the URL names an object
        info = top[base]
        return [(prefix, int(info.get("size") or 0), remote.version_of(info))] if datasets.format_of(root) else None
    names = [posixpath.basename(k) for k, i in top.items() if i.get("type") == "file" and not k.startswith(".")]
    if not _is_dataset_folder(names):
        return None
    found = remote.find(root, storage)
    rels = []
    for key, info in found.items():
        rel = key[len(base) + 1 :] if key.startswith(base + "/") else ""
        parts = rel.split("/")
        if not rel or info.get("type", "file") != "file" or any(p.startswith(".") or p in _SKIP for p in parts):
            continue
        rels.append((parts, info))
    if not _is_dataset_folder([parts[0] for parts, _ in rels if len(parts) == 1]):
        return None  # changed since its top level was looked at
    rels.sort(key=lambda t: [(1, p) for p in t[0][:-1]] + [(0, t[0][-1])])  # a folder's files before its subfolders
    return [
        (f"{prefix}/{'/'.join(parts)}", int(info.get("size") or 0), remote.version_of(info))
        for parts, info in rels
        if datasets.format_of(parts[-1])
    ]


def _is_dataset_folder(names: list[str]) -> bool:
    """``datasets.is_dataset_root``'s rule for a folder's top-level names: a dataset file, and no other document."""
    names = [n for n in names if not n.startswith(".")]
    other = TEXT_EXTENSIONS - set(_NEUTRAL)
    if any(posixpath.splitext(n)[1].lower() in other and not datasets.format_of(n) for n in names):
        return False
    return any(datasets.format_of(n) for n in names)


def pieces_of(f: DataFile, target: int, storage: Storage) -> tuple[list[tuple[Piece, int]], int | None]:
    """A file cut into pieces of about ``target`` bytes (each with its share of the file's bytes) from its metadata
    (Parquet, Arrow IPC file) or its size (uncompressed JSON Lines), else whole; and its rows where the metadata
    tells them. A file whose metadata cannot be read is one piece: its task says what is wrong, as locally."""
    fmt, compression = datasets.format_of(f.path) or ("", None)
    n = max(1, math.ceil(f.size / max(target, 1)))  # Parquet: and no part over MAX_PARTITION_FILES rows
    whole = [(Piece(f.path, "whole", size=f.size), f.size)]
    if compression is not None or fmt in ("csv", "tsv") or (n == 1 and fmt != "parquet"):
        return whole, None
    if fmt == "jsonl":
        step = math.ceil(f.size / n)
        return [(Piece(f.path, "lines", a, min(a + step, f.size), f.size), step) for a in range(0, f.size, step)], None
    pa = datasets.pyarrow()
    try:
        with open_binary(f.path, storage) as fh:
            if fmt == "parquet":
                import pyarrow.parquet as pq

                meta = pq.ParquetFile(fh).metadata
                weights = [meta.row_group(g).num_rows for g in range(meta.num_row_groups)]
                kind, rows = "row-groups", int(meta.num_rows)
            else:
                weights = [1] * pa.ipc.open_file(fh).num_record_batches
                kind, rows = "batches", None
    except (pa.ArrowException, OSError, ValueError):  # the stream format, or a file the worker will say is broken
        return whole, None
    n = max(n, math.ceil((rows or 0) / MAX_PARTITION_FILES))
    if n == 1:
        return whole, rows
    cuts = _even_cuts(weights, n)
    weight = max(sum(weights), 1)
    return [
        (Piece(f.path, kind, a, b, f.size), f.size * sum(weights[a:b]) // weight) for a, b in zip(cuts[:-1], cuts[1:])
    ], rows


def _even_cuts(weights: list[int], n: int) -> list[int]:
    """Cut points of ``weights`` into at most ``n`` consecutive runs of about equal weight."""
    if not weights:
        return [0, 0]
    total = np.cumsum(weights)
    goals = total[-1] * np.arange(1, n) / n
    cuts = unique(np.searchsorted(total, goals, side="left") + 1)
    return [0, *[int(c) for c in cuts if 0 < c < len(weights)], len(weights)]


def plan(
    files: list[DataFile], n_threads: int, storage: Storage, part_bytes: int | None = None
) -> tuple[list[RowPart], int]:
    """The files' pieces packed into consecutive parts (a few per worker thread, each of at most ``PART_BYTES``
    unless one piece is larger), and the rows in all where the metadata tells them (0: not known)."""
    total = sum(f.size for f in files)
    target = part_bytes or min(PART_BYTES, max(MIN_PART_BYTES, math.ceil(total / (PARTS_PER_THREAD * n_threads))))
    parts: list[RowPart] = []
    held: list[Piece] = []
    held_bytes, rows, known = 0, 0, True
    with ThreadPoolExecutor(FOOTERS, thread_name_prefix="lshdesk-footers") as pool:  # a bucket: latency-bound
        cut = list(pool.map(lambda f: pieces_of(f, target, storage), files))
    for pieces, n in cut:
        rows, known = rows + (n or 0), known and n is not None
        for p, share in pieces:
            if held and held_bytes + share > target:
                parts.append(RowPart(tuple(held), storage))
                held, held_bytes = [], 0
            held.append(p)
            held_bytes += share
    if held:
        parts.append(RowPart(tuple(held), storage))
    return parts, rows if known else 0


def documents(
    roots: Sequence[str], files: list[DataFile], parts: list[RowPart], sums: list[RowsSummary], opts: CorpusOptions
) -> tuple[Documents, np.ndarray, list[Skipped], DatasetRows]:
    """The rows read, named as ``dataset_stage`` names them; each part's first document; the rows skipped."""
    index = {f.path: i for i, f in enumerate(files)}
    file_rows = np.zeros(len(files), dtype=np.int64)
    part_rows = []
    for part, s in zip(parts, sums):
        for p, n in zip(part.pieces, s.piece_rows):
            file_rows[index[p.path]] += n
        part_rows.append(sum(s.piece_rows))
    starts = np.zeros(len(files) + 1, dtype=np.int64)
    np.cumsum(file_rows, out=starts[1:])
    part_start = np.concatenate(([0], np.cumsum(part_rows))).astype(np.int64)
    row = np.concatenate([s.rows + part_start[p] for p, s in enumerate(sums)] or [np.zeros(0, np.int64)])
    srcs = tuple(f.path if not is_url(f.path) else RowSource(f.path, None, opts.storage_options) for f in files)
    rows = DatasetRows(srcs, tuple(f.root for f in files), starts, row, opts.text_column, opts.id_column)
    fidx = rows.file_of(row)
    at = (row - starts[fidx]).tolist()
    col = opts.text_column
    paths = [datasets.row_ref(files[f].path, r, col) for f, r in zip(fidx.tolist(), at)]
    if opts.id_column:
        rel = [i for s in sums for i in (s.ids or [])]
    else:
        prefix = [_prefix(roots[f.root], f.path) for f in files]
        rel = [f"{prefix[f]}{r}" for f, r in zip(fidx.tolist(), at)]
    skip_rows = np.asarray([int(part_start[p]) + r for p, s in enumerate(sums) for r, _, _ in s.skips], np.int64)
    skip_file = rows.file_of(skip_rows).tolist()
    why = [w for s in sums for _, _, w in s.skips]
    skipped = [
        Skipped(datasets.row_ref(files[f].path, g - int(starts[f]), col), w)
        for f, g, w in zip(skip_file, skip_rows.tolist(), why)
    ]
    n_kept = [len(s.rows) for s in sums]
    bounds = np.concatenate(([0], np.cumsum(n_kept))).astype(np.int64)
    docs = Documents(
        paths=paths,
        rel=rel,
        root=np.asarray([f.root for f in files], dtype=np.int64)[fidx],
        size=np.concatenate([s.sizes for s in sums] or [np.zeros(0, np.int64)]).astype(np.int64),
        n_tokens=np.concatenate([s.n_tokens for s in sums] or [np.zeros(0, np.int64)]).astype(np.int64),
        mtime=np.asarray([f.mtime for f in files], dtype=np.int64)[fidx],
    )
    return docs, bounds, skipped, rows


def _prefix(root: str, path: str) -> str:
    """A row's name begins with its file's name below a folder root (as ``dataset_stage._row_names``)."""
    if is_url(root):
        base = root.rstrip("/")
        return path[len(base) + 1 :] + ":" if path != base else ""
    return os.path.relpath(path, root).replace(os.sep, "/") + ":" if os.path.isdir(root) else ""


def check_found(roots: Sequence[str], files: list[DataFile]) -> None:
    if not files:
        raise DatasetError(f"no dataset file in {', '.join(roots)}")
