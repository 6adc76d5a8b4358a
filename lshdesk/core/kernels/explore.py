"""Compiled loops that only the S-curve explorer runs: a missed pair's best band agreement, a bucket's members.

The explorer's banding is the scan's (``banding.band_keys``, ``banding.band_buckets``), its all-pairs reference a pair loop
(``pairs.all_pairs_rows``), its exact similarities ``probe.probe_intersection_sizes``; ``warm`` loads them all off the
GUI thread.
"""

from __future__ import annotations

import numpy as np

from lshdesk.core.kernels.banding import band_buckets, band_keys
from lshdesk.core.kernels.jit import nb
from lshdesk.core.kernels.pairs import all_pairs_rows
from lshdesk.core.kernels.probe import probe_intersection_sizes


@nb.njit(cache=True, nogil=True)
def best_band_agreement(sigs, left, right, bands, rows):  # pragma: no cover - compiled
    """For each pair, the most rows agreeing within any one band (``rows`` means the pair shares a bucket)."""
    out = np.empty(left.size, dtype=np.int64)
    for t in range(left.size):
        a, c = left[t], right[t]
        best = 0
        for band in range(bands):
            agree = 0
            for x in range(band * rows, band * rows + rows):
                if sigs[a, x] == sigs[c, x]:
                    agree += 1
            if agree > best:
                best = agree
        out[t] = best
    return out


@nb.njit(cache=True, nogil=True)
def same_slots(sigs, lo, hi, d):  # pragma: no cover - compiled
    """The documents whose slots ``lo .. hi-1`` equal document d's (d's bucket in that band), ascending."""
    out = np.empty(sigs.shape[0], dtype=np.int64)
    m = 0
    for e in range(sigs.shape[0]):
        same = True
        for x in range(lo, hi):
            if sigs[e, x] != sigs[d, x]:
                same = False
                break
        if same:
            out[m] = e
            m += 1
    return out[:m]


def warm() -> None:
    """Load (or compile once, then cache) every kernel the explorer runs, with tiny inputs: call it off the GUI
    thread at start-up."""
    sigs = np.zeros((3, 4), dtype=np.uint32)
    idx = np.zeros(1, dtype=np.int64)
    for s in (sigs, sigs.astype(np.uint64)):
        band_buckets(band_keys(s, 2, 2), 0, 1, np.empty(16, np.int64), 0)
        band_buckets(band_keys(s, 2, 2), 0, 0, np.empty(16, np.int64), 0)
        best_band_agreement(s, idx, idx, 2, 2)
        same_slots(s, 0, 2, 0)
    one = np.arange(2, dtype=np.int64)
    probe_intersection_sizes(np.zeros(2, np.uint32), np.array([0, 1, 2]), one[:1], one[1:])
    all_pairs_rows(
        np.zeros(2, np.int64),
        np.zeros(2, np.int64),
        np.array([0, 2]),
        one,
        np.array([0, 1, 2]),
        np.ones(2, np.int64),
        np.zeros(2, np.bool_),
        False,
        0,
        2,
        0.05,
        10,
        np.zeros(10, np.int64),
    )
