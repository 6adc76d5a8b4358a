"""Benchmark: re-banding stored signatures for one (b, r) change, at 10,000 and 100,000 documents, k = 128.

Not collected by pytest. Run: ``.venv/bin/python tests/benchmarks/rebanding.py [--runs 7] [--sizes 10000 100000]``;
a real folder: ``... rebanding.py --corpus DIR --shingle char:5 --threshold 0.3`` (see ``rebanding_corpus.py``);
the intersection kernels alone: ``... rebanding.py --kernels`` (see ``rebanding_corpus.py``).
Prints the machine, then per corpus size and scheme the median (and min / max) of several runs of
(a) the candidates alone (``explore.band_candidates``: what the issue's 200 ms target is about) and (b) everything
the S-curve view shows for a scheme (``explore.reband``: candidates, their exact similarity, recall and precision
against the exact reference, missed pairs with their band agreement, buckets, rate bins); the core's
``lsh.candidate_pairs`` on the same scheme is timed for comparison.

Wall-clock time is what a user waits; CPU time (all threads) shows the work when the machine is shared: on a
busy machine the wall clock can be several times the CPU time. The banding uses two threads above 2 M doc-slots.

The corpus is synthetic: documents of 100 to 300 random 64-bit shingle ids, 10 % of them edited copies of another
document (similarity 0.3 to 1.0), signed with the ``fast`` family.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np

from lshdesk.core.explore.exact import build_reference
from lshdesk.core.explore.figures import band_candidates, reband
from lshdesk.core.lsh import candidate_pairs
from lshdesk.core.minhash import make_family
from lshdesk.core.params import Banding, SignatureParams
from lshdesk.core.scan.pipeline import run
from lshdesk.core.shingling import ShingleBatch

SCHEMES = [Banding(20, 6), Banding(32, 4), Banding(16, 8), Banding(42, 3), Banding(64, 2), Banding(128, 1)]
START = Banding(25, 5)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass

    load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
    return (
        f"{cpu}, {os.cpu_count()} logical CPUs, {platform.system()} {platform.release()}, Python "
        f"{platform.python_version()}, numpy {np.__version__}, load average {load[0]:.2f}"
    )


def corpus(n: int, seed: int = 0) -> tuple[ShingleBatch, np.ndarray]:
    rng = np.random.default_rng(seed)
    sizes = rng.integers(100, 301, n)
    docs = [rng.integers(0, 2**63, s, dtype=np.int64).astype(np.uint64) for s in sizes]
    copies = rng.choice(n, n // 10, replace=False)
    for d in copies:
        src = docs[int(rng.integers(n))]
        keep = rng.random(len(src)) < rng.uniform(0.45, 1.0)  # keeps ~J of the shingles: J from ~0.3 to 1
        fresh = rng.integers(0, 2**63, int((~keep).sum() // 2), dtype=np.int64).astype(np.uint64)
        docs[d] = np.concatenate([src[keep], fresh])
    docs = [np.unique(d) for d in docs]
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum([len(d) for d in docs], out=offsets[1:])
    batch = ShingleBatch(np.concatenate(docs), offsets, np.diff(offsets))
    return batch, make_family(SignatureParams(k=128, seed=1)).sign_ids(batch)


def timed(fn, runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds (all threads of the process) of each run."""
    wall, cpu = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return wall, cpu


def fmt(ts: tuple[list[float], list[float]]) -> str:
    wall, cpu = ts
    return (
        f"{statistics.median(wall) * 1000:6.1f} ms (min {min(wall) * 1000:6.1f}, max {max(wall) * 1000:6.1f}; "
        f"CPU {statistics.median(cpu) * 1000:6.1f})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--corpus", help="scan this folder and time re-banding its result (first visit and revisit)")
    ap.add_argument("--shingle", default="char:5")
    ap.add_argument("--threshold", type=float, default=0.3)
    ap.add_argument("--schemes", nargs="+", help="schemes to visit, as BxR (default: a spread, the scan's last)")
    ap.add_argument("--no-before", action="store_true", help="skip timing the merge kernel without memory")
    ap.add_argument("--kernels", action="store_true", help="time the merge and probe kernels on candidates")
    args = ap.parse_args()
    if args.corpus or args.kernels:
        from rebanding_corpus import main as corpus_main

        corpus_main(args, machine())
        return
    print(machine())
    print(f"k = 128; {args.runs} runs each; the change is from {START} to the scheme shown\n")
    for n in args.sizes:
        t = time.perf_counter()
        batch, sigs = corpus(n)
        made = time.perf_counter() - t
        band_candidates(sigs[:100], START)  # load the compiled kernels
        t = time.perf_counter()
        ref = run(build_reference(sigs, batch, [START, Banding(64, 2)]))
        print(
            f"{n:,} documents ({len(batch.ids):,} shingles; corpus made and signed in {made:.1f} s); exact reference: "
            f"{ref.mode} in {time.perf_counter() - t:.1f} s"
        )
        for scheme in SCHEMES:
            cands = len(band_candidates(sigs, scheme)[0])
            only = timed(lambda: band_candidates(sigs, scheme), args.runs)
            full = timed(lambda: reband(sigs, batch, scheme, 0.7, ref), args.runs)
            core = timed(lambda: candidate_pairs(sigs, scheme), max(1, args.runs // 2))
            verdict = "ok" if statistics.median(only[0]) < 0.2 else "OVER 200 ms"
            print(
                f"  {str(scheme):>6}: {cands:>7,} candidates\n"
                f"          banding     {fmt(only)} {verdict}\n          all figures {fmt(full)}\n"
                f"          (lsh.candidate_pairs {fmt(core)})"
            )
        print()


if __name__ == "__main__":
    main()
