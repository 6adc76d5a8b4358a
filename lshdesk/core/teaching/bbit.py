"""b-bit MinHash (Li & König, 2010) beside the classic 32-bit signature at equal memory, measured over many seeds.

A classic slot keeps 32 bits; b-bit MinHash keeps only the lowest b bits of each slot, so the same memory holds
32/b times more slots. Two different minima agree in their b bits by chance, so the share of agreeing slots is
P ≈ C + (1 − C) J with C = 2^−b, and the estimate corrects for it: Ĵ = (P̂ − C) / (1 − C). The paper's exact C
depends on the sets' sizes relative to the hash's range D; here D = 2^32 and the bits are cut from a mixed value
(below), so its correction to 2^−b is of the order of |S| / D (about 10^−8 for a page of text): the simple C is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.compare import all_pairs
from lshdesk.core.hashing import fmix32, fold32
from lshdesk.core.minhash import HashFamily, fast_params
from lshdesk.core.params import ShingleSpec
from lshdesk.core.shingle_kinds import hash_shingles
from lshdesk.core.shingling import ShingleBatch

SLOT_BITS = 32  # a classic slot of the fast family: one uint32
BITS = (1, 2, 4, 8)


def low_bits(sigs: npt.NDArray, b: int) -> npt.NDArray[np.uint32]:
    """The lowest b bits of each slot, cut after MurmurHash3's finaliser. The fast family's a*x + b mod 2^32 keeps
    in its low b bits only the low b bits of x (a is odd), so two different minima would agree by chance exactly
    when their shingle ids share those bits: a fixed property of the pair, the same for every seed, which no number
    of seeds averages out (on the sentences, over 200 seeds at b = 1: a bias up to 0.175 raw, 0.009 after mixing).
    fmix32 is a bijection (equal minima stay equal) whose low bits follow all 32."""
    return fmix32(np.asarray(sigs, dtype=np.uint32)) & np.uint32((1 << b) - 1)


def chance_agreement(b: int) -> float:
    """C: the probability that the b bits of two different minima agree (2^−b; b = 32 is the classic slot: 0)."""
    return 0.0 if b >= SLOT_BITS else 2.0**-b


def bbit_estimate(share: npt.ArrayLike, b: int) -> npt.NDArray[np.float64]:
    """Ĵ = (P̂ − C) / (1 − C) from the share P̂ of agreeing b-bit slots; not clipped to [0, 1], which would bias it
    (a dissimilar pair's estimate can be negative)."""
    c = chance_agreement(b)
    return (np.asarray(share, dtype=np.float64) - c) / (1 - c)


def bbit_std(j: npt.ArrayLike, b: int, slots: int) -> npt.NDArray[np.float64]:
    """The estimate's standard error from the binomial count of agreeing slots: √(P(1 − P) / k) / (1 − C)."""
    c = chance_agreement(b)
    p = c + (1 - c) * np.asarray(j, dtype=np.float64)
    return np.sqrt(p * (1 - p) / slots) / (1 - c)


@dataclass(frozen=True)
class Scheme:
    """A signature of ``slots`` slots of ``bits`` bits each (bits = 32: the classic one)."""

    bits: int
    slots: int
    one_permutation: bool = False  # one hash function, ``slots`` bins (32 bits each)

    @property
    def label(self) -> str:
        if self.one_permutation:
            return f"one permutation, {self.slots} bins"
        return f"classic, {self.slots} × 32 bits" if self.bits == SLOT_BITS else f"b = {self.bits}, {self.slots} slots"


def equal_memory(k: int, bits: Sequence[int] = BITS) -> list[Scheme]:
    """The classic k slots of 32 bits, then b-bit schemes of the same memory (k · 32 / b slots each), then
    one-permutation hashing with k bins."""
    return [Scheme(SLOT_BITS, k)] + [Scheme(b, k * SLOT_BITS // b) for b in bits] + [Scheme(SLOT_BITS, k, True)]


_EMPTY = np.uint64(2**64 - 1)


def one_permutation(batch: ShingleBatch, bins: int, seed: int) -> npt.NDArray[np.uint64]:
    """One-permutation hashing (Li, Owen & Zhang 2012) densified by rotation (Shrivastava & Li 2014): one hash
    v = a*x + b mod 2^32 (the fast family's first function), bin floor(v · bins / 2^32), the minimum v of each bin;
    an empty bin takes the value of the next non-empty bin to its right (circularly). The values are kept whole, so
    each lies in its own bin's range: a borrowed value can equal only one borrowed from the same bin (the paper's
    offset C · d, for values kept relative to their bin, is not needed). Bins agree with probability J. (n_docs,
    bins)."""
    a, b = fast_params(1, seed)
    ids = batch.ids if batch.ids.dtype == np.uint32 else fold32(batch.ids)
    v = (ids * a[0] + b[0]).astype(np.uint64)  # wraps mod 2^32 in uint32, as the family's kernel does
    n = len(batch)
    where = np.repeat(np.arange(n, dtype=np.int64), batch.counts()) * bins + ((v * np.uint64(bins)) >> np.uint64(32))
    mins = np.full(n * bins, _EMPTY, dtype=np.uint64)
    np.minimum.at(mins, where.astype(np.int64), v)
    twice = np.tile(mins.reshape(n, bins), 2)
    index = np.where(twice != _EMPTY, np.arange(2 * bins), 2 * bins)
    nearest = np.minimum.accumulate(index[:, ::-1], axis=1)[:, ::-1][:, :bins]  # next non-empty at or right of j
    found = nearest < 2 * bins
    value = np.take_along_axis(twice, np.where(found, nearest, 0), axis=1)
    return np.where(found, value, _EMPTY)


def pair_estimates(
    batch: ShingleBatch, scheme: Scheme, seed: int, left: npt.NDArray, right: npt.NDArray
) -> npt.NDArray[np.float64]:
    """Each pair's estimate under ``scheme`` with the fast family's functions of ``seed``."""
    sigs: npt.NDArray[np.unsignedinteger]
    if scheme.one_permutation:
        sigs = one_permutation(batch, scheme.slots, seed)
    else:
        sigs = HashFamily("fast", scheme.slots, seed).sign_ids(batch)
    if scheme.bits < SLOT_BITS:
        sigs = low_bits(sigs, scheme.bits)
    share = np.mean(sigs[left] == sigs[right], axis=1)
    return bbit_estimate(share, scheme.bits)


@dataclass(frozen=True)
class Measurement:
    """Every pair's exact J and, for each scheme, its mean absolute error and mean estimate over the seeds."""

    schemes: tuple[Scheme, ...]
    jaccard: npt.NDArray[np.float64]  # (pairs,)
    abs_error: npt.NDArray[np.float64]  # (schemes, pairs): mean over seeds of |Ĵ − J|
    mean: npt.NDArray[np.float64]  # (schemes, pairs): mean over seeds of Ĵ
    negative: npt.NDArray[np.float64]  # (schemes, pairs): share of the seeds whose Ĵ is below 0
    seeds: int

    def mae(self, mask: npt.NDArray[np.bool_] | None = None) -> npt.NDArray[np.float64]:
        """Each scheme's mean absolute error over the pairs of ``mask`` (all pairs by default); NaN if none."""
        m = np.ones(len(self.jaccard), dtype=bool) if mask is None else mask
        if not m.any():
            return np.full(len(self.schemes), np.nan)
        return self.abs_error[:, m].mean(axis=1)


def measure(
    texts: Sequence[str], spec: ShingleSpec, schemes: Sequence[Scheme], seeds: int, jaccard: npt.NDArray
) -> Measurement:
    """Estimate every pair of ``texts`` with each scheme for seeds 0 .. seeds − 1 (``jaccard``: the exact (n, n))."""
    batch = hash_shingles(list(texts), spec)
    left, right = all_pairs(len(texts))
    j = np.asarray(jaccard)[left, right]
    err, total, below = (np.zeros((len(schemes), len(j))) for _ in range(3))
    for i, scheme in enumerate(schemes):
        for seed in range(seeds):
            est = pair_estimates(batch, scheme, seed, left, right)
            err[i] += np.abs(est - j)
            total[i] += est
            below[i] += est < 0
    return Measurement(tuple(schemes), j, err / seeds, total / seeds, below / seeds, seeds)


def seeds_within(texts: Sequence[str], spec: ShingleSpec, schemes: Sequence[Scheme], seeds: int, budget: int) -> int:
    """At most ``seeds``, and no more than ``budget`` slot evaluations (shingles x slots, over the schemes and the
    seeds) allow, but at least 5: the user's files can hold 100 times the sentences' shingles."""
    per_seed = len(hash_shingles(list(texts), spec).ids) * sum(s.slots for s in schemes)
    return max(5, min(seeds, budget // max(per_seed, 1)))
