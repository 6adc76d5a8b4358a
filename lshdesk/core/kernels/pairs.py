"""Compiled pair loops (numba, ``nogil``): shingle-set intersections (pairs, or one query against many), all pairs,
components, a group's lowest similarity."""

from __future__ import annotations

import math

import numpy as np

from lshdesk.core.kernels.buffers import grow
from lshdesk.core.kernels.jit import nb


@nb.njit(inline="always")
def _count_until(ids, offsets, p, q, enough):  # pragma: no cover - compiled
    """|A ∩ B| of documents p and q, whose ids are sorted and unique, or ``enough`` as soon as it is reached: a merge
    without branches in its loop."""
    i, iend = offsets[p], offsets[p + 1]
    j, jend = offsets[q], offsets[q + 1]
    c = 0
    while i < iend and j < jend:
        u, v = ids[i], ids[j]
        c += u == v
        i += u <= v
        j += v <= u
        if c >= enough:
            break
    return c


@nb.njit(inline="always")
def _intersect(ids, offsets, p, q):  # pragma: no cover - compiled
    """|A ∩ B| of documents p and q, whose ids are sorted and unique."""
    return _count_until(ids, offsets, p, q, offsets[p + 1] - offsets[p] + 1)


@nb.njit(cache=True, nogil=True)
def intersection_sizes(ids, offsets, left, right):  # pragma: no cover - compiled
    """|A ∩ B| for each pair (left[i], right[i]) of documents whose ids are sorted and unique."""
    out = np.empty(left.size, dtype=np.int64)
    for t in range(left.size):
        out[t] = _intersect(ids, offsets, left[t], right[t])
    return out


@nb.njit(cache=True, nogil=True)
def components(n, left, right):  # pragma: no cover - compiled
    """Union-find: each node's root (the smallest member of its connected component)."""
    parent = np.arange(n)
    for t in range(left.size):
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
    return parent


@nb.njit(inline="always")
def _lower(ids, offsets, p, q, best):  # pragma: no cover - compiled
    """The exact Jaccard of documents p and q if it is below ``best``, else ``best``: the merge stops as soon as the
    shared count proves J >= best (in a group with a low pair, most pairs stop after a few shared ids)."""
    total = offsets[p + 1] - offsets[p] + offsets[q + 1] - offsets[q]
    if total == 0:
        return min(best, 0.0)
    enough = math.ceil(best * total / (1.0 + best))  # |A ∩ B| >= enough means J >= best
    c = _count_until(ids, offsets, p, q, enough)
    if c >= enough:
        return best
    j_ab = c / (total - c)
    return j_ab if j_ab < best else best


@nb.njit(cache=True, nogil=True)
def group_min_jaccard(ids, offsets, members, starts, seed):  # pragma: no cover - compiled
    """The lowest exact Jaccard over all pairs inside each group ``members[starts[g]:starts[g+1]]`` (1.0 alone),
    starting from ``seed[g]`` (a pair's similarity already known to be in the group, or 1.0)."""
    g_n = starts.size - 1
    out = np.ones(g_n, dtype=np.float64)
    for g in range(g_n):
        best = seed[g]
        for p in range(starts[g], starts[g + 1]):
            for q in range(p + 1, starts[g + 1]):
                best = _lower(ids, offsets, members[p], members[q], best)
        out[g] = best
    return out


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
                    out_l = grow(out_l, m + 1)
                    out_r = grow(out_r, m + 1)
                    out_j = grow(out_j, m + 1)
                out_l[m] = i
                out_r[m] = j
                out_j[m] = jac
                m += 1
    return out_l[:m], out_r[:m], out_j[:m]


@nb.njit(cache=True, nogil=True)
def query_intersection_sizes(q, ids, offsets, docs):  # pragma: no cover - compiled
    """|Q ∩ D| of one sorted, unique id set ``q`` with each document ``docs[i]`` of a batch.

    The ids are hashes (uniform bits), so their low bits index a bitmap of q with 16 bits per element: a document's
    id is looked up in q (binary search) only when its bit is set (1 in 16 of the ids q lacks), so the cost is a
    streaming pass over the documents' ids, not a merge with q per document.
    """
    m = q.size
    bits = 10
    while (1 << bits) < 16 * m:
        bits += 1
    mask = np.uint64((1 << bits) - 1)
    bitmap = np.zeros((1 << bits) >> 3, dtype=np.uint8)
    for i in range(m):
        s = np.uint64(q[i]) & mask
        bitmap[s >> np.uint64(3)] |= np.uint8(1) << np.uint8(s & np.uint64(7))
    out = np.zeros(docs.size, dtype=np.int64)
    for t in range(docs.size):
        d = docs[t]
        c = 0
        for j in range(offsets[d], offsets[d + 1]):
            x = ids[j]
            b = np.uint64(x) & mask
            if bitmap[b >> np.uint64(3)] & (np.uint8(1) << np.uint8(b & np.uint64(7))):
                lo, hi = 0, m
                while lo < hi:
                    mid = (lo + hi) >> 1
                    if q[mid] < x:
                        lo = mid + 1
                    else:
                        hi = mid
                c += lo < m and q[lo] == x
        out[t] = c
    return out


@nb.njit(cache=True, nogil=True)
def rows_min_jaccard(ids, offsets, members, p_lo, p_hi, best):  # pragma: no cover - compiled
    """The lowest exact Jaccard of pairs ``(members[p], members[q])``, ``p_lo <= p < p_hi``, ``q > p``, if below
    ``best`` (else ``best``): one large group's pairs, a block of rows at a time."""
    for p in range(p_lo, p_hi):
        for q in range(p + 1, members.size):
            best = _lower(ids, offsets, members[p], members[q], best)
    return best
