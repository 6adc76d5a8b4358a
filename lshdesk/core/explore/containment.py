"""The S-curve of a containment scan: each size-class pair's P(candidate | containment) and the pairs at their
exact containment, candidates (caught) and the other known pairs (not caught).

A containment scan (``core.query.containment``, LSH Ensemble) bands the pairs between two size classes with its own
b x r, chosen for the lowest Jaccard a pair of those sizes can have at the threshold (the smallest of the smaller
class inside the largest of the larger). Through the same conversion, a pair of sizes s <= l at containment c is a
candidate with probability 1 - (1 - J^r)^b, J = c s / (s + l - c s): ``lowest`` is that curve at the class pair's
worst sizes (what the scheme guarantees), ``highest`` at its best sizes; every pair of the class pair lies between.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Generator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.arrays import unique
from lshdesk.core.clustering import intersection_sizes
from lshdesk.core.explore.exact import SAMPLE_PAIRS, all_pairs, eligible_pairs, sample_pairs
from lshdesk.core.params import Banding
from lshdesk.core.query.containment import (
    ContainmentPairs,
    SizeScheme,
    containment_schemes,
    jaccard_bound,
    size_classes,
)
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scurve import probability
from lshdesk.core.shingling import ShingleBatch

DRAW_FLOOR = 0.05  # known pairs below this containment are counted, not drawn (as the Jaccard view's floor)
EPS = 1e-12  # "C >= t" as the scan's verification reads it


@dataclass(frozen=True)
class ClassCurve:
    """One pair of size classes: its scheme (set-size ranges, design Jaccard, b x r) and its pairs' count."""

    scheme: SizeScheme
    n_pairs: int  # eligible pairs between the two classes (one each side; inside one class, two of it)

    @property
    def banding(self) -> Banding:
        return self.scheme.banding

    def lowest(self, c: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """P(candidate | containment c) of the class pair's worst sizes: the smallest set in the largest."""
        return pair_probability(c, self.scheme.smaller[0], self.scheme.larger[1], self.banding)

    def highest(self, c: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """The same at its best sizes: the largest of the smaller class in the smallest container it can have."""
        s = self.scheme.smaller[1]
        return pair_probability(c, s, max(self.scheme.larger[0], s), self.banding)

    def label(self) -> str:
        (a, b), (c, d), band = self.scheme.smaller, self.scheme.larger, self.banding
        return f"{a:,}–{b:,} in {c:,}–{d:,}: {band.bands} x {band.rows}"


def pair_probability(
    c: npt.ArrayLike, smaller: npt.ArrayLike, larger: npt.ArrayLike, banding: Banding
) -> npt.NDArray[np.float64]:
    """P(candidate) of a pair of set sizes ``smaller`` <= ``larger`` at containment ``c`` under ``banding``."""
    return probability(jaccard_bound(c, smaller, larger), banding.bands, banding.rows)


@dataclass(frozen=True)
class ContainmentCurves:
    """What the S-curve shows of a containment scan: the class pairs' curves and the known pairs (``left``
    contained in ``right``) at their exact containment, with the curve each belongs to."""

    threshold: float
    curves: tuple[ClassCurve, ...]
    left: npt.NDArray[np.int64]
    right: npt.NDArray[np.int64]
    containment: npt.NDArray[np.float64]
    caught: npt.NDArray[np.bool_]  # a candidate of the scan
    bands: npt.NDArray[np.int64]  # bands the pair collided in (0: not a candidate)
    curve: npt.NDArray[np.int64]  # index into ``curves``
    n_pairs: int  # eligible pairs
    n_verified: int
    sampled: bool  # the non-candidates drawn are a uniform sample, not all of them
    seconds: float

    def missed(self) -> npt.NDArray[np.bool_]:
        """Known pairs at or above the threshold that are not candidates."""
        return ~self.caught & (self.containment >= self.threshold - EPS)

    def used(self) -> list[int]:
        """The curves (size-class pairs) that hold at least one known pair; all of them when none does."""
        return unique(self.curve).tolist() or list(range(len(self.curves)))

    def describe(self) -> str:
        """One line for the view: what is drawn and where it comes from."""
        n_cand, n_missed = int(self.caught.sum()), int(self.missed().sum())
        known = (
            f"a uniform sample of the other {self.n_pairs - n_cand:,} pairs"
            if self.sampled
            else f"every other pair of the {self.n_pairs:,} with containment ≥ {DRAW_FLOOR:g}"
        )
        return (
            f"Containment scan: {len(self.curves):,} size-class pairs, each with its own bands x rows; "
            f"{len(self.used()):,} of them drawn, with the {n_cand:,} candidates ({self.n_verified:,} verified) and {known}; {n_missed:,} missed at "
            f"C ≥ {self.threshold:g}. Computed in {self.seconds:.1f} s."
        )


def _class_pairs(counts: npt.NDArray[np.int64], schemes: list[tuple[int, int, SizeScheme]]) -> list[int]:
    """Eligible pairs between the classes of each scheme (ignoring reference folders)."""
    per = np.bincount(size_classes(counts))
    return [int(per[a] * (per[a] - 1) // 2) if a == b else int(per[a] * per[b]) for a, b, _ in schemes]


def containment_curves(
    sigs: npt.NDArray,
    shingles: ShingleBatch,
    candidates: ContainmentPairs,
    threshold: float,
    fp_weight: float,
    fn_weight: float,
    is_ref: npt.NDArray[np.bool_] | None = None,
    cancel: threading.Event | None = None,
) -> Generator[Progress, None, ContainmentCurves]:
    """The curves of the scan's size-class schemes (the scan's own choice, recomputed) and its pairs: the scan's
    candidates, plus every other pair above ``DRAW_FLOOR`` when that is cheap, else a uniform sample of them."""
    t0 = time.perf_counter()
    n, counts = len(shingles), shingles.counts()
    schemes = containment_schemes(counts, threshold, sigs.shape[1], fp_weight, fn_weight)
    curves = tuple(ClassCurve(s, m) for (_, _, s), m in zip(schemes, _class_pairs(counts, schemes)))
    cand_codes = np.minimum(candidates.left, candidates.right) * n + np.maximum(candidates.left, candidates.right)
    sizes = counts[counts > 0] if np.any(counts > 0) else np.ones(1, np.int64)
    floor = float(jaccard_bound(DRAW_FLOOR, sizes.min(), sizes.max()))  # no pair at C >= DRAW_FLOOR is below it
    ref = yield from all_pairs(shingles, is_ref, cancel, floor=max(floor - EPS, EPS))
    if ref is not None:
        codes = ref.codes[~np.isin(ref.codes, cand_codes)]
    else:
        yield Progress("sampling pairs", 0, 1, time.perf_counter() - t0)
        codes = sample_pairs(n, SAMPLE_PAIRS, np.sort(cand_codes), np.random.default_rng(0), is_ref)
    a, b = codes // max(n, 1), codes % max(n, 1)
    swap = (counts[a] > counts[b]) | ((counts[a] == counts[b]) & (a > b))
    left, right = np.where(swap, b, a), np.where(swap, a, b)
    inter = intersection_sizes(shingles, left, right)
    cont = np.divide(inter, counts[left], out=np.zeros(len(inter)), where=counts[left] > 0)
    keep = cont >= DRAW_FLOOR - EPS
    left = np.concatenate([candidates.left, left[keep]])
    right = np.concatenate([candidates.right, right[keep]])
    cls = size_classes(counts)
    table = np.full((int(cls.max(initial=0)) + 1,) * 2, -1, np.int64)  # (smaller class, larger class) -> curve
    for i, (ci, cj, _) in enumerate(schemes):
        table[ci, cj] = i
    curve = table[cls[left], cls[right]]
    n_cand = len(candidates.left)
    return ContainmentCurves(
        threshold,
        curves,
        left,
        right,
        np.concatenate([candidates.containment, cont[keep]]),
        np.arange(len(left)) < n_cand,
        np.concatenate([candidates.bands, np.zeros(int(keep.sum()), np.int64)]),
        curve,
        eligible_pairs(n, is_ref),
        int(np.count_nonzero(candidates.containment >= threshold - EPS)),
        ref is None,
        time.perf_counter() - t0,
    )
