"""Compiled loops that only the S-curve explorer runs (Cython, the GIL released): a missed pair's best band
agreement, a bucket's members.

The explorer's banding is the scan's (``banding.band_keys``, ``banding.band_buckets``), its all-pairs reference a
pair loop (``pairs.all_pairs_rows``), its exact similarities ``probe.probe_intersection_sizes``.
"""

import numpy as np

from libc.stdint cimport int64_t, uint32_t, uint64_t

ctypedef fused sig_t:
    uint32_t
    uint64_t


def best_band_agreement(const sig_t[:, ::1] sigs, const int64_t[::1] left, const int64_t[::1] right,
                        Py_ssize_t bands, Py_ssize_t rows):
    """For each pair, the most rows agreeing within any one band (``rows`` means the pair shares a bucket)."""
    cdef Py_ssize_t m = left.shape[0], t, band, x
    cdef int64_t a, c, best, agree
    if bands < 0 or rows < 0 or bands * rows > sigs.shape[1]:
        raise ValueError(f"{bands} bands x {rows} rows need more than the signatures' {sigs.shape[1]} slots")
    out_a = np.empty(m, dtype=np.int64)
    cdef int64_t[::1] out = out_a
    with nogil:
        for t in range(m):
            a, c = left[t], right[t]
            best = 0
            for band in range(bands):
                agree = 0
                for x in range(band * rows, band * rows + rows):
                    agree += sigs[a, x] == sigs[c, x]
                if agree > best:
                    best = agree
            out[t] = best
    return out_a


def same_slots(const sig_t[:, ::1] sigs, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t d):
    """The documents whose slots ``lo .. hi-1`` equal document d's (d's bucket in that band), ascending."""
    cdef Py_ssize_t n = sigs.shape[0], e, x, m = 0
    cdef bint same
    if not (0 <= lo <= hi <= sigs.shape[1] and 0 <= d < n):
        raise IndexError(f"slots {lo} .. {hi} of document {d}: the signatures are {n} x {sigs.shape[1]}")
    out_a = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] out = out_a
    with nogil:
        for e in range(n):
            same = True
            for x in range(lo, hi):
                if sigs[e, x] != sigs[d, x]:
                    same = False
                    break
            if same:
                out[m] = e
                m += 1
    return out_a[:m]
