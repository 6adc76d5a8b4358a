"""The sign stage of a dataset scan: each row of the dataset files a document, signed in slices on helper threads.

``pipeline.sign_stage`` hands a scan over here when its roots are datasets (``datasets.is_dataset_root``). This
thread reads record batches (pyarrow decodes without the GIL) and cuts them into slices (``datasets.TextSlice``);
``WORKERS`` threads tokenize and sign them in the same compiled kernels as files (``frontend.sign_prepared``: an
all-ASCII slice goes to the byte tokenizer as it lies in Arrow's buffer, the others through ``unitext``), and the
slices are taken in order, at most ``WORKERS + 1`` in flight: memory holds a few slices of text, not the dataset.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, NamedTuple

import numpy as np

from lshdesk.core.corpus import datasets
from lshdesk.core.corpus.datasets import DatasetError, DatasetRows, TextSlice
from lshdesk.core.corpus.listing import Skipped
from lshdesk.core.errors import check_cancel
from lshdesk.core.minhash import HashFamily, make_family
from lshdesk.core.params import ScanParams, SignatureParams
from lshdesk.core.scan.frontend import Prepared, needs_texts, sign_prepared
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scan.reader import WORKERS
from lshdesk.core.scan.store import ScanStore
from lshdesk.core.shingling import ShingleBatch
from lshdesk.core.threads import wait_for
from lshdesk.core.unitext import token_batch


class RowNames(Sequence[str]):
    """Row references by row number, made when asked (a store names only the rows it skips)."""

    def __init__(self, files: list[str], starts: list[int], column: str) -> None:
        self.files, self.starts, self.column = files, starts, column

    def __getitem__(self, g: int) -> str:  # type: ignore[override]
        f = int(np.searchsorted(self.starts, g, side="right")) - 1
        return datasets.row_ref(self.files[f], g - self.starts[f], self.column)

    def __len__(self) -> int:
        return self.starts[-1] if self.starts else 0


def token_bytes(buf: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """What the byte tokenizer reads for each row, as ``frontend.read_listed`` gives it for files: ASCII rows as
    they are, the others through the Unicode kernel (``unitext``); and whether every row was ASCII. On synth100k
    (3 % of rows not ASCII) sending whole slices through the kernel cost 2.6 s of 12 s of signing."""
    high = np.flatnonzero(buf >= 128)
    if not len(high):
        return buf, offsets, True
    rows = np.unique(np.searchsorted(offsets, high, side="right") - 1)
    if len(rows) == len(offsets) - 1:
        out, off = token_batch(buf, offsets)
        return out, off, False
    spans = np.stack([offsets[rows], offsets[rows + 1]], axis=1)
    sub, sub_off = token_batch(np.concatenate([buf[a:z] for a, z in spans.tolist()]), _offsets(np.diff(spans)[:, 0]))
    lengths = np.diff(offsets)
    lengths[rows] = np.diff(sub_off)
    new_off = _offsets(lengths)
    out = np.empty(int(new_off[-1]), dtype=np.uint8)
    start = 0  # runs of ASCII rows copied whole, each row that is not ASCII from the kernel's output
    for j, r in enumerate(rows.tolist() + [len(lengths)]):
        out[new_off[start] : new_off[r]] = buf[offsets[start] : offsets[r]]
        if r < len(lengths):
            out[new_off[r] : new_off[r + 1]] = sub[sub_off[j] : sub_off[j + 1]]
        start = r + 1
    return out, new_off, False


def _offsets(lengths: np.ndarray) -> np.ndarray:
    off = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=off[1:])
    return off


def sign_slice(s: TextSlice, names: RowNames, sp: SignatureParams, family: HashFamily) -> tuple:
    """One slice tokenized and signed (the unit of work of a helper thread)."""
    skipped = [Skipped(names[g], why) for g, why in s.skipped]
    buf, off, plain = token_bytes(s.buf, s.offsets)
    batch, sigs = sign_prepared(prep := Prepared(s.ok, skipped, buf, off, s.texts, plain=plain), sp, family)
    return prep, batch, sigs


class RowsRead(NamedTuple):
    """What the stage read, for ``pipeline.sign_stage`` to make the signed corpus of."""

    docs: dict[str, Any]  # the fields of ``pipeline.Documents``
    skipped: list[Skipped]
    signatures: np.ndarray
    shingles: ShingleBatch
    rows: DatasetRows
    seconds: float


def sign_dataset(
    roots: Sequence[str], params: ScanParams, cancel: threading.Event | None = None
) -> Generator[Progress, None, RowsRead]:
    """Read, shingle and sign every row of the dataset roots: ``pipeline.sign_stage`` for datasets."""
    t0 = time.perf_counter()
    opts, sp = params.corpus, params.signature
    files = root_files(roots)
    known = [datasets.row_count(f) for _, f in files]
    total = sum(n for n in known if n is not None) if None not in known else 0
    family = make_family(sp)
    read = RowReading(ScanStore(sp.k, family.dtype), RowNames([f for _, f in files], [0], opts.text_column), total)
    need = needs_texts(sp, family)

    def slices() -> Iterator[TextSlice]:
        for _, path in files:
            end = read.names.starts[-1]
            for s in datasets.text_slices(path, opts.text_column, opts.id_column, end, opts.max_bytes, need):
                yield s
                end = s.start + s.n_rows
            read.names.starts.append(end)

    yield from sign_slices(slices(), read, sp, family, cancel, t0)
    return read.corpus(roots, params, files, time.perf_counter() - t0)


def root_files(roots: Sequence[str]) -> list[tuple[int, str]]:
    """(root index, file) of every dataset file below the roots, in scan order; DatasetError if there is none."""
    files = [(r, f) for r, root in enumerate(roots) for f in datasets.dataset_files(root)]
    if not files:
        raise DatasetError(f"no dataset file in {', '.join(roots)}")
    return files


def sign_slices(
    slices: Iterator[TextSlice],
    read: RowReading,
    sp: SignatureParams,
    family: HashFamily,
    cancel: threading.Event | None,
    t0: float,
) -> Generator[Progress, None, None]:
    """Sign the slices on ``WORKERS`` helper threads, taken in order into ``read``, at most ``WORKERS + 1`` in flight."""
    pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="lshdesk-rows")
    in_flight: deque[Future] = deque()
    finished = False
    try:
        for s in slices:
            check_cancel(cancel)
            read.lengths.append(s.lengths)
            if s.ids is not None:
                read.ids.append(s.ids)
            in_flight.append(pool.submit(sign_slice, s, read.names, sp, family))
            while len(in_flight) > WORKERS:
                read.take(wait_for(in_flight.popleft(), cancel))
                yield Progress("reading", read.done, read.total, time.perf_counter() - t0, unit="rows")
        while in_flight:
            read.take(wait_for(in_flight.popleft(), cancel))
        finished = True
    finally:  # cancelled or failed: never wait on a slice still at work
        pool.shutdown(wait=finished, cancel_futures=True)
    yield Progress("reading", read.done, read.total, time.perf_counter() - t0, unit="rows")


class RowReading:
    """What a dataset scan keeps as slices are taken: the store, the rows kept and skipped, lengths and ids."""

    def __init__(self, store: ScanStore, names: RowNames, total: int) -> None:
        self.store, self.names, self.total = store, names, total
        self.kept: list[int] = []
        self.skipped: list[Skipped] = []
        self.lengths: list[np.ndarray] = []
        self.ids: list = []
        self.drawn: np.ndarray | None = None  # a sample's rows (ascending): the order lengths and ids are kept in

    @property
    def done(self) -> int:
        return len(self.kept) + len(self.skipped)

    def take(self, signed: tuple[Prepared, ShingleBatch, np.ndarray]) -> None:
        prep, batch, sigs = signed
        ids = self.store.n_ids + len(batch.ids)  # as many ids a row in the rest as so far, and a twentieth more
        room = (self.total or 1 << 62), int(ids * max(1.0, self.total / max(1, self.done + len(prep.ok))) * 1.05) + 1
        self.kept += self.store.add(prep, batch, sigs, self.names, self.skipped, room)

    def corpus(
        self, roots: Sequence[str], params: ScanParams, files: list[tuple[int, str]], seconds: float
    ) -> RowsRead:
        datasets.pyarrow().default_memory_pool().release_unused()  # the read batches' memory, before the names
        shingles, sigs = self.store.finish()
        starts = np.asarray(self.names.starts, dtype=np.int64)
        rows = np.asarray(self.kept, dtype=np.int64)
        opts = params.corpus
        dataset = DatasetRows(
            tuple(f for _, f in files),
            tuple(r for r, _ in files),
            starts,
            rows,
            opts.text_column,
            opts.id_column,
            len(self.drawn) if self.drawn is not None else None,
        )
        kept_at = rows if self.drawn is None else np.searchsorted(self.drawn, rows)  # into lengths and ids
        fidx = dataset.file_of(rows)
        at = rows - starts[fidx]
        names = [(f"{path}#row=", f"&text={opts.text_column}") for _, path in files]  # datasets.row_ref's form
        paths = _joined(names, fidx, at)
        lengths = np.concatenate(self.lengths) if self.lengths else np.zeros(0, np.int64)
        mtimes = np.array([os.stat(f).st_mtime_ns for _, f in files], dtype=np.int64)
        docs = dict(
            paths=paths,
            rel=_row_names(roots, files, fidx, at, self.ids, kept_at),
            root=np.asarray(dataset.file_root, dtype=np.int64)[fidx],
            size=lengths[kept_at],
            n_tokens=shingles.n_tokens,
            mtime=mtimes[fidx],
        )
        return RowsRead(docs, in_row_order(self.skipped, dataset.files), sigs, shingles, dataset, seconds)


def in_row_order(skipped: list[Skipped], files: Sequence[str]) -> list[Skipped]:
    """The rows skipped, in row order (a slice names its rows with no text before its rows with no words): an
    order any cut of the files into slices or parts gives (the Dask engine's is another)."""
    at = {f: i for i, f in enumerate(files)}

    def key(s: Skipped) -> tuple[int, int]:
        ref = datasets.parse_row_ref(s.path)
        return (at.get(ref[0], -1), ref[1]) if ref is not None else (-1, 0)

    return sorted(skipped, key=key)


CHUNK = 65536  # rows named at a time: no list of a million row numbers beside the names


def _joined(parts: list[tuple[str, str]], fidx: np.ndarray, at: np.ndarray) -> list[str]:
    """``before + str(row) + after`` with (before, after) = ``parts[file]``, for each document."""
    out: list[str] = []
    for s in range(0, len(at), CHUNK):
        out += [
            f"{parts[f][0]}{r}{parts[f][1]}" for f, r in zip(fidx[s : s + CHUNK].tolist(), at[s : s + CHUNK].tolist())
        ]
    return out


def _row_names(
    roots: Sequence[str], files: list, fidx: np.ndarray, at: np.ndarray, ids: list, rows: np.ndarray
) -> list[str]:
    """Each row's name: its id column's value, else its position, after its file's name below a folder root."""
    if ids:
        pa = datasets.pyarrow()
        whole = pa.chunked_array(ids)
        out: list[str] = []
        for s in range(0, len(rows), CHUNK):
            out += [str(v) for v in whole.take(pa.array(rows[s : s + CHUNK])).to_pylist()]
        return out
    prefix = [
        (os.path.relpath(f, roots[r]).replace(os.sep, "/") + ":" if os.path.isdir(roots[r]) else "", "")
        for r, f in files
    ]
    return _joined(prefix, fidx, at)
