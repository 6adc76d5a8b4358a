"""Verifying the candidates: each pair's exact similarity by intersecting both shingle sets (``kernels/probe``), or,
when that would be long (a loose banding over large sets: millions of candidates), a similarity join restricted to
the candidates that decides most of them in a few steps (``kernels/join``). Both run in steps of bounded cost on
two threads.

The verified pairs (exact J >= t) are the same either way. Measuring each, every candidate's exact J is known;
with the join, a candidate the filters prove below t keeps J = nan ("below the threshold, not measured").
Measured on 6,059 documentation files, char:5 at 0.3 (41 x 2, 6.3 M candidates, 7.4 G merge steps, 1.1 M of them
past the filters): the merge took 8.6 s, the join 0.8-1.0 s with its renaming of the ids (the stage's figure in
``tests/benchmarks/compare.py --only dense``), 2 cores.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator

import numpy as np
import numpy.typing as npt

from lshdesk.core.arrays import unique
from lshdesk.core.clustering import Pairs, verified
from lshdesk.core.errors import check_cancel
from lshdesk.core.kernels import join as join_kernels
from lshdesk.core.kernels.probe import probe_intersection_sizes
from lshdesk.core.lsh import Candidates
from lshdesk.core.minhash import estimate_pairs
from lshdesk.core.scan.progress import Progress
from lshdesk.core.shingling import ShingleBatch
from lshdesk.core.threads import Task, Workers

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
Step = tuple[Callable[[], None], int]  # a step of verification, and the candidates settled once it has run

STEP_COST = 1 << 22  # shingle ids merged per step at most (~10-30 ms); steps are the unit of cancel
STEP_SECONDS = 0.03  # a join step takes as many documents as run about this long
THREADS = 2  # steps run on two threads
JOIN_MIN_WORK = 50_000_000  # both sets' sizes summed over the candidates, from which the join is used
JOIN_MIN_THRESHOLD = 0.1  # below this the prefixes are nearly whole sets: the join saves nothing
HAIR = 1e-9  # the join's threshold is lowered by this: verified() keeps J >= t - 1e-12, the join must not drop those
Clock = Callable[[], float]


def uses_join(cost: int, threshold: float, n_ids: int = 0) -> bool:
    """Whether the candidates are verified by the join (long intersections, a threshold the filters can use), and
    its renaming of the ``n_ids`` shingle ids (``RankedIds``) fits in half the memory the system can still give:
    10 M rows of ~50 words (550 M ids) would have taken ~38 GB where the probes verify in place."""
    if cost < JOIN_MIN_WORK or threshold < JOIN_MIN_THRESHOLD:
        return False
    free = available_memory()
    return free is None or rank_bytes(n_ids) <= free // 2


def available_memory() -> int | None:
    """Bytes the system can still give (Linux: MemAvailable; elsewhere the free pages), or None if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None


def rank_bytes(n_ids: int) -> int:
    """The memory ``RankedIds`` takes for ``n_ids`` ids: its table (keys, frequencies, ranks) and two ids' worth."""
    slots = 1 << max(10, (2 * n_ids - 1).bit_length())
    return slots * 16 + n_ids * 8


def verify_stage(
    cands: Candidates,
    sigs: npt.NDArray,
    shingles: ShingleBatch,
    threshold: float,
    cancel: threading.Event | None,
    clock: Clock,
    ranks: RankedIds | None = None,
) -> Generator[Progress, None, tuple[Pairs, Pairs]]:
    """(every candidate with its estimate and exact J, nan where the join proved it below t; the verified pairs).
    ``ranks``: the batch's ids by frequency, when the caller will reuse them (grouping)."""
    left = np.ascontiguousarray(cands.left, dtype=np.int64)
    right = np.ascontiguousarray(cands.right, dtype=np.int64)
    counts = shingles.counts().astype(np.int64)
    est = np.zeros(len(left), dtype=np.float64)
    yield Progress("verifying", 0, len(left), clock())
    if uses_join(int(counts[left].sum() + counts[right].sum()), threshold, len(shingles.ids)):
        inter = np.full(len(left), -1, dtype=np.int64)
        steps: Iterator = _join_steps(ranks or RankedIds(shingles), sigs, left, right, threshold, inter, est, cancel)
    else:
        inter = np.zeros(len(left), dtype=np.int64)
        steps = _measure_steps(shingles, sigs, left, right, counts, inter, est)
    yield from _run_steps(steps, len(left), cancel, clock)
    union = counts[left] + counts[right] - inter
    jac = np.full(len(left), np.nan)
    known = inter >= 0
    jac[known] = np.divide(inter[known], union[known], out=np.zeros(int(known.sum())), where=union[known] > 0)
    scored = Pairs(left, right, est, jac, cands.bands)
    return scored, verified(scored, threshold)


def join_seconds(shingles: ShingleBatch, sigs: npt.NDArray, left: Ints, right: Ints, threshold: float) -> float:
    """Seconds the join takes on one thread for these candidates, renaming included (compiled at install: nothing
    to warm up first)."""
    t0 = time.perf_counter()
    inter, est = np.full(len(left), -1, dtype=np.int64), np.zeros(len(left))
    for step, _ in _join_steps(RankedIds(shingles), sigs, left, right, threshold, inter, est, None):
        step()
    return time.perf_counter() - t0


def _run_steps(
    steps: Iterator[Step], total: int, cancel: threading.Event | None, clock: Clock
) -> Generator[Progress, None, None]:
    """Run ``(function, candidates done after it)`` steps two at a time; reports follow the oldest step, in order."""
    pool = Workers(THREADS, "lshdesk-verify")
    try:
        in_flight: deque = deque()
        for fn, done in steps:
            check_cancel(cancel)
            in_flight.append((pool.submit(fn), done))
            while len(in_flight) >= THREADS:
                yield _wait(in_flight, total, cancel, clock)
        while in_flight:
            yield _wait(in_flight, total, cancel, clock)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # at most the steps running now finish


def _wait(
    in_flight: deque[tuple[Task[None], int]], total: int, cancel: threading.Event | None, clock: Clock
) -> Progress:
    check_cancel(cancel)
    future, done = in_flight.popleft()
    future.result()
    return Progress("verifying", done, total, clock())


def step_ends(cost: npt.NDArray, budget: int = STEP_COST) -> npt.NDArray[np.int64]:
    """End indices of consecutive steps whose summed ``cost`` stays near ``budget`` (at least one item each)."""
    if not len(cost):
        return np.zeros(0, np.int64)
    cum = np.cumsum(cost)
    ends = np.searchsorted(cum, np.arange(budget, int(cum[-1]), budget), side="right")
    return unique(np.concatenate((np.maximum(ends, 1), [len(cost)]))).astype(np.int64)


class RankedIds:
    """A batch's shingle ids renamed by document frequency, each document's sorted, computed once for the join
    (rarest first) and for grouping (most common first: the reverse). A one-to-one renaming: every intersection
    size stays the same. Computed in steps of ``STEP_COST`` ids that answer a cancel."""

    def __init__(self, shingles: ShingleBatch) -> None:
        self.shingles = shingles
        self._rare: Task | None = None
        self._lock = threading.Lock()

    def start(self, cancel: threading.Event | None) -> None:
        """Begin the renaming on a helper thread (while the caller bands), for ``rare_first`` to collect."""
        with self._lock:
            if self._rare is None:
                pool = Workers(1, "lshdesk-rank")
                self._rare = pool.submit(self._rank, cancel)
                pool.shutdown(wait=False)

    def rare_first(self, cancel: threading.Event | None) -> tuple[npt.NDArray[np.int32], int]:
        """(renamed ids, rarest id 0; the number of distinct ids)."""
        with self._lock:
            if self._rare is None:
                self._rare = Task.of(self._rank(cancel))
        return self._rare.result()

    def common_first(self, cancel: threading.Event | None) -> npt.NDArray[np.int32]:
        """Renamed ids, the most common id 0: the rarest-first names reversed, each document's order with them."""
        tok, n_distinct = self.rare_first(cancel)
        offsets, out = self.shingles.offsets, np.empty_like(tok)
        lo = 0
        for hi in step_ends(self.shingles.counts() + 1).tolist():
            check_cancel(cancel)
            join_kernels.reversed_rows(tok, offsets, n_distinct, lo, hi, out)
            lo = hi
        return out

    def _rank(self, cancel: threading.Event | None) -> tuple[npt.NDArray[np.int32], int]:
        ids, offsets = self.shingles.ids, self.shingles.offsets
        keys, df, slot = join_kernels.rank_table(len(ids))
        for lo in range(0, len(ids), STEP_COST):
            check_cancel(cancel)
            join_kernels.count_ids(ids, lo, min(len(ids), lo + STEP_COST), keys, df, slot)
        n_used = join_kernels.frequency_ranks(df)  # df becomes each slot's rank: by frequency, ties by slot
        out = np.empty(len(ids), dtype=np.int32)
        lo = 0
        for hi in step_ends(self.shingles.counts() + 1).tolist():  # each document's ranks, sorted
            check_cancel(cancel)
            join_kernels.ranked_rows(slot, df, offsets, n_used, lo, hi, out)
            lo = hi
        return out, n_used


def _measure_steps(
    shingles: ShingleBatch, sigs: npt.NDArray, left: Ints, right: Ints, counts: Ints, inter: Ints, est: Floats
) -> Iterator[Step]:
    """Steps measuring every candidate (``kernels/probe``: a table per left document, probed by the right's ids)
    with its estimate, written in place."""
    lo = 0
    for hi in step_ends(counts[left] + counts[right] + 16).tolist():

        def step(lo: int = lo, hi: int = hi) -> None:
            inter[lo:hi] = probe_intersection_sizes(shingles.ids, shingles.offsets, left[lo:hi], right[lo:hi])
            est[lo:hi] = estimate_pairs(sigs, left[lo:hi], right[lo:hi])

        yield step, hi
        lo = hi


def _join_steps(
    ranks: RankedIds,
    sigs: npt.NDArray,
    left: Ints,
    right: Ints,
    threshold: float,
    inter: Ints,
    est: Floats,
    cancel: threading.Event | None,
) -> Iterator[Step]:
    """Steps of the join: documents in processing order (smallest sets first), as many a step as run about
    ``STEP_SECONDS``; each step also estimates a proportional slice of the candidates."""
    t = threshold - HAIR
    shingles = ranks.shingles
    counts = shingles.counts()
    n = len(counts)
    tok, n_tokens = ranks.rare_first(cancel)
    order = np.lexsort((np.arange(n), counts)).astype(np.int64)
    pos_of = np.empty(n, dtype=np.int64)
    pos_of[order] = np.arange(n)
    post = join_kernels.build_index(tok, shingles.offsets, order, n_tokens, t)
    later_is_left = pos_of[left] > pos_of[right]
    later = np.where(later_is_left, left, right)
    adj = join_kernels.partner_lists(later, np.where(later_is_left, right, left), n)
    done_at = np.cumsum(np.diff(adj[0])[order])  # candidates settled once position p is processed
    p, width, est_lo = 0, 16, 0
    rates: list[float] = []  # seconds per document of the steps finished so far
    while p < n:
        hi = min(n, p + width)
        est_hi = int(done_at[hi - 1])

        def step(lo: int = p, hi: int = hi, e_lo: int = est_lo, e_hi: int = est_hi) -> None:
            t0 = time.perf_counter()
            join_kernels.join_rows(tok, shingles.offsets, order, pos_of, *post, *adj, t, lo, hi, inter)
            est[e_lo:e_hi] = estimate_pairs(sigs, left[e_lo:e_hi], right[e_lo:e_hi])
            rates.append((time.perf_counter() - t0) / (hi - lo))

        yield step, est_hi
        if rates and rates[-1] > 0:
            width = max(1, min(4 * width, int(STEP_SECONDS / rates[-1])))
        p, est_lo = hi, est_hi
