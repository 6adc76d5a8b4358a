"""The compiled inner loops (numba, ``nogil`` so a worker thread never holds up the GUI), one per hot path."""

from __future__ import annotations

import numba as nb
import numpy as np

_U32_MAX = np.uint32(0xFFFFFFFF)


@nb.njit(cache=True, nogil=True)
def fnv1a_units(units, offsets):  # pragma: no cover - compiled
    """32-bit FNV-1a of each run ``units[offsets[i]:offsets[i+1]]`` of UTF-16 code units."""
    n = offsets.size - 1
    out = np.empty(n, dtype=np.uint32)
    for i in range(n):
        h = np.uint32(0x811C9DC5)
        for j in range(offsets[i], offsets[i + 1]):
            h = np.uint32((h ^ np.uint32(units[j])) * np.uint32(0x01000193))
        out[i] = h
    return out


@nb.njit(cache=True, nogil=True)
def minhash_affine32(x, offsets, a, b):  # pragma: no cover - compiled
    """Signatures: slot j of document d is min over its values x of ``(a[j] * x + b[j]) mod 2**32``."""
    n = offsets.size - 1
    k = a.size
    out = np.empty((n, k), dtype=np.uint32)
    row = np.empty(k, dtype=np.uint32)
    for d in range(n):
        row[:] = _U32_MAX
        for i in range(offsets[d], offsets[d + 1]):
            xi = x[i]
            for j in range(k):
                row[j] = min(row[j], np.uint32(a[j] * xi + b[j]))
        out[d, :] = row
    return out


@nb.njit(cache=True, nogil=True)
def minhash_affine_mod(x, offsets, a, b, p, empty):  # pragma: no cover - compiled
    """Signatures: slot j is min over x of ``(a[j] * x + b[j]) mod p``; a, b, x < 2**32 so nothing overflows."""
    n = offsets.size - 1
    k = a.size
    out = np.empty((n, k), dtype=np.uint64)
    row = np.empty(k, dtype=np.uint64)
    for d in range(n):
        row[:] = empty
        for i in range(offsets[d], offsets[d + 1]):
            xi = x[i]
            for j in range(k):
                v = (a[j] * xi + b[j]) % p
                if v < row[j]:
                    row[j] = v
        out[d, :] = row
    return out


@nb.njit(cache=True, nogil=True)
def intersection_sizes(ids, offsets, left, right):  # pragma: no cover - compiled
    """|A ∩ B| for each pair (left[i], right[i]) of documents whose ids are sorted and unique."""
    out = np.empty(left.size, dtype=np.int64)
    for t in range(left.size):
        i, iend = offsets[left[t]], offsets[left[t] + 1]
        j, jend = offsets[right[t]], offsets[right[t] + 1]
        c = 0
        while i < iend and j < jend:
            u, v = ids[i], ids[j]
            if u == v:
                c += 1
                i += 1
                j += 1
            elif u < v:
                i += 1
            else:
                j += 1
        out[t] = c
    return out
