# utext's output (token bytes, code points or token ids) and its ids mode, shared as inline functions (utext.pyx).
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport realloc

from lshdesk.core.kernels._mix cimport C0, absorb_word, fmix64
from lshdesk.core.kernels._swar cimport LSH_SWAR, swar_ids

# record flags (as gen_unicode_tables.py writes them)
cdef enum:
    ALNUM = 1
    SPACE = 2
    FIRST = 4
    SECOND = 8
    SAFE = 16
    DSELF = 32
    FSELF = 64
    HANGUL = 128
    CP = 0x1FFFFF  # the code point of a packed ``cp | ccc << 21``


cdef struct Out:
    uint8_t *b  # word mode: the token bytes
    uint64_t *u  # char mode: the code points; ids mode: the token ids
    Py_ssize_t n
    Py_ssize_t cap
    Py_ssize_t start  # where the current document's output begins
    bint chars
    bint ids  # word mode, each token's id (``tokens.tokenize_bytes`` of the token bytes) instead of its bytes
    uint64_t h  # ids mode: the running hash of the current token, its bytes not yet absorbed, and its length
    uint64_t w
    uint64_t length
    bint in_token  # word mode: the last code point was part of a token
    bint started  # char mode: a character has been written for this document
    bint pending  # char mode: whitespace since the last character written
    bint failed  # out of memory


cdef inline bint reserve(Out *o, Py_ssize_t more) noexcept nogil:
    """Room for ``more`` items in the output; False (and ``failed``) when memory runs out."""
    cdef Py_ssize_t cap
    cdef void *p
    if o.n + more <= o.cap:
        return True
    cap = max(2 * o.cap, o.n + more, 4096)
    p = realloc(o.u if o.chars or o.ids else <void *>o.b, cap * (8 if o.chars or o.ids else 1))
    if p == NULL:
        o.failed = True
        return False
    if o.chars or o.ids:
        o.u = <uint64_t *>p
    else:
        o.b = <uint8_t *>p
    o.cap = cap
    return True


cdef inline void feed(Out *o, uint64_t c) noexcept nogil:
    """ids mode: one byte of the current token (``tokens._tokenize_doc``'s absorbing, 8 bytes a word)."""
    o.w |= c << (8 * (o.length & 7))
    o.length += 1
    if o.length & 7 == 0:
        o.h = absorb_word(o.h, o.w)
        o.w = 0


cdef inline void emit(Out *o) noexcept nogil:
    """ids mode: the current token (if any) ends: its id is written."""
    if o.length == 0:
        return
    if o.length & 7:
        o.h = absorb_word(o.h, o.w)
    if reserve(o, 1):
        o.u[o.n] = fmix64(o.h ^ o.length)
        o.n += 1
    o.h = C0
    o.w = 0
    o.length = 0


cdef inline void feed_n(Out *o, uint64_t v, uint64_t k) noexcept nogil:
    """ids mode: ``k`` (1 to 4) bytes of the current token at once, ``v`` holding them little-endian: as ``feed``
    of each in turn."""
    cdef uint64_t used = o.length & 7, room = 8 - used
    o.w |= v << (8 * used)
    o.length += k
    if k >= room:  # the word is full (room <= 4 here, so the shifts stay below 64)
        o.h = absorb_word(o.h, o.w)
        o.w = v >> (8 * room)


cdef inline void put_id(Out *o, uint32_t cp, uint8_t flags, const uint8_t *TOKEN_ASCII) noexcept nogil:
    """``put`` in ids mode: the token's UTF-8 bytes absorbed as the byte tokenizer would read them."""
    if not flags & ALNUM:
        emit(o)
        return
    if cp < 0x80:
        if TOKEN_ASCII[cp] == 0:  # never for a letter or digit: as the byte tokenizer's table would split it
            emit(o)
            return
        feed(o, TOKEN_ASCII[cp])
    elif cp < 0x800:
        feed_n(o, (0xC0 | (cp >> 6)) | (<uint64_t>(0x80 | (cp & 0x3F)) << 8), 2)
    elif cp < 0x10000:
        feed_n(o, (0xE0 | (cp >> 12)) | (<uint64_t>(0x80 | ((cp >> 6) & 0x3F)) << 8)
               | (<uint64_t>(0x80 | (cp & 0x3F)) << 16), 3)
    else:
        feed_n(o, (0xF0 | (cp >> 18)) | (<uint64_t>(0x80 | ((cp >> 12) & 0x3F)) << 8)
               | (<uint64_t>(0x80 | ((cp >> 6) & 0x3F)) << 16) | (<uint64_t>(0x80 | (cp & 0x3F)) << 24), 4)


cdef inline void put_ascii_ids(Out *o, const uint8_t *t, Py_ssize_t n, const uint8_t *TOKEN_ASCII) noexcept nogil:
    """``put_ascii`` in ids mode: a token carried in (``o.length``) goes on a byte at a time to its end, the others
    are found 64 bytes at a time (``_swar.swar_ids``; a byte at a time in a short run, or where that is not
    built), and a token reaching ``n`` stays open in ``o``."""
    cdef Py_ssize_t k = 0, w
    cdef uint64_t h, word, length
    cdef uint64_t state[3]
    cdef uint64_t *u
    cdef uint8_t c
    if o.length:
        while k < n and TOKEN_ASCII[t[k]]:
            feed(o, TOKEN_ASCII[t[k]])
            k += 1
        if k == n:
            return
        emit(o)
    if not reserve(o, (n - k) // 2 + 2):  # a token ends at most every second character, and once more
        return
    if LSH_SWAR and n - k >= 16:  # (a short run, as a space between words past ASCII: a byte at a time)
        state[2] = 0
        o.n = swar_ids(t + k, n - k, o.u, o.n, state)
        if state[2]:
            o.h, o.w, o.length = state[0], state[1], state[2]
        return
    w, h, word, length, u = o.n, o.h, o.w, o.length, o.u
    for k in range(k, n):
        c = TOKEN_ASCII[t[k]]  # non-zero exactly for the ASCII letters and digits (ALNUM)
        if c:
            word |= (<uint64_t>c) << (8 * (length & 7))
            length += 1
            if length & 7 == 0:
                h = absorb_word(h, word)
                word = 0
        elif length:
            if length & 7:
                h = absorb_word(h, word)
            u[w] = fmix64(h ^ length)
            w += 1
            h = C0
            word = 0
            length = 0
    o.h, o.w, o.length = h, word, length
    o.n = w
