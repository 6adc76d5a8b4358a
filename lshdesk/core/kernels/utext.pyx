"""UTF-8 text to the spec's tokens or characters, compiled and GIL-free: NFKC, casefold, then the classes.

Exactly ``shingling.tokenize`` (tokens joined by single spaces, UTF-8) or ``shingling.char_text`` (code points)
of each document of a batch, from tables generated at build time from the building Python's ``unicodedata``
(``gen_unicode_tables.py``). Per document: code points are decoded and fully decomposed (compatibility
decomposition from the table, Hangul by arithmetic) into a segment, which is cut before each SAFE code point
(a starter nothing before can compose with or be reordered past); each segment is put in canonical order
(stable, by combining class), composed (primary composites only), and each of its code points casefolded and
classified (``isalnum`` makes tokens; ``isspace`` runs become one space, none at either end). As in the reference,
the casefolded text is not normalised again. Surrogates (``surrogatepass``) pass through as in the reference (not
letters, not spaces). A document whose bytes are not UTF-8 is marked bad (``unitext`` refuses or decodes it)."""

from libc.stdint cimport int64_t, int8_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memcpy, memset
from cython.view cimport array as cvarray

from lshdesk.core.kernels._mix cimport C0
from lshdesk.core.kernels._utext_out cimport (ALNUM, CP, DSELF, FIRST, FSELF, HANGUL, SAFE, SECOND, SPACE, Out, emit,
                                              put_ascii_ids, put_id, reserve)

import numpy as np

cdef extern from "_unicode_tables.h" nogil:
    const char *UT_UNIDATA_VERSION
    const int UT_SHIFT
    const int UT_MASK
    const int UT_N_PAIRS
    ctypedef struct ut_rec:
        uint8_t ccc
        uint8_t flags
        uint32_t dec
        uint32_t fold
    const uint16_t *ut_stage1
    const uint16_t *ut_stage2
    const ut_rec *ut_recs
    const uint32_t *ut_pool
    const uint64_t *ut_pair_keys
    const uint32_t *ut_pair_vals

UNIDATA_VERSION = UT_UNIDATA_VERSION.decode("ascii")

cdef enum:
    S_BASE = 0xAC00  # Hangul: syllables, leading consonants, vowels, trailing consonants (T_BASE + 0 is none)
    L_BASE = 0x1100
    V_BASE = 0x1161
    T_BASE = 0x11A7
    L_COUNT = 19
    V_COUNT = 21
    T_COUNT = 28
    S_COUNT = L_COUNT * V_COUNT * T_COUNT


cdef struct Seg:
    uint32_t *v  # packed ``cp | ccc << 21``
    Py_ssize_t n
    Py_ssize_t cap
    bint failed  # out of memory


cdef inline const ut_rec *rec(uint32_t cp) noexcept nogil:
    return &ut_recs[ut_stage2[(<uint32_t>ut_stage1[cp >> UT_SHIFT] << UT_SHIFT) | (cp & UT_MASK)]]


cdef inline void push(Seg *s, uint32_t packed) noexcept nogil:
    cdef Py_ssize_t cap
    cdef void *p
    if s.n == s.cap:
        cap = max(2 * s.cap, 64)
        p = realloc(s.v, cap * 4)
        if p == NULL:
            s.failed = True
            return
        s.v = <uint32_t *>p
        s.cap = cap
    s.v[s.n] = packed
    s.n += 1


cdef inline void put(Out *o, uint32_t cp, uint8_t flags) noexcept nogil:
    """One code point of the casefolded text, classified."""
    if o.ids:
        put_id(o, cp, flags, TOKEN_ASCII)
        return
    if o.chars:
        if flags & SPACE:
            o.pending = o.started
            return
        if not reserve(o, 2):
            return
        if o.pending:
            o.u[o.n] = 32
            o.n += 1
            o.pending = False
        o.u[o.n] = cp
        o.n += 1
        o.started = True
        return
    if not flags & ALNUM:
        o.in_token = False
        return
    if not reserve(o, 5):
        return
    if not o.in_token and o.n > o.start:
        o.b[o.n] = 32
        o.n += 1
    o.in_token = True
    if cp < 0x80:
        o.b[o.n] = cp
        o.n += 1
    elif cp < 0x800:
        o.b[o.n] = 0xC0 | (cp >> 6)
        o.b[o.n + 1] = 0x80 | (cp & 0x3F)
        o.n += 2
    elif cp < 0x10000:
        o.b[o.n] = 0xE0 | (cp >> 12)
        o.b[o.n + 1] = 0x80 | ((cp >> 6) & 0x3F)
        o.b[o.n + 2] = 0x80 | (cp & 0x3F)
        o.n += 3
    else:
        o.b[o.n] = 0xF0 | (cp >> 18)
        o.b[o.n + 1] = 0x80 | ((cp >> 12) & 0x3F)
        o.b[o.n + 2] = 0x80 | ((cp >> 6) & 0x3F)
        o.b[o.n + 3] = 0x80 | (cp & 0x3F)
        o.n += 4


cdef uint8_t ASCII_LOWER[128]
cdef uint8_t ASCII_FLAGS[128]
cdef uint8_t TOKEN_ASCII[128]  # ``tokens.TOKEN_BYTES`` below 128: the byte as it enters a token, 0 between tokens
for _c in range(128):
    ASCII_LOWER[_c] = _c + 32 if 65 <= _c <= 90 else _c
    ASCII_FLAGS[_c] = ALNUM if chr(_c).isalnum() else SPACE if chr(_c).isspace() else 0
    TOKEN_ASCII[_c] = _c + 32 if 65 <= _c <= 90 else _c if 48 <= _c <= 57 or 97 <= _c <= 122 else 0


cdef void put_ascii(Out *o, const uint8_t *t, Py_ssize_t n) noexcept nogil:
    """``put`` of n ASCII characters none of which a combining character follows (each its own segment); the state
    in locals: stores through ``uint8_t *`` may alias the struct, which kept the compiler reloading it per byte."""
    cdef Py_ssize_t k, w = o.n
    cdef Py_ssize_t start = o.start
    cdef uint8_t c
    cdef bint flag, started
    cdef uint8_t *b
    cdef uint64_t *u
    if o.ids:
        put_ascii_ids(o, t, n, TOKEN_ASCII)
        return
    if not reserve(o, n + 1):  # a separator or a space at most once more than there are characters
        return
    b, u = o.b, o.u
    if o.chars:
        flag, started = o.pending, o.started
        for k in range(n):
            c = t[k]
            if ASCII_FLAGS[c] & SPACE:
                flag = started
                continue
            if flag:
                u[w] = 32
                w += 1
                flag = False
            u[w] = ASCII_LOWER[c]
            w += 1
            started = True
        o.pending, o.started = flag, started
    else:
        flag = o.in_token
        for k in range(n):
            c = t[k]
            if ASCII_FLAGS[c] & ALNUM:
                if not flag and w > start:
                    b[w] = 32
                    w += 1
                flag = True
                b[w] = ASCII_LOWER[c]
                w += 1
            else:
                flag = False
        o.in_token = flag
    o.n = w


cdef void put_folded(Out *o, uint32_t cp, const ut_rec *r) noexcept nogil:
    """A composed code point (its record r), casefolded (one to three code points), each put."""
    cdef uint32_t k, f
    if r.flags & FSELF:
        put(o, cp, r.flags)
        return
    for k in range(r.fold >> 5, (r.fold >> 5) + (r.fold & 31)):
        f = ut_pool[k] & CP
        put(o, f, rec(f).flags)


cdef uint32_t compose_pair(uint32_t a, uint32_t b) noexcept nogil:
    """The primary composite of a and b, or 0."""
    cdef Py_ssize_t lo, hi, mid
    cdef uint64_t key
    if L_BASE <= a < L_BASE + L_COUNT and V_BASE <= b < V_BASE + V_COUNT:
        return S_BASE + ((a - L_BASE) * V_COUNT + (b - V_BASE)) * T_COUNT
    if S_BASE <= a < S_BASE + S_COUNT and (a - S_BASE) % T_COUNT == 0 and T_BASE < b < T_BASE + T_COUNT:
        return a + (b - T_BASE)
    if not (rec(a).flags & FIRST and rec(b).flags & SECOND):
        return 0
    key = (<uint64_t>a << 21) | b
    lo, hi = 0, UT_N_PAIRS
    while lo < hi:
        mid = (lo + hi) >> 1
        if ut_pair_keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return ut_pair_vals[lo] if lo < UT_N_PAIRS and ut_pair_keys[lo] == key else 0


cdef void flush(Out *o, Seg *s) noexcept nogil:
    """Order, compose, casefold and put the segment's code points; empty it."""
    cdef Py_ssize_t i, j, w, starter
    cdef uint32_t x, c, comp, last_cc
    cdef uint32_t *v = s.v
    cdef Py_ssize_t n = s.n
    cdef uint8_t one
    if n == 1 and v[0] < 0x80:  # an ASCII character alone (before a starter): as put_ascii puts it
        one = <uint8_t>v[0]
        put_ascii(o, &one, 1)
        s.n = 0
        return
    if n > 1:
        for i in range(1, n):  # canonical order: stable insertion sort of each run of non-starters by class
            x = v[i]
            c = x >> 21
            if c == 0:
                continue
            j = i
            while j > 0 and (v[j - 1] >> 21) > c:
                v[j] = v[j - 1]
                j -= 1
            v[j] = x
        starter = -1
        last_cc = 0
        w = 0
        for i in range(n):  # canonical composition: c joins the last starter unless blocked
            x = v[i]
            c = x >> 21
            if starter >= 0 and (w == starter + 1 or last_cc < c):
                comp = compose_pair(v[starter] & CP, x & CP)
                if comp:
                    v[starter] = comp | (<uint32_t>rec(comp).ccc << 21)
                    continue
            if c == 0:
                starter = w
            last_cc = c
            v[w] = x
            w += 1
        n = w
    for i in range(n):
        put_folded(o, v[i] & CP, rec(v[i] & CP))
    s.n = 0


cdef inline Py_ssize_t ascii_end(const uint8_t *t, Py_ssize_t j, Py_ssize_t m) noexcept nogil:
    """The first position from j on whose byte is not ASCII (or m), eight bytes at a time."""
    cdef uint64_t x
    while j + 8 <= m:
        memcpy(&x, t + j, 8)
        if x & 0x8080808080808080ULL:
            break
        j += 8
    while j < m and t[j] < 0x80:
        j += 1
    return j


cdef int run_doc(Out *o, Seg *s, const uint8_t *t, Py_ssize_t m, bint strict) noexcept nogil:
    """One document's bytes to the output: 0, or 1 if they are not UTF-8 (surrogates allowed unless ``strict``, as
    Python's strict decoder refuses them), -1 out of memory."""
    cdef Py_ssize_t i = 0, j, k, more
    cdef uint32_t b, cp, sidx
    cdef const ut_rec *r
    while i < m:
        if o.failed:
            return -1
        b = t[i]
        if b < 0x80:  # a run of ASCII: the last one before a non-ASCII byte starts a segment
            if s.n:
                flush(o, s)
            j = ascii_end(t, i + 1, m)
            put_ascii(o, t + i, j - i - (j < m))
            if j < m:
                push(s, t[j - 1])
            i = j
            continue
        if b < 0xC2 or b > 0xF4:  # a continuation byte, an overlong pair or past U+10FFFF
            return 1
        more = 1 if b < 0xE0 else 2 if b < 0xF0 else 3
        if i + more >= m:
            return 1
        cp = b & (0x1F >> (more - 1))
        for k in range(i + 1, i + more + 1):
            if t[k] & 0xC0 != 0x80:
                return 1
            cp = cp << 6 | (t[k] & 0x3F)
        if cp < (0x80 if more == 1 else 0x800 if more == 2 else 0x10000) or cp > 0x10FFFF:
            return 1
        if strict and 0xD800 <= cp < 0xE000:
            return 1
        i += more + 1
        r = rec(cp)
        if r.flags & SAFE:
            if s.n:
                flush(o, s)
            if r.flags & (DSELF | FIRST) == DSELF:  # a starter that nothing can join: put at once
                put_folded(o, cp, r)
                continue
        if r.flags & DSELF:
            push(s, cp | (<uint32_t>r.ccc << 21))
        elif r.flags & HANGUL:
            sidx = cp - S_BASE
            push(s, L_BASE + sidx // (V_COUNT * T_COUNT))
            push(s, V_BASE + (sidx % (V_COUNT * T_COUNT)) // T_COUNT)
            if sidx % T_COUNT:
                push(s, T_BASE + sidx % T_COUNT)
        else:
            for k in range(r.dec >> 5, (r.dec >> 5) + (r.dec & 31)):
                push(s, ut_pool[k])
        if s.failed:
            return -1
    if s.n:
        flush(o, s)
    if o.ids:
        emit(o)
    return -1 if o.failed else 0


cdef object _handed_over(Out *o):
    """The output as a numpy array owning (to free) the kernel's buffer: 14 MB of text is 112 MB of code points."""
    cdef Py_ssize_t item = 8 if o.chars or o.ids else 1
    cdef void *p = o.u if o.chars or o.ids else <void *>o.b
    cdef void *q
    cdef cvarray arr
    if o.n == 0:
        return np.empty(0, dtype=np.uint64 if o.chars or o.ids else np.uint8)
    q = realloc(p, o.n * item)  # give back the unused capacity
    p = q if q != NULL else p
    o.u = NULL
    o.b = NULL
    arr = cvarray(shape=(o.n,), itemsize=item, format="Q" if item == 8 else "B", mode="c", allocate_buffer=False)
    arr.data = <char *>p
    arr.callback_free_data = free
    return np.asarray(arr)


def _run(const uint8_t[::1] buf, const int64_t[::1] offsets, bint chars, bint strict=False, bint ids=False):
    """The batch through ``run_doc``: (output, per-document offsets, bad documents as int8 flags). With ``ids``
    (word mode): each token's id (uint64), exactly ``tokens.tokenize_bytes`` of the token bytes word mode gives."""
    cdef Py_ssize_t nd = offsets.shape[0] - 1
    cdef Out o
    cdef Seg s
    cdef Py_ssize_t d
    cdef int status = 0
    out_off = np.empty(nd + 1, dtype=np.int64)
    bad = np.zeros(nd, dtype=np.int8)
    cdef int64_t[::1] off = out_off
    cdef int8_t[::1] bd = bad
    memset(&o, 0, sizeof(o))
    memset(&s, 0, sizeof(s))
    o.chars = chars
    o.ids = ids and not chars
    # about the size of the input (ids: a token at most every second byte): grown if it is not enough
    reserve(&o, (offsets[nd] - offsets[0]) // (2 if o.ids else 1) + nd)
    try:
        with nogil:
            off[0] = 0
            for d in range(nd):
                o.start = o.n
                o.in_token = o.started = o.pending = False
                o.h, o.w, o.length = C0, 0, 0
                s.n = 0
                status = run_doc(&o, &s, &buf[0] + offsets[d], offsets[d + 1] - offsets[d], strict)
                if status < 0:
                    break
                if status:
                    o.n = o.start
                    bd[d] = 1
                off[d + 1] = o.n
        if status < 0:
            raise MemoryError("utext: out of memory normalising a batch of texts")
        return _handed_over(&o), out_off, bad
    finally:
        free(o.b)
        free(o.u)
        free(s.v)
