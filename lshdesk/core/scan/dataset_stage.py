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
from typing import Any, NamedTuple

import numpy as np

from lshdesk.core.arrays import unique
from lshdesk.core.corpus import datasets
from lshdesk.core.corpus.datasets import DatasetError, DatasetRows, TextSlice
from lshdesk.core.corpus.listing import Skipped
from lshdesk.core.corpus.row_names import JoinedNames, StringBuilder
from lshdesk.core.errors import check_cancel
from lshdesk.core.minhash import HashFamily, make_family
from lshdesk.core.params import ScanParams, SignatureParams
from lshdesk.core.scan.frontend import Prepared, needs_texts, sign_prepared
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scan.reader import WORKERS
from lshdesk.core.scan.store import ScanStore
from lshdesk.core.shingling import ShingleBatch
from lshdesk.core.threads import Task, Workers, wait_for
from lshdesk.core.unitext import token_batch


def token_bytes(buf: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
    """What the byte tokenizer reads for each row, as ``frontend.read_listed`` gives it for files: ASCII rows as
    they are, the others through the Unicode kernel (``unitext``); and whether every row was ASCII. On synth100k
    (3 % of rows not ASCII) sending whole slices through the kernel cost 2.6 s of 12 s of signing."""
    high = np.flatnonzero(buf >= 128)
    if not len(high):
        return buf, offsets, True
    rows = unique(np.searchsorted(offsets, high, side="right") - 1)
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


def sign_slice(s: TextSlice, names: Sequence[str], sp: SignatureParams, family: HashFamily) -> tuple:
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
    total = row_total([f for _, f in files])
    family = make_family(sp)
    refs = JoinedNames([(f"{f}#row=", f"&text={opts.text_column}") for _, f in files], [0])  # datasets.row_ref's
    read = RowReading(ScanStore(sp.k, family.dtype), refs, total, opts.id_column is not None)
    need = needs_texts(sp, family)

    def slices() -> Iterator[TextSlice]:
        for _, path in files:
            end = refs.starts[-1]
            for s in datasets.text_slices(path, opts.text_column, opts.id_column, end, opts.max_bytes, need):
                yield s
                end = s.start + s.n_rows
            refs.starts.append(end)

    yield from sign_slices(slices(), read, sp, family, cancel, t0)
    return read.corpus(roots, params, files, time.perf_counter() - t0)


def row_total(paths: Sequence[str]) -> int:
    """The files' rows, counted from their metadata; 0 when a file's count is unknown without reading it."""
    known = [datasets.row_count(f) for f in paths]
    return sum(n for n in known if n is not None) if None not in known else 0


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
    pool = Workers(WORKERS, "lshdesk-rows")
    in_flight: deque[tuple[Task, TextSlice]] = deque()
    finished = False
    try:
        for s in slices:
            check_cancel(cancel)
            in_flight.append((pool.submit(sign_slice, s, read.names, sp, family), s))
            while len(in_flight) > WORKERS:
                read.take(*_done(in_flight.popleft(), cancel))
                yield Progress("reading", read.done, read.total, time.perf_counter() - t0, unit="rows")
        while in_flight:
            read.take(*_done(in_flight.popleft(), cancel))
        finished = True
    finally:  # cancelled or failed: never wait on a slice still at work
        pool.shutdown(wait=finished, cancel_futures=True)
    yield Progress("reading", read.done, read.total, time.perf_counter() - t0, unit="rows")


def _done(work: tuple[Task, TextSlice], cancel: threading.Event | None) -> tuple[tuple, TextSlice]:
    return wait_for(work[0], cancel), work[1]


class RowReading:
    """What a dataset scan keeps as slices are taken: the store, the rows kept and skipped, their sizes and ids
    (arrays, a slice's worth at a time: a million rows as Python objects cost ~200 MB at the scan's peak)."""

    def __init__(self, store: ScanStore, names: JoinedNames, total: int, with_ids: bool) -> None:
        self.store, self.names, self.total = store, names, total
        self.kept: list[np.ndarray] = []  # row numbers, a slice's at a time
        self.n_kept = 0
        self.sizes: list[np.ndarray] = []  # the kept rows' text in bytes
        self.skipped: list[Skipped] = []
        self.ids = StringBuilder() if with_ids else None
        self.drawn: int | None = None  # a random sample's: how many rows were drawn (``sample_stage``)

    @property
    def done(self) -> int:
        return self.n_kept + len(self.skipped)

    def take(self, signed: tuple[Prepared, ShingleBatch, np.ndarray], s: TextSlice) -> None:
        prep, batch, sigs = signed
        ids = self.store.n_ids + len(batch.ids)  # as many ids a row in the rest as so far, and a twentieth more
        room = (self.total or 1 << 62), int(ids * max(1.0, self.total / max(1, self.done + len(prep.ok))) * 1.05) + 1
        kept = np.asarray(self.store.add(prep, batch, sigs, self.names, self.skipped, room), dtype=np.int64)
        self.kept.append(kept)
        self.n_kept += len(kept)
        at = kept - s.start if s.rows is None else np.searchsorted(s.rows, kept)  # the rows' places in the slice
        self.sizes.append(s.lengths[at])
        if self.ids is not None and s.ids is not None:
            _add_ids(self.ids, s.ids, at)

    def corpus(
        self, roots: Sequence[str], params: ScanParams, files: list[tuple[int, str]], seconds: float
    ) -> RowsRead:
        datasets.pyarrow().default_memory_pool().release_unused()  # the read batches' memory
        shingles, sigs = self.store.finish()
        starts = np.asarray(self.names.starts, dtype=np.int64)
        rows = np.concatenate(self.kept) if self.kept else np.zeros(0, np.int64)
        opts = params.corpus
        dataset = DatasetRows(
            tuple(f for _, f in files),
            tuple(r for r, _ in files),
            starts,
            rows,
            opts.text_column,
            opts.id_column,
            self.drawn,
        )
        fidx = dataset.file_of(rows)
        mtimes = np.array([os.stat(f).st_mtime_ns for _, f in files], dtype=np.int64)
        folder = [os.path.isdir(roots[r]) for r, _ in files]  # below a folder root, a row's name starts with its file's
        prefix = [
            (os.path.relpath(f, roots[r]).replace(os.sep, "/") + ":" if d else "", "")
            for (r, f), d in zip(files, folder)
        ]
        docs = dict(
            paths=JoinedNames(self.names.parts, self.names.starts, rows),
            rel=self.ids.finish() if self.ids is not None else JoinedNames(prefix, self.names.starts, rows),
            root=np.asarray(dataset.file_root, dtype=np.int64)[fidx],
            size=np.concatenate(self.sizes) if self.sizes else np.zeros(0, np.int64),
            n_tokens=shingles.n_tokens,
            mtime=mtimes[fidx],
        )
        return RowsRead(docs, in_row_order(self.skipped, dataset.files), sigs, shingles, dataset, seconds)


def _add_ids(out: StringBuilder, ids: Any, at: np.ndarray) -> None:
    """The id column's values of rows ``at`` of a slice, as ``str`` gives them (a null is 'None')."""
    pa = datasets.pyarrow()
    t = ids.type
    if ids.null_count == 0 and (pa.types.is_string(t) or pa.types.is_large_string(t)):
        taken = ids if len(at) == len(ids) else ids.take(pa.array(at))
        out.add_utf8(*datasets.utf8_buffers(taken))
    else:
        out.add(ids.take(pa.array(at)).to_pylist())


def in_row_order(skipped: list[Skipped], files: Sequence[str]) -> list[Skipped]:
    """The rows skipped, in row order (a slice names its rows with no text before its rows with no words): an
    order any cut of the files into slices or parts gives (the Dask engine's is another)."""
    at = {f: i for i, f in enumerate(files)}

    def key(s: Skipped) -> tuple[int, int]:
        ref = datasets.parse_row_ref(s.path)
        return (at.get(ref[0], -1), ref[1]) if ref is not None else (-1, 0)

    return sorted(skipped, key=key)
