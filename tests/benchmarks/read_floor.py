"""An in-process scan of a corpus against the time to read its bytes with ``os.read`` in a loop (issue 29).

    nice -n 10 python tests/benchmarks/read_floor.py ../shared/corpora/unicode -t 0.5 0.8

Each scan runs after an untimed one (kernels loaded, files in the page cache), default settings but the
threshold, without the signature cache; the floor is a Python ``os.open``/``os.read``/``os.close`` loop over the
same files, best of ``--repeat``, in the same process, in wall and CPU time (user + system, all threads: steadier
on a shared machine). Target: unicode corpus scan <= 3 x the floor. Stage times say where the scan's time goes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
# --tree DIR: the lshdesk checkout measured (default this one), read before the imports below
TREE = sys.argv[sys.argv.index("--tree") + 1] if "--tree" in sys.argv[:-1] else REPO
sys.path.insert(0, os.path.abspath(TREE))
sys.path.insert(1, os.path.dirname(os.path.abspath(__file__)))

from scale import read_loop  # noqa: E402

from lshdesk.core.params import ScanParams  # noqa: E402
from lshdesk.core.scan.pipeline import run, scan  # noqa: E402


def best(fn, repeat: int) -> tuple[float, float, object]:
    """The best wall and CPU (user + system, every thread) times of ``repeat`` calls, and the last result."""
    out, t, c = None, float("inf"), float("inf")
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        t, c = min(t, time.perf_counter() - t0), min(c, time.process_time() - c0)
    return t, c, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--tree", default=REPO, help="the lshdesk checkout measured (default this one)")
    ap.add_argument("-t", "--threshold", type=float, nargs="+", default=[0.8])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    for t in args.threshold:
        params = ScanParams(threshold=t)
        r = run(scan([args.folder], params))  # untimed: kernels loaded, pages cached
        wall, cpu, r = best(lambda: run(scan([args.folder], params)), args.repeat)
        floor, floor_cpu, _ = best(lambda: read_loop(r.docs.paths), args.repeat)
        mb_floor, _, _ = best(lambda: read_loop(r.docs.paths, 1 << 20), args.repeat)
        stages = ", ".join(f"{k} {v:.3f}" for k, v in r.stage_seconds.items())
        print(
            f"target read floor t={t}: lshdesk scan {wall:.3f} s ({cpu:.3f} s CPU), os.read loop {floor:.3f} s "
            f"({floor_cpu:.3f} s CPU): {wall / floor:.2f}x wall, {cpu / floor_cpu:.2f}x CPU (target <= 3x); "
            f"{len(r.docs):,} documents, {len(r.pairs):,} pairs, {r.banding}; stages: {stages}"
        )
        print(f"  (the same loop asking 1 MB a read, each a fresh mmap: {mb_floor:.3f} s, {wall / mb_floor:.2f}x)")


if __name__ == "__main__":
    main()
