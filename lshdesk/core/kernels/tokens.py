"""The compiled front end (numba, ``nogil``): bytes to token ids, token ids to sorted unique 32-bit shingle ids.

A token is a maximal run of ASCII letters and digits or non-ASCII bytes, ASCII letters lowered. On ASCII text
that is exactly the spec's NFKC + casefold + ``[^\\W_]+`` (NFKC is the identity on ASCII, casefold is ``lower``);
other text is normalised and tokenized in Python first and handed over as its tokens joined by spaces (UTF-8),
which this kernel splits back into the same tokens. So both paths give every token the same id.
"""

from __future__ import annotations

import numpy as np

from lshdesk.core.kernels.jit import nb
from lshdesk.core.kernels.mixing import C0, absorb_word, fmix64

_S8 = np.uint64(8)
_S32 = np.uint64(32)
_LO32 = np.uint64(0xFFFFFFFF)

# byte -> 0 if it separates tokens, else the byte as it enters the token (ASCII letters lowered)
TOKEN_BYTES = np.zeros(256, dtype=np.uint8)
for _c in range(256):
    if 48 <= _c <= 57 or 97 <= _c <= 122 or _c >= 128:
        TOKEN_BYTES[_c] = _c
    elif 65 <= _c <= 90:
        TOKEN_BYTES[_c] = _c + 32


# ASCII bytes that Python's ``str.isspace`` (and the ``\\s`` of ``shingling.char_text``) takes for whitespace
WHITE = np.zeros(256, dtype=np.bool_)
WHITE[[9, 10, 11, 12, 13, 28, 29, 30, 31, 32]] = True


@nb.njit(cache=True, nogil=True)
def ascii_char_units(buf, offsets, white):  # pragma: no cover - compiled
    """``shingling.char_text`` of ASCII documents as code points, without Python: letters lowered, each whitespace
    run one space, none at either end. (code points as uint64, per-document offsets)."""
    nd = offsets.size - 1
    out = np.empty(offsets[nd] - offsets[0], dtype=np.uint64)
    off = np.empty(nd + 1, dtype=np.int64)
    off[0] = 0
    o = 0
    for d in range(nd):
        started = False
        pending = False
        for k in range(offsets[d], offsets[d + 1]):
            c = buf[k]
            if white[c]:
                pending = started
                continue
            if pending:
                out[o] = 32
                o += 1
                pending = False
            out[o] = c + 32 if 65 <= c <= 90 else c
            o += 1
            started = True
        off[d + 1] = o
    return out[:o], off


@nb.njit(nogil=True)
def _tokenize_doc(buf, start, end, table, toks, t):  # pragma: no cover - compiled
    """Write the token ids of ``buf[start:end]`` to ``toks[t:]``; return the new end of ``toks``."""
    h = C0
    w = np.uint64(0)
    length = 0
    for i in range(start, end):
        c = table[buf[i]]
        if c != 0:
            w |= np.uint64(c) << (_S8 * np.uint64(length & 7))
            length += 1
            if length & 7 == 0:
                h = absorb_word(h, w)
                w = np.uint64(0)
        elif length:
            if length & 7:
                h = absorb_word(h, w)
            toks[t] = fmix64(h ^ np.uint64(length))
            t += 1
            h = C0
            w = np.uint64(0)
            length = 0
    if length:
        if length & 7:
            h = absorb_word(h, w)
        toks[t] = fmix64(h ^ np.uint64(length))
        t += 1
    return t


@nb.njit(cache=True, nogil=True)
def tokenize_bytes(buf, offsets, table):  # pragma: no cover - compiled
    """Token ids of each document ``buf[offsets[d]:offsets[d+1]]``: (ids, per-document offsets into ids).

    A token's id: its bytes taken 8 at a time as little-endian words (the last zero-padded), each absorbed as
    ``h = (rotl(h, 27) ^ word) * C1`` from ``h = C0``, then ``fmix64(h ^ length)`` (``hashing.token_id``).
    """
    n = offsets.size - 1
    cap = 0
    for d in range(n):
        cap += (offsets[d + 1] - offsets[d] + 1) // 2
    toks = np.empty(cap, dtype=np.uint64)
    tok_off = np.empty(n + 1, dtype=np.int64)
    tok_off[0] = 0
    t = 0
    for d in range(n):
        t = _tokenize_doc(buf, offsets[d], offsets[d + 1], table, toks, t)
        tok_off[d + 1] = t
    return toks[:t], tok_off


@nb.njit(nogil=True)
def _doc_windows(units, s, m, n, tmp, counts, out, o):  # pragma: no cover - compiled
    """Append the sorted unique window ids of one document's m units ``units[s:s+m]`` to ``out[o:]``; new end."""
    if m == 0:
        return o
    w = n if m >= n else m
    cnt = m - w + 1
    for i in range(cnt):
        h = C0
        for j in range(w):
            h = absorb_word(h, units[s + i + j])
        h = fmix64(h ^ np.uint64(w))
        tmp[i] = np.uint32((h ^ (h >> _S32)) & _LO32)
    seg = out[o : o + cnt]
    _sort_hashed(tmp[:cnt], seg, counts)
    u = 1
    for i in range(1, cnt):
        if seg[i] != seg[u - 1]:
            seg[u] = seg[i]
            u += 1
    return o + u


@nb.njit(nogil=True)
def _counts_for(longest):  # pragma: no cover - compiled
    bits = 1
    while (1 << bits) < longest:
        bits += 1
    return np.empty((1 << bits) + 1, dtype=np.int64)


@nb.njit(cache=True, nogil=True)
def window_ids(units, unit_off, n):  # pragma: no cover - compiled
    """Sorted unique 32-bit ids of every n-window of each document's units: (ids, per-document offsets).

    A window's id folds ``fmix64(h ^ w)`` to 32 bits (xor of halves), h absorbing its w units in order from C0;
    a document shorter than n (but not empty) has one window of all its w units. Sorting is a counting pass on
    the top bits, then insertion sort (linear on hashed values), with ``np.sort`` if a document defeats it.
    """
    nd = unit_off.size - 1
    cap = 0
    longest = 1
    for d in range(nd):
        m = unit_off[d + 1] - unit_off[d]
        cap += max(m - n + 1, 1) if m > 0 else 0
        longest = max(longest, m)
    out = np.empty(cap, dtype=np.uint32)
    tmp = np.empty(longest, dtype=np.uint32)
    counts = _counts_for(longest)
    off = np.empty(nd + 1, dtype=np.int64)
    off[0] = 0
    o = 0
    for d in range(nd):
        o = _doc_windows(units, unit_off[d], unit_off[d + 1] - unit_off[d], n, tmp, counts, out, o)
        off[d + 1] = o
    return out[:o], off


@nb.njit(cache=True, nogil=True)
def word_ids(buf, offsets, n, table):  # pragma: no cover - compiled
    """``window_ids(*tokenize_bytes(buf, offsets, table), n)`` one document at a time (scratch space for the
    longest document only): (ids, per-document offsets, tokens per document)."""
    nd = offsets.size - 1
    cap = 0
    longest = 1
    for d in range(nd):
        m = (offsets[d + 1] - offsets[d] + 1) // 2  # at most this many tokens
        cap += m
        longest = max(longest, m)
    out = np.empty(cap, dtype=np.uint32)
    toks = np.empty(longest, dtype=np.uint64)
    tmp = np.empty(longest, dtype=np.uint32)
    counts = _counts_for(longest)
    off = np.empty(nd + 1, dtype=np.int64)
    n_tokens = np.empty(nd, dtype=np.int64)
    off[0] = 0
    o = 0
    for d in range(nd):
        m = _tokenize_doc(buf, offsets[d], offsets[d + 1], table, toks, 0)
        n_tokens[d] = m
        o = _doc_windows(toks, 0, m, n, tmp, counts, out, o)
        off[d + 1] = o
    return out[:o].copy(), off, n_tokens


@nb.njit(nogil=True)
def _sort_hashed(src, dst, counts):  # pragma: no cover - compiled
    """dst = sorted(src) for hash-like values: bucket by top bits, then insertion sort with a work budget."""
    cnt = src.size
    bits = 1
    while (1 << bits) < cnt:
        bits += 1
    shift = np.uint32(32 - bits)
    nb_ = 1 << bits
    counts[: nb_ + 1] = 0
    for i in range(cnt):
        counts[(src[i] >> shift) + 1] += 1
    for i in range(nb_):
        counts[i + 1] += counts[i]
    for i in range(cnt):
        bkt = src[i] >> shift
        dst[counts[bkt]] = src[i]
        counts[bkt] += 1
    budget = 8 * cnt + 64
    for i in range(1, cnt):
        v = dst[i]
        j = i - 1
        while j >= 0 and dst[j] > v:
            dst[j + 1] = dst[j]
            j -= 1
        dst[j + 1] = v
        budget -= i - 1 - j
        if budget < 0:  # clustered values (many repeats of few shingles): a general sort
            dst[:] = np.sort(src)
            return
