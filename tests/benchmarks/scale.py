"""One scan of a large folder (e.g. 1 M small generated documents): time per stage and peak memory against the target.

    python tests/benchmarks/gen_corpus.py /tmp/lshdesk-bench/synth1m --docs 1000000 --words 50
    python tests/benchmarks/scale.py /tmp/lshdesk-bench/synth1m

The scan runs in this process with the default settings (word:3, k = 128, threshold 0.8), without the signature
cache; the peak is the process's peak resident set (``ru_maxrss``), imports and loaded kernels included. Target:
peak <= 2 x the signature matrix + 300 MB.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from lshdesk.core.params import ScanParams  # noqa: E402
from lshdesk.core.scan.pipeline import run, scan  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    args = ap.parse_args()
    base = peak_mb()
    t0 = time.perf_counter()
    r = run(scan([args.folder], ScanParams()))
    wall = time.perf_counter() - t0
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


if __name__ == "__main__":
    main()
