"""Benchmark: re-banding a real folder's result in the S-curve explorer, and the exact-intersection kernels alone.

Run through ``rebanding.py``: ``--corpus DIR --shingle char:5 --threshold 0.3 [--schemes 25x3 42x3] [--no-before]``
scans the folder as the app does (the automatic scheme), builds the explorer's exact reference, then times
``explore.reband`` for each scheme: before (the merge kernel, every candidate computed at every visit: the code
before issue #23's part on re-banding) and now (probe kernel; ``KnownJaccard`` remembers every pair), first visit
and revisit, and checks the figures are identical. ``--kernels [--corpus DIR]`` times the merge and probe kernels
(one thread, CPU seconds) on candidates grouped by left document and on random pairs (a new table every pair).

Wall clock is what a user waits; CPU time (all threads) is the work: on a shared machine the wall clock can be
several times larger, or equal to the CPU time although two threads share the work.
"""

from __future__ import annotations

import time
from contextlib import contextmanager

import numpy as np

from lshdesk.core import clustering
from lshdesk.core.explore.exact import build_reference
from lshdesk.core.explore.figures import band_candidates, reband
from lshdesk.core.explore.known import KnownJaccard
from lshdesk.core.kernels.pairs import intersection_sizes as merge_sizes
from lshdesk.core.kernels.probe import probe_intersection_sizes
from lshdesk.core.params import Banding, ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.core.scurve import presets

SCHEMES = ["25x5", "32x4", "25x3", "12x2", "42x3"]  # then the scan's own scheme


@contextmanager
def merge_kernel():
    """``clustering.intersection_sizes`` with the merge kernel, as before the probe kernel."""
    probe = clustering.probe_intersection_sizes
    clustering.probe_intersection_sizes = merge_sizes
    try:
        yield
    finally:
        clustering.probe_intersection_sizes = probe


def clock(fn):
    t, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t, time.process_time() - c


def same_figures(a, b) -> bool:
    arrays = ("left", "right", "bands", "jaccard", "missed_left", "missed_right", "missed_agreement", "bucket_sizes")
    scalars = ("n_verified", "precision", "recall", "positives", "missed_total")
    return all(np.array_equal(getattr(a, f), getattr(b, f)) for f in arrays) and all(
        np.array_equal(getattr(a, f), getattr(b, f), equal_nan=True) for f in scalars
    )


def scanned(args):
    params = ScanParams(SignatureParams(ShingleSpec.parse(args.shingle)), threshold=args.threshold)
    result, wall, _ = clock(lambda: run(scan([args.corpus], params)))
    print(
        f"{args.corpus}: {len(result.docs):,} documents, {len(result.shingles.ids):,} shingles ({args.shingle}), "
        f"scanned in {wall:.1f} s; automatic scheme {result.banding}: {len(result.candidates):,} candidates"
    )
    return result


def corpus_mode(args) -> None:
    result = scanned(args)
    sigs, shingles = result.signatures, result.shingles
    schemes = [Banding(*map(int, s.split("x"))) for s in (args.schemes or SCHEMES)]
    schemes += [result.banding] if result.banding not in schemes else []
    reband(sigs[:50], shingles, Banding(2, 2), args.threshold)  # load the kernels
    pool = [result.banding, presets(sigs.shape[1])["balanced"]]  # what the view asks: its scheme, its default preset
    ref, wall, _ = clock(lambda: run(build_reference(sigs, shingles, pool)))
    print(f"exact reference in {wall:.1f} s: {ref.describe()}\n")
    before = {}
    if not args.no_before:
        print("before (merge kernel, every candidate computed at every visit):")
        with merge_kernel():
            for s in schemes:
                before[s], wall, cpu = clock(lambda: reband(sigs, shingles, s, args.threshold, ref))
                print(f"  {str(s):>6}: {before[s].n_candidates:>9,} candidates  {wall:6.2f} s (CPU {cpu:6.2f})")
    known = KnownJaccard(shingles)
    for visit in ("first visit", "revisit"):
        print(f"now, {visit} (probe kernel, known pairs kept):")
        for s in schemes:
            done = known.computed
            f, wall, cpu = clock(lambda: reband(sigs, shingles, s, args.threshold, ref, known=known))
            same = "" if s not in before else ("  figures identical" if same_figures(f, before[s]) else "  DIFFERENT")
            print(
                f"  {str(s):>6}: {f.n_candidates:>9,} candidates  {wall:6.2f} s (CPU {cpu:6.2f}); "
                f"{known.computed - done:,} pairs computed, {len(known):,} known{same}"
            )


def kernel_mode(args) -> None:
    if args.corpus:
        result = scanned(args)
        shingles, sigs, name = result.shingles, result.signatures, args.shingle
    else:
        from rebanding import corpus

        shingles, sigs = corpus(20_000)
        name = "synthetic"
    ids, offsets, n = shingles.ids, shingles.offsets, len(shingles)
    merge_sizes(ids, offsets, np.zeros(1, np.int64), np.ones(1, np.int64))
    probe_intersection_sizes(ids, offsets, np.zeros(1, np.int64), np.ones(1, np.int64))
    rng = np.random.default_rng(0)
    cases = []
    for s in (Banding(42, 3), Banding(64, 2)):
        codes = band_candidates(sigs, s)[0][:600_000]
        cases.append((f"candidates of {s}", codes // n, codes % n))
    cases.append(("random pairs", rng.integers(0, n, 200_000), rng.integers(0, n, 200_000)))
    sizes = np.diff(offsets)
    print(f"{name}: {n:,} documents, {sizes.mean():.0f} ids a document; one thread, best of 3, CPU seconds")
    for label, left, right in cases:
        left, right = left.astype(np.int64), right.astype(np.int64)
        runs = max(1, len(left)) / max(1, np.count_nonzero(np.diff(left)) + 1)
        times = {}
        for fn in (merge_sizes, probe_intersection_sizes):
            best, out = float("inf"), None
            for _ in range(3):
                out, _, cpu = clock(lambda: fn(ids, offsets, left, right))
                best = min(best, cpu)
            times[fn] = (best, out)
        (tm, om), (tp, op) = times[merge_sizes], times[probe_intersection_sizes]
        print(
            f"  {label:>22}: {len(left):>8,} pairs (runs of {runs:5.1f} by left document): merge {tm:.3f} s, "
            f"probe {tp:.3f} s ({tm / max(tp, 1e-9):.1f}x){'' if np.array_equal(om, op) else '  DIFFERENT'}"
        )


def main(args, machine: str) -> None:
    print(machine)
    (kernel_mode if args.kernels else corpus_mode)(args)
