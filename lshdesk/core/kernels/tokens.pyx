"""The compiled front end (Cython, the GIL released): bytes to token ids, token ids to sorted unique 32-bit shingle ids.

A token is a maximal run of ASCII letters and digits or non-ASCII bytes, ASCII letters lowered. On ASCII text
that is exactly the spec's NFKC + casefold + ``[^\\W_]+`` (NFKC is the identity on ASCII, casefold is ``lower``);
other text is normalised and tokenized in Python first and handed over as its tokens joined by spaces (UTF-8),
which this kernel splits back into the same tokens. So both paths give every token the same id.
"""

import numpy as np

from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset

from lshdesk.core.kernels._mix cimport C0, absorb_word, fmix64
from lshdesk.core.kernels._swar cimport LSH_SWAR, swar_ids

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


cdef const uint8_t[::1] _table(table, str name):
    """A 256-entry byte table as bytes (``WHITE`` is bool, one byte each); any shorter table is refused."""
    a = np.ascontiguousarray(table)
    if a.dtype.itemsize != 1 or a.shape[0] < 256:
        raise ValueError(f"{name} must be a table of 256 one-byte entries, got {a.dtype} of shape {a.shape}")
    return a.view(np.uint8)


cdef Py_ssize_t _documents(const int64_t[::1] offsets) except -1:
    if offsets.shape[0] == 0:
        raise ValueError("offsets must hold at least one entry (0 documents: [0])")
    return offsets.shape[0] - 1


def ascii_char_units(const uint8_t[::1] buf, const int64_t[::1] offsets, white):
    """``shingling.char_text`` of ASCII documents as code points, without Python: letters lowered, each whitespace
    run one space, none at either end. (code points as uint64, per-document offsets)."""
    cdef const uint8_t[::1] w = _table(white, "white")
    cdef Py_ssize_t nd = _documents(offsets), d, o = 0
    cdef int64_t k
    cdef uint8_t c
    cdef bint started, pending
    out_a = np.empty(offsets[nd] - offsets[0], dtype=np.uint64)
    off_a = np.empty(nd + 1, dtype=np.int64)
    cdef uint64_t[::1] out = out_a
    cdef int64_t[::1] off = off_a
    with nogil:
        off[0] = 0
        for d in range(nd):
            started = False
            pending = False
            for k in range(offsets[d], offsets[d + 1]):
                c = buf[k]
                if w[c]:
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
    return out_a[:o], off_a


cdef bint _swar_table(table):
    """True if ``table`` is TOKEN_BYTES on a machine where its tokens are found eight bytes at a time (``_swar``)."""
    return LSH_SWAR and np.array_equal(table, TOKEN_BYTES)


cdef Py_ssize_t _tokenize_doc(const uint8_t *buf, int64_t start, int64_t end, const uint8_t *table,
                              uint64_t *toks, Py_ssize_t t, bint swar) noexcept nogil:
    """Write the token ids of ``buf[start:end]`` to ``toks[t:]``; return the new end of ``toks``. With ``swar``
    (``table`` is TOKEN_BYTES) eight bytes at a time (``_swar.swar_ids``), else a byte at a time; the same ids."""
    cdef uint64_t h = C0, w = 0
    cdef uint64_t length = 0
    cdef uint64_t state[3]
    cdef int64_t i
    cdef uint8_t c
    if swar:
        state[2] = 0
        t = swar_ids(buf + start, end - start, toks, t, state)
        if state[2]:
            h, w, length = state[0], state[1], state[2]
            if length & 7:
                h = absorb_word(h, w)
            toks[t] = fmix64(h ^ length)
            t += 1
        return t
    for i in range(start, end):
        c = table[buf[i]]
        if c != 0:
            w |= (<uint64_t>c) << (8 * (length & 7))
            length += 1
            if length & 7 == 0:
                h = absorb_word(h, w)
                w = 0
        elif length:
            if length & 7:
                h = absorb_word(h, w)
            toks[t] = fmix64(h ^ length)
            t += 1
            h = C0
            w = 0
            length = 0
    if length:
        if length & 7:
            h = absorb_word(h, w)
        toks[t] = fmix64(h ^ length)
        t += 1
    return t


def tokenize_bytes(const uint8_t[::1] buf, const int64_t[::1] offsets, table):
    """Token ids of each document ``buf[offsets[d]:offsets[d+1]]``: (ids, per-document offsets into ids).

    A token's id: its bytes taken 8 at a time as little-endian words (the last zero-padded), each absorbed as
    ``h = (rotl(h, 27) ^ word) * C1`` from ``h = C0``, then ``fmix64(h ^ length)`` (``hashing.token_id``).
    """
    cdef const uint8_t[::1] tb = _table(table, "table")
    cdef Py_ssize_t n = _documents(offsets), d, t = 0
    cdef int64_t cap = 0
    with nogil:
        for d in range(n):
            cap += (offsets[d + 1] - offsets[d] + 1) // 2
    toks_a = np.empty(cap, dtype=np.uint64)
    tok_off_a = np.empty(n + 1, dtype=np.int64)
    cdef uint64_t[::1] toks = toks_a
    cdef int64_t[::1] tok_off = tok_off_a
    cdef const uint8_t *b = &buf[0] if buf.shape[0] else NULL
    cdef uint64_t *tp = &toks[0] if cap else NULL
    cdef bint swar = _swar_table(table)
    with nogil:
        tok_off[0] = 0
        for d in range(n):
            t = _tokenize_doc(b, offsets[d], offsets[d + 1], &tb[0], tp, t, swar)
            tok_off[d + 1] = t
    return toks_a[:t], tok_off_a


cdef void _radix_sort(uint32_t *dst, uint32_t *scratch, Py_ssize_t cnt) noexcept nogil:
    """dst sorted in place: four stable passes of 8 bits, through ``scratch`` and back (linear on any values)."""
    cdef Py_ssize_t count[257]
    cdef Py_ssize_t i
    cdef int shift
    cdef uint32_t *a = dst
    cdef uint32_t *b = scratch
    cdef uint32_t *swap
    for shift in range(0, 32, 8):
        memset(count, 0, sizeof(count))
        for i in range(cnt):
            count[((a[i] >> shift) & 0xFF) + 1] += 1
        for i in range(256):
            count[i + 1] += count[i]
        for i in range(cnt):
            b[count[(a[i] >> shift) & 0xFF]] = a[i]
            count[(a[i] >> shift) & 0xFF] += 1
        swap = a
        a = b
        b = swap  # after an even number of passes the sorted values are back in dst


cdef void _sort_hashed(uint32_t *src, uint32_t *dst, Py_ssize_t cnt, int64_t *counts) noexcept nogil:
    """dst = sorted(src) for hash-like values: bucket by top bits, then insertion sort with a work budget
    (``src`` is scratch afterwards)."""
    cdef int bits = 1
    while (<int64_t>1 << bits) < cnt:
        bits += 1
    cdef int shift = 32 - bits
    cdef Py_ssize_t nb = <Py_ssize_t>1 << bits, i, j, bkt
    cdef int64_t budget = 8 * cnt + 64
    cdef uint32_t v
    memset(counts, 0, (nb + 1) * sizeof(int64_t))
    for i in range(cnt):
        counts[(src[i] >> shift) + 1] += 1
    for i in range(nb):
        counts[i + 1] += counts[i]
    for i in range(cnt):
        bkt = src[i] >> shift
        dst[counts[bkt]] = src[i]
        counts[bkt] += 1
    for i in range(1, cnt):
        v = dst[i]
        j = i - 1
        while j >= 0 and dst[j] > v:
            dst[j + 1] = dst[j]
            j -= 1
        dst[j + 1] = v
        budget -= i - 1 - j
        if budget < 0:  # clustered values (many repeats of few shingles): dst is still a permutation of src
            _radix_sort(dst, src, cnt)
            return


cdef Py_ssize_t _doc_windows(const uint64_t *units, Py_ssize_t m, Py_ssize_t n, uint32_t *tmp, int64_t *counts,
                             uint32_t *out) noexcept nogil:
    """Write the sorted unique window ids of one document's m units to ``out``; return how many."""
    if m == 0:
        return 0
    cdef Py_ssize_t w = n if m >= n else m
    cdef Py_ssize_t cnt = m - w + 1, i, j, u = 1
    cdef uint64_t h
    for i in range(cnt):
        h = C0
        for j in range(w):
            h = absorb_word(h, units[i + j])
        h = fmix64(h ^ <uint64_t>w)
        tmp[i] = <uint32_t>(h ^ (h >> 32))
    _sort_hashed(tmp, out, cnt, counts)
    for i in range(1, cnt):
        if out[i] != out[u - 1]:
            out[u] = out[i]
            u += 1
    return u


cdef object _counts_for(int64_t longest):
    """The bucket counts ``_sort_hashed`` needs for documents of up to ``longest`` windows."""
    cdef int bits = 1
    while (<int64_t>1 << bits) < longest:
        bits += 1
    return np.empty((<int64_t>1 << bits) + 1, dtype=np.int64)


def window_ids(const uint64_t[::1] units, const int64_t[::1] unit_off, Py_ssize_t n):
    """Sorted unique 32-bit ids of every n-window of each document's units: (ids, per-document offsets).

    A window's id folds ``fmix64(h ^ w)`` to 32 bits (xor of halves), h absorbing its w units in order from C0;
    a document shorter than n (but not empty) has one window of all its w units. Sorting is a counting pass on
    the top bits, then insertion sort (linear on hashed values), with a radix sort if a document defeats it.
    """
    if n < 1:
        raise ValueError(f"windows of n={n} units: n must be at least 1")
    cdef Py_ssize_t nd = _documents(unit_off), d, o = 0
    cdef int64_t m, cap = 0, longest = 1
    with nogil:
        for d in range(nd):
            m = unit_off[d + 1] - unit_off[d]
            cap += max(m - n + 1, 1) if m > 0 else 0
            longest = max(longest, m)
    out_a = np.empty(cap, dtype=np.uint32)
    tmp_a = np.empty(longest, dtype=np.uint32)
    counts_a = _counts_for(longest)
    off_a = np.empty(nd + 1, dtype=np.int64)
    cdef uint32_t[::1] out = out_a, tmp = tmp_a
    cdef int64_t[::1] counts = counts_a, off = off_a
    cdef const uint64_t *u = &units[0] if units.shape[0] else NULL
    with nogil:
        off[0] = 0
        for d in range(nd):
            m = unit_off[d + 1] - unit_off[d]
            if m:
                o += _doc_windows(u + unit_off[d], m, n, &tmp[0], &counts[0], &out[o])
            off[d + 1] = o
    return out_a[:o], off_a


def word_ids(const uint8_t[::1] buf, const int64_t[::1] offsets, Py_ssize_t n, table):
    """``window_ids(*tokenize_bytes(buf, offsets, table), n)`` one document at a time (scratch space for the
    longest document only): (ids, per-document offsets, tokens per document)."""
    if n < 1:
        raise ValueError(f"windows of n={n} tokens: n must be at least 1")
    cdef const uint8_t[::1] tb = _table(table, "table")
    cdef Py_ssize_t nd = _documents(offsets), d, o = 0, t
    cdef int64_t m, cap = 0, longest = 1
    with nogil:
        for d in range(nd):
            m = (offsets[d + 1] - offsets[d] + 1) // 2  # at most this many tokens
            cap += m
            longest = max(longest, m)
    out_a = np.empty(cap, dtype=np.uint32)
    toks_a = np.empty(longest, dtype=np.uint64)
    tmp_a = np.empty(longest, dtype=np.uint32)
    counts_a = _counts_for(longest)
    off_a = np.empty(nd + 1, dtype=np.int64)
    n_tokens_a = np.empty(nd, dtype=np.int64)
    cdef uint32_t[::1] out = out_a, tmp = tmp_a
    cdef uint64_t[::1] toks = toks_a
    cdef int64_t[::1] counts = counts_a, off = off_a, n_tokens = n_tokens_a
    cdef const uint8_t *b = &buf[0] if buf.shape[0] else NULL
    cdef bint swar = _swar_table(table)
    with nogil:
        off[0] = 0
        for d in range(nd):
            t = _tokenize_doc(b, offsets[d], offsets[d + 1], &tb[0], &toks[0], 0, swar)
            n_tokens[d] = t
            if t:
                o += _doc_windows(&toks[0], t, n, &tmp[0], &counts[0], &out[o])
            off[d + 1] = o
    return out_a[:o].copy(), off_a, n_tokens_a
