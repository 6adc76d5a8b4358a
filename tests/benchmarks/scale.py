"""One scan of a large folder (e.g. 1 M small generated documents): time per stage and peak memory against the target.

    python tests/benchmarks/gen_corpus.py /tmp/lshdesk-bench/synth1m --docs 1000000 --words 50
    python tests/benchmarks/scale.py /tmp/lshdesk-bench/synth1m

The scan runs in this process with the default settings (word:3, k = 128, threshold 0.8), without the signature
cache; the peak is the process's peak resident set (``ru_maxrss``), imports and loaded kernels included. Target:
peak <= 2 x the signature matrix + 300 MB, and (issue 29) <= 1,237 MB.

The floor, timed in the same process after the scan (the files' pages cached by then, as the scan found them
after the generator wrote them): a Python ``os.open``/``os.read``/``os.close`` loop over the documents' paths,
alone and after an ``os.walk`` that finds them. Target (issue 29): the scan <= 2 x the read loop.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
# --tree DIR: the lshdesk checkout measured (default this one), read before the imports below
TREE = sys.argv[sys.argv.index("--tree") + 1] if "--tree" in sys.argv[:-1] else REPO
sys.path.insert(0, os.path.abspath(TREE))
sys.path.insert(1, os.path.dirname(os.path.abspath(__file__)))

from lshdesk.core.params import ScanParams  # noqa: E402
from lshdesk.core.scan.pipeline import run, scan  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def read_loop(paths: list[str], ask: int = 1 << 16) -> int:
    """Every file's bytes by os.open / os.read / os.close, one file at a time: the floor of reading in Python."""
    got = 0
    for p in paths:
        fd = os.open(p, os.O_RDONLY)
        try:
            while more := len(os.read(fd, ask)):  # 64 KB at a time (malloc'ed: 1 MB asks were mmap'ed)
                got += more
        finally:
            os.close(fd)
    return got


def walk_and_read(root: str) -> int:
    """``read_loop`` of the files an ``os.walk`` finds (sorted, as a scan lists them)."""
    paths = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        paths += [os.path.join(d, f) for f in sorted(files)]
    return read_loop(paths)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--tree", default=REPO, help="the lshdesk checkout measured (default this one)")
    args = ap.parse_args()
    base = peak_mb()
    t0, c0 = time.perf_counter(), time.process_time()
    r = run(scan([args.folder], ScanParams()))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    sig_mb = r.signatures.nbytes / 2**20
    peak = peak_mb()
    target = 2 * sig_mb + 300
    stages = ", ".join(f"{k} {v:.1f} s" for k, v in r.stage_seconds.items())
    print(
        f"{len(r.docs):,} documents, {len(r.skipped):,} skipped, {len(r.candidates):,} candidates, {len(r.pairs):,} pairs"
    )
    print(f"scan {wall:.1f} s ({len(r.docs) / wall:,.0f} docs/s): {stages}")
    print(
        f"peak RSS {peak:,.0f} MB (before the scan {base:,.0f} MB); signatures {sig_mb:,.0f} MB, shingle ids "
        f"{r.shingles.ids.nbytes / 2**20:,.0f} MB; target 2 x signatures + 300 = {target:,.0f} MB: "
        f"{'met' if peak <= target else 'NOT met'}"
    )
    t0, c0 = time.perf_counter(), time.process_time()
    read_loop(r.docs.paths)
    floor, floor_cpu = time.perf_counter() - t0, time.process_time() - c0
    t0 = time.perf_counter()
    walk_and_read(args.folder)
    walked = time.perf_counter() - t0
    print(
        f"target 1 M scan: lshdesk {wall:.1f} s ({cpu:.1f} s CPU, all threads), Python read loop {floor:.1f} s "
        f"({floor_cpu:.1f} s CPU; os.walk + loop {walked:.1f} s): {wall / floor:.2f}x wall, {cpu / floor_cpu:.2f}x "
        f"CPU, target <= 2x; peak {peak:,.0f} MB, target <= 1,237 MB"
    )


if __name__ == "__main__":
    main()
