# Eight bytes at a time in one 64-bit word (SWAR): the token bytes of text found, lowered and hashed a word at a
# time instead of a byte at a time (tokens.pyx, utext.pyx), and a file's bytes checked for NUL and non-ASCII
# (files.pyx). Each byte's flag is its bit 7 in a mask word. The per-byte sums never carry into the next byte
# (every operand is below 128, every sum below 256), so no lane disturbs another. Little-endian machines only:
# a token's bytes then load as the word the byte-at-a-time loops build (``LSH_SWAR`` is 0 elsewhere, and the
# callers keep those loops).
from libc.stdint cimport uint8_t, uint64_t

from lshdesk.core.kernels._mix cimport C0, absorb_word, fmix64

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #if defined(_WIN32) || (defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    #define LSH_SWAR 1
    #else
    #define LSH_SWAR 0
    #endif
    #define LSH_ONES 0x0101010101010101ULL
    #define LSH_HIGHS 0x8080808080808080ULL
    #if defined(_MSC_VER) && !defined(__clang__)
    #include <intrin.h>
    static inline int lsh_ctz64(uint64_t x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    #else
    static inline int lsh_ctz64(uint64_t x) { return __builtin_ctzll(x); }
    #endif

    /* The bytes t[0:avail] (at most eight) as a little-endian word, the others zero. */
    static inline uint64_t lsh_load(const uint8_t *t, Py_ssize_t avail) {
        uint64_t x = 0;
        if (avail >= 8) memcpy(&x, t, 8); else memcpy(&x, t, (size_t)avail);
        return x;
    }
    /* bit 7 of byte i (every other bit clear) as bit i of one byte (the products land on distinct bits) */
    static inline uint64_t lsh_compress(uint64_t bits) { return ((bits >> 7) * 0x0102040810204080ULL) >> 56; }
    /* The first ``n`` bytes of a word (n in 0..8). */
    static inline uint64_t lsh_first(uint64_t x, Py_ssize_t n) {
        return n >= 8 ? x : x & ((1ULL << (8 * n)) - 1);
    }
    /* bit 7 of each byte of y (every byte below 128) set where the byte is >= lo, or <= hi */
    static inline uint64_t lsh_ge(uint64_t y, unsigned lo) { return (y + LSH_ONES * (128 - lo)) & LSH_HIGHS; }
    static inline uint64_t lsh_le(uint64_t y, unsigned hi) { return ~(y + LSH_ONES * (127 - hi)) & LSH_HIGHS; }
    /* bit 7 of each byte set where it is a token byte (tokens.TOKEN_BYTES non-zero): an ASCII letter or digit,
       or any byte from 128 on */
    static inline uint64_t lsh_token_bits(uint64_t x) {
        uint64_t y = x & ~LSH_HIGHS, a = y | (LSH_ONES * 0x20);
        return (x & LSH_HIGHS) | (lsh_ge(y, 0x30) & lsh_le(y, 0x39)) | (lsh_ge(a, 0x61) & lsh_le(a, 0x7A));
    }
    /* The ASCII capitals lowered, every other byte as it is (TOKEN_BYTES of a token byte) */
    static inline uint64_t lsh_lower(uint64_t x) {
        uint64_t y = x & ~LSH_HIGHS;
        return x | ((lsh_ge(y, 0x41) & lsh_le(y, 0x5A) & ~x) >> 2);
    }
    /* The first position in [p, n) whose byte is (want) or is not (!want) a token byte; n if none. */
    static inline Py_ssize_t lsh_scan(const uint8_t *t, Py_ssize_t p, Py_ssize_t n, int want) {
        uint64_t bits;
        while (p < n) {
            bits = lsh_token_bits(lsh_load(t + p, n - p));
            if (!want) bits = ~bits & LSH_HIGHS;
            bits = lsh_first(bits, n - p);
            if (bits) return p + (lsh_ctz64(bits) >> 3);
            p += 8;
        }
        return n;
    }
    /* 1 if t[0:n] holds a NUL byte; else *high = whether a byte is past ASCII (bit 7 of its words' or) */
    static inline int lsh_nul_or_high(const uint8_t *t, Py_ssize_t n, int *high) {
        uint64_t x, any = 0;
        Py_ssize_t k = 0;
        for (; k + 8 <= n; k += 8) {
            memcpy(&x, t + k, 8);
            if ((x - LSH_ONES) & ~x & LSH_HIGHS) return 1;
            any |= x;
        }
        for (; k < n; k++) {
            if (t[k] == 0) return 1;
            any |= t[k];
        }
        *high = (any & LSH_HIGHS) != 0;
        return 0;
    }
    """
    bint LSH_SWAR
    int lsh_ctz64(uint64_t x) noexcept nogil
    uint64_t lsh_load(const uint8_t *t, Py_ssize_t avail) noexcept nogil
    uint64_t lsh_first(uint64_t x, Py_ssize_t n) noexcept nogil
    uint64_t lsh_compress(uint64_t bits) noexcept nogil
    uint64_t lsh_token_bits(uint64_t x) noexcept nogil
    uint64_t lsh_lower(uint64_t x) noexcept nogil
    Py_ssize_t lsh_scan(const uint8_t *t, Py_ssize_t p, Py_ssize_t n, bint want) noexcept nogil
    bint lsh_nul_or_high(const uint8_t *t, Py_ssize_t n, int *high) noexcept nogil


cdef inline uint64_t _token_mask(const uint8_t *t, Py_ssize_t avail) noexcept nogil:
    """Bit i set where byte i of ``t[0:min(avail, 64)]`` is a token byte (past ``avail``: zero bytes, which are
    not)."""
    cdef uint64_t m = 0
    cdef Py_ssize_t j = 0
    while j < 64 and j < avail:
        m |= lsh_compress(lsh_token_bits(lsh_load(t + j, avail - j))) << j
        j += 8
    return m


cdef inline Py_ssize_t swar_ids(const uint8_t *t, Py_ssize_t n, uint64_t *out, Py_ssize_t w,
                                uint64_t *state) noexcept nogil:
    """The ids of the tokens of ``t[0:n]`` (no token carried in at ``t[0]``) written to ``out[w:]``, as the byte
    loops make them (``tokens._tokenize_doc``): each token's bytes, lowered, absorbed eight at a time, then
    ``fmix64(h ^ length)``. Tokens are found 64 bytes at a time: a mask of the block's token bytes, its tokens
    by their first bits. A token reaching ``n`` is not written but left in ``state``: its h, the bytes of its
    last word not yet absorbed, and its length (``state[2]`` untouched when there is none). Returns the new w."""
    cdef Py_ssize_t pos = 0, s, e, p
    cdef uint64_t m, starts, rest, h, x
    while pos < n:
        m = _token_mask(t + pos, n - pos)
        starts = m & ~(m << 1)  # pos is never inside a token: its bit is a first one if set
        while starts:
            s = pos + lsh_ctz64(starts)
            rest = ~m >> (s - pos)  # the bytes from s on that are not token bytes (past n: zeros, not either)
            e = s + lsh_ctz64(rest) if rest else lsh_scan(t, pos + 64, n, False)
            h = C0
            p = s
            while e - p >= 8:
                h = absorb_word(h, lsh_lower(lsh_load(t + p, 8)))
                p += 8
            x = lsh_lower(lsh_first(lsh_load(t + p, n - p), e - p)) if e > p else 0
            if e == n:
                state[0], state[1], state[2] = h, x, <uint64_t>(e - s)
                return w
            if e > p:
                h = absorb_word(h, x)
            out[w] = fmix64(h ^ <uint64_t>(e - s))
            w += 1
            if not rest:  # the token ran past the block: the next block starts where it ends
                pos = e
                break
            starts &= starts - 1
        else:
            pos += 64
    return w
