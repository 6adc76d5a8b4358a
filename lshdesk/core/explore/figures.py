"""The S-curve explorer's figures: re-band the stored signatures for one scheme (no re-hashing) and measure it.

For a scheme (b, r) and a threshold t: the candidate pairs, their exact similarity, verified pairs, precision and
recall against exact Jaccard at t, the exact comparisons the scheme costs (one per candidate) against all pairs,
the missed pairs with their best band agreement, bucket sizes with the largest buckets, and the measured candidate
rate per similarity bin with a Wilson interval. Recall needs to know every pair above t: ``ExactReference``
(``explore_exact``) says where that comes from, exactly or by a flagged sample.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.clustering import exact_jaccard
from lshdesk.core.compare import wilson_bounds as wilson
from lshdesk.core.errors import ParamError
from lshdesk.core.explore.exact import FINE_BINS, ExactReference, _fine_bin, eligible_pairs
from lshdesk.core.explore.known import KnownJaccard
from lshdesk.core.kernels import explore as ek
from lshdesk.core.lsh import band_codes, unique_codes
from lshdesk.core.params import Banding
from lshdesk.core.scurve import false_negative_area, false_positive_area, probability
from lshdesk.core.shingling import ShingleBatch

RATE_BINS = 20  # the measured candidate rate is shown per similarity bin of width 0.05
TOP_BUCKETS = 10
EPS = 1e-12  # "J >= t" as the scan's verification reads it (``clustering.verify``)


@dataclass(frozen=True)
class Bucket:
    """One bucket: the band it is in and its members (document indices, ascending)."""

    band: int
    members: npt.NDArray[np.int64]


@dataclass(frozen=True)
class RateBins:
    """Measured candidate rate per similarity bin: caught / pairs, with a 95 % Wilson interval."""

    edges: npt.NDArray[np.float64]
    pairs: npt.NDArray[np.float64]  # (weighted) eligible pairs per bin
    caught: npt.NDArray[np.float64]  # candidates per bin (always exact)
    rate: npt.NDArray[np.float64]  # nan where a bin has no pairs
    low: npt.NDArray[np.float64]
    high: npt.NDArray[np.float64]


@dataclass(frozen=True)
class Figures:
    """Everything the explorer shows about one scheme at one threshold; ``sampled`` marks estimated recall."""

    banding: Banding
    threshold: float
    n_docs: int
    n_pairs: int  # eligible pairs: what comparing everything would cost
    left: npt.NDArray[np.int64]  # candidates, ascending codes
    right: npt.NDArray[np.int64]
    bands: npt.NDArray[np.int64]  # bands each candidate collided in
    jaccard: npt.NDArray[np.float64]  # exact, for every candidate
    n_verified: int
    precision: float  # verified / candidates, exact (nan without candidates)
    positives: float  # pairs with J >= t (estimated when sampled)
    recall: float  # verified / positives (nan without positives)
    missed_left: npt.NDArray[np.int64]  # known pairs with J >= t that are not candidates, most similar first
    missed_right: npt.NDArray[np.int64]
    missed_jaccard: npt.NDArray[np.float64]
    missed_agreement: npt.NDArray[np.int64]  # most rows agreeing in any one band (r would make it a candidate)
    missed_total: float  # known + estimated
    others: npt.NDArray[np.int64]  # indices into the reference of known pairs that are not candidates
    bucket_sizes: npt.NDArray[np.int64]  # every bucket of two or more documents, over all bands
    largest: tuple[Bucket, ...]
    bins: RateBins | None
    sampled: bool
    p_threshold: float  # the theory at the threshold: P(t), and the curve's false-positive and false-negative areas
    fp_area: float
    fn_area: float
    seconds: float

    @property
    def n_candidates(self) -> int:
        return len(self.left)

    @property
    def comparisons_saved(self) -> float:
        """Fraction of the all-pairs comparisons the scheme avoids."""
        return 1.0 - self.n_candidates / self.n_pairs if self.n_pairs else 0.0


def band_candidates(
    sigs: npt.NDArray, banding: Banding, is_ref: npt.NDArray[np.bool_] | None = None
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], tuple[npt.NDArray, npt.NDArray, npt.NDArray]]:
    """(candidate codes ascending, bands each collided in, (band, size, first member) of every bucket of 2+):
    the candidates of ``lsh.candidate_pairs``, without reference-folder pairs when ``is_ref`` is given."""
    banding.check(sigs.shape[1])
    n = len(sigs)
    codes, b_band, b_size, b_first = band_codes(sigs, banding)
    uniq, counts = unique_codes(codes)
    if is_ref is not None and len(uniq):
        keep = is_ref[uniq // n] != is_ref[uniq % n]
        uniq, counts = uniq[keep], counts[keep]
    return uniq, counts, (b_band, b_size, b_first)


def bucket_members(sigs: npt.NDArray, banding: Banding, band: int, first: int) -> npt.NDArray[np.int64]:
    """The documents sharing ``first``'s bucket in ``band`` (exact slot equality over the band's rows)."""
    r = banding.rows
    return ek.same_slots(np.ascontiguousarray(sigs), band * r, (band + 1) * r, first)


def rate_bins(ref: ExactReference | None, cand_j: npt.NDArray[np.float64], n_bins: int = RATE_BINS) -> RateBins | None:
    """Candidates per similarity bin over all pairs in that bin (pairs from the reference's histogram)."""
    if ref is None:
        return None
    group = FINE_BINS // n_bins
    pairs = ref.hist.reshape(n_bins, group).sum(axis=1)
    caught = np.bincount(_fine_bin(cand_j) // group, minlength=n_bins).astype(np.float64)
    pairs = np.maximum(pairs, caught)  # a sampled estimate can fall below the exact candidate count
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(pairs > 0, caught / pairs, np.nan)
    low, high = wilson(caught, pairs)
    return RateBins(np.linspace(0.0, 1.0, n_bins + 1), pairs, caught, rate, low, high)


def _largest(sigs: npt.NDArray, banding: Banding, band: np.ndarray, size: np.ndarray, first: np.ndarray) -> tuple:
    """The ``TOP_BUCKETS`` largest buckets with their members (ties: the first reported first)."""
    top = np.argsort(-size, kind="stable")[:TOP_BUCKETS]
    return tuple(Bucket(int(band[i]), bucket_members(sigs, banding, int(band[i]), int(first[i]))) for i in top)


def _theory(banding: Banding, t: float) -> tuple[float, float, float]:
    """P(t) and the false-positive and false-negative areas of ``banding`` at ``t`` (a new b x r's quadrature nodes
    cost ~5 ms the first time: here, in the worker, not in the panel that shows them)."""
    b, r = banding.bands, banding.rows
    return float(probability(t, b, r)), float(false_positive_area(t, b, r)), float(false_negative_area(t, b, r))


def reband(
    sigs: npt.NDArray,
    shingles: ShingleBatch,
    banding: Banding,
    threshold: float,
    ref: ExactReference | None = None,
    is_ref: npt.NDArray[np.bool_] | None = None,
    known: KnownJaccard | None = None,
) -> Figures:
    """Band the stored signatures with ``banding`` and measure the scheme at ``threshold`` against ``ref``.

    Without ``ref`` the recall, the missed pairs and the rate bins are unknown (nan, empty, None). An all-pairs
    ``ref`` lists only pairs at or above its ``floor``, so the threshold must not be below it. ``known`` (the same
    documents' similarities computed so far, ``ref``'s pairs merged in) spares computing a pair twice.
    """
    if ref is not None and not ref.sampled and threshold < ref.floor - EPS:
        raise ParamError(f"the exact similarities list pairs from {ref.floor:g} up: use a threshold of at least that")
    t0 = time.perf_counter()
    n = len(sigs)
    codes, collided, (b_band, b_size, b_first) = band_candidates(sigs, banding, is_ref)
    left, right = codes // max(n, 1), codes % max(n, 1)
    if known is None:
        cand_j = exact_jaccard(shingles, left, right)
    else:
        if ref is not None:
            known.seed(ref.codes, ref.jaccard, key=ref)
        cand_j = known.jaccard(codes)
    above = cand_j >= threshold - EPS
    n_verified = int(np.count_nonzero(above))
    precision = n_verified / len(codes) if len(codes) else float("nan")

    empty_i, empty_f = np.zeros(0, np.int64), np.zeros(0, np.float64)
    missed_idx, others, missed_total, positives = empty_i, empty_i, float("nan"), float("nan")
    if ref is not None:
        pos = np.minimum(np.searchsorted(codes, ref.codes), max(len(codes) - 1, 0))
        is_cand = codes[pos] == ref.codes if len(codes) else np.zeros(len(ref.codes), dtype=bool)
        others = np.flatnonzero(~is_cand)
        missed_idx = others[ref.jaccard[others] >= threshold - EPS]
        missed_total = float(ref.weight[missed_idx].sum())
        positives = n_verified + missed_total
        missed_idx = missed_idx[np.lexsort((ref.codes[missed_idx], -ref.jaccard[missed_idx]))]
    recall = n_verified / positives if positives and positives > 0 else float("nan")
    ml = ref.codes[missed_idx] // n if ref is not None else empty_i
    mr = ref.codes[missed_idx] % n if ref is not None else empty_i
    agreement = ek.best_band_agreement(np.ascontiguousarray(sigs), ml, mr, banding.bands, banding.rows)

    largest = _largest(sigs, banding, b_band, b_size, b_first)
    return Figures(
        banding,
        threshold,
        n,
        eligible_pairs(n, is_ref),
        left,
        right,
        collided,
        cand_j,
        n_verified,
        precision,
        positives,
        recall,
        ml,
        mr,
        ref.jaccard[missed_idx] if ref is not None else empty_f,
        agreement,
        missed_total,
        others,
        b_size.astype(np.int64),
        largest,
        rate_bins(ref, cand_j),
        bool(ref is not None and ref.sampled),
        *_theory(banding, threshold),
        time.perf_counter() - t0,
    )
