"""Compiled loops of the S-curve explorer: re-banding (buckets and pairs), all-pairs Jaccard, band agreement.

``band_groups`` groups the bucket keys of ``lsh.band_keys`` as ``lsh.candidate_pairs`` does, and also reports
every bucket (band, size, a member), which the explorer shows. Every loop is ``nogil``: a worker thread running
one never holds up the GUI, and two threads can share the bands. Arrays grow outside the inner loops (a reassigned
array inside a numba loop costs a reference count each time: it made the banding three times slower).
"""

from __future__ import annotations

import numpy as np

from lshdesk.core.kernels.jit import nb


@nb.njit(cache=True, nogil=True)
def _grow(a, need):  # pragma: no cover - compiled
    if need <= a.size:
        return a
    out = np.empty(max(need, 2 * a.size), dtype=a.dtype)
    out[: a.size] = a
    return out


@nb.njit(cache=True, nogil=True)
def band_groups(keys, band_lo, n_docs):  # pragma: no cover - compiled
    """Buckets of ``keys`` (``(bands, n)``, one band's keys contiguous, band numbers from ``band_lo``): pair codes
    ``i * n_docs + j`` (i < j, once per shared bucket, so repeated across bands) and every bucket of two or more
    documents as (band, size, first member).

    Per band, two bitmaps of the keys' top bits (seen once, seen again), small enough for the cache, pick the few
    documents whose key may repeat; only those go into a hash table sized for them.
    """
    bands, n = keys.shape
    bits = 12
    while (1 << bits) < 8 * n:  # ~8 bits per document: few false alarms, and both bitmaps fit the L2 cache
        bits += 1
    shift = np.uint64(64 - bits)
    seen = np.zeros(1 << (bits - 6), dtype=np.uint64)
    again = np.zeros(1 << (bits - 6), dtype=np.uint64)
    maybe = np.empty(n, dtype=np.int64)
    size_max = 16
    while size_max < 2 * n:
        size_max *= 2
    head = np.full(size_max, -1, dtype=np.int64)
    tail = np.empty(size_max, dtype=np.int64)
    count = np.empty(size_max, dtype=np.int64)
    used = np.empty(n, dtype=np.int64)
    nxt = np.empty(n, dtype=np.int64)
    codes = np.empty(max(16, n), dtype=np.int64)
    n_codes = 0
    b_band = np.empty(64, dtype=np.int64)
    b_size = np.empty(64, dtype=np.int64)
    b_first = np.empty(64, dtype=np.int64)
    n_buckets = 0
    for t in range(bands):
        k = keys[t]
        seen[:] = 0
        again[:] = 0
        for d in range(n):
            i = k[d] >> shift
            w, bit = i >> np.uint64(6), np.uint64(1) << (i & np.uint64(63))
            if seen[w] & bit:
                again[w] |= bit
            seen[w] |= bit
        m = 0
        for d in range(n):
            i = k[d] >> shift
            if again[i >> np.uint64(6)] & (np.uint64(1) << (i & np.uint64(63))):
                maybe[m] = d
                m += 1
        size = 16
        while size < 2 * m:
            size *= 2
        mask = np.uint64(size - 1)
        n_used = 0
        for x in range(m):  # chains keep documents ascending
            d = maybe[x]
            h = k[d]
            s = np.int64(h & mask)
            while head[s] >= 0 and k[head[s]] != h:
                s = (s + 1) & (size - 1)
            if head[s] < 0:
                head[s] = d
                count[s] = 0
                used[n_used] = s
                n_used += 1
            else:
                nxt[tail[s]] = d
            nxt[d] = -1
            tail[s] = d
            count[s] += 1
        need, more = n_codes, n_buckets
        for u in range(n_used):
            c = count[used[u]]
            if c >= 2:
                need += c * (c - 1) // 2
                more += 1
        if need > codes.size:  # grow once per band, not inside the loops
            codes = _grow(codes, need)
        if more > b_band.size:
            b_band, b_size, b_first = _grow(b_band, more), _grow(b_size, more), _grow(b_first, more)
        for u in range(n_used):
            s = used[u]
            c = count[s]
            if c >= 2:
                b_band[n_buckets] = band_lo + t
                b_size[n_buckets] = c
                b_first[n_buckets] = head[s]
                n_buckets += 1
                lo = head[s]
                while lo >= 0:
                    hi = nxt[lo]
                    while hi >= 0:
                        codes[n_codes] = lo * n_docs + hi
                        n_codes += 1
                        hi = nxt[hi]
                    lo = nxt[lo]
            head[s] = -1
    return codes[:n_codes], b_band[:n_buckets], b_size[:n_buckets], b_first[:n_buckets]


@nb.njit(cache=True, nogil=True)
def all_pairs_rows(
    doc_of, posting, post_offsets, pos_in_post, offsets, counts, is_ref, use_ref, row_lo, row_hi, floor, n_bins, hist
):  # pragma: no cover - compiled
    """Rows ``row_lo..row_hi-1`` of the all-pairs intersection: for each document i, every j > i sharing a shingle.

    ``posting[post_offsets[s]:post_offsets[s+1]]`` are the documents having shingle s (ascending), and
    ``pos_in_post[e]`` is where the e-th (document, shingle) entry sits in it. Adds every pair with J > 0 to
    ``hist`` (``n_bins`` equal bins ``[a, b)`` over [0, 1], 1 in the last) and returns (left, right, J) of those
    with J >= floor.
    """
    n = offsets.size - 1
    acc = np.zeros(n, dtype=np.int64)
    touched = np.empty(n, dtype=np.int64)
    cap = 1024
    out_l = np.empty(cap, dtype=np.int64)
    out_r = np.empty(cap, dtype=np.int64)
    out_j = np.empty(cap, dtype=np.float64)
    m = 0
    for i in range(row_lo, row_hi):
        nt = 0
        for e in range(offsets[i], offsets[i + 1]):
            s = doc_of[e]
            for p in range(pos_in_post[e] + 1, post_offsets[s + 1]):
                j = posting[p]
                if use_ref and is_ref[i] == is_ref[j]:
                    continue
                if acc[j] == 0:
                    touched[nt] = j
                    nt += 1
                acc[j] += 1
        for t in range(nt):
            j = touched[t]
            inter = acc[j]
            acc[j] = 0
            jac = inter / (counts[i] + counts[j] - inter)
            hist[min(n_bins - 1, int(np.floor(jac * n_bins + 1e-9)))] += 1
            if jac >= floor:
                if m == out_l.size:
                    out_l = _grow(out_l, m + 1)
                    out_r = _grow(out_r, m + 1)
                    out_j = _grow(out_j, m + 1)
                out_l[m] = i
                out_r[m] = j
                out_j[m] = jac
                m += 1
    return out_l[:m], out_r[:m], out_j[:m]


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
    """Load (or compile once, then cache) every kernel here with tiny inputs: call it off the GUI thread at start-up."""
    sigs = np.zeros((3, 4), dtype=np.uint32)
    band_groups(np.zeros((2, 3), dtype=np.uint64), 0, 3)
    idx = np.zeros(1, dtype=np.int64)
    best_band_agreement(sigs, idx, idx, 2, 2)
    same_slots(sigs, 0, 2, 0)
    same_slots(sigs.astype(np.uint64), 0, 2, 0)
    best_band_agreement(sigs.astype(np.uint64), idx, idx, 2, 2)
    one = np.arange(2, dtype=np.int64)
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
