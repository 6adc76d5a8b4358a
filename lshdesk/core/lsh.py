"""LSH banding: each band's r slots hashed to one 64-bit bucket key, buckets found by sorting, pairs as arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.arrays import ranges
from lshdesk.core.hashing import fmix64
from lshdesk.core.params import Banding

_C0 = np.uint64(0x243F6A8885A308D3)
_C1 = np.uint64(0x9E3779B97F4A7C15)


def band_keys(sigs: npt.NDArray, banding: Banding) -> npt.NDArray[np.uint64]:
    """An ``(n_docs, bands)`` array: the bucket key of each document in each band (equal slices, equal keys)."""
    banding.check(sigs.shape[1])
    b, r = banding.bands, banding.rows
    block = sigs[:, : b * r].reshape(len(sigs), b, r).astype(np.uint64)
    h = np.full((len(sigs), b), _C0, dtype=np.uint64)
    for j in range(r):
        h = ((h << np.uint64(31)) | (h >> np.uint64(33))) ^ block[:, :, j]
        h = fmix64(h * _C1)
    return h


def bucket_runs(keys: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Sort one band's keys: (order, start of each bucket in ``order``, bucket sizes), buckets of 2+ only."""
    order = np.argsort(keys, kind="stable")
    k = keys[order]
    edges = np.flatnonzero(np.concatenate(([True], k[1:] != k[:-1], [True])))
    starts, sizes = edges[:-1], np.diff(edges)
    big = sizes > 1
    return order, starts[big], sizes[big]


def _pairs_in_buckets(order: npt.NDArray, starts: npt.NDArray, sizes: npt.NDArray, n: int) -> npt.NDArray[np.int64]:
    """Every pair within each bucket, coded ``i * n + j`` with ``i < j``."""
    pos = ranges(starts, sizes)  # every member's position in order
    after = np.repeat(starts + sizes, sizes) - pos - 1  # members after it in its bucket
    left = np.repeat(order[pos], after)
    right = order[ranges(pos + 1, after)]
    lo, hi = np.minimum(left, right), np.maximum(left, right)
    return lo.astype(np.int64) * n + hi


@dataclass(frozen=True)
class Candidates:
    """Candidate pairs (``left < right``, sorted) and how many bands each pair collided in."""

    left: npt.NDArray[np.int64]
    right: npt.NDArray[np.int64]
    bands: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.left)


def candidate_pairs(sigs: npt.NDArray, banding: Banding) -> Candidates:
    """All pairs of documents that share a bucket in at least one band."""
    n = len(sigs)
    keys = band_keys(sigs, banding)
    codes = [_pairs_in_buckets(*bucket_runs(keys[:, band]), n) for band in range(banding.bands)]
    all_codes = np.concatenate(codes) if codes else np.zeros(0, dtype=np.int64)
    uniq, counts = np.unique(all_codes, return_counts=True)
    return Candidates(uniq // max(n, 1), uniq % max(n, 1), counts.astype(np.int64))


def bucket_sizes(sigs: npt.NDArray, banding: Banding) -> npt.NDArray[np.int64]:
    """Sizes of every bucket with two or more documents, over all bands."""
    keys = band_keys(sigs, banding)
    return np.concatenate([bucket_runs(keys[:, band])[2] for band in range(banding.bands)] or [np.zeros(0, np.int64)])
