"""numpy's PCG64 stream of 32-bit words, in plain Python: the ``fast`` family's parameters without ``numpy.random``.

Loading ``numpy.random`` (with ``secrets``, ``hmac``, ``hashlib`` and its bit generators) was ~12 ms of every scan
that signs a file (issue 29), to draw 2 x k words. This draws the same words: ``SeedSequence(entropy)`` hashed into
the 128-bit state and increment of ``PCG64`` (XSL-RR output), and 32-bit words as ``Generator.integers(0, 2**32,
dtype=np.uint32)`` takes them (the low half of each 64-bit output, then its high half). A test holds it equal to
numpy for many seeds and lengths.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

M32 = 0xFFFF_FFFF
M128 = (1 << 128) - 1
MULTIPLIER = (2549297995355413924 << 64) + 4865540595714422341  # PCG_DEFAULT_MULTIPLIER_128
INIT_A, MULT_A, INIT_B, MULT_B = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED  # numpy's SeedSequence
MIX_MULT_L, MIX_MULT_R = 0xCA01F9DD, 0x4973F715
POOL = 4


def _words(n: int) -> list[int]:
    """A non-negative integer as numpy's seed words: 32 bits each, least significant first ([0] for 0)."""
    if n < 0:
        raise ValueError("seed entropy must be non-negative")
    out = [n & M32] if n == 0 else []
    while n > 0:
        out.append(n & M32)
        n >>= 32
    return out


class _Hash:
    """SeedSequence's ``hashmix``, whose multiplier changes at every word."""

    def __init__(self, const: int) -> None:
        self.const = const

    def __call__(self, value: int) -> int:
        value ^= self.const
        self.const = (self.const * MULT_A) & M32
        value = (value * self.const) & M32
        return value ^ (value >> 16)


def _mix(x: int, y: int) -> int:
    r = (MIX_MULT_L * x - MIX_MULT_R * y) & M32
    return r ^ (r >> 16)


def seed_state(entropy: Sequence[int]) -> list[int]:
    """``SeedSequence(entropy).generate_state(4, np.uint64)`` as Python ints."""
    words = [w for e in entropy for w in _words(int(e))]
    hashmix = _Hash(INIT_A)
    pool = [hashmix(words[i] if i < len(words) else 0) for i in range(POOL)]
    for src in range(POOL):
        for dst in range(POOL):
            if src != dst:
                pool[dst] = _mix(pool[dst], hashmix(pool[src]))
    for src in range(POOL, len(words)):
        for dst in range(POOL):
            pool[dst] = _mix(pool[dst], hashmix(words[src]))
    const, state = INIT_B, []
    for i in range(2 * 4):
        v = pool[i % POOL] ^ const
        const = (const * MULT_B) & M32
        v = (v * const) & M32
        state.append(v ^ (v >> 16))
    return [state[2 * i] | state[2 * i + 1] << 32 for i in range(4)]


class PCG64Words:
    """The 32-bit words of ``np.random.Generator(np.random.PCG64(entropy))``, in the order ``integers`` takes them."""

    def __init__(self, entropy: Sequence[int]) -> None:
        s = seed_state(entropy)
        self.inc = (((s[2] << 64) | s[3]) << 1 | 1) & M128
        self.state = 0
        self._step()
        self.state = (self.state + ((s[0] << 64) | s[1])) & M128
        self._step()
        self.high: int | None = None  # the high half of the last 64-bit output, not yet taken

    def _step(self) -> None:
        self.state = (self.state * MULTIPLIER + self.inc) & M128

    def _next64(self) -> int:
        self._step()
        s = self.state
        x, rot = ((s >> 64) ^ s) & 0xFFFF_FFFF_FFFF_FFFF, s >> 122
        return ((x >> rot) | (x << (64 - rot))) & 0xFFFF_FFFF_FFFF_FFFF

    def uint32(self, n: int) -> np.ndarray:
        """The next ``n`` words: ``integers(0, 2**32, n, dtype=np.uint32)``."""
        out = []
        for _ in range(n):
            if self.high is not None:
                out.append(self.high)
                self.high = None
            else:
                v = self._next64()
                out.append(v & M32)
                self.high = v >> 32
        return np.array(out, dtype=np.uint32)
