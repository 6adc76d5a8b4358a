"""The automatic bands x rows, spending the time a scan can afford on recall (issue 29).

The S-curve optimum (``scurve.optimal_banding``) knows only the threshold: on a corpus whose pairs crowd just above
it (the unicode corpus at t = 0.5: 11,466 of 11,728 true pairs found, recall 0.978) the curve is still rising where
most pairs are. The scan has the signatures before it bands, so it can look: on a sample of the documents it finds
the pairs at or above the threshold (a permissive banding, then the signature estimate, then the exact Jaccard of
those near the threshold), and for the optimum's rows and each fewer (b = k // r bands, every slot used) it computes
the expected recall over those pairs, ``mean(1 - (1 - J**r)**b)``, and the candidates the sample brings, scaled to
the corpus. It takes the scheme of highest expected recall whose verification fits
``BUDGET_SECONDS`` (stated in the scan's report); fewer candidates break ties. Verification stays exact, so
precision is untouched: the only price is time, and it is bounded.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.kernels.probe import probe_intersection_sizes
from lshdesk.core.lsh import candidate_pairs
from lshdesk.core.minhash import estimate_pairs
from lshdesk.core.params import Banding
from lshdesk.core.scurve import probability
from lshdesk.core.shingling import ShingleBatch

SAMPLE_DOCS = 600  # documents sampled (every document below this many): 1,500 took 0.63 s on the unicode corpus
BUDGET_SECONDS = 0.5  # verification a more recall-friendly scheme may cost the scan (two threads)
THREADS = 2  # verification runs on two threads (scan.verify)
MARGIN = 0.1  # pairs whose signature estimate is this far below the threshold are measured exactly too
ENOUGH = 0.9999  # an expected recall this high is not worth more candidates
TIE = 1e-4  # expected recalls this close are equal: the fewer candidates win


@dataclass(frozen=True)
class SchemeChoice:
    """The scheme chosen, why, and what the sample said of it and of the S-curve optimum."""

    banding: Banding
    optimum: Banding
    recall: float  # expected recall of ``banding`` over the sample's pairs >= threshold (nan: none found)
    optimum_recall: float
    true_pairs: int  # the sample's pairs >= threshold
    seconds: float  # expected verification time of ``banding`` on the whole corpus

    def reason(self) -> str:
        """One sentence for the scan's report."""
        b, r = self.banding.bands, self.banding.rows
        if self.banding == self.optimum:
            if not self.true_pairs:
                return f"bands x rows {b} x {r}: the S-curve optimum (the sample holds no pair at the threshold)"
            return f"bands x rows {b} x {r}: the S-curve optimum, expected recall {self.recall:.3f} on the sample"
        o = self.optimum
        return (
            f"bands x rows {b} x {r} instead of the S-curve optimum {o.bands} x {o.rows}: expected recall "
            f"{self.recall:.4f} instead of {self.optimum_recall:.4f} on the sample's {self.true_pairs:,} pairs at "
            f"the threshold, for ~{self.seconds:.2f} s of verification (budget {BUDGET_SECONDS:g} s)"
        )


def choose_scheme(
    sigs: npt.NDArray,
    shingles: ShingleBatch,
    threshold: float,
    optimum: Banding,
    is_ref: npt.NDArray | None = None,
    seed: int = 0,
    budget: float = BUDGET_SECONDS,
) -> SchemeChoice:
    """The most recall-friendly scheme with rows <= ``optimum.rows`` whose verification fits ``budget`` seconds."""
    n, k = sigs.shape
    r_pool = _pool_rows(threshold, k)
    if r_pool >= optimum.rows or r_pool < 2:  # nothing to gain, or a pool of nearly every pair (t <= ~0.3)
        return SchemeChoice(optimum, optimum, float("nan"), float("nan"), 0, 0.0)
    rng = np.random.default_rng(seed)
    sample = np.sort(rng.choice(n, SAMPLE_DOCS, replace=False)) if n > SAMPLE_DOCS else np.arange(n)
    sub = np.ascontiguousarray(sigs[sample])
    scale = _pairs(n, is_ref) / max(_pairs(len(sample), None if is_ref is None else is_ref[sample]), 1)
    j, per_pair = _true_similarities(sub, shingles, sample, threshold, Banding(k // r_pool, r_pool), is_ref)

    def expected(bd: Banding) -> float:
        return float(probability(j, bd.bands, bd.rows).mean()) if len(j) else float("nan")

    best, best_recall, best_seconds = optimum, expected(optimum), 0.0
    if not len(j) or best_recall >= ENOUGH:
        return SchemeChoice(optimum, optimum, best_recall, optimum_recall=best_recall, true_pairs=len(j), seconds=0.0)
    for r in range(optimum.rows, r_pool - 1, -1):  # every slot used, then fewer rows: more recall, more candidates
        bd = Banding(k // r, r)
        if bd == optimum:
            continue
        recall = expected(bd)
        if recall <= best_recall + TIE:
            continue
        seconds = len(_cross(candidate_pairs(sub, bd), sample, is_ref)[0]) * scale * per_pair / THREADS
        if seconds > budget:
            break  # fewer rows only bring more candidates
        best, best_recall, best_seconds = bd, recall, seconds
        if recall >= ENOUGH:
            break
    return SchemeChoice(best, optimum, best_recall, expected(optimum), len(j), best_seconds)


def _pool_rows(threshold: float, k: int) -> int:
    """The most rows r for which b = k // r bands catch a pair at the threshold with probability >= 0.9999."""
    ok = [r for r in range(1, k + 1) if probability(threshold, k // r, r) >= ENOUGH]
    return max(ok) if ok else 0


def _pairs(n: int, is_ref: npt.NDArray | None) -> int:
    """Pairs a scan compares among n documents: all of them, or reference x other with reference folders."""
    if is_ref is None:
        return n * (n - 1) // 2
    m = int(is_ref.sum())
    return m * (n - m)


def _cross(c, sample: npt.NDArray, is_ref: npt.NDArray | None) -> tuple[npt.NDArray, npt.NDArray]:
    """Candidates (into the sample) as (left, right), keeping only reference x other pairs when there are any."""
    left, right = c.left, c.right
    if is_ref is not None:
        keep = is_ref[sample[left]] != is_ref[sample[right]]
        left, right = left[keep], right[keep]
    return left, right


def _true_similarities(
    sub: npt.NDArray,
    shingles: ShingleBatch,
    sample: npt.NDArray,
    threshold: float,
    pool: Banding,
    is_ref: npt.NDArray | None,
) -> tuple[npt.NDArray[np.float64], float]:
    """Exact Jaccard of the sample's pairs >= threshold, and the measured seconds of one exact comparison.

    The pairs come from the permissive ``pool`` banding (a pair at the threshold is its candidate with probability
    >= 0.9999); those whose signature estimate is within ``MARGIN`` of the threshold are measured exactly.
    """
    left, right = _cross(candidate_pairs(sub, pool), sample, is_ref)
    near = estimate_pairs(sub, left, right) >= threshold - MARGIN
    left, right = sample[left[near]], sample[right[near]]
    if not len(left):
        return np.zeros(0), 1e-6
    t0 = time.perf_counter()
    inter = probe_intersection_sizes(shingles.ids, shingles.offsets, left, right)
    per_pair = max((time.perf_counter() - t0) / len(left), 2e-7)
    counts = shingles.counts()
    union = counts[left] + counts[right] - inter
    j = np.divide(inter, union, out=np.zeros(len(inter)), where=union > 0)
    return j[j >= threshold], per_pair
