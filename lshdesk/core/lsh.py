"""LSH banding: each band's r slots hashed to one 64-bit bucket key, buckets found by sorting, pairs as arrays."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.hashing import fmix64
from lshdesk.core.kernels import banding as banding_kernels
from lshdesk.core.params import Banding

_C0 = np.uint64(0x243F6A8885A308D3)
_C1 = np.uint64(0x9E3779B97F4A7C15)


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


def bucket_runs(
    keys: npt.NDArray[np.uint64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Sort one band's keys: (order, start of each bucket in ``order``, bucket sizes), buckets of 2+ only."""
    order = np.argsort(keys, kind="stable")
    k = keys[order]
    edges = np.flatnonzero(np.concatenate(([True], k[1:] != k[:-1], [True])))
    starts, sizes = edges[:-1], np.diff(edges)
    big = sizes > 1
    return order, starts[big], sizes[big]


@dataclass(frozen=True)
class Candidates:
    """Candidate pairs (``left < right``, sorted) and how many bands each pair collided in."""

    left: npt.NDArray[np.int64]
    right: npt.NDArray[np.int64]
    bands: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.left)


def candidate_pairs(sigs: npt.NDArray, banding: Banding) -> Candidates:
    """All pairs of documents that share a bucket in at least one band (buckets found by a hash table per band)."""
    n = len(sigs)
    banding.check(sigs.shape[1])
    all_codes = banding_kernels.band_pair_codes(np.ascontiguousarray(sigs), 0, banding.bands, banding.rows)
    all_codes.sort()
    if len(all_codes):
        edges = np.flatnonzero(np.concatenate(([True], all_codes[1:] != all_codes[:-1], [True])))
        uniq, counts = all_codes[edges[:-1]], np.diff(edges)
    else:
        uniq, counts = all_codes, np.zeros(0, dtype=np.int64)
    return Candidates(uniq // max(n, 1), uniq % max(n, 1), counts.astype(np.int64))


def bucket_sizes(sigs: npt.NDArray, banding: Banding) -> npt.NDArray[np.int64]:
    """Sizes of every bucket with two or more documents, over all bands."""
    keys = band_keys(sigs, banding)
    return np.concatenate([bucket_runs(keys[:, band])[2] for band in range(banding.bands)] or [np.zeros(0, np.int64)])
