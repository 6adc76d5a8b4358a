"""Compiled banding (Cython, the GIL released): band keys (a band's r slots absorbed into one 64-bit hash), buckets.

One key loop and one bucketing loop serve the scan (``lsh.candidate_pairs``: the pairs) and the S-curve explorer
(``lsh.band_codes``: the pairs and a report of every bucket). Output arrays grow once per band at most, outside the
inner loops (the GIL taken back for it).
"""

import numpy as np

from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.string cimport memset

from lshdesk.core.kernels._mix cimport C0, absorb_slot

ctypedef fused sig_t:
    uint32_t
    uint64_t


cdef enum:
    BLOCK = 8  # documents keyed side by side (100k x 128 slots: 4 -> 16 take 1.1-1.4 times as long as 8)


def band_keys(const sig_t[:, ::1] sigs, Py_ssize_t bands, Py_ssize_t rows):
    """``(bands, n)`` bucket keys: band i of document d absorbs its r slot values in order into one 64-bit hash.

    Eight documents are keyed side by side, band by band: eight independent hashes in flight (the absorb is a
    chain of three multiplies), and each band's eight keys stored as one run of its row of the output, where a
    document's keys went to a different row each (100k documents, 128 bands of one row: 111-118 ms -> 65-88 ms).
    One band's keys are contiguous, as ``band_buckets`` reads them. Give it the columns of the bands wanted,
    contiguous: a compact copy is read faster than a window of the whole signature rows.
    """
    cdef Py_ssize_t n = sigs.shape[0], k = sigs.shape[1], d0 = 0, d, e, i, j
    cdef uint64_t h[BLOCK]
    cdef const sig_t *p
    if bands < 0 or rows < 0 or bands * rows > k:
        raise ValueError(f"{bands} bands x {rows} rows need more than the signatures' {k} slots")
    out_a = np.empty((bands, n), dtype=np.uint64)
    cdef uint64_t[:, ::1] out = out_a
    with nogil:
        while d0 + BLOCK <= n:
            p = &sigs[d0, 0]
            for i in range(bands):
                for e in range(BLOCK):
                    h[e] = C0
                for j in range(i * rows, i * rows + rows):
                    for e in range(BLOCK):
                        h[e] = absorb_slot(h[e], p[e * k + j])
                for e in range(BLOCK):
                    out[i, d0 + e] = h[e]
            d0 += BLOCK
        for d in range(d0, n):  # the last n % 8 documents
            for i in range(bands):
                h[0] = C0
                for j in range(i * rows, i * rows + rows):
                    h[0] = absorb_slot(h[0], sigs[d, j])
                out[i, d] = h[0]
    return out_a


cdef object _grow(object a, int64_t need):
    """``a`` copied into an array at least twice as large (its items kept in front)."""
    out = np.empty(max(need, 2 * a.size), dtype=a.dtype)
    out[: a.size] = a
    return out


def band_buckets(const uint64_t[:, ::1] keys, int64_t band_lo, bint report, codes, int64_t n_codes):
    """Buckets of ``keys`` (``band_keys``: ``(bands, n)``, band numbers from ``band_lo``): pair codes ``i * n + j``
    (i < j, once per shared bucket, so repeated across bands) appended to ``codes[:n_codes]`` (int64, grown as
    needed, so blocks of bands fill one array), and with ``report`` every bucket of two or more documents as
    (band, size, first member), else three empty arrays. Returns (codes, new n_codes, band, size, first).

    Per band, two bitmaps of the keys' top bits (seen once, seen again), small enough for the cache, pick the few
    documents whose key may repeat; only those go into a hash table sized for them.
    """
    cdef Py_ssize_t bands = keys.shape[0], n = keys.shape[1], t, d, x, u
    cdef int bits = 12
    while (<int64_t>1 << bits) < 8 * n:  # ~8 bits per document: few false alarms, and both bitmaps fit the L2 cache
        bits += 1
    cdef uint64_t shift = 64 - bits, i, h, mask
    cdef Py_ssize_t words = <Py_ssize_t>1 << (bits - 6)
    cdef int64_t size_max = 16, size, s, m, n_used, need, more, c, lo, hi, band, n_buckets = 0
    while size_max < 2 * n:
        size_max *= 2
    seen_a, again_a = np.empty(words, dtype=np.uint64), np.empty(words, dtype=np.uint64)
    head_a = np.full(size_max, -1, dtype=np.int64)
    b_band = np.empty(64 if report else 0, dtype=np.int64)
    b_size, b_first = np.empty(b_band.size, dtype=np.int64), np.empty(b_band.size, dtype=np.int64)
    cdef uint64_t[::1] seen = seen_a, again = again_a
    cdef int64_t[::1] head = head_a, tail = np.empty(size_max, dtype=np.int64)
    cdef int64_t[::1] count = np.empty(size_max, dtype=np.int64)
    cdef int64_t[::1] maybe = np.empty(n, dtype=np.int64), used = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] nxt = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] out = codes, r_band = b_band, r_size = b_size, r_first = b_first
    with nogil:
        for t in range(bands):
            band = band_lo + t
            memset(&seen[0], 0, words * sizeof(uint64_t))
            memset(&again[0], 0, words * sizeof(uint64_t))
            for d in range(n):
                i = keys[t, d] >> shift
                again[i >> 6] |= seen[i >> 6] & (<uint64_t>1 << (i & 63))
                seen[i >> 6] |= <uint64_t>1 << (i & 63)
            m = 0
            for d in range(n):
                i = keys[t, d] >> shift
                if again[i >> 6] & (<uint64_t>1 << (i & 63)):
                    maybe[m] = d
                    m += 1
            size = 16
            while size < 2 * m:
                size *= 2
            mask = size - 1
            n_used = 0
            for x in range(m):  # chains keep documents ascending
                d = maybe[x]
                h = keys[t, d]
                s = <int64_t>(h & mask)
                while head[s] >= 0 and keys[t, head[s]] != h:
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
            if need > out.shape[0]:  # grow once per band, not inside the loops
                with gil:
                    codes = _grow(codes, need)
                    out = codes
            if report and more > r_band.shape[0]:
                with gil:
                    b_band, b_size, b_first = _grow(b_band, more), _grow(b_size, more), _grow(b_first, more)
                    r_band, r_size, r_first = b_band, b_size, b_first
            for u in range(n_used):
                s = used[u]
                c = count[s]
                if c >= 2:
                    if report:
                        r_band[n_buckets] = band
                        r_size[n_buckets] = c
                        r_first[n_buckets] = head[s]
                        n_buckets += 1
                    lo = head[s]
                    while lo >= 0:
                        hi = nxt[lo]
                        while hi >= 0:
                            out[n_codes] = lo * n + hi
                            n_codes += 1
                            hi = nxt[hi]
                        lo = nxt[lo]
                head[s] = -1
    return codes, n_codes, b_band[:n_buckets], b_size[:n_buckets], b_first[:n_buckets]


def merge_counted(const int64_t[::1] a, const int64_t[::1] ca, const int64_t[::1] b, const int64_t[::1] cb):
    """Two ascending unique key arrays with counts -> their union, ascending, counts of a key in both added."""
    cdef Py_ssize_t na = a.shape[0], nb = b.shape[0], i = 0, j = 0, m = 0
    keys_a = np.empty(na + nb, dtype=np.int64)
    counts_a = np.empty(na + nb, dtype=np.int64)
    cdef int64_t[::1] keys = keys_a, counts = counts_a
    with nogil:
        while i < na and j < nb:
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
        while i < na:
            keys[m], counts[m] = a[i], ca[i]
            i += 1
            m += 1
        while j < nb:
            keys[m], counts[m] = b[j], cb[j]
            j += 1
            m += 1
    return keys_a[:m], counts_a[:m]
