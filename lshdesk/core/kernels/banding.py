"""Compiled banding (numba, ``nogil``): band keys (a band's r slots absorbed into one 64-bit hash) and buckets.

One key loop and one bucketing loop serve the scan (``lsh.candidate_pairs``: the pairs) and the S-curve explorer
(``lsh.band_codes``: the pairs and a report of every bucket). Arrays grow outside the inner loops (a reassigned array inside a numba
loop costs a reference count each time: it made the banding three times slower).
"""

from __future__ import annotations

import numpy as np

from lshdesk.core.kernels.buffers import grow
from lshdesk.core.kernels.jit import nb
from lshdesk.core.kernels.mixing import C0, absorb_slot


@nb.njit(cache=True, nogil=True)
def band_keys(sigs, bands, rows):  # pragma: no cover - compiled
    """``(bands, n)`` bucket keys: band i of document d absorbs its r slot values in order into one 64-bit hash.

    The bands of a document are hashed side by side (row by row), so the loop over bands vectorises; one band's
    keys are contiguous, as ``band_buckets`` reads them. Give it the columns of the bands wanted, contiguous: a
    compact copy is read faster than a window of the whole signature rows.
    """
    n = sigs.shape[0]
    out = np.empty((bands, n), dtype=np.uint64)
    h = np.empty(bands, dtype=np.uint64)
    for d in range(n):
        h[:] = C0
        for j in range(rows):
            for i in range(bands):
                h[i] = absorb_slot(h[i], sigs[d, i * rows + j])
        out[:, d] = h
    return out


@nb.njit(cache=True, nogil=True)
def band_buckets(keys, band_lo, report, codes, n_codes):  # pragma: no cover - compiled
    """Buckets of ``keys`` (``band_keys``: ``(bands, n)``, band numbers from ``band_lo``): pair codes ``i * n + j``
    (i < j, once per shared bucket, so repeated across bands) appended to ``codes[:n_codes]`` (grown as needed,
    so blocks of bands fill one array), and with ``report`` every bucket of two or more documents as
    (band, size, first member), else three empty arrays. Returns (codes, new n_codes, band, size, first).

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
    b_band = np.empty(64 if report else 0, dtype=np.int64)
    b_size = np.empty(b_band.size, dtype=np.int64)
    b_first = np.empty(b_band.size, dtype=np.int64)
    n_buckets = 0
    for t in range(bands):
        band = band_lo + t
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
            codes = grow(codes, need)
        if report and more > b_band.size:
            b_band, b_size, b_first = grow(b_band, more), grow(b_size, more), grow(b_first, more)
        for u in range(n_used):
            s = used[u]
            c = count[s]
            if c >= 2:
                if report:
                    b_band[n_buckets] = band
                    b_size[n_buckets] = c
                    b_first[n_buckets] = head[s]
                    n_buckets += 1
                lo = head[s]
                while lo >= 0:
                    hi = nxt[lo]
                    while hi >= 0:
                        codes[n_codes] = lo * n + hi
                        n_codes += 1
                        hi = nxt[hi]
                    lo = nxt[lo]
            head[s] = -1
    return codes, n_codes, b_band[:n_buckets], b_size[:n_buckets], b_first[:n_buckets]


@nb.njit(cache=True, nogil=True)
def merge_counted(a, ca, b, cb):  # pragma: no cover - compiled
    """Two ascending unique key arrays with counts -> their union, ascending, counts of a key in both added."""
    keys = np.empty(a.size + b.size, dtype=a.dtype)
    counts = np.empty(a.size + b.size, dtype=np.int64)
    i = j = m = 0
    while i < a.size and j < b.size:
        if a[i] < b[j]:
            keys[m], counts[m] = a[i], ca[i]
            i += 1
        elif b[j] < a[i]:
            keys[m], counts[m] = b[j], cb[j]
            j += 1
        else:
            keys[m], counts[m] = a[i], ca[i] + cb[j]
            i += 1
            j += 1
        m += 1
    while i < a.size:
        keys[m], counts[m] = a[i], ca[i]
        i += 1
        m += 1
    while j < b.size:
        keys[m], counts[m] = b[j], cb[j]
        j += 1
        m += 1
    return keys[:m], counts[:m]
