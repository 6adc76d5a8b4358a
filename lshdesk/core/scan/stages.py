"""The scan's compiled stages, each a generator reporting its own unit and stopping between short steps.

Banding (a few bands at a time), verifying the candidates (``scan/verify``: steps of bounded cost, two threads)
and grouping (groups, or blocks of a large group's rows): no step runs much longer than ``STEP_COST`` merged
shingle ids (tens of milliseconds), so cancel answers within a step and nothing keeps computing after it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.clustering import Pairs, groups
from lshdesk.core.errors import check_cancel
from lshdesk.core.grouping import lowest_in_groups
from lshdesk.core.kernels import banding as banding_kernels
from lshdesk.core.kernels import pairs as pair_kernels
from lshdesk.core.lsh import Candidates, band_range_codes
from lshdesk.core.params import Banding, ShingleSpec
from lshdesk.core.scan.estimate import available_memory, estimate_candidates
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scan.verify import STEP_COST, RankedIds, uses_join, verify_stage
from lshdesk.core.shingling import ShingleBatch

STEP_SECONDS = 0.04  # banding takes as many bands at a time as run about this long
RANK_FROM = 20  # pair work (merge steps) per shingle id from which grouping first renames ids common-first
Clock = Callable[[], float]


@dataclass(frozen=True, kw_only=True)
class Found:
    """What a pair stage found: candidate pairs, verified pairs, and the groups they link."""

    candidates: Pairs
    pairs: Pairs
    groups: list[npt.NDArray[np.int64]]
    group_min: npt.NDArray[np.float64]  # the lowest exact similarity inside each group


def band_stage(
    sigs: npt.NDArray, banding: Banding, is_ref: npt.NDArray | None, cancel: threading.Event | None, clock: Clock
) -> Generator[Progress, None, Candidates]:
    """``lsh.candidate_pairs`` a few bands at a time (as many as take about ``STEP_SECONDS``), pairs inside one
    side of the reference split dropped per step; each step's sorted pair codes are merged as a binary counter
    merges (runs of similar size), so merging costs O(pairs x log steps) and no step is long."""
    n, b = len(sigs), banding.bands
    banding.check(sigs.shape[1])
    sigs = np.ascontiguousarray(sigs)
    runs: list[tuple[npt.NDArray, npt.NDArray]] = []
    band, width = 0, 1
    while band < b:
        check_cancel(cancel)
        t0 = time.perf_counter()
        hi = min(b, band + width)
        codes = band_range_codes(sigs, banding, band, hi)
        if is_ref is not None and len(codes):
            codes = codes[is_ref[codes // n] != is_ref[codes % n]]
        runs.append(np.unique(codes, return_counts=True))
        while len(runs) > 1 and len(runs[-2][0]) <= 2 * len(runs[-1][0]):
            runs.append(_merge_counts(*runs.pop(-2), *runs.pop()))
        spent = time.perf_counter() - t0
        width = max(1, min(2 * width, int(width * STEP_SECONDS / spent))) if spent > 0 else 2 * width
        band = hi
        yield Progress("banding", band, b, clock())
    uniq, counts = np.zeros(0, np.int64), np.zeros(0, np.int64)
    while runs:
        check_cancel(cancel)
        uniq, counts = _merge_counts(*runs.pop(), uniq, counts)
    return Candidates(uniq // max(n, 1), uniq % max(n, 1), counts.astype(np.int64))


def _merge_counts(a: npt.NDArray, ca: npt.NDArray, b: npt.NDArray, cb: npt.NDArray) -> tuple[npt.NDArray, npt.NDArray]:
    """Two sorted unique key arrays with counts -> one (a linear merge, compiled, without the GIL)."""
    if not len(a) or not len(b):
        return (b, cb) if not len(a) else (a, ca)
    return banding_kernels.merge_counted(a, ca.astype(np.int64), b, cb.astype(np.int64))


def group_stage(
    n_docs: int,
    pairs: Pairs,
    shingles: ShingleBatch,
    cancel: threading.Event | None,
    clock: Clock,
    ranks: RankedIds | None = None,
) -> Generator[Progress, None, tuple[list[npt.NDArray[np.int64]], npt.NDArray[np.float64]]]:
    """Groups (one compiled pass over the pairs), then each group's lowest similarity over all its pairs: small
    groups a batch at a time, a large group a block of rows at a time (its pairs grow with the square of its size).
    The search starts from the lowest verified pair in the group, and each merge stops once it proves a pair is not
    lower (``kernels.pairs._lower``), on ids renamed most common first when the pairs are many (shared ids come
    early): a chained group of 3,945 documents (7.8 M pairs) took 18.7 s, 1.46 s with the early exits, 0.13 s
    with both."""
    yield Progress("grouping", 0, 0, clock())
    comps = groups(n_docs, pairs.left, pairs.right)
    counts = shingles.counts().astype(np.int64)
    lowest = lowest_in_groups(n_docs, comps, pairs)
    yield Progress("grouping", 0, len(comps), clock())
    ids: npt.NDArray = shingles.ids
    if sum(len(c) * (len(c) - 1) // 2 for c in comps) * (2 * counts.mean() + 16) > RANK_FROM * len(ids):
        ids = (ranks or RankedIds(shingles)).common_first(cancel)  # a merge meets what two sets share early
    widths, costs = _group_costs(comps, counts)
    g = 0
    while g < len(comps):
        check_cancel(cancel)
        c = comps[g]
        if costs[g] > STEP_COST:
            yield from _large_group(g, c, widths[g], ids, shingles.offsets, lowest, cancel, clock, len(comps))
            g += 1
        else:
            end, cost = g, 0
            while end < len(comps) and cost < STEP_COST:
                cost += costs[end]
                end += 1
            members = np.concatenate(comps[g:end]).astype(np.int64)
            starts = np.zeros(end - g + 1, dtype=np.int64)
            np.cumsum([len(m) for m in comps[g:end]], out=starts[1:])
            lowest[g:end] = pair_kernels.group_min_jaccard(ids, shingles.offsets, members, starts, lowest[g:end].copy())
            g = end
        yield Progress("grouping", g, len(comps), clock())
    return comps, lowest


def _group_costs(comps: list[npt.NDArray[np.int64]], counts: npt.NDArray[np.int64]) -> tuple[list[int], list[int]]:
    """Per group: the merge width of a pair (twice its documents' mean set size, whole, plus 16) and the work of
    all its pairs, for every group at once (a numpy mean per group was ~8 us each: 4 ms of 500 groups)."""
    if not comps:
        return [], []
    sizes = np.array([len(c) for c in comps], dtype=np.int64)
    starts = np.zeros(len(comps), dtype=np.int64)
    np.cumsum(sizes[:-1], out=starts[1:])
    sums = np.add.reduceat(counts[np.concatenate(comps)], starts)
    widths = sums // sizes * 2 + 16
    return widths.tolist(), (sizes * (sizes - 1) // 2 * widths).tolist()


def _large_group(
    g: int,
    members: npt.NDArray,
    width: int,
    ids: npt.NDArray,
    offsets: npt.NDArray,
    lowest: npt.NDArray,
    cancel: threading.Event | None,
    clock: Callable[[], float],
    total: int,
) -> Generator[Progress, None, None]:
    members = np.ascontiguousarray(members, dtype=np.int64)
    size, p = len(members), 0
    while p < size:
        check_cancel(cancel)
        rows = max(1, STEP_COST // (width * max(1, size - p)))
        lowest[g] = pair_kernels.rows_min_jaccard(ids, offsets, members, p, min(size, p + rows), float(lowest[g]))
        p += rows
        yield Progress("grouping", g, total, clock())


def pair_stages(
    sigs: npt.NDArray,
    shingles: ShingleBatch,
    banding: Banding,
    threshold: float,
    is_ref: npt.NDArray | None,
    shingle: ShingleSpec,
    cancel: threading.Event | None,
    clock: Clock,
    stage_t: dict[str, float],
) -> Generator[Progress, None, Found]:
    """Estimating, banding, verifying and grouping in turn (each stage's seconds into ``stage_t``), the Jaccard
    scan's pair stage. Under two documents there is no pair to look for
    and no kernel is loaded (an empty folder's scan costs only the start-up)."""
    if len(sigs) < 2:
        none = np.zeros(0, np.int64)
        empty = Pairs(none, none, np.zeros(0), np.zeros(0), none)
        return Found(candidates=empty, pairs=empty, groups=[], group_min=np.zeros(0))
    est = estimate_candidates(sigs, shingles, banding, is_ref, threshold=threshold)
    est.check_memory(shingle, available_memory())
    yield Progress("estimating", round(est.pairs), 0, clock(), "candidate pairs", est.warning(shingle))
    check_cancel(cancel)
    ranks = RankedIds(shingles)  # computed at most once, if the join or a large group needs it
    if uses_join(int(2 * est.pairs * shingles.counts().mean()), threshold, len(shingles.ids)):
        ranks.start(cancel)  # renamed while banding runs: the join needs it first
    if est.candidates is not None:  # every document was in the estimate's sample: banded already
        cands = est.candidates
        yield Progress("banding", banding.bands, banding.bands, clock())
        check_cancel(cancel)  # as after every report: no other report follows a cancel
    else:
        cands = yield from band_stage(sigs, banding, is_ref, cancel, clock)
    stage_t["banding"] = clock() - sum(stage_t.values())
    candidates, pairs = yield from verify_stage(cands, sigs, shingles, threshold, cancel, clock, ranks)
    stage_t["verifying"] = clock() - sum(stage_t.values())
    comps, group_min = yield from group_stage(len(sigs), pairs, shingles, cancel, clock, ranks)
    stage_t["grouping"] = clock() - sum(stage_t.values())
    return Found(candidates=candidates, pairs=pairs, groups=comps, group_min=group_min)


def stopwatch(since: float = 0.0) -> Clock:
    """Seconds since this call (plus ``since``: a scan going on from a stage that took that long), as a function."""
    t0 = time.perf_counter()
    return lambda: since + time.perf_counter() - t0
