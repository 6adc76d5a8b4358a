"""Planning a dataset's scan on a random sample of its rows: for each scheme, the whole dataset's candidate pairs,
the verification they cost and the pairs they report, with 95 % intervals, and the recall measured on the sample.

The statistics. Whether a pair of rows is a candidate depends on the two signatures alone, so the sample's
candidates are exactly the whole dataset's candidates between drawn rows. With n of N rows drawn uniformly without
replacement, a pair is drawn with probability p2 = n(n-1) / (N(N-1)), and S / p2 (S: the sample's sum, of 1 per
candidate or of the ids its comparison reads) is unbiased for the whole (Horvitz-Thompson). Its variance is a sum
over pairs of pairs: two sharing a row are drawn together with probability p3 = p2 (n-2)/(N-2), two disjoint ones
with p4 = p3 (n-3)/(N-3), so

    Var = [Q (p2 - p2^2) + 2 A1 (p3 - p2^2) + 2 A0 (p4 - p2^2)] / p2^2

with Q the whole's sum of squares, A1 its sum of products over pairs sharing a row and A0 over disjoint pairs,
each estimated without bias from the sample's (q / p2, a1 / p3, a0 / p4). The A1 term is where near-duplicate
clusters show: a row of a cluster of m is a candidate with its m - 1 copies, and the variance grows with the spread
of the rows' candidate counts (a U-statistic's first term); the background of low-similarity candidates, many and
spread thin, is nearly Poisson. The interval is the estimate +- 1.96 standard deviations, never below the
sample's own count (the whole holds at least the sample's pairs). No sample sees a cluster of which it drew fewer
than two rows: 30 copies of one text among 10^6 rows, 5 % drawn, are missed entirely with probability 0.55.

Verification is costed as ``scan.scheme`` costs it, the ids of the two sets each candidate compares, at
``SECONDS_PER_ID`` on ``THREADS`` threads (a model, not a timing). Recall is measured on the sample's pairs at the
threshold (``scheme.true_pairs``): the share that are candidates, a ratio of two such totals (its interval by the
delta method), beside the S-curve's expectation over the same pairs.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from lshdesk.core.compare import wilson_bounds
from lshdesk.core.humanize import human_count, human_seconds
from lshdesk.core.kernels.probe import probe_intersection_sizes
from lshdesk.core.lsh import candidate_pairs
from lshdesk.core.params import Banding
from lshdesk.core.scan.estimate import SECONDS_PER_ID, THREADS, TIMED_PAIRS
from lshdesk.core.scan.pipeline import SignedCorpus, whole_documents
from lshdesk.core.scan.scheme import choose_scheme, pool_banding, true_pairs
from lshdesk.core.scurve import probability, scan_banding
from lshdesk.core.shingling import ShingleBatch

Z = 1.959964  # a two-sided 95 % normal interval
EPS = 1e-12  # "J >= t" as the scan's verification reads it


@dataclass(frozen=True)
class Interval:
    """An estimate of a whole dataset's figure and its 95 % interval."""

    value: float
    low: float
    high: float

    def scaled(self, factor: float) -> Interval:
        return Interval(self.value * factor, self.low * factor, self.high * factor)

    def covers(self, x: float) -> bool:
        return self.low <= x <= self.high

    def words(self, unit: str = "") -> str:
        """'1.2 M (1.1 M–1.3 M)'; with ``unit`` "s", times ('3.4 s (3.1–3.8 s)'); "%", shares."""
        if unit == "%":
            return "n/a" if math.isnan(self.value) else f"{self.value:.2%} ({self.low:.2%}–{self.high:.2%})"
        if unit == "s":
            return f"{seconds_text(self.value)} ({seconds_text(self.low)}–{seconds_text(self.high)})"
        return f"{human_count(self.value)} ({human_count(self.low)}–{human_count(self.high)})"


def seconds_text(s: float) -> str:
    """A predicted time to two figures: '0.034 s', '3.4 s', '42 s', then minutes and hours."""
    if s >= 60:
        return human_seconds(s)
    return f"{s:.2g} s" if s >= 0.001 else "< 0.001 s"


@dataclass(frozen=True)
class Draw:
    """How the sample was drawn: ``n`` of ``N`` rows, uniformly without replacement."""

    n: int
    N: int  # noqa: N815 - the population's size, as statistics writes it

    def __post_init__(self) -> None:
        if not 2 <= self.n <= self.N:
            raise ValueError(f"a sample of {self.n} rows of {self.N}")

    def chance(self, rows: int) -> float:
        """The probability that ``rows`` given rows are all drawn."""
        p = 1.0
        for i in range(rows):
            p *= (self.n - i) / (self.N - i) if self.N > i else 1.0
        return p


def total(
    draw: Draw, left: npt.NDArray, right: npt.NDArray, w: npt.NDArray | None = None, clamp: bool = True
) -> tuple[float, float]:
    """(the whole's estimated sum over pairs, its variance) from the sample's pairs (``left``, ``right``: sampled
    documents; ``w``: each pair's value, 1 if None), by the Horvitz-Thompson estimator (module docstring). The
    variance estimate is unbiased but can fall below 0 (``clamp``: then it is 0)."""
    w = np.ones(len(left)) if w is None else np.asarray(w, dtype=np.float64)
    if not len(w):
        return 0.0, 0.0
    size = int(max(left.max(), right.max())) + 1
    s, q = float(w.sum()), float(w @ w)
    deg = np.bincount(left, w, size) + np.bincount(right, w, size)
    a1 = (float(deg @ deg) - 2 * q) / 2  # pairs of pairs sharing a row
    a0 = (s * s - q) / 2 - a1  # disjoint pairs of pairs
    p2, p3, p4 = (draw.chance(r) for r in (2, 3, 4))
    var = q / p2 * (p2 - p2 * p2) + 2 * a1 / p3 * (p3 - p2 * p2) + 2 * a0 / p4 * (p4 - p2 * p2)
    return s / p2, (max(0.0, var) if clamp else var) / (p2 * p2)


def interval(
    draw: Draw, left: npt.NDArray, right: npt.NDArray, w: npt.NDArray | None = None, unit: float = 1.0
) -> Interval:
    """The whole's sum with its 95 % interval, at least the sample's own sum; with none in the sample, up to what
    three pairs of value ``unit`` would have meant (a count of zero is not a proof of none)."""
    value, var = total(draw, left, right, w)
    seen = float(np.sum(w)) if w is not None else float(len(left))
    sd = math.sqrt(var)
    high = value + Z * sd if len(left) else 3 * unit / draw.chance(2)
    return Interval(value, max(seen, value - Z * sd), high)


@dataclass(frozen=True)
class SchemePlan:
    """One scheme's figures on the whole dataset, predicted from the sample."""

    banding: Banding
    candidates: Interval  # candidate pairs
    ids: Interval  # shingle ids their exact comparisons read (both sets of each candidate)
    seconds: Interval  # verification time by the cost model (ids x SECONDS_PER_ID on THREADS threads)
    verified: Interval  # candidates at or above the threshold: the pairs the scan reports
    timed: Interval  # verification time from the probe timed on the sample's candidates (as ``scan.estimate`` times)
    recall: Interval  # measured on the sample's pairs at the threshold (nan: the sample holds none)
    expected_recall: float  # the S-curve's mean over those pairs
    sample_candidates: int


@dataclass(frozen=True)
class Plan:
    """A sample's plan: how it was drawn, the threshold, its pairs at the threshold, and each scheme's figures."""

    draw: Draw
    n_docs: int  # the sample's documents (rows with text)
    threshold: float
    automatic: Banding  # the scheme a scan of the whole would choose (``scan.scheme``, from the sample)
    true_pairs: int  # the sample's pairs at the threshold
    positives: Interval  # the whole's pairs at the threshold
    schemes: tuple[SchemePlan, ...]


def sample_draw(corpus: SignedCorpus) -> Draw:
    """How a corpus's documents were drawn: a sampled dataset's rows, or the whole corpus (n = N)."""
    rows = corpus.dataset
    if rows is not None and rows.drawn:
        return Draw(rows.drawn, rows.n_rows)
    return Draw(max(2, len(corpus.docs)), max(2, len(corpus.docs)))


@dataclass(frozen=True)
class Prediction:
    """A scheme's candidates on the whole dataset, their verification and the pairs they report."""

    candidates: Interval  # candidate pairs
    ids: Interval  # shingle ids their exact comparisons read (both sets of each candidate)
    seconds: Interval  # verification time by the cost model (ids x SECONDS_PER_ID on THREADS threads)
    verified: Interval  # candidates at or above the threshold: the pairs the scan reports


def predict(
    draw: Draw,
    counts: npt.NDArray,
    left: npt.NDArray,
    right: npt.NDArray,
    jaccard: npt.NDArray,
    threshold: float,
) -> Prediction:
    """The whole dataset's figures from the sample's candidates (documents ``left``, ``right``, their exact
    ``jaccard``; ``counts``: each sampled document's shingles), as the explorer has them."""
    counts = np.asarray(counts, dtype=np.float64)
    ids = counts[left] + counts[right]
    ok = jaccard >= threshold - EPS
    id_total = interval(draw, left, right, ids, 2 * float(counts.mean()) if len(counts) else 0.0)
    return Prediction(
        interval(draw, left, right),
        id_total,
        id_total.scaled(SECONDS_PER_ID / THREADS),
        interval(draw, left[ok], right[ok]),
    )


def plan_scheme(
    sigs: npt.NDArray,
    shingles: ShingleBatch,
    banding: Banding,
    threshold: float,
    draw: Draw,
    truth: tuple[npt.NDArray, npt.NDArray, npt.NDArray],
) -> SchemePlan:
    """One scheme's figures on the whole, from the sample's signatures and shingle sets (``truth``: the sample's
    pairs at the threshold, ``scheme.true_pairs``)."""
    c = candidate_pairs(sigs, banding)
    left, right = c.left, c.right
    counts = shingles.counts()
    inter = probe_intersection_sizes(shingles.ids, shingles.offsets, left, right)
    union = (counts[left] + counts[right] - inter).astype(np.float64)
    j = np.divide(inter, union, out=np.zeros(len(inter)), where=union > 0)
    got = predict(draw, counts, left, right, j, threshold)
    tl, tr, tj = truth
    return SchemePlan(
        banding,
        got.candidates,
        got.ids,
        got.seconds,
        got.verified,
        got.candidates.scaled(per_pair_seconds(shingles, left, right) / THREADS),
        recall_interval(draw, tl, tr, caught(sigs, banding, tl, tr)),
        float(probability(tj, banding.bands, banding.rows).mean()) if len(tj) else float("nan"),
        len(left),
    )


def per_pair_seconds(shingles: ShingleBatch, left: npt.NDArray, right: npt.NDArray, seed: int = 0) -> float:
    """Seconds one exact comparison takes here, timed on up to ``TIMED_PAIRS`` of the candidates (one thread): the
    cost model counts ids only, and a candidate's own cost (finding its two sets) dominates with small sets."""
    if not len(left):
        return 0.0
    pick = np.random.default_rng(seed).choice(len(left), min(len(left), TIMED_PAIRS), replace=False)
    t0 = time.perf_counter()
    probe_intersection_sizes(shingles.ids, shingles.offsets, left[pick], right[pick])
    return (time.perf_counter() - t0) / len(pick)


def caught(sigs: npt.NDArray, banding: Banding, left: npt.NDArray, right: npt.NDArray) -> npt.NDArray[np.bool_]:
    """Whether each pair is a candidate of the scheme: its two signatures agree on every row of some band."""
    b, r = banding.bands, banding.rows
    out = np.zeros(len(left), dtype=bool)
    for s in range(0, len(left), 65536):  # bounded memory: a block of pairs at a time
        a, z = sigs[left[s : s + 65536], : b * r], sigs[right[s : s + 65536], : b * r]
        out[s : s + 65536] = (a == z).reshape(len(a), b, r).all(axis=2).any(axis=1)
    return out


def recall_interval(draw: Draw, left: npt.NDArray, right: npt.NDArray, hit: npt.NDArray[np.bool_]) -> Interval:
    """The share of the whole's pairs at the threshold that are candidates, estimated by the sample's share, with
    the delta method's interval (the total of hit - R over the pairs, over the whole's pairs)."""
    if not len(left):
        return Interval(float("nan"), float("nan"), float("nan"))
    r = float(hit.mean())
    positives, _ = total(draw, left, right)
    _, var = total(draw, left, right, hit.astype(np.float64) - r)
    sd = math.sqrt(var) / positives
    low, high = wilson_bounds(int(hit.sum()), len(hit), Z)  # where the sample misses none (or all), the delta is 0
    return Interval(r, max(0.0, min(r - Z * sd, float(low))), min(1.0, max(r + Z * sd, float(high))))


def schemes_near(banding: Banding, k: int) -> list[Banding]:
    """A scheme and its neighbours by rows: r - 1 and r + 1, every slot used (b = k // r)."""
    r = banding.rows
    near = [Banding(k // rr, rr) for rr in (r - 1, r + 1) if 1 <= rr <= k]
    return [banding] + [s for s in near if s != banding]


def plan(corpus: SignedCorpus, threshold: float | None = None, schemes: Sequence[Banding] = ()) -> Plan:
    """The plan of a sampled dataset's scan: the automatic scheme (chosen for the whole), its neighbours by rows,
    the S-curve optimum and ``schemes``, each with its figures on the whole dataset."""
    params = corpus.params
    t = params.threshold if threshold is None else threshold
    sigs, shingles = np.ascontiguousarray(corpus.signatures), corpus.shingles
    k = sigs.shape[1]
    draw = sample_draw(corpus)
    optimum = scan_banding(replace(params, threshold=t))
    auto = optimum
    if params.banding is None and len(sigs) >= 2:
        auto = choose_scheme(
            sigs, shingles, t, optimum, seed=params.signature.seed, population=whole_documents(corpus)
        ).banding
    listed = list(dict.fromkeys([*schemes_near(auto, k), optimum, *schemes]))
    truth = true_pairs(sigs, shingles, t, pool_banding(t, k)) if len(sigs) >= 2 else (np.zeros(0, np.int64),) * 3
    return Plan(
        draw,
        len(sigs),
        t,
        auto,
        len(truth[0]),
        interval(draw, truth[0], truth[1]),
        tuple(plan_scheme(sigs, shingles, s, t, draw, truth) for s in listed),
    )
