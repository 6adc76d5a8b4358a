"""Where exact Jaccard comes from: every pair exactly (an inverted-index product) when the corpus is small enough,
else every candidate of a loose scheme plus a uniform sample of the other pairs, flagged as sampled.

The all-pairs product costs one step per (pair, shared shingle): sum over shingles of C(L, 2), L = documents holding
the shingle. It is predicted from the shingle counts before it runs, and refused above ``MAX_ALL_PAIRS_WORK``.
Measured on the project's machine kind (2 cores, shared, load average ~4.6), index + product, wall clock:
the 901-document dev corpus 0.9 M steps in 0.1 s; 9,010 documents with the dev corpus's overlap 55 M steps in
3.4 s; 10,000 synthetic Zipf-English documents of 300 words 33 M steps in 4.3 s; 20,000 of them 131 M steps in
10.5 s (15-30 M steps a second). So the limit, 60 M steps, is a few seconds, and corpora of about 10,000 documents
are scored exactly; larger or more repetitive ones are sampled (``tests/benchmarks/rebanding.py`` times both).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.arrays import stable_groups, unique
from lshdesk.core.clustering import exact_jaccard
from lshdesk.core.errors import check_cancel
from lshdesk.core.kernels import pairs as pair_kernels
from lshdesk.core.lsh import band_codes
from lshdesk.core.params import Banding
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scurve import threshold
from lshdesk.core.shingling import ShingleBatch

FINE_BINS = 1000  # histogram of all pairs' exact Jaccard: bins [a, a + 0.001), 1.0 in the last
STORE_FLOOR = 0.05  # all-pairs mode lists every pair at or above this similarity (those below are only counted)
MAX_ALL_PAIRS_WORK = 60_000_000  # steps of the all-pairs product (see the module docstring)
MAX_ALL_PAIRS_DOCS = 30_000  # beyond this, do not even sort the shingles to predict the work
MAX_STORED = 3_000_000  # pairs at or above the floor; more means a corpus of near-copies: sample instead
SAMPLE_PAIRS = 200_000
MAX_POOL = 3_000_000  # candidate pairs (counted with repeats across bands) the loose scheme may bring


@dataclass(frozen=True)
class ExactReference:
    """Pairs whose exact Jaccard is known, with what they stand for.

    ``mode == "all"``: every eligible pair with J >= ``floor`` is listed (weight 1), and ``hist`` counts all pairs.
    ``mode == "sampled"``: the listed pairs are every candidate of ``pool`` (weight 1) plus ``sample_size`` pairs
    drawn uniformly from the rest (each weighing ``(n_pairs - pool_size) / sample_size``); ``hist`` is an estimate.
    """

    mode: str
    n_docs: int
    n_pairs: int
    codes: npt.NDArray[np.int64]  # left * n_docs + right, ascending
    jaccard: npt.NDArray[np.float64]
    weight: npt.NDArray[np.float64]
    hist: npt.NDArray[np.float64]  # (FINE_BINS,) weighted number of eligible pairs per similarity bin
    n_zero: float  # eligible pairs with J == 0 (counted in hist[0])
    floor: float = 0.0
    pool: Banding | None = None
    pool_size: int = 0
    sample_size: int = 0
    seconds: float = 0.0

    @property
    def sampled(self) -> bool:
        return self.mode == "sampled"

    @property
    def left(self) -> npt.NDArray[np.int64]:
        return self.codes // max(self.n_docs, 1)

    @property
    def right(self) -> npt.NDArray[np.int64]:
        return self.codes % max(self.n_docs, 1)

    def describe(self) -> str:
        """One line for the view: where the exact similarities come from."""
        if not self.sampled:
            return (
                f"Exact similarity of all {self.n_pairs:,} pairs (pairs below {self.floor:.2f} counted, not drawn)"
                f", computed in {self.seconds:.1f} s."
            )
        pool = f"all {self.pool_size:,} candidates of {self.pool} plus " if self.pool is not None else ""
        return (
            f"Sampled: exact similarity of {pool}a uniform sample of {self.sample_size:,} of the other "
            f"{self.n_pairs - self.pool_size:,} pairs; figures about missed pairs are estimates."
        )


def eligible_pairs(n: int, is_ref: npt.NDArray[np.bool_] | None) -> int:
    """How many pairs are compared: all n(n-1)/2, or with reference folders only reference x other pairs."""
    if is_ref is None:
        return n * (n - 1) // 2
    r = int(np.count_nonzero(is_ref))
    return r * (n - r)


def _fine_bin(j: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """The FINE_BINS bin of each similarity (the same arithmetic as the compiled all-pairs loop; the 1e-9 puts a
    similarity lying exactly on an edge, like 7/20, in the bin it starts, whatever the rounding of j * FINE_BINS)."""
    return np.minimum(FINE_BINS - 1, np.floor(j * FINE_BINS + 1e-9).astype(np.int64))


def _index(shingles: ShingleBatch) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Inverted index: shingle number of each entry, posting lists (documents ascending), their offsets, positions."""
    n = len(shingles)
    # the stable order of the ids sorts the shingle numbers too; entries are stored document by document, so each
    # posting list keeps its documents ascending
    order, shingle_of = stable_groups(shingles.ids)
    doc = np.repeat(np.arange(n, dtype=np.int64), shingles.counts())
    posting = doc[order]
    post_offsets = np.zeros(int(shingle_of.max(initial=-1)) + 2, dtype=np.int64)
    np.cumsum(np.bincount(shingle_of, minlength=len(post_offsets) - 1), out=post_offsets[1:])
    pos = np.empty(len(order), dtype=np.int64)
    pos[order] = np.arange(len(order), dtype=np.int64)
    return shingle_of, posting, post_offsets, pos


def all_pairs(
    shingles: ShingleBatch,
    is_ref: npt.NDArray[np.bool_] | None = None,
    cancel: threading.Event | None = None,
    max_work: int = MAX_ALL_PAIRS_WORK,
    floor: float = STORE_FLOOR,
) -> Generator[Progress, None, ExactReference | None]:
    """Every eligible pair's exact Jaccard via the inverted index (those at or above ``floor`` listed); None if
    predicted to cost more than ``max_work`` or listing more than ``MAX_STORED`` pairs."""
    t0 = time.perf_counter()
    n = len(shingles)
    if n > MAX_ALL_PAIRS_DOCS:
        return None
    shingle_of, posting, post_offsets, pos = _index(shingles)
    tail = post_offsets[shingle_of + 1] - pos - 1  # documents after this one holding the same shingle
    row_work = np.bincount(np.repeat(np.arange(n), shingles.counts()), weights=tail, minlength=n)
    total = float(row_work.sum())
    if total > max_work:
        return None
    counts = shingles.counts()
    hist = np.zeros(FINE_BINS, dtype=np.int64)
    ref = is_ref if is_ref is not None else np.zeros(n, dtype=np.bool_)
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    stored = 0
    cum = np.cumsum(row_work)
    n_chunks = max(1, min(50, int(total // 2_000_000) + 1))
    bounds = np.searchsorted(cum, np.linspace(0, total, n_chunks + 1)[1:-1]).tolist()
    edges = [0] + bounds + [n]
    for lo, hi in zip(edges[:-1], edges[1:]):
        check_cancel(cancel)
        if hi > lo:
            part = pair_kernels.all_pairs_rows(
                shingle_of,
                posting,
                post_offsets,
                pos,
                shingles.offsets,
                counts,
                ref,
                is_ref is not None,
                lo,
                hi,
                floor,
                FINE_BINS,
                hist,
            )
            parts.append(part)
            stored += len(part[0])
            if stored > MAX_STORED:
                return None
        yield Progress("exact similarity of all pairs", int(hi), n, time.perf_counter() - t0)
    left = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0, np.int64)
    right = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, np.int64)
    jac = np.concatenate([p[2] for p in parts]) if parts else np.zeros(0)
    n_pairs = eligible_pairs(n, is_ref)
    n_zero = n_pairs - int(hist.sum())
    hist[0] += n_zero
    codes = left * n + right
    order = np.argsort(codes)
    return ExactReference(
        "all",
        n,
        n_pairs,
        codes[order],
        jac[order],
        np.ones(len(order)),
        hist.astype(np.float64),
        float(n_zero),
        floor,
        seconds=time.perf_counter() - t0,
    )


def pool_candidates(
    sigs: npt.NDArray, schemes: Sequence[Banding], max_pool: int = MAX_POOL
) -> tuple[Banding | None, np.ndarray]:
    """Candidate codes of the loosest scheme (lowest curve threshold) that brings at most ``max_pool`` pairs."""
    for s in sorted(set(schemes), key=lambda s: threshold(s.bands, s.rows)):
        codes, _, sizes, _ = band_codes(sigs, s)
        if int((sizes * (sizes - 1) // 2).sum()) <= max_pool:
            return s, unique(codes)
    return None, np.zeros(0, dtype=np.int64)


def sample_pairs(
    n: int, size: int, exclude: np.ndarray, rng: np.random.Generator, is_ref: npt.NDArray[np.bool_] | None = None
) -> np.ndarray:
    """Codes of ``size`` distinct eligible pairs drawn uniformly from those not in ``exclude`` (sorted codes)."""
    total = eligible_pairs(n, is_ref) - len(exclude)
    size = min(size, max(total, 0))
    got = np.zeros(0, dtype=np.int64)
    sides = (np.flatnonzero(is_ref), np.flatnonzero(~is_ref)) if is_ref is not None else None
    while len(got) < size:
        m = 2 * (size - len(got)) + 64
        if sides is None:
            i = rng.integers(0, n, m)
            j = rng.integers(0, n - 1, m)
            j = j + (j >= i)
        else:
            refs, others = sides
            i, j = refs[rng.integers(0, len(refs), m)], others[rng.integers(0, len(others), m)]
        codes = np.minimum(i, j) * n + np.maximum(i, j)
        codes = codes[~np.isin(codes, exclude) & ~np.isin(codes, got)]
        _, first = np.unique(codes, return_index=True)
        codes = codes[np.sort(first)]  # distinct, in the order drawn, so the sample stays uniform
        got = np.concatenate([got, codes[: size - len(got)]])
    return np.sort(got)


def sampled(
    sigs: npt.NDArray,
    shingles: ShingleBatch,
    schemes: Sequence[Banding],
    is_ref: npt.NDArray[np.bool_] | None = None,
    sample_size: int = SAMPLE_PAIRS,
    seed: int = 0,
    cancel: threading.Event | None = None,
) -> Generator[Progress, None, ExactReference]:
    """Every candidate of the loosest of ``schemes`` plus a uniform sample of the other pairs, scored exactly."""
    t0 = time.perf_counter()
    n = len(shingles)
    yield Progress("candidates of the loosest scheme", 0, 3, 0.0)
    pool, pool_codes = pool_candidates(sigs, schemes)
    if is_ref is not None and len(pool_codes):
        pool_codes = pool_codes[is_ref[pool_codes // n] != is_ref[pool_codes % n]]
    check_cancel(cancel)
    yield Progress("sampling pairs", 1, 3, time.perf_counter() - t0)
    sample = sample_pairs(n, sample_size, pool_codes, np.random.default_rng(seed), is_ref)
    check_cancel(cancel)
    yield Progress("exact similarity of the sample", 2, 3, time.perf_counter() - t0)
    codes = np.concatenate([pool_codes, sample])
    jac = exact_jaccard(shingles, codes // n, codes % n)
    n_pairs = eligible_pairs(n, is_ref)
    w = (n_pairs - len(pool_codes)) / len(sample) if len(sample) else 0.0
    weight = np.concatenate([np.ones(len(pool_codes)), np.full(len(sample), w)])
    hist = np.bincount(_fine_bin(jac), weights=weight, minlength=FINE_BINS).astype(np.float64)
    n_zero = float(weight[jac == 0].sum())
    order = np.argsort(codes)
    yield Progress("exact similarity of the sample", 3, 3, time.perf_counter() - t0)
    return ExactReference(
        "sampled",
        n,
        n_pairs,
        codes[order],
        jac[order],
        weight[order],
        hist,
        n_zero,
        0.0,
        pool,
        len(pool_codes),
        len(sample),
        time.perf_counter() - t0,
    )


def build_reference(
    sigs: npt.NDArray,
    shingles: ShingleBatch,
    schemes: Sequence[Banding],
    is_ref: npt.NDArray[np.bool_] | None = None,
    cancel: threading.Event | None = None,
    max_work: int = MAX_ALL_PAIRS_WORK,
    sample_size: int = SAMPLE_PAIRS,
    seed: int = 0,
) -> Generator[Progress, None, ExactReference]:
    """All pairs exactly when that is cheap enough, else the sampled reference (see the module docstring)."""
    ref = yield from all_pairs(shingles, is_ref, cancel, max_work)
    if ref is None:
        ref = yield from sampled(sigs, shingles, schemes, is_ref, sample_size, seed, cancel)
    return ref
