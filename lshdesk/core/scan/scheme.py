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

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.kernels.probe import probe_intersection_sizes
from lshdesk.core.lsh import Candidates, candidate_pairs
from lshdesk.core.minhash import estimate_pairs
from lshdesk.core.params import Banding
from lshdesk.core.pcg64 import sample_sorted
from lshdesk.core.scan.estimate import SECONDS_PER_ID, THREADS  # verification's cost model and threads
from lshdesk.core.scurve import probability
from lshdesk.core.shingling import ShingleBatch

SAMPLE_DOCS = 600  # documents sampled (every document below this many): 1,500 took 0.63 s on the unicode corpus
BUDGET_SECONDS = 0.5  # verification a more recall-friendly scheme may cost the scan (two threads)
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
    tried: bool = True  # False: no scheme with fewer rows was worth a look at this threshold (none is tried)

    def reason(self) -> str:
        """One sentence for the scan's report."""
        b, r = self.banding.bands, self.banding.rows
        if self.banding == self.optimum:
            if not self.tried:
                return f"bands x rows {b} x {r}: the S-curve optimum"
            if not self.true_pairs:
                return f"bands x rows {b} x {r}: the S-curve optimum (the sample holds no pair at the threshold)"
            return f"bands x rows {b} x {r}: the S-curve optimum, expected recall {self.recall:.3f} on the sample"
        o = self.optimum
        return (
            f"bands x rows {b} x {r} instead of the S-curve optimum {o.bands} x {o.rows}: expected recall "
            f"{self.recall:.4f} instead of {self.optimum_recall:.4f} on the sample's {self.true_pairs:,} pairs at "
            f"the threshold, for ~{self.seconds:.2f} s of verification (budget {BUDGET_SECONDS:g} s)"
        )


def sample_docs(n: int, seed: int = 0) -> npt.NDArray[np.int64]:
    """The documents (ascending) a scheme is chosen on: ``SAMPLE_DOCS`` drawn with ``seed``, or all of them."""
    if n <= SAMPLE_DOCS:
        return np.arange(n, dtype=np.int64)
    return sample_sorted(n, SAMPLE_DOCS, seed)  # numpy.random's draw (~17 ms to load it: core.pcg64 draws it)


def choose_scheme(
    sigs: npt.NDArray,
    shingles: ShingleBatch,
    threshold: float,
    optimum: Banding,
    is_ref: npt.NDArray | None = None,
    seed: int = 0,
    budget: float = BUDGET_SECONDS,
    population: int | None = None,
) -> SchemeChoice:
    """The most recall-friendly scheme with rows <= ``optimum.rows`` whose verification fits ``budget`` seconds
    (``population``: the documents the scan of the whole would have, when ``sigs`` are a random sample's)."""
    sample = sample_docs(len(sigs), seed)
    return choose_on_sample(
        np.ascontiguousarray(sigs[sample]),
        shingles.take(sample),
        threshold,
        optimum,
        population or len(sigs),
        None if is_ref is None else is_ref[sample],
        0 if is_ref is None else int(is_ref.sum()),
        budget,
    )


def choose_on_sample(
    sub: npt.NDArray,
    batch: ShingleBatch,
    threshold: float,
    optimum: Banding,
    n_docs: int,
    sub_ref: npt.NDArray | None = None,
    n_ref: int = 0,
    budget: float = BUDGET_SECONDS,
) -> SchemeChoice:
    """``choose_scheme`` given the sample itself (``sample_docs``' signatures and shingle sets, and which of them are
    reference documents: ``n_ref`` of the corpus's ``n_docs`` are), as an engine that holds no matrix gathers it."""
    k = sub.shape[1]
    r_pool = _pool_rows(threshold, k)
    if r_pool >= optimum.rows or r_pool < 2:  # nothing to gain, or a pool of nearly every pair (t <= ~0.3)
        return SchemeChoice(optimum, optimum, float("nan"), float("nan"), 0, 0.0, tried=False)
    m_ref = 0 if sub_ref is None else int(sub_ref.sum())
    scale = _pairs(n_docs, n_ref, sub_ref is not None) / max(_pairs(len(sub), m_ref, sub_ref is not None), 1)
    j = _true_similarities(sub, batch, threshold, Banding(k // r_pool, r_pool), sub_ref)
    per_pair = 2 * float(batch.counts().mean()) * SECONDS_PER_ID

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
        seconds = len(_cross(candidate_pairs(sub, bd), sub_ref)[0]) * scale * per_pair / THREADS
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


def _pairs(n: int, n_ref: int, cross: bool) -> int:
    """Pairs a scan compares among n documents: all of them, or reference x other with reference folders."""
    return n_ref * (n - n_ref) if cross else n * (n - 1) // 2


def _cross(c: Candidates, sub_ref: npt.NDArray | None) -> tuple[npt.NDArray, npt.NDArray]:
    """Candidates as (left, right), keeping only reference x other pairs when there are reference documents."""
    left, right = c.left, c.right
    if sub_ref is not None:
        keep = sub_ref[left] != sub_ref[right]
        left, right = left[keep], right[keep]
    return left, right


def _true_similarities(
    sub: npt.NDArray, batch: ShingleBatch, threshold: float, pool: Banding, sub_ref: npt.NDArray | None
) -> npt.NDArray[np.float64]:
    """Exact Jaccard of the sample's pairs >= threshold (``true_pairs``' similarities)."""
    return true_pairs(sub, batch, threshold, pool, sub_ref)[2]


def pool_banding(threshold: float, k: int) -> Banding:
    """The permissive banding ``true_pairs`` finds the pairs at the threshold with (at least 2 rows a band)."""
    r = max(2, _pool_rows(threshold, k))
    return Banding(k // r, r)


def true_pairs(
    sub: npt.NDArray, batch: ShingleBatch, threshold: float, pool: Banding, sub_ref: npt.NDArray | None = None
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The pairs of documents >= threshold, as (left, right, exact Jaccard).

    The pairs come from the permissive ``pool`` banding (a pair at the threshold is its candidate with probability
    >= 0.9999); those whose signature estimate is within ``MARGIN`` of the threshold are measured exactly.
    """
    left, right = _cross(candidate_pairs(sub, pool), sub_ref)
    near = estimate_pairs(sub, left, right) >= threshold - MARGIN
    left, right = left[near], right[near]
    inter = probe_intersection_sizes(batch.ids, batch.offsets, left, right)
    counts = batch.counts()
    union = counts[left] + counts[right] - inter
    j = np.divide(inter, union, out=np.zeros(len(inter)), where=union > 0)
    at = j >= threshold
    return left[at], right[at], j[at]
