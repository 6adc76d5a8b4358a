"""LSH banding: each band's r slots hashed to one 64-bit bucket key, buckets found by a hash table, pairs as arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.hashing import fmix64
from lshdesk.core.kernels import banding as banding_kernels
from lshdesk.core.kernels.mixing import C0 as _C0
from lshdesk.core.kernels.mixing import C1 as _C1
from lshdesk.core.params import Banding
from lshdesk.core.threads import Workers, wait_for

PARALLEL_WORK = 2_000_000  # documents x slots banded above which the explorer's bands go over two threads
BLOCK_BANDS = 16  # bands keyed at a time: (n_docs x 16) keys in memory, not (n_docs x b); what two threads share


def band_keys(sigs: npt.NDArray, banding: Banding) -> npt.NDArray[np.uint64]:
    """An ``(n_docs, bands)`` array: the bucket key of each document in each band (equal slices, equal keys).

    Band i's key: ``h = C0``, then for each of its r slot values v in order ``h = fmix64((rotl(h, 31) ^ v) * C1)``
    (compiled: ``banding_kernels.band_keys``; ``band_keys_numpy`` is the same in numpy).
    """
    banding.check(sigs.shape[1])
    return np.ascontiguousarray(banding_kernels.band_keys(np.ascontiguousarray(sigs), banding.bands, banding.rows).T)


def band_keys_numpy(sigs: npt.NDArray, banding: Banding) -> npt.NDArray[np.uint64]:
    """``band_keys`` written with numpy (the reference the kernel is tested against)."""
    banding.check(sigs.shape[1])
    b, r = banding.bands, banding.rows
    block = sigs[:, : b * r].reshape(len(sigs), b, r).astype(np.uint64)
    h = np.full((len(sigs), b), _C0, dtype=np.uint64)
    for j in range(r):
        h = ((h << np.uint64(31)) | (h >> np.uint64(33))) ^ block[:, :, j]
        h = fmix64(h * _C1)
    return h


@dataclass(frozen=True)
class Candidates:
    """Candidate pairs (``left < right``, sorted) and how many bands each pair collided in."""

    left: npt.NDArray[np.int64]
    right: npt.NDArray[np.int64]
    bands: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.left)


def unique_codes(codes: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Pair codes (one per shared band) to (each code once, ascending; how many bands it was in); sorts in place."""
    codes.sort()
    if not len(codes):
        return codes, np.zeros(0, dtype=np.int64)
    edges = np.flatnonzero(np.concatenate(([True], codes[1:] != codes[:-1], [True])))
    return codes[edges[:-1]], np.diff(edges).astype(np.int64)


def _block(sigs: npt.NDArray, r: int, lo: int, hi: int, report: bool, codes: np.ndarray, n_codes: int) -> tuple:
    """Bands lo .. hi-1: their keys (from a compact copy of their columns), then their buckets, appended to codes."""
    keys = banding_kernels.band_keys(np.ascontiguousarray(sigs[:, lo * r : hi * r]), hi - lo, r)
    return banding_kernels.band_buckets(keys, lo, report, codes, n_codes)


def _no_codes(n: int) -> npt.NDArray[np.int64]:
    return np.empty(max(16, n), dtype=np.int64)


def band_range_codes(sigs: npt.NDArray, banding: Banding, band_lo: int, band_hi: int) -> npt.NDArray[np.int64]:
    """Pair codes ``lo * n + hi`` of bands ``band_lo .. band_hi-1`` (a pair once per band it shares, unsorted):
    ``BLOCK_BANDS`` bands keyed at a time, every block's pairs appended to one growing array. The scan's
    banding stage calls it a few bands at a time (progress and cancel between calls)."""
    r = banding.rows
    codes, n_codes = _no_codes(len(sigs)), 0
    for lo in range(band_lo, band_hi, BLOCK_BANDS):
        codes, n_codes = _block(sigs, r, lo, min(band_hi, lo + BLOCK_BANDS), False, codes, n_codes)[:2]
    return codes[:n_codes]


def candidate_pairs(sigs: npt.NDArray, banding: Banding) -> Candidates:
    """All pairs of documents that share a bucket in at least one band (buckets found by a hash table per band)."""
    n = len(sigs)
    banding.check(sigs.shape[1])
    uniq, counts = unique_codes(band_range_codes(sigs, banding, 0, banding.bands))
    return Candidates(uniq // max(n, 1), uniq % max(n, 1), counts)


def band_codes(sigs: npt.NDArray, banding: Banding) -> tuple[npt.NDArray[np.int64], ...]:
    """Pair codes ``lo * n + hi`` (once per shared band) and every bucket of 2+ as (band, size, first member): the
    scan's banding with its bucket report, in blocks of bands over two threads when the work is large."""
    banding.check(sigs.shape[1])
    b, r, n = banding.bands, banding.rows, len(sigs)

    def block(lo: int) -> tuple[np.ndarray, ...]:
        codes, n_codes, *buckets = _block(sigs, r, lo, min(b, lo + BLOCK_BANDS), True, _no_codes(n), 0)
        return (codes[:n_codes], *buckets)

    starts = range(0, b, BLOCK_BANDS)
    if len(starts) > 1 and n * b * r >= PARALLEL_WORK:
        pool = Workers(2, "lshdesk-band")  # the loops drop the GIL
        try:
            tasks = [pool.submit(block, lo) for lo in starts]
            parts = [wait_for(t) for t in tasks]
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
    else:
        parts = [block(lo) for lo in starts]
    if not parts:
        return tuple(np.zeros(0, np.int64) for _ in range(4))
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(4))


def bucket_sizes(sigs: npt.NDArray, banding: Banding) -> npt.NDArray[np.int64]:
    """Sizes of every bucket with two or more documents, over all bands (the banding loop's bucket report)."""
    return band_codes(sigs, banding)[2]
