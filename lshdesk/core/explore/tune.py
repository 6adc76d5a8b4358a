"""Auto-tune a scheme (b, r) for a threshold: the FP/FN-weight criterion, a target recall, or a cap on candidates.

The criterion is ``scurve.optimal_banding`` (datasketch's). The two corpus goals use evidence: recall at the
threshold is measured for every scheme at once from the known pairs above it (a pair is caught by (b, r) when one
of the first b bands has all r slots equal), and the candidates a scheme brings are predicted from the corpus's
similarity histogram, then checked by banding. ``warm`` scores the candidates of the schemes one slider step away
while the user looks at one (``neighbours``).
"""

from __future__ import annotations

import threading
from collections.abc import Generator
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from lshdesk.core.arrays import unique
from lshdesk.core.errors import ParamError, ScanCancelled, check_cancel
from lshdesk.core.explore.exact import FINE_BINS, ExactReference
from lshdesk.core.explore.figures import EPS, Figures, band_candidates, reband
from lshdesk.core.explore.known import KnownJaccard
from lshdesk.core.params import Banding, check_weights
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scurve import (
    all_schemes,
    false_negative_area,
    false_positive_area,
    optimal_banding,
    probability,
    threshold,
)
from lshdesk.core.shingling import ShingleBatch

GOALS = ("weights", "recall", "candidates")
MAX_POSITIVES = 100_000  # recall of every scheme is measured on at most this many pairs (a seeded sample beyond)
MAX_CHECKS = 8  # bandings tried to confirm a candidate cap


@dataclass(frozen=True)
class Goal:
    """What auto-tune optimises: ``weights`` (fp/fn weights), ``recall`` (a target), or ``candidates`` (a cap)."""

    kind: str = "weights"
    fp_weight: float = 0.5
    fn_weight: float = 0.5
    recall: float = 0.95
    max_candidates: int = 10_000

    def __post_init__(self) -> None:
        if self.kind not in GOALS:
            raise ParamError(f"auto-tune goal must be one of {', '.join(GOALS)}, not {self.kind!r}")
        check_weights(self.fp_weight, self.fn_weight)
        if not 0.0 < self.recall <= 1.0:
            raise ParamError(f"target recall must be in (0, 1], not {self.recall}")
        if self.max_candidates < 0:
            raise ParamError(f"the candidate cap must be >= 0, not {self.max_candidates}")


@dataclass(frozen=True)
class Tuning:
    """The chosen scheme and the reasoning: the curve's areas and P(t), and the corpus evidence used."""

    banding: Banding
    goal: Goal
    threshold: float
    fp_area: float
    fn_area: float
    p_at_threshold: float
    measured_recall: float  # nan when no pair above the threshold is known
    expected_candidates: float
    met: bool
    candidates: int | None = None  # counted by banding (candidate-cap goal)
    reasons: tuple[str, ...] = field(default=())


def measured_recall(
    sigs: npt.NDArray, ref: ExactReference, t: float, bands: np.ndarray, rows: np.ndarray, seed: int = 0
) -> npt.NDArray[np.float64]:
    """Recall at t of each scheme over the reference's pairs with J >= t, weighted (nan without such pairs)."""
    idx = np.flatnonzero(ref.jaccard >= t - EPS)
    if len(idx) == 0:
        return np.full(len(bands), np.nan)
    if len(idx) > MAX_POSITIVES:
        idx = np.sort(np.random.default_rng(seed).choice(idx, MAX_POSITIVES, replace=False))
    n, k = ref.n_docs, sigs.shape[1]
    w = ref.weight[idx]
    eq = sigs[ref.codes[idx] // n] == sigs[ref.codes[idx] % n]
    table: dict[int, np.ndarray] = {}
    for r in unique(rows).tolist():
        nb = k // r
        whole = eq[:, : nb * r].reshape(len(idx), nb, r).all(axis=2)
        table[r] = (w @ np.logical_or.accumulate(whole, axis=1)) / w.sum()  # recall for b = 1 .. nb
    return np.array([table[r][b - 1] for b, r in zip(bands.tolist(), rows.tolist())])


def expected_candidates(ref: ExactReference, bands: np.ndarray, rows: np.ndarray) -> npt.NDArray[np.float64]:
    """Candidates each scheme should bring on this corpus: sum over similarity bins of pairs x P(bin centre)."""
    counts = ref.hist.copy()
    counts[0] -= ref.n_zero  # pairs with nothing in common never collide (but by a hash collision)
    centres = (np.arange(FINE_BINS) + 0.5) / FINE_BINS
    out = np.empty(len(bands))
    for s in range(0, len(bands), 128):
        b, r = bands[s : s + 128, None], rows[s : s + 128, None]
        out[s : s + 128] = (1.0 - (1.0 - centres[None, :] ** r) ** b) @ counts
    return out


def _describe(b: int, r: int, t: float, fp: float, fn: float, p_t: float, recall: float) -> list[str]:
    lines = [
        f"False-positive area (under the curve left of {t:.2f}): {fp:.4f}; "
        f"false-negative area (above it, right of {t:.2f}): {fn:.4f}.",
        f"A pair exactly at the threshold {t:.2f} is caught with probability {p_t:.1%}; "
        f"the curve's own threshold (1/b)^(1/r) is {threshold(b, r):.2f}.",
    ]
    if not np.isnan(recall):
        lines.append(f"Measured recall at {t:.2f} on this corpus: {recall:.1%}.")
    return lines


def tune(
    sigs: npt.NDArray, ref: ExactReference | None, t: float, goal: Goal, is_ref: npt.NDArray[np.bool_] | None = None
) -> Tuning:
    """Choose (b, r) with b * r <= k for threshold t and the goal; the corpus goals need a reference."""
    if not 0.0 < t <= 1.0:
        raise ParamError(f"threshold must be in (0, 1], not {t}")
    k = sigs.shape[1]
    if goal.kind != "weights" and ref is None:
        raise ParamError("the recall and candidate goals need the exact similarities: wait until they are computed")
    bands, rows = all_schemes(k)
    recall = measured_recall(sigs, ref, t, bands, rows) if ref is not None else np.full(len(bands), np.nan)
    expected = expected_candidates(ref, bands, rows) if ref is not None else np.full(len(bands), np.nan)
    met, checked, head = True, None, ""
    if goal.kind == "weights":
        choice = optimal_banding(t, k, goal.fp_weight, goal.fn_weight)
        i = int(np.flatnonzero((bands == choice.bands) & (rows == choice.rows))[0])
        err = goal.fp_weight * false_positive_area(t, choice.bands, choice.rows) + goal.fn_weight * false_negative_area(
            t, choice.bands, choice.rows
        )
        head = (
            f"{choice} minimises {goal.fp_weight:g} x FP area + {goal.fn_weight:g} x FN area = {float(err):.4f} "
            f"over the {len(bands)} schemes with b x r <= {k}."
        )
    elif goal.kind == "recall":
        score = recall if not np.all(np.isnan(recall)) else probability(t, bands, rows)
        ok = np.flatnonzero(score >= goal.recall - 1e-12)
        if len(ok):
            i = int(ok[np.lexsort((-score[ok], expected[ok]))[0]])
            head = (
                f"{bands[i]}x{rows[i]} has the fewest expected candidates ({expected[i]:,.0f}) among the "
                f"{len(ok)} schemes whose measured recall at {t:.2f} is at least {goal.recall:.0%}."
            )
        else:
            i, met = int(np.nanargmax(score)), False
            head = f"No scheme reaches a recall of {goal.recall:.0%}; {bands[i]}x{rows[i]} comes closest."
        if np.all(np.isnan(recall)):
            head += " (No pair at or above the threshold is known: P(threshold) stands in for recall.)"
    else:
        i, met, checked, head = _cap(sigs, t, goal.max_candidates, bands, rows, recall, expected, is_ref)
    b, r = int(bands[i]), int(rows[i])
    fp, fn = float(false_positive_area(t, b, r)), float(false_negative_area(t, b, r))
    p_t = float(probability(t, b, r))
    lines = [head] + _describe(b, r, t, fp, fn, p_t, float(recall[i]))
    return Tuning(Banding(b, r), goal, t, fp, fn, p_t, float(recall[i]), float(expected[i]), met, checked, tuple(lines))


def _cap(
    sigs: npt.NDArray,
    t: float,
    cap: int,
    bands: npt.NDArray[np.int64],
    rows: npt.NDArray[np.int64],
    recall: npt.NDArray[np.float64],
    expected: npt.NDArray[np.float64],
    is_ref: npt.NDArray[np.bool_] | None,
) -> tuple[int, bool, int, str]:
    """Highest measured recall whose candidates (predicted, then counted) stay within the cap."""
    score = np.nan_to_num(recall, nan=0.0)
    order = np.lexsort((expected, -score))  # best recall first, then fewest candidates
    order = order[expected[order] <= 2.0 * cap + 10]  # predictions are close: only count plausible schemes
    strictest = int(np.argmin(expected))
    tried: list[tuple[int, int]] = []
    for i in order[:MAX_CHECKS].tolist() + [strictest]:  # last resort: the fewest expected candidates
        if any(i == j for j, _ in tried):
            continue
        count = len(band_candidates(sigs, Banding(int(bands[i]), int(rows[i])), is_ref)[0])
        tried.append((i, count))
        if count <= cap:
            return (
                i,
                True,
                count,
                (
                    f"{bands[i]}x{rows[i]} has the highest measured recall at {t:.2f} "
                    f"({score[i]:.1%}) of the schemes tried within {cap:,} candidates "
                    f"(banded: {count:,} candidates)."
                ),
            )
    i, count = min(tried, key=lambda x: x[1])
    return (
        i,
        False,
        count,
        (f"No scheme tried stays within {cap:,} candidates; {bands[i]}x{rows[i]} brings the fewest ({count:,})."),
    )


def explore_request(
    sigs: npt.NDArray,
    shingles: ShingleBatch,
    ref: ExactReference | None,
    t: float,
    banding: Banding,
    goal: Goal | None = None,
    is_ref: npt.NDArray[np.bool_] | None = None,
    cancel: threading.Event | None = None,
    known: KnownJaccard | None = None,
) -> Generator[Progress, None, tuple[Tuning | None, Figures]]:
    """One request of the explorer: auto-tune for ``goal`` first if given, then re-band and measure the scheme
    (``known``: the similarities computed by earlier requests on the same result, see ``reband``)."""
    tuning = None
    if goal is not None:
        yield Progress("auto-tune", 0, 2)
        tuning = tune(sigs, ref, t, goal, is_ref)
        banding = tuning.banding
        if cancel is not None and cancel.is_set():
            raise ScanCancelled("cancelled")
    yield Progress("re-banding", 1, 2)
    return tuning, reband(sigs, shingles, banding, t, ref, is_ref, known)


WARM_CHUNK = 10_000  # pairs scored between two looks at ``cancel``: a request waits for one chunk at most


def neighbours(banding: Banding, k: int) -> list[Banding]:
    """The schemes one slider step away (b +- 1, r +- 1, the other giving way to keep b x r <= k), b + 1 first."""
    b, r = banding.bands, banding.rows
    out = [Banding(b + 1, min(r, k // (b + 1))) if b < k else None, Banding(b - 1, r) if b > 1 else None]
    out += [Banding(min(b, k // (r + 1)), r + 1) if r < k else None, Banding(b, r - 1) if r > 1 else None]
    return [s for s in out if s is not None and s != banding]


def warm(
    sigs: npt.NDArray,
    known: KnownJaccard,
    schemes: list[Banding],
    is_ref: npt.NDArray[np.bool_] | None = None,
    cancel: threading.Event | None = None,
) -> Generator[Progress, None, int]:
    """Score the candidates of ``schemes`` into ``known`` ahead of the user's next step (a re-band's time is mostly
    the exact Jaccard of its new candidates); returns the pairs scored. Stops at ``cancel``, between chunks."""
    before = known.computed
    for i, scheme in enumerate(schemes):
        yield Progress("warming", i, len(schemes))
        codes = band_candidates(sigs, scheme, is_ref)[0]
        for start in range(0, len(codes), WARM_CHUNK):
            check_cancel(cancel)
            known.jaccard(codes[start : start + WARM_CHUNK])
    return known.computed - before
