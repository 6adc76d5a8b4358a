"""Compiled set-similarity join over candidate pairs (Cython, the GIL released): shingle ids ranked by document
frequency, prefix, size and positional filters (AllPairs / PPJoin), suffixes verified with an early exit.

A pair with Jaccard J >= t shares at least alpha = t / (1 + t) * (|x| + |y|) shingles. Ranked rarest first, that
means the two sets share a shingle within their first few positions (the prefixes): a pair sharing none there is
below t, and so is a pair whose count so far plus what is left of either set cannot reach alpha. Only pairs passing
every filter are counted to the end, so most candidates of a loose banding cost a few steps instead of a merge of
both sets. The caller passes ``t`` already lowered by a hair (see ``core/scan/verify``), so rounding never drops a
pair the plain merge would have kept.
"""

import numpy as np

from libc.math cimport ceil
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset


def rank_table(n_ids):
    """An empty table for ``count_ids``: (keys, document frequency per slot, slot of each id); 16 bytes an id."""
    bits = 10
    while (1 << bits) < 2 * n_ids:
        bits += 1
    return np.zeros(1 << bits, dtype=np.uint32), np.zeros(1 << bits, dtype=np.int32), np.empty(n_ids, dtype=np.int32)


cdef extern from *:
    """
    #if defined(__GNUC__)
    #define lsh_prefetch(p) __builtin_prefetch((p), 1)
    #else
    #define lsh_prefetch(p) ((void)0)
    #endif
    """
    void lsh_prefetch(const void *p) nogil


def count_ids(const uint32_t[::1] ids, int64_t lo, int64_t hi, uint32_t[::1] keys, int32_t[::1] df,
              int32_t[::1] slot):
    """Ids ``lo:hi`` into the open-addressing table (each document holds an id once: counts are document
    frequencies); ``slot[e]`` is where id e sits. The table is larger than the caches: each id's home slot is
    fetched ``AHEAD`` ids before it is probed (the same probes, in the same order)."""
    cdef int64_t cap = keys.shape[0], mask = cap - 1, e, h, f
    cdef int bits = 0
    cdef uint32_t x
    while (<int64_t>1 << bits) < cap:
        bits += 1
    with nogil:
        for e in range(lo, hi):
            f = e + 16
            if f < hi:
                h = <int64_t>((<uint64_t>ids[f] * <uint64_t>0x9E3779B97F4A7C15) >> (64 - bits))
                lsh_prefetch(&keys[h])
                lsh_prefetch(&df[h])
            x = ids[e]
            h = <int64_t>((<uint64_t>x * <uint64_t>0x9E3779B97F4A7C15) >> (64 - bits))
            while df[h] != 0 and keys[h] != x:
                h = (h + 1) & mask
            keys[h] = x
            df[h] += 1
            slot[e] = <int32_t>h


def frequency_ranks(int32_t[::1] df):
    """``df`` (document frequencies per slot) becomes each used slot's rank among the used slots (df > 0) ordered
    by frequency, ties by slot, the rarest 0 (a counting sort: the order ``argsort(df * len(df) + slot)`` gives);
    unused slots stay 0. Returns the number of used slots."""
    cdef Py_ssize_t cap = df.shape[0], s
    cdef int32_t top = 0
    with nogil:
        for s in range(cap):
            if df[s] > top:
                top = df[s]
    start_a = np.zeros(<Py_ssize_t>top + 2, dtype=np.int64)
    cdef int64_t[::1] start = start_a
    cdef int64_t v
    cdef int32_t f
    with nogil:
        for s in range(cap):
            if df[s] > 0:
                start[df[s] + 1] += 1
        for v in range(1, top + 1):
            start[v + 1] += start[v]
        for s in range(cap):
            f = df[s]
            if f > 0:
                df[s] = <int32_t>start[f]
                start[f] += 1
    return int(start[top]) if top > 0 else 0


cdef void _sort_distinct(int32_t *a, int32_t *scratch, Py_ssize_t m, int passes) noexcept nogil:
    """a[:m] (non-negative values) sorted in place: insertion sort when short, else ``passes`` stable 8-bit passes
    (an odd number ends in ``scratch``: copied back)."""
    cdef Py_ssize_t i, j
    cdef Py_ssize_t count[257]
    cdef int32_t v
    cdef int32_t *src = a
    cdef int32_t *dst = scratch
    cdef int32_t *swap
    cdef int shift, p
    if m < 48:
        for i in range(1, m):
            v = a[i]
            j = i - 1
            while j >= 0 and a[j] > v:
                a[j + 1] = a[j]
                j -= 1
            a[j + 1] = v
        return
    for p in range(passes):
        shift = 8 * p
        memset(count, 0, sizeof(count))
        for i in range(m):
            count[((src[i] >> shift) & 0xFF) + 1] += 1
        for i in range(256):
            count[i + 1] += count[i]
        for i in range(m):
            dst[count[(src[i] >> shift) & 0xFF]] = src[i]
            count[(src[i] >> shift) & 0xFF] += 1
        swap = src
        src = dst
        dst = swap
    if src != a:
        memcpy(a, src, m * sizeof(int32_t))


def ranked_rows(const int32_t[::1] slot, const int32_t[::1] rank, const int64_t[::1] offsets, int64_t n_ranks,
                Py_ssize_t lo, Py_ssize_t hi, int32_t[::1] out):
    """Documents ``lo:hi``: ``out`` at each one's positions = the ranks of its ids (``rank[slot[e]]``), sorted."""
    cdef int passes = 1
    cdef Py_ssize_t d, e, longest = 1
    while passes < 4 and (<int64_t>1 << (8 * passes)) < n_ranks:
        passes += 1
    for d in range(lo, hi):
        longest = max(longest, offsets[d + 1] - offsets[d])
    scratch_a = np.empty(longest, dtype=np.int32)
    cdef int32_t[::1] scratch = scratch_a
    with nogil:
        for d in range(lo, hi):
            for e in range(offsets[d], offsets[d + 1]):
                out[e] = rank[slot[e]]
            _sort_distinct(&out[offsets[d]] if offsets[d + 1] > offsets[d] else &scratch[0], &scratch[0],
                           offsets[d + 1] - offsets[d], passes)


def reversed_rows(const int32_t[::1] tok, const int64_t[::1] offsets, int64_t n_ranks, Py_ssize_t lo,
                  Py_ssize_t hi, int32_t[::1] out):
    """Documents ``lo:hi``: each one's names ``n_ranks - 1 - name`` in reverse order (sorted again)."""
    cdef Py_ssize_t d, i, a, b
    with nogil:
        for d in range(lo, hi):
            a, b = offsets[d], offsets[d + 1]
            for i in range(b - a):
                out[a + i] = <int32_t>(n_ranks - 1 - tok[b - 1 - i])


cdef inline int64_t _prefix(int64_t size, double share) noexcept nogil:
    """Positions a set of ``size`` must be searched from the front to meet any set it shares ``share`` of itself."""
    cdef int64_t p
    if size == 0:
        return 0
    p = size - <int64_t>ceil(share * size) + 1
    return p if p < size else size


def build_index(const int32_t[::1] tok, const int64_t[::1] offsets, const int64_t[::1] order, int64_t n_tokens,
                double t):
    """Postings of every document's index prefix (the first positions a larger set must meet when J >= t), each
    token's list in processing order: (start per token, document, position in the document)."""
    cdef double share = 2.0 * t / (1.0 + t)
    cdef Py_ssize_t n = offsets.shape[0] - 1
    cdef int64_t d, e, p, w
    start_a = np.zeros(n_tokens + 1, dtype=np.int64)  # counts first, then their running sum in place
    cdef int64_t[::1] start = start_a
    with nogil:
        for d in range(n):
            for e in range(offsets[d], offsets[d] + _prefix(offsets[d + 1] - offsets[d], share)):
                start[tok[e] + 1] += 1
        for w in range(n_tokens):
            start[w + 1] += start[w]
    fill_a = start_a[:n_tokens].copy()
    doc_a, pos_a = np.empty(start[n_tokens], dtype=np.int32), np.empty(start[n_tokens], dtype=np.int32)
    cdef int64_t[::1] fill = fill_a
    cdef int32_t[::1] doc = doc_a, pos = pos_a
    with nogil:
        for p in range(order.shape[0]):
            d = order[p]
            for e in range(offsets[d], offsets[d] + _prefix(offsets[d + 1] - offsets[d], share)):
                w = tok[e]
                doc[fill[w]] = <int32_t>d
                pos[fill[w]] = <int32_t>(e - offsets[d])
                fill[w] += 1
    return start_a, doc_a, pos_a


def partner_lists(const int64_t[::1] later, const int64_t[::1] earlier, Py_ssize_t n_docs):
    """Candidate k = (later[k], earlier[k]) listed under its later document: (start per document, partner, k)."""
    cdef Py_ssize_t m = later.shape[0], k, d
    start_a = np.zeros(n_docs + 1, dtype=np.int64)
    partner_a, index_a = np.empty(m, dtype=np.int32), np.empty(m, dtype=np.int64)
    fill_a = np.empty(n_docs, dtype=np.int64)
    cdef int64_t[::1] start = start_a, index = index_a, fill = fill_a
    cdef int32_t[::1] partner = partner_a
    with nogil:
        for k in range(m):
            start[later[k] + 1] += 1
        for d in range(n_docs):
            start[d + 1] += start[d]
        for d in range(n_docs):
            fill[d] = start[d]
        for k in range(m):
            d = later[k]
            partner[fill[d]] = <int32_t>earlier[k]
            index[fill[d]] = k
            fill[d] += 1
    return start_a, partner_a, index_a


cdef inline int64_t _finish(const int32_t[::1] tok, int64_t ox, int64_t sx, int64_t oy, int64_t sy, int64_t px,
                            int64_t py, int64_t li, int64_t lj, int64_t c, int64_t alpha) noexcept nogil:
    """The overlap counted so far in both prefixes plus the rest past the last prefix token that ended first;
    stops (below alpha) once the rest cannot reach alpha."""
    cdef int32_t wx = tok[ox + px - 1], wy = tok[oy + py - 1], u, v
    cdef int64_t i, j
    if wx < wy:
        i, j = px, lj + 1
    elif wx > wy:
        i, j = li + 1, py
    else:
        i, j = px, py
    while i < sx and j < sy:
        if c + (sx - i if sx - i < sy - j else sy - j) < alpha:
            return c
        u, v = tok[ox + i], tok[oy + j]
        c += u == v
        i += u <= v
        j += v <= u
    return c


def join_rows(const int32_t[::1] tok, const int64_t[::1] offsets, const int64_t[::1] order,
              const int64_t[::1] pos_of, const int64_t[::1] post_start, const int32_t[::1] post_doc,
              const int32_t[::1] post_pos, const int64_t[::1] adj_start, const int32_t[::1] adj_doc,
              const int64_t[::1] adj_k, double t, int64_t lo, int64_t hi, out):
    """Processing positions ``lo:hi``: each document x meets its candidates processed before it through the
    postings of its probe prefix; ``out[k]`` gets |x ∩ y| of every candidate k that reaches alpha (left as it is
    for the others: they are below ``t``); returns ``out``, an int64 array."""
    cdef int64_t[::1] inter = out
    cdef Py_ssize_t n = offsets.shape[0] - 1
    cand_a = np.full(n, -1, dtype=np.int64)
    count_a, last_i_a, last_j_a = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(n, np.int64)
    touched_a = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] cand = cand_a, count = count_a, last_i = last_i_a, last_j = last_j_a, touched = touched_a
    cdef double index_share = 2.0 * t / (1.0 + t), min_size
    cdef int64_t p, x, ox, sx, a, px, nt, i, w, q, y, sy, j, alpha, rest, s, c
    with nogil:
        for p in range(lo, hi):
            x = order[p]
            ox, sx = offsets[x], offsets[x + 1] - offsets[x]
            if adj_start[x] == adj_start[x + 1] or sx == 0:
                continue
            for a in range(adj_start[x], adj_start[x + 1]):
                cand[adj_doc[a]] = adj_k[a]
            px = _prefix(sx, t)
            min_size = t * sx
            nt = 0
            for i in range(px):
                w = tok[ox + i]
                for q in range(post_start[w], post_start[w + 1]):
                    y = post_doc[q]
                    if pos_of[y] >= p:
                        break
                    if cand[y] < 0 or count[y] < 0:
                        continue
                    sy = offsets[y + 1] - offsets[y]
                    if sy < min_size:
                        continue
                    j = post_pos[q]
                    alpha = <int64_t>ceil(t / (1.0 + t) * (sx + sy))
                    if count[y] == 0:
                        touched[nt] = y
                        nt += 1
                    rest = sx - i - 1 if sx - i - 1 < sy - j - 1 else sy - j - 1
                    if count[y] + 1 + rest >= alpha:
                        count[y] += 1
                        last_i[y] = i
                        last_j[y] = j
                    else:
                        count[y] = -1
            for s in range(nt):
                y = touched[s]
                if count[y] > 0:
                    sy = offsets[y + 1] - offsets[y]
                    alpha = <int64_t>ceil(t / (1.0 + t) * (sx + sy))
                    c = _finish(tok, ox, sx, offsets[y], sy, px, _prefix(sy, index_share), last_i[y], last_j[y],
                                count[y], alpha)
                    if c >= alpha:
                        inter[cand[y]] = c
                count[y] = 0
            for a in range(adj_start[x], adj_start[x + 1]):
                cand[adj_doc[a]] = -1
    return out
