"""MinHash signatures as one ``(n_docs, k)`` array, for the three hash families, and the estimate from them.

- ``fast``: each shingle's 32-bit id (``hash_shingles``), then k affine maps ``a*x + b mod 2**32`` with odd ``a``
  (bijections, so no collisions are added), drawn from a seeded ``numpy`` generator; ``uint32`` values.
- ``article``: the encyclopedia entry's reference: FNV-1a over UTF-16 code units, ``(a*x + b) mod 4294967311``
  with ``a, b`` from a xorshift32 stream seeded by the seed; ``uint64`` values (they exceed 2**32).
- ``datasketch``: ``datasketch.MinHash(num_perm=k, seed=seed)`` (scheme affine32) fed the shingles as UTF-8.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from lshdesk.core.hashing import fmix32, fnv1a_utf16, fold32, sha1_hash32
from lshdesk.core.kernels import minhash as minhash_kernels
from lshdesk.core.params import SignatureParams
from lshdesk.core.shingle_kinds import hash_shingles, shingle_strings
from lshdesk.core.shingling import ShingleBatch

ARTICLE_PRIME = 4294967311  # the smallest prime above 2**32
_ARTICLE_EMPTY = np.uint64(2**64 - 1)  # stands for the reference's Infinity (a set with no shingles)


def xorshift32_params(k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The article's ``makeHashFns(k, seed)``: a_i in [1, 4294967290], b_i in [0, 4294967289]."""
    s = seed & 0xFFFFFFFF

    def nxt() -> int:
        nonlocal s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        return s

    a, b = np.empty(k, dtype=np.uint64), np.empty(k, dtype=np.uint64)
    for i in range(k):
        a[i] = nxt() % 4294967290 + 1
        b[i] = nxt() % 4294967290
    return a, b


def datasketch_params(k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``datasketch.MinHash`` (affine32 scheme) permutations: odd ``a`` and any ``b``, from ``RandomState(seed)``."""
    gen = np.random.RandomState(seed)
    a = gen.randint(0, 1 << 31, k, dtype=np.uint32) * np.uint32(2) + np.uint32(1)
    b = gen.randint(0, 1 << 32, k, dtype=np.uint32)
    return a, b


PLAIN_PCG64_WORDS = 32_768  # words a process draws in Python (core.pcg64, ~0.4 us each) before numpy.random takes over
_plain_drawn = [0]  # words drawn in Python so far


def _draw_in_python(k: int) -> bool:
    """Whether the next 2 k words are cheaper drawn in Python than by loading ``numpy.random`` (~12 ms, then ~free):
    while the process has drawn fewer than ``PLAIN_PCG64_WORDS`` (a scan draws 2 k once; the b-bit lesson ~400,000,
    0.13 s in Python) and nothing has loaded ``numpy.random`` yet. Both give the same words (``core.pcg64``)."""
    if "numpy.random" in sys.modules or _plain_drawn[0] + 2 * k > PLAIN_PCG64_WORDS:
        return False
    _plain_drawn[0] += 2 * k
    return True


def fast_params(k: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``fast`` family's odd multipliers and offsets, from a PCG64 stream keyed by the seed: numpy's
    ``Generator(PCG64([seed, 0x6C736864])).integers``, drawn by ``core.pcg64`` while that is cheaper (loading
    ``numpy.random`` cost ~12 ms of every scan that signs a file: ``_draw_in_python``)."""
    if not _draw_in_python(k):
        rng = np.random.Generator(np.random.PCG64([seed, 0x6C73_6864]))
        a = rng.integers(0, 1 << 32, k, dtype=np.uint32) | np.uint32(1)
        b = rng.integers(0, 1 << 32, k, dtype=np.uint32)
        return a, b
    from lshdesk.core.pcg64 import PCG64Words  # (an empty folder's scan draws nothing)

    words = PCG64Words([seed, 0x6C73_6864])
    a = words.uint32(k) | np.uint32(1)
    return a, words.uint32(k)


@dataclass(frozen=True)
class HashFamily:
    """A family's k hash functions, ready to sign shingle sets; their ``a`` and ``b`` are drawn at first use (a scan
    that finds no document then never loads ``numpy.random``: ~12 ms)."""

    name: str
    k: int
    seed: int

    @cached_property
    def _ab(self) -> tuple[np.ndarray, np.ndarray]:
        draw = {"fast": fast_params, "article": xorshift32_params, "datasketch": datasketch_params}[self.name]
        return draw(self.k, self.seed)

    @property
    def a(self) -> np.ndarray:
        """The k multipliers."""
        return self._ab[0]

    @property
    def b(self) -> np.ndarray:
        """The k offsets."""
        return self._ab[1]

    @property
    def dtype(self) -> np.dtype:
        return np.dtype(np.uint64 if self.name == "article" else np.uint32)

    @property
    def needs_strings(self) -> bool:
        """True if the family hashes shingle strings rather than the 64-bit shingle ids."""
        return self.name != "fast"

    def sign_ids(self, batch: ShingleBatch) -> npt.NDArray:
        """Signatures of a batch of id sets (``fast`` family only)."""
        if self.needs_strings:
            raise ValueError(f"the {self.name} family hashes shingle strings: use sign_strings")
        ids = batch.ids if batch.ids.dtype == np.uint32 else fold32(batch.ids)
        return minhash_kernels.minhash_affine32(ids, batch.offsets, self.a, self.b)

    def sign_strings(self, sets: Sequence[Iterable[str]]) -> npt.NDArray:
        """Signatures of shingle sets given as strings (every family)."""
        strings: list[str] = []
        offsets = np.zeros(len(sets) + 1, dtype=np.int64)
        for i, s in enumerate(sets):
            strings.extend(s)
            offsets[i + 1] = len(strings)
        if self.name == "article":
            x = fnv1a_utf16(strings).astype(np.uint64)
            return minhash_kernels.minhash_affine_mod(
                x, offsets, self.a, self.b, np.uint64(ARTICLE_PRIME), _ARTICLE_EMPTY
            )
        if self.name == "datasketch":
            return minhash_kernels.minhash_affine32(fmix32(sha1_hash32(strings)), offsets, self.a, self.b)
        raise ValueError("the fast family signs shingle ids: use sign_ids (or sign_texts)")


def make_family(params: SignatureParams) -> HashFamily:
    """The k hash functions of ``params.family`` for ``params.seed``."""
    return HashFamily(params.family, params.k, params.seed)


def sign_texts(texts: Sequence[str], params: SignatureParams) -> npt.NDArray:
    """Signatures of whole texts with ``params`` (shingling, family, k, seed): the one-call convenience."""
    family = make_family(params)
    if family.needs_strings:
        return family.sign_strings([shingle_strings(t, params.shingle) for t in texts])
    return family.sign_ids(hash_shingles(texts, params.shingle))


def estimate(sig_a: npt.NDArray, sig_b: npt.NDArray) -> float:
    """Estimated Jaccard similarity: the fraction of slots where two signatures agree."""
    if sig_a.shape != sig_b.shape:
        raise ValueError(f"signatures of different lengths ({sig_a.shape} vs {sig_b.shape}) cannot be compared")
    return float(np.count_nonzero(sig_a == sig_b)) / sig_a.shape[-1]


def estimate_pairs(sigs: npt.NDArray, left: npt.NDArray, right: npt.NDArray, chunk: int = 65536) -> npt.NDArray:
    """Estimated Jaccard of many pairs of rows at once (compiled, in chunks of ``chunk`` pairs)."""
    left = np.ascontiguousarray(left, dtype=np.int64)
    right = np.ascontiguousarray(right, dtype=np.int64)
    sigs = np.ascontiguousarray(sigs)
    out = np.empty(len(left), dtype=np.float64)
    for s in range(0, len(left), chunk):
        e = s + chunk
        out[s:e] = minhash_kernels.agreeing_slots(sigs, left[s:e], right[s:e]) / sigs.shape[1]
    return out
