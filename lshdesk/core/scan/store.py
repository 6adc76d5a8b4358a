"""Where a scan keeps its shingle ids and signatures as batches arrive: arrays grown in place, never doubled.

Batches arrive while the listing goes on, so the number of documents is not known in advance. Every array is
grown with ``ndarray.resize`` (``realloc``, which moves large blocks by remapping pages rather than copying
them) by half again when full, and cut to what was kept at the end. So the peak is about the final arrays, not
twice them, and no list of per-batch arrays is concatenated at the end.
"""

from __future__ import annotations

import numpy as np

from lshdesk.core.corpus.listing import Skipped
from lshdesk.core.scan.frontend import Prepared
from lshdesk.core.shingling import ShingleBatch


class ScanStore:
    """Accumulates the kept documents' shingle ids, counts, token counts and signatures, in scan order."""

    def __init__(self, k: int, dtype: np.dtype, n_docs: int = 1 << 16, n_ids: int = 1 << 23) -> None:
        # Room for 65,536 documents and 8 M shingle ids at first (40 MB for k = 128): address space only, as the
        # blocks are mapped and pages cost memory once written. Growing from small sizes took 23 reallocations,
        # each a copy while the blocks were small enough for the heap (docs6k: 5 ms of a 60 ms scan).
        self.sigs = np.empty((n_docs, k), dtype=dtype)
        self.ids = np.empty(n_ids, dtype=np.uint32)
        self.counts = np.empty(n_docs, dtype=np.int64)
        self.n_tokens = np.empty(n_docs, dtype=np.int64)
        self.n_docs = 0
        self.n_ids = 0

    def add(
        self, prep: Prepared, batch: ShingleBatch, sigs: np.ndarray, paths: list[str], skipped: list[Skipped]
    ) -> list[int]:
        """Take a signed batch: keep its documents with shingles, report the rest as skipped; return those kept
        (as indices into ``paths``, the listing)."""
        skipped += prep.skipped
        counts = batch.counts()
        has = counts > 0
        kept = [i for i, h in zip(prep.ok, has.tolist()) if h]
        skipped += [
            Skipped(paths[i], "no words to compare (only punctuation, symbols or spaces)")
            for i, h in zip(prep.ok, has.tolist())
            if not h
        ]
        m, d = len(kept), self.n_docs
        if d + m > len(self.counts):
            rows = max(d + m, len(self.counts) * 3 // 2)
            self.sigs.resize((rows, self.sigs.shape[1]), refcheck=False)  # C order: the rows so far stay as they are
            self.counts.resize(rows, refcheck=False)
            self.n_tokens.resize(rows, refcheck=False)
        if m < len(prep.ok):
            sigs, counts, tokens = sigs[has], counts[has], batch.n_tokens[has]
        else:
            tokens = batch.n_tokens
        self.sigs[d : d + m] = sigs
        self.counts[d : d + m] = counts
        self.n_tokens[d : d + m] = tokens
        self.n_docs += m
        ids = batch.ids  # documents without shingles have no ids: nothing to drop
        need = self.n_ids + len(ids)
        if need > len(self.ids):
            self.ids.resize(max(need, len(self.ids) * 3 // 2), refcheck=False)
        self.ids[self.n_ids : need] = ids
        self.n_ids = need
        return kept

    def finish(self) -> tuple[ShingleBatch, np.ndarray]:
        """The shingle sets and the signature matrix of the kept documents (the buffers trimmed in place)."""
        n = self.n_docs
        self.ids.resize(self.n_ids, refcheck=False)
        self.sigs.resize((n, self.sigs.shape[1]), refcheck=False)
        offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(self.counts[:n], out=offsets[1:])
        return ShingleBatch(self.ids, offsets, self.n_tokens[:n].copy()), self.sigs
