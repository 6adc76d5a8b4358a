"""Compiled pair loops (Cython, the GIL released): shingle-set intersections (pairs, or one query against many), all
pairs, components, a group's lowest similarity; and a batch's sets of some documents (``take_rows``)."""

import numpy as np

from libc.math cimport ceil
from libc.math cimport floor as c_floor
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy

ctypedef fused ids_t:  # a document's sorted ids: 32-bit shingle ids, ranks (scan/verify's RankedIds), the tests' 64-bit
    uint32_t
    int32_t
    uint64_t


cdef inline int64_t _count_until(const ids_t[::1] ids, const int64_t[::1] offsets, int64_t p, int64_t q,
                                 int64_t enough) noexcept nogil:
    """|A ∩ B| of documents p and q, whose ids are sorted and unique, or ``enough`` as soon as it is reached: a merge
    without branches in its loop."""
    cdef int64_t i = offsets[p], iend = offsets[p + 1], j = offsets[q], jend = offsets[q + 1], c = 0
    cdef ids_t u, v
    while i < iend and j < jend:
        u, v = ids[i], ids[j]
        c += u == v
        i += u <= v
        j += v <= u
        if c >= enough:
            break
    return c


cdef inline int64_t _intersect(const ids_t[::1] ids, const int64_t[::1] offsets, int64_t p, int64_t q) noexcept nogil:
    """|A ∩ B| of documents p and q, whose ids are sorted and unique."""
    return _count_until(ids, offsets, p, q, offsets[p + 1] - offsets[p] + 1)


def intersection_sizes(const ids_t[::1] ids, const int64_t[::1] offsets, const int64_t[::1] left,
                       const int64_t[::1] right):
    """|A ∩ B| for each pair (left[i], right[i]) of documents whose ids are sorted and unique."""
    cdef Py_ssize_t t
    out_a = np.empty(left.shape[0], dtype=np.int64)
    cdef int64_t[::1] out = out_a
    with nogil:
        for t in range(left.shape[0]):
            out[t] = _intersect(ids, offsets, left[t], right[t])
    return out_a


def components(Py_ssize_t n, const int64_t[::1] left, const int64_t[::1] right):
    """Union-find: each node's root (the smallest member of its connected component)."""
    cdef Py_ssize_t t, i
    cdef int64_t a, b, r
    parent_a = np.arange(n, dtype=np.int64)
    cdef int64_t[::1] parent = parent_a
    with nogil:
        for t in range(left.shape[0]):
            a, b = left[t], right[t]
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            while parent[b] != b:
                parent[b] = parent[parent[b]]
                b = parent[b]
            if a != b:
                if a < b:
                    parent[b] = a
                else:
                    parent[a] = b
        for i in range(n):
            r = i
            while parent[r] != r:
                r = parent[r]
            parent[i] = r
    return parent_a


cdef inline double _lower(const ids_t[::1] ids, const int64_t[::1] offsets, int64_t p, int64_t q,
                          double best) noexcept nogil:
    """The exact Jaccard of documents p and q if it is below ``best``, else ``best``: the merge stops as soon as the
    shared count proves J >= best (in a group with a low pair, most pairs stop after a few shared ids)."""
    cdef int64_t total = offsets[p + 1] - offsets[p] + offsets[q + 1] - offsets[q], enough, c
    cdef double j_ab
    if total == 0:
        return 0.0 if 0.0 < best else best  # min(best, 0.0)
    enough = <int64_t>ceil(best * total / (1.0 + best))  # |A ∩ B| >= enough means J >= best
    c = _count_until(ids, offsets, p, q, enough)
    if c >= enough:
        return best
    j_ab = <double>c / <double>(total - c)
    return j_ab if j_ab < best else best


def group_min_jaccard(const ids_t[::1] ids, const int64_t[::1] offsets, const int64_t[::1] members,
                      const int64_t[::1] starts, const double[::1] seed):
    """The lowest exact Jaccard over all pairs inside each group ``members[starts[g]:starts[g+1]]`` (1.0 alone),
    starting from ``seed[g]`` (a pair's similarity already known to be in the group, or 1.0)."""
    cdef Py_ssize_t g_n = starts.shape[0] - 1, g
    cdef int64_t p, q
    cdef double best
    out_a = np.ones(g_n, dtype=np.float64)
    cdef double[::1] out = out_a
    with nogil:
        for g in range(g_n):
            best = seed[g]
            for p in range(starts[g], starts[g + 1]):
                for q in range(p + 1, starts[g + 1]):
                    best = _lower(ids, offsets, members[p], members[q], best)
            out[g] = best
    return out_a


def rows_min_jaccard(const ids_t[::1] ids, const int64_t[::1] offsets, const int64_t[::1] members, int64_t p_lo,
                     int64_t p_hi, double best):
    """The lowest exact Jaccard of pairs ``(members[p], members[q])``, ``p_lo <= p < p_hi``, ``q > p``, if below
    ``best`` (else ``best``): one large group's pairs, a block of rows at a time."""
    cdef int64_t p, q, n = members.shape[0]
    with nogil:
        for p in range(p_lo, p_hi):
            for q in range(p + 1, n):
                best = _lower(ids, offsets, members[p], members[q], best)
    return best


cdef object _grown(object a, int64_t m):
    """A copy of ``a`` twice as large, its first ``m`` items kept (called with the GIL, rarely: sizes double)."""
    out = np.empty(2 * a.shape[0], dtype=a.dtype)
    out[:m] = a[:m]
    return out


def all_pairs_rows(const int64_t[::1] doc_of, const int64_t[::1] posting, const int64_t[::1] post_offsets,
                   const int64_t[::1] pos_in_post, const int64_t[::1] offsets, const int64_t[::1] counts, is_ref,
                   bint use_ref, int64_t row_lo, int64_t row_hi, double floor, int64_t n_bins, int64_t[::1] hist):
    """Rows ``row_lo..row_hi-1`` of the all-pairs intersection: for each document i, every j > i sharing a shingle.

    ``posting[post_offsets[s]:post_offsets[s+1]]`` are the documents having shingle s (ascending), and
    ``pos_in_post[e]`` is where the e-th (document, shingle) entry sits in it. Adds every pair with J > 0 to
    ``hist`` (``n_bins`` equal bins ``[a, b)`` over [0, 1], 1 in the last) and returns (left, right, J) of those
    with J >= floor. ``is_ref`` is a bool array (a memoryview cannot take numpy's bool: viewed as bytes).
    """
    cdef const uint8_t[::1] ref = np.ascontiguousarray(is_ref, dtype=np.bool_).view(np.uint8)
    cdef Py_ssize_t n = offsets.shape[0] - 1
    acc_a, touched_a = np.zeros(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    cdef int64_t[::1] acc = acc_a, touched = touched_a
    out_l_a, out_r_a, out_j_a = np.empty(1024, np.int64), np.empty(1024, np.int64), np.empty(1024, np.float64)
    cdef int64_t[::1] out_l = out_l_a, out_r = out_r_a
    cdef double[::1] out_j = out_j_a
    cdef int64_t m = 0, i, e, s, p, j, t, nt, inter, b
    cdef double jac
    with nogil:
        for i in range(row_lo, row_hi):
            nt = 0
            for e in range(offsets[i], offsets[i + 1]):
                s = doc_of[e]
                for p in range(pos_in_post[e] + 1, post_offsets[s + 1]):
                    j = posting[p]
                    if use_ref and ref[i] == ref[j]:
                        continue
                    if acc[j] == 0:
                        touched[nt] = j
                        nt += 1
                    acc[j] += 1
            for t in range(nt):
                j = touched[t]
                inter = acc[j]
                acc[j] = 0
                jac = <double>inter / <double>(counts[i] + counts[j] - inter)
                b = <int64_t>c_floor(jac * n_bins + 1e-9)
                hist[b if b < n_bins - 1 else n_bins - 1] += 1
                if jac >= floor:
                    if m == out_l.shape[0]:
                        with gil:
                            out_l_a, out_r_a, out_j_a = _grown(out_l_a, m), _grown(out_r_a, m), _grown(out_j_a, m)
                            out_l, out_r, out_j = out_l_a, out_r_a, out_j_a
                    out_l[m] = i
                    out_r[m] = j
                    out_j[m] = jac
                    m += 1
    return out_l_a[:m], out_r_a[:m], out_j_a[:m]


def query_intersection_sizes(const uint32_t[::1] q, const uint32_t[::1] ids, const int64_t[::1] offsets,
                             const int64_t[::1] docs):
    """|Q ∩ D| of one sorted, unique id set ``q`` with each document ``docs[i]`` of a batch.

    The ids are hashes (uniform bits), so their low bits index a bitmap of q with 16 bits per element: a document's
    id is looked up in q (binary search) only when its bit is set (1 in 16 of the ids q lacks), so the cost is a
    streaming pass over the documents' ids, not a merge with q per document.
    """
    cdef Py_ssize_t m = q.shape[0], lo, hi, mid, i, t
    cdef int bits = 10
    while (<int64_t>1 << bits) < 16 * m:
        bits += 1
    cdef uint64_t mask = (<uint64_t>1 << bits) - 1, s
    bitmap_a = np.zeros((<int64_t>1 << bits) >> 3, dtype=np.uint8)
    cdef uint8_t[::1] bitmap = bitmap_a
    out_a = np.zeros(docs.shape[0], dtype=np.int64)
    cdef int64_t[::1] out = out_a
    cdef int64_t d, j, c
    cdef uint32_t x
    with nogil:
        for i in range(m):
            s = q[i] & mask
            bitmap[s >> 3] |= <uint8_t>(1 << (s & 7))
        for t in range(docs.shape[0]):
            d = docs[t]
            c = 0
            for j in range(offsets[d], offsets[d + 1]):
                x = ids[j]
                s = x & mask
                if bitmap[s >> 3] & (1 << (s & 7)):
                    lo, hi = 0, m
                    while lo < hi:
                        mid = (lo + hi) >> 1
                        if q[mid] < x:
                            lo = mid + 1
                        else:
                            hi = mid
                    c += lo < m and q[lo] == x
            out[t] = c
    return out_a


def take_rows(const ids_t[::1] ids, const int64_t[::1] offsets, const int64_t[::1] docs):
    """The sets of documents ``docs``, in that order, as one batch: (their ids, per-document offsets). One copy
    per document (numpy's gather built an index of every id: 60 % of choosing the automatic scheme on a sample)."""
    cdef Py_ssize_t n = docs.shape[0], nd = offsets.shape[0] - 1, i
    cdef int64_t d, total = 0
    cdef bint bad = False
    out_off_a = np.empty(n + 1, dtype=np.int64)
    cdef int64_t[::1] out_off = out_off_a
    with nogil:
        out_off[0] = 0
        for i in range(n):
            d = docs[i]
            if d < 0 or d >= nd:
                bad = True
                break
            total += offsets[d + 1] - offsets[d]
            out_off[i + 1] = total
    if bad:
        raise IndexError(f"document {docs[i]} of a batch of {nd}")
    out_a = np.empty(total, dtype=np.asarray(ids).dtype)
    cdef ids_t[::1] out = out_a
    with nogil:
        for i in range(n):
            d = docs[i]
            if out_off[i + 1] > out_off[i]:
                memcpy(&out[out_off[i]], &ids[offsets[d]], (out_off[i + 1] - out_off[i]) * sizeof(ids_t))
    return out_a, out_off_a
