# The one 64-bit mixing of the compiled kernels, inlined into each (mixing.py holds the same constants for numpy).
from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #define LSH_C0 0x243F6A8885A308D3ULL
    #define LSH_C1 0x9E3779B97F4A7C15ULL
    #define LSH_M1 0xFF51AFD7ED558CCDULL
    #define LSH_M2 0xC4CEB9FE1A85EC53ULL
    """
    const uint64_t C0 "LSH_C0"  # every running hash starts here (pi's fraction)
    const uint64_t C1 "LSH_C1"  # the odd multiplier of each absorb (golden ratio)
    const uint64_t M1 "LSH_M1"  # fmix64's two multipliers
    const uint64_t M2 "LSH_M2"


cdef inline uint64_t fmix64(uint64_t h) noexcept nogil:
    """MurmurHash3's 64-bit finaliser of one value (``hashing.fmix64`` is the same over arrays)."""
    h ^= h >> 33
    h *= M1
    h ^= h >> 33
    h *= M2
    h ^= h >> 33
    return h


cdef inline uint64_t absorb_word(uint64_t h, uint64_t w) noexcept nogil:
    """A token's or shingle's running hash takes one 64-bit word: ``(rotl(h, 27) ^ w) * C1`` (finalised once)."""
    return (((h << 27) | (h >> 37)) ^ w) * C1


cdef inline uint64_t absorb_slot(uint64_t h, uint64_t v) noexcept nogil:
    """A band key takes one slot value: ``fmix64((rotl(h, 31) ^ v) * C1)`` (``lsh.band_keys_numpy`` in numpy)."""
    return fmix64((((h << 31) | (h >> 33)) ^ v) * C1)
