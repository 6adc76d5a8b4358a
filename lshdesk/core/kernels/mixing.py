"""The one 64-bit mixing of the compiled kernels: MurmurHash3's ``fmix64`` and the word and band-key absorbs."""

from __future__ import annotations

import numpy as np

from lshdesk.core.kernels.jit import nb

C0 = np.uint64(0x243F6A8885A308D3)  # every running hash starts here (pi's fraction)
C1 = np.uint64(0x9E3779B97F4A7C15)  # the odd multiplier of each absorb (golden ratio)
M1 = np.uint64(0xFF51AFD7ED558CCD)  # fmix64's two multipliers
M2 = np.uint64(0xC4CEB9FE1A85EC53)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S33 = np.uint64(33)
_S37 = np.uint64(37)


@nb.njit(inline="always")
def fmix64(h):  # pragma: no cover - compiled
    """MurmurHash3's 64-bit finaliser of one value (``hashing.fmix64`` is the same over arrays)."""
    h ^= h >> _S33
    h *= M1
    h ^= h >> _S33
    h *= M2
    h ^= h >> _S33
    return h


@nb.njit(inline="always")
def absorb_word(h, w):  # pragma: no cover - compiled
    """A token's or shingle's running hash takes one 64-bit word: ``(rotl(h, 27) ^ w) * C1`` (finalised once)."""
    return (((h << _S27) | (h >> _S37)) ^ w) * C1


@nb.njit(inline="always")
def absorb_slot(h, v):  # pragma: no cover - compiled
    """A band key takes one slot value: ``fmix64((rotl(h, 31) ^ v) * C1)`` (``lsh.band_keys_numpy`` in numpy)."""
    return fmix64((((h << _S31) | (h >> _S33)) ^ np.uint64(v)) * C1)
