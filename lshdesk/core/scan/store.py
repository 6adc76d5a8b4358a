"""Where a scan keeps its shingle ids and signatures as batches arrive: arrays grown in place, never doubled.

Batches arrive while the listing goes on, so the number of documents is not known in advance. Every array is
grown with ``ndarray.resize`` (``realloc``, which moves large blocks by remapping pages rather than copying
them) by half again when full, but never past the ``room`` the caller says can still come (documents listed so
far, shingle ids expected from the bytes listed), and cut to what was kept at the end. ``resize`` writes zeros
into the new part, so a block grown past what it receives costs that memory (1 M files grown by half again with
no bound: a 1,385 MB peak instead of 1,236 MB). So the peak is about the final arrays, not twice them, and no list
of per-batch arrays is concatenated at the end.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from lshdesk.core.corpus.listing import Skipped
from lshdesk.core.scan.frontend import Prepared
from lshdesk.core.shingling import ShingleBatch


class ScanStore:
    """Accumulates the kept documents' shingle ids, counts, token counts and signatures, in scan order."""

    def __init__(self, k: int, dtype: np.dtype, first_bytes: int = 32 << 20) -> None:
        # Every buffer is made small and grown with ``resize`` (``realloc``), at first to ``first_bytes`` at most.
        # (A block made large by ``np.empty`` is not remapped by ``realloc``: its first growth was a copy.)
        self.first_docs = max(1, first_bytes // (k * np.dtype(dtype).itemsize))
        self.first_ids = max(1, first_bytes // 4)
        self.sigs = np.empty((1, k), dtype=dtype)
        self.ids = np.empty(1, dtype=np.uint32)
        self.counts = np.empty(1, dtype=np.int64)
        self.n_tokens = np.empty(1, dtype=np.int64)
        self.n_docs = 0
        self.n_ids = 0

    def add(
        self,
        prep: Prepared,
        batch: ShingleBatch,
        sigs: np.ndarray,
        paths: Sequence[str],
        skipped: list[Skipped],
        room: tuple[int, int] = (0, 0),
    ) -> list[int]:
        """Take a signed batch: keep its documents with shingles, report the rest as skipped; return those kept
        (as indices into ``paths``, the listing). ``room``: the documents and the shingle ids that may come in all
        (this batch's included), as far as the caller knows; the buffers grow no further than that."""
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
            rows = max(d + m, min(max(len(self.counts) * 3 // 2, self.first_docs), room[0]))
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
            self.ids.resize(max(need, min(max(len(self.ids) * 3 // 2, self.first_ids), room[1])), refcheck=False)
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
