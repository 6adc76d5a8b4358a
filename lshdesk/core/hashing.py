"""Deterministic hashing of tokens and shingles to 64-bit ids (never Python's ``hash()``), vectorised with numpy."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from lshdesk.core.kernels.mixing import C0 as _C0
from lshdesk.core.kernels.mixing import C1 as _C1
from lshdesk.core.kernels.mixing import M1 as _M1
from lshdesk.core.kernels.mixing import M2 as _M2

_S33 = np.uint64(33)
_S27 = np.uint64(27)
_S37 = np.uint64(37)


def token_id(token: str) -> int:
    """A token's 64-bit id, as the byte tokenizer computes it (``tokenkernels.tokenize_bytes``), for a normalised token.

    Its UTF-8 bytes taken 8 at a time as little-endian words (the last zero-padded), each absorbed as
    ``h = (rotl(h, 27) ^ word) * C1`` from ``h = C0``, then MurmurHash3's ``fmix64(h ^ length)``.
    """
    data = token.encode("utf-8")
    mask = (1 << 64) - 1
    h = int(_C0)
    for i in range(0, len(data), 8):
        w = int.from_bytes(data[i : i + 8], "little")
        h = ((((h << 27) | (h >> 37)) & mask) ^ w) * int(_C1) & mask
    h ^= len(data)
    for shift, mul in ((33, int(_M1)), (33, int(_M2)), (33, 1)):
        h ^= h >> shift
        h = h * mul & mask
    return h


def fmix64(h: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """MurmurHash3's 64-bit finaliser: an avalanching bijection, element-wise (multiplication wraps on purpose)."""
    h = h ^ (h >> _S33)
    h = h * _M1
    h = h ^ (h >> _S33)
    h = h * _M2
    return h ^ (h >> _S33)


def combine_windows(units: npt.NDArray[np.uint64], n: int) -> npt.NDArray[np.uint64]:
    """The 64-bit id of every run of n consecutive units (one per start position), n passes over the array."""
    m = len(units) - n + 1
    h = np.full(m, _C0, dtype=np.uint64)
    for j in range(n):
        h = ((h << _S27) | (h >> _S37)) ^ units[j : j + m]
        h *= _C1
    return fmix64(h ^ np.uint64(n))


def fold32(h: npt.NDArray[np.unsignedinteger]) -> npt.NDArray[np.uint32]:
    """Fold 64-bit ids to 32 bits (xor of the halves); 32-bit ids stay as they are."""
    return ((h ^ (h >> np.uint64(32))) & np.uint64(0xFFFFFFFF)).astype(np.uint32)


def fmix32(h: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
    """MurmurHash3's 32-bit finaliser, element-wise."""
    h = h ^ (h >> np.uint32(16))
    h = h * np.uint32(0x85EBCA6B)
    h = h ^ (h >> np.uint32(13))
    h = h * np.uint32(0xC2B2AE35)
    return h ^ (h >> np.uint32(16))


def fnv1a_utf16(strings: list[str]) -> npt.NDArray[np.uint32]:
    """32-bit FNV-1a over each string's UTF-16 code units (as JavaScript's ``charCodeAt`` sees them)."""
    from lshdesk.core.kernels.minhash import fnv1a_units

    lengths = np.fromiter((len(s.encode("utf-16-le")) // 2 for s in strings), dtype=np.int64, count=len(strings))
    offsets = np.zeros(len(strings) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    units = np.frombuffer("".join(strings).encode("utf-16-le"), dtype=np.uint16)
    return fnv1a_units(units, offsets)


def sha1_hash32(strings: list[str]) -> npt.NDArray[np.uint32]:
    """datasketch's default: the first 4 bytes of the SHA-1 of the UTF-8 string, little-endian."""
    import hashlib  # ~3 ms (OpenSSL) that only the datasketch family pays

    digest = b"".join(hashlib.sha1(s.encode("utf-8")).digest()[:4] for s in strings)
    return np.frombuffer(digest, dtype="<u4").astype(np.uint32)
