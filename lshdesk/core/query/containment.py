"""Containment scans: pairs where one document's shingles are largely inside another's, C(A in B) = |A ∩ B| / |A|.

A short excerpt inside a long report has a low Jaccard similarity with it, so a Jaccard scheme misses it. As in
LSH Ensemble (Zhu et al., VLDB 2016), documents are partitioned by set size, and each pair of size classes gets
its own banding: for a smaller set of size s and a larger of size l, C >= t means J >= t s / (s + l - t s), lowest
for the class pair's smallest s and largest l; the scheme is the scan's usual choice (``optimal_banding`` with the
scan's false-positive / false-negative weights) for that Jaccard. Every candidate is then checked exactly.

The larger containment of a pair is always the smaller set's in the larger one (|A ∩ B| / |A| >= |A ∩ B| / |B|
when |A| <= |B|), so a pair is reported once: ``left`` = the contained document, ``right`` = the container.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from lshdesk.core.arrays import unique
from lshdesk.core.clustering import Pairs, intersection_sizes
from lshdesk.core.lsh import Candidates, band_keys, candidate_pairs
from lshdesk.core.minhash import estimate_pairs
from lshdesk.core.params import Banding
from lshdesk.core.query.rank import containment_from_jaccard
from lshdesk.core.scurve import optimal_banding
from lshdesk.core.shingling import ShingleBatch

CLASS_RATIO = 2.0  # size classes [2^c, 2^(c+1)): finer classes tighten each scheme but multiply the banding passes


@dataclass(frozen=True)
class SizeScheme:
    """The banding of the pairs between two size classes: the smaller sets' and the larger sets' size ranges."""

    smaller: tuple[int, int]
    larger: tuple[int, int]
    jaccard: float  # the lowest Jaccard of a pair of these sizes with containment at the threshold
    banding: Banding


@dataclass(frozen=True)
class ContainmentPairs(Pairs):
    """Pairs (``left`` contained in ``right``) with the estimate of the containment, exact Jaccard, colliding
    bands, and the exact containment C(left in right)."""

    containment: npt.NDArray[np.float64]

    def take(self, index: npt.NDArray) -> ContainmentPairs:
        p = super().take(index)
        return ContainmentPairs(p.left, p.right, p.estimate, p.jaccard, p.bands, self.containment[index])


@lru_cache(maxsize=256)
def _banding(j: float, k: int, fp_weight: float, fn_weight: float) -> Banding:
    return optimal_banding(max(j, 1e-6), k, fp_weight, fn_weight)


def jaccard_bound(c: npt.ArrayLike, smaller: npt.ArrayLike, larger: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """The Jaccard of sets of sizes ``smaller`` <= ``larger`` when the smaller is contained at ``c`` in the larger:
    J = c s / (s + l - c s) (the lowest Jaccard a pair of these sizes at containment c can have)."""
    c = np.asarray(c, dtype=np.float64)
    s = np.maximum(np.asarray(smaller, dtype=np.float64), 1.0)
    l = np.maximum(np.asarray(larger, dtype=np.float64), s)
    return c * s / (s + l - c * s)


def size_classes(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Each document's size class: floor(log2(set size)) (a set of 0 or 1 shingles is class 0)."""
    return np.floor(np.log2(np.maximum(counts, 1)) / np.log2(CLASS_RATIO)).astype(np.int64)


def containment_schemes(
    counts: npt.NDArray[np.int64], threshold: float, k: int, fp_weight: float = 0.05, fn_weight: float = 0.95
) -> list[tuple[int, int, SizeScheme]]:
    """(smaller class, larger class, scheme) for every pair of size classes present, smaller class first."""
    cls = size_classes(counts)
    present = unique(cls).tolist()
    lo = {c: int(counts[cls == c].min()) for c in present}
    hi = {c: int(counts[cls == c].max()) for c in present}
    out = []
    for i, ci in enumerate(present):
        for cj in present[i:]:
            j = float(jaccard_bound(threshold, lo[ci], hi[cj]))
            out.append(
                (
                    ci,
                    cj,
                    SizeScheme((lo[ci], hi[ci]), (lo[cj], hi[cj]), j, _banding(round(j, 4), k, fp_weight, fn_weight)),
                )
            )
    return out


def cross_candidates(
    sigs: npt.NDArray, small: npt.NDArray[np.int64], large: npt.NDArray[np.int64], banding: Banding
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Pairs (one of ``small``, one of ``large``) sharing a bucket in a band, and in how many bands: each band's
    keys of the larger class sorted, the smaller class's keys looked up in them. Pairs inside one class are never
    formed (banding the two classes together would form them all, and at r = 1 the big class's pairs are billions).
    """
    ks, kl = band_keys(sigs[small], banding), band_keys(sigs[large], banding)
    n = max(len(sigs), 1)
    codes: list[np.ndarray] = []
    for band in range(banding.bands):
        order = np.argsort(kl[:, band], kind="stable")
        col = kl[order, band]
        lo = np.searchsorted(col, ks[:, band], "left")
        cnt = np.searchsorted(col, ks[:, band], "right") - lo
        hit = np.flatnonzero(cnt)
        if not len(hit):
            continue
        reps = cnt[hit]
        start = np.repeat(lo[hit] - np.concatenate(([0], np.cumsum(reps)[:-1])), reps)
        at = start + np.arange(int(reps.sum()))
        codes.append(small[np.repeat(hit, reps)] * n + large[order[at]])
    if not codes:
        empty = np.zeros(0, np.int64)
        return empty, empty, empty
    uniq, n_bands = np.unique(np.concatenate(codes), return_counts=True)
    return uniq // n, uniq % n, n_bands.astype(np.int64)


def containment_candidates(
    sigs: npt.NDArray,
    counts: npt.NDArray[np.int64],
    threshold: float,
    fp_weight: float = 0.05,
    fn_weight: float = 0.95,
) -> Candidates:
    """Candidate pairs (``left`` the smaller set, ``right`` the larger; equal sizes: lower index left), each pair
    of size classes banded with its own scheme."""
    cls = size_classes(counts)
    parts_l, parts_r, parts_b = [], [], []
    for ci, cj, scheme in containment_schemes(counts, threshold, sigs.shape[1], fp_weight, fn_weight):
        if ci == cj:
            members = np.flatnonzero(cls == ci)
            if len(members) < 2:
                continue
            c = candidate_pairs(sigs[members], scheme.banding)
            a, b, nb = members[c.left], members[c.right], c.bands
        else:
            a, b, nb = cross_candidates(sigs, np.flatnonzero(cls == ci), np.flatnonzero(cls == cj), scheme.banding)
        swap = (counts[a] > counts[b]) | ((counts[a] == counts[b]) & (a > b))
        parts_l.append(np.where(swap, b, a))
        parts_r.append(np.where(swap, a, b))
        parts_b.append(nb)
    if not parts_l:
        empty = np.zeros(0, np.int64)
        return Candidates(empty, empty, empty)
    left, right, bands = np.concatenate(parts_l), np.concatenate(parts_r), np.concatenate(parts_b)
    order = np.lexsort((right, left))
    return Candidates(left[order], right[order], bands[order].astype(np.int64))


def verify_containment(
    cands: Candidates, sigs: npt.NDArray, shingles: ShingleBatch, threshold: float
) -> tuple[ContainmentPairs, ContainmentPairs]:
    """(every candidate scored, the pairs with exact C(left in right) >= threshold, by containment descending)."""
    counts = shingles.counts()
    inter = intersection_sizes(shingles, cands.left, cands.right)
    size_a, size_b = counts[cands.left], counts[cands.right]
    cont = np.divide(inter, size_a, out=np.zeros(len(inter)), where=size_a > 0)
    union = size_a + size_b - inter
    jac = np.divide(inter, union, out=np.zeros(len(inter)), where=union > 0)
    est = containment_from_jaccard(estimate_pairs(sigs, cands.left, cands.right), size_a, size_b)
    scored = ContainmentPairs(cands.left, cands.right, est, jac, cands.bands, cont)
    keep = np.flatnonzero(cont >= threshold - 1e-12)
    order = keep[np.lexsort((cands.right[keep], cands.left[keep], -jac[keep], -cont[keep]))]
    return scored, scored.take(order)


def find_containment(
    sigs: npt.NDArray,
    shingles: ShingleBatch,
    threshold: float,
    root: npt.NDArray,
    reference: Sequence[int] = (),
    fp_weight: float = 0.05,
    fn_weight: float = 0.95,
) -> tuple[ContainmentPairs, ContainmentPairs]:
    """Containment candidates of stored signatures, scored exactly: (all candidates, verified pairs). With
    reference folders, only pairs with exactly one document in a reference folder are kept."""
    cands = containment_candidates(sigs, shingles.counts(), threshold, fp_weight, fn_weight)
    if reference:
        is_ref = np.isin(root, np.asarray(reference))
        keep = is_ref[cands.left] != is_ref[cands.right]
        cands = Candidates(cands.left[keep], cands.right[keep], cands.bands[keep])
    return verify_containment(cands, sigs, shingles, threshold)
