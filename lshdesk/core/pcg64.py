"""numpy's PCG64 stream of 32-bit words, in plain Python: the ``fast`` family's parameters without ``numpy.random``.

Loading ``numpy.random`` (with ``secrets``, ``hmac``, ``hashlib`` and its bit generators) was ~12 ms of every scan
that signs a file (issue 29), to draw 2 x k words. This draws the same words: ``SeedSequence(entropy)`` hashed into
the 128-bit state and increment of ``PCG64`` (XSL-RR output), and 32-bit words as ``Generator.integers(0, 2**32,
dtype=np.uint32)`` takes them (the low half of each 64-bit output, then its high half). A test holds it equal to
numpy for many seeds and lengths.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import numpy as np

M32 = 0xFFFF_FFFF
M64 = 0xFFFF_FFFF_FFFF_FFFF
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
        x, rot = ((s >> 64) ^ s) & M64, s >> 122
        return ((x >> rot) | (x << (64 - rot))) & M64

    def next32(self) -> int:
        """The next 32-bit word (``next_uint32``: the low half of a 64-bit output, then its high half)."""
        if self.high is not None:
            word, self.high = self.high, None
            return word
        v = self._next64()
        self.high = v >> 32
        return v & M32

    def uint32(self, n: int) -> np.ndarray:
        """The next ``n`` words: ``integers(0, 2**32, n, dtype=np.uint32)``."""
        return np.array([self.next32() for _ in range(n)], dtype=np.uint32)

    def bounded(self, rng: int) -> int:
        """A draw in ``[0, rng]`` as numpy's ``random_bounded_uint64(0, rng)`` makes it (Lemire's method, 32-bit
        words below 2**32, 64-bit outputs above; the leftover rejected below the threshold)."""
        if rng == 0:
            return 0
        if rng == M32:
            return self.next32()
        bits, nxt = (32, self.next32) if rng < M32 else (64, self._next64)
        if rng == M64:
            return nxt()
        mask, excl = (1 << bits) - 1, rng + 1
        m = nxt() * excl
        if m & mask < excl:
            threshold = (mask - rng) % excl
            while m & mask < threshold:
                m = nxt() * excl
        return m >> bits

    def bounded_all(self, bounds: range) -> list[int]:
        """``[self.bounded(r) for r in bounds]``, the generator's state in locals (~0.3 us a draw, not ~1 us)
        when every bound is below 2**32 - 1; else draw by draw."""
        if not len(bounds) or max(bounds[0], bounds[-1]) >= M32 or min(bounds[0], bounds[-1]) < 0:
            return [self.bounded(r) for r in bounds]
        state, inc, high, out = self.state, self.inc, self.high, []
        for rng in bounds:
            if rng == 0:
                out.append(0)
                continue
            excl = rng + 1
            while True:
                if high is None:
                    state = (state * MULTIPLIER + inc) & M128
                    x, rot = ((state >> 64) ^ state) & M64, state >> 122
                    v = ((x >> rot) | (x << (64 - rot))) & M64
                    word, high = v & M32, v >> 32
                else:
                    word, high = high, None
                m = word * excl
                if m & M32 >= excl or m & M32 >= (M32 - rng) % excl:
                    break
            out.append(m >> 32)
        self.state, self.high = state, high
        return out

    def choice(self, n: int, size: int) -> np.ndarray:
        """``Generator.choice(n, size, replace=False)``: ``size`` of ``range(n)`` in numpy's order, with its draws
        (a tail shuffle of ``range(n)`` for a large share of a large population, else Floyd's algorithm, then a
        shuffle), so the generator goes on as numpy's would."""
        if not 0 <= size <= n:
            raise ValueError(f"cannot take {size} of {n} without replacement")
        if n > 10000 and size > n // 50:
            idx = list(range(n))
            self._shuffle(idx, max(n - size, 1))
            return np.array(idx[n - size :], dtype=np.int64)
        out, taken = [], set()
        for j, v in zip(range(n - size, n), self.bounded_all(range(n - size, n))):
            v = j if v in taken else v
            taken.add(v)
            out.append(v)
        self._shuffle(out, 1)
        return np.array(out, dtype=np.int64)

    def _shuffle(self, data: list[int], first: int) -> None:
        """numpy's ``_shuffle_int``: Fisher-Yates from the end down to ``first``."""
        bounds = range(len(data) - 1, first - 1, -1)
        for i, j in zip(bounds, self.bounded_all(bounds)):
            data[i], data[j] = data[j], data[i]


class _NumpyChoice:
    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def choice(self, n: int, size: int) -> np.ndarray:
        return self.rng.choice(n, size, replace=False)


def choices(seed: int) -> PCG64Words | _NumpyChoice:
    """A generator whose ``choice(n, size)`` is ``np.random.default_rng(seed).choice(n, size, replace=False)``, the
    same draws either way: numpy's own once something else has loaded ``numpy.random`` (~17 ms to load; then a
    draw is ~10 ns), else ``PCG64Words`` (~0.5 us a draw: ~5 ms of a scan's samples, in a command that loads
    nothing more)."""
    if "numpy.random" in sys.modules:
        return _NumpyChoice(seed)
    return PCG64Words([seed])


def sample_sorted(n: int, size: int, seed: int) -> np.ndarray:
    """``np.sort(np.random.default_rng(seed).choice(n, size, replace=False))`` (``choices``)."""
    return np.sort(choices(seed).choice(n, size))
