"""Compiled set-similarity join over candidate pairs (numba, ``nogil``): shingle ids ranked by document frequency,
prefix, size and positional filters (AllPairs / PPJoin), suffixes verified with an early exit.

A pair with Jaccard J >= t shares at least alpha = t / (1 + t) * (|x| + |y|) shingles. Ranked rarest first, that
means the two sets share a shingle within their first few positions (the prefixes): a pair sharing none there is
below t, and so is a pair whose count so far plus what is left of either set cannot reach alpha. Only pairs passing
every filter are counted to the end, so most candidates of a loose banding cost a few steps instead of a merge of
both sets. The caller passes ``t`` already lowered by a hair (see ``core/scan/verify``), so rounding never drops a
pair the plain merge would have kept.
"""

from __future__ import annotations

import math

import numpy as np

from lshdesk.core.kernels.jit import nb


def rank_table(n_ids):
    """An empty table for ``count_ids``: (keys, document frequency per slot, slot of each id); 16 bytes an id."""
    bits = 10
    while (1 << bits) < 2 * n_ids:
        bits += 1
    return np.zeros(1 << bits, dtype=np.uint32), np.zeros(1 << bits, dtype=np.int32), np.empty(n_ids, dtype=np.int32)


@nb.njit(cache=True, nogil=True)
def count_ids(ids, lo, hi, keys, df, slot):  # pragma: no cover - compiled
    """Ids ``lo:hi`` into the open-addressing table (each document holds an id once: counts are document
    frequencies); ``slot[e]`` is where id e sits."""
    cap = keys.size
    bits = 0
    while (1 << bits) < cap:
        bits += 1
    mask = cap - 1
    for e in range(lo, hi):
        x = ids[e]
        h = np.int64((np.uint64(x) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))
        while df[h] != 0 and keys[h] != x:
            h = (h + 1) & mask
        keys[h] = x
        df[h] += 1
        slot[e] = h


@nb.njit(inline="always")
def _prefix(size, share):  # pragma: no cover - compiled
    """Positions a set of ``size`` must be searched from the front to meet any set it shares ``share`` of itself."""
    if size == 0:
        return 0
    return min(size, size - int(math.ceil(share * size)) + 1)


@nb.njit(cache=True, nogil=True)
def build_index(tok, offsets, order, n_tokens, t):  # pragma: no cover - compiled
    """Postings of every document's index prefix (the first positions a larger set must meet when J >= t), each
    token's list in processing order: (start per token, document, position in the document)."""
    share = 2.0 * t / (1.0 + t)
    count = np.zeros(n_tokens + 1, dtype=np.int64)
    for d in range(offsets.size - 1):
        for e in range(offsets[d], offsets[d] + _prefix(offsets[d + 1] - offsets[d], share)):
            count[tok[e] + 1] += 1
    start = np.cumsum(count)
    fill = start[:-1].copy()
    doc = np.empty(start[-1], dtype=np.int32)
    pos = np.empty(start[-1], dtype=np.int32)
    for p in range(order.size):
        d = order[p]
        for e in range(offsets[d], offsets[d] + _prefix(offsets[d + 1] - offsets[d], share)):
            w = tok[e]
            doc[fill[w]] = d
            pos[fill[w]] = e - offsets[d]
            fill[w] += 1
    return start, doc, pos


@nb.njit(cache=True, nogil=True)
def partner_lists(later, earlier, n_docs):  # pragma: no cover - compiled
    """Candidate k = (later[k], earlier[k]) listed under its later document: (start per document, partner, k)."""
    start = np.zeros(n_docs + 1, dtype=np.int64)
    for k in range(later.size):
        start[later[k] + 1] += 1
    for d in range(n_docs):
        start[d + 1] += start[d]
    fill = start[:-1].copy()
    partner = np.empty(later.size, dtype=np.int32)
    index = np.empty(later.size, dtype=np.int64)
    for k in range(later.size):
        d = later[k]
        partner[fill[d]] = earlier[k]
        index[fill[d]] = k
        fill[d] += 1
    return start, partner, index


@nb.njit(cache=True, nogil=True)
def join_rows(tok, offsets, order, pos_of, post_start, post_doc, post_pos, adj_start, adj_doc, adj_k, t, lo, hi, out):
    """Processing positions ``lo:hi``: each document x meets its candidates processed before it through the
    postings of its probe prefix; ``out[k]`` gets |x ∩ y| of every candidate k that reaches alpha (left as it is
    for the others: they are below ``t``)."""  # pragma: no cover - compiled
    n = offsets.size - 1
    cand = np.full(n, -1, dtype=np.int64)
    count = np.zeros(n, dtype=np.int64)
    last_i = np.zeros(n, dtype=np.int64)
    last_j = np.zeros(n, dtype=np.int64)
    touched = np.empty(n, dtype=np.int64)
    index_share = 2.0 * t / (1.0 + t)
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
                alpha = math.ceil(t / (1.0 + t) * (sx + sy))
                if count[y] == 0:
                    touched[nt] = y
                    nt += 1
                if count[y] + 1 + min(sx - i - 1, sy - j - 1) >= alpha:
                    count[y] += 1
                    last_i[y] = i
                    last_j[y] = j
                else:
                    count[y] = -1
        for s in range(nt):
            y = touched[s]
            if count[y] > 0:
                sy = offsets[y + 1] - offsets[y]
                alpha = math.ceil(t / (1.0 + t) * (sx + sy))
                c = _finish(
                    tok, ox, sx, offsets[y], sy, px, _prefix(sy, index_share), last_i[y], last_j[y], count[y], alpha
                )
                if c >= alpha:
                    out[cand[y]] = c
            count[y] = 0
        for a in range(adj_start[x], adj_start[x + 1]):
            cand[adj_doc[a]] = -1
    return out


@nb.njit(inline="always")
def _finish(tok, ox, sx, oy, sy, px, py, li, lj, c, alpha):  # pragma: no cover - compiled
    """The overlap counted so far in both prefixes plus the rest past the last prefix token that ended first;
    stops (below alpha) once the rest cannot reach alpha."""
    wx, wy = tok[ox + px - 1], tok[oy + py - 1]
    if wx < wy:
        i, j = px, lj + 1
    elif wx > wy:
        i, j = li + 1, py
    else:
        i, j = px, py
    while i < sx and j < sy:
        if c + min(sx - i, sy - j) < alpha:
            return c
        u, v = tok[ox + i], tok[oy + j]
        c += u == v
        i += u <= v
        j += v <= u
    return c
