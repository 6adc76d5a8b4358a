"""The sign stage of a sampled dataset: a uniform random sample of the rows (``corpus.sampling``), signed as a corpus.

``pipeline.sign_stage`` hands a dataset scan here when ``CorpusOptions.sample_rows`` is set. The rows are drawn
first (their texts held, the dataset's never), then cut into slices and signed exactly as ``dataset_stage`` signs
every row; the documents keep their rows' numbers in the whole dataset, so their names, Side by side and the row
read back are those of the whole dataset's rows, and ``DatasetRows.drawn`` says how many rows were drawn of
``n_rows`` (what ``scan.plan`` scales the sample's candidates by).
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Generator, Iterator, Sequence

import numpy as np

from lshdesk.core.corpus import datasets
from lshdesk.core.corpus.datasets import SLICE_BYTES, SLICE_ROWS, TextSlice
from lshdesk.core.corpus.row_names import JoinedNames
from lshdesk.core.corpus.sampling import RowSample, draw_sample
from lshdesk.core.minhash import make_family
from lshdesk.core.params import ScanParams
from lshdesk.core.scan.dataset_stage import RowReading, RowsRead, root_files, row_total, sign_slices
from lshdesk.core.scan.frontend import needs_texts
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scan.store import ScanStore


def sign_sample(
    roots: Sequence[str], params: ScanParams, cancel: threading.Event | None = None
) -> Generator[Progress, None, RowsRead]:
    """Draw ``params.corpus.sample_rows`` rows of the dataset roots, then shingle and sign them."""
    t0 = time.perf_counter()
    opts, sp = params.corpus, params.signature
    files = root_files(roots)
    paths = [f for _, f in files]
    total = row_total(paths)
    drawing = draw_sample(paths, opts.text_column, opts.id_column, opts.sample_rows or 2, opts.sample_seed, cancel)
    try:
        while True:
            seen = next(drawing)
            yield Progress("sampling", seen, total, time.perf_counter() - t0, unit="rows")
    except StopIteration as stop:
        sample: RowSample = stop.value
    family = make_family(sp)
    names = JoinedNames([(f"{f}#row=", f"&text={opts.text_column}") for f in paths], sample.starts.tolist())
    read = RowReading(ScanStore(sp.k, family.dtype), names, len(sample.rows), opts.id_column is not None)
    read.drawn = len(sample.rows)
    yield from sign_slices(sample_slices(sample, opts.max_bytes, needs_texts(sp, family)), read, sp, family, cancel, t0)
    return read.corpus(roots, params, files, time.perf_counter() - t0)


def sample_slices(sample: RowSample, max_bytes: int, need_texts: bool) -> Iterator[TextSlice]:
    """The drawn rows in slices of at most ``SLICE_ROWS`` rows and ``SLICE_BYTES`` of text (unless one row is
    larger), each row named by its number in the whole dataset; rows with no text are skipped with the reason."""
    import pyarrow.compute as pc

    texts, ids, rows = sample.texts, sample.ids, sample.rows
    lengths = np.asarray(pc.fill_null(pc.binary_length(texts), 0).to_numpy(zero_copy_only=False), dtype=np.int64)
    ends = np.cumsum(lengths)
    i = 0
    while i < len(rows):
        j = min(len(rows), i + SLICE_ROWS)
        before = int(ends[i - 1]) if i else 0
        fit = int(np.searchsorted(ends[i:j], before + SLICE_BYTES, side="right"))
        j = i + max(1, fit) if fit < j - i else j
        s = datasets.make_slice(
            texts.slice(i, j - i), ids.slice(i, j - i) if ids is not None else None, 0, max_bytes, need_texts
        )
        at = rows[i:j]
        yield dataclasses.replace(
            s,
            start=int(at[0]),
            rows=at,
            ok=at[np.asarray(s.ok, dtype=np.int64)].tolist(),
            skipped=[(int(at[p]), why) for p, why in s.skipped],
        )
        i = j
