"""Cancel in every stage, and the cost of stopping between steps: a crowded corpus (char:5 at 0.3 gives > 1 M
candidate pairs), scanned whole (stage times, candidate estimate vs the real count, old one-call verification vs
the stepped one), then cancelled in each stage (seconds to return, CPU used in the half second after).

Run: PYTHONPATH=. python tests/benchmarks/stage_cancel.py [n_docs]   (default 2000; writes under /tmp)
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import numpy as np

from lshdesk.core.clustering import verify
from lshdesk.core.errors import ScanCancelled
from lshdesk.core.lsh import Candidates
from lshdesk.core.params import ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.core.scan.stages import stopwatch
from lshdesk.core.scan.verify import verify_stage

PARAMS = ScanParams(SignatureParams(ShingleSpec("char", 5)), threshold=0.3)


def corpus(n: int) -> Path:
    root = Path(f"/tmp/lshdesk-bench-crowded-{n}")
    if not root.is_dir():
        root.mkdir()
        rng = np.random.default_rng(5)
        vocab = ["".join(chr(97 + c) for c in rng.integers(0, 26, rng.integers(3, 8))) for _ in range(150)]
        for i in range(n):
            (root / f"d{i:05d}.txt").write_text(" ".join(vocab[j] for j in rng.integers(0, 150, 200)))
    return root


def cancel_in(root: Path, stage: str, params: ScanParams) -> tuple[float, float]:
    """(seconds from cancel to the scan's return, CPU seconds of the process in the 0.5 s after)."""
    cancel, inside = threading.Event(), threading.Event()
    ended: list[float] = []

    def work() -> None:
        try:
            run(scan([str(root)], params, cancel=cancel), lambda p: p.stage == stage and p.total and inside.set())
        except ScanCancelled:
            pass
        ended.append(time.perf_counter())

    t = threading.Thread(target=work)
    t.start()
    inside.wait(120)
    time.sleep(0.3 if stage != "banding" else 0.0)
    asked = time.perf_counter()
    cancel.set()
    t.join()
    cpu = time.process_time()
    time.sleep(0.5)
    return ended[0] - asked, time.process_time() - cpu


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    root = corpus(n)
    reports: list = []
    result = run(scan([str(root)], PARAMS), reports.append)
    est = next(p for p in reports if p.stage == "estimating")
    print(
        f"{n} documents, {len(result.candidates):,} candidate pairs (estimated {est.done:,}), banding {result.banding}"
    )
    print("stage seconds: " + ", ".join(f"{k} {v:.2f}" for k, v in result.stage_seconds.items()))
    print(f"warning: {est.warning or '(none)'}")
    c = result.candidates
    cands = Candidates(c.left, c.right, c.bands)
    t0 = time.perf_counter()
    verify(cands, result.signatures, result.shingles, PARAMS.threshold)
    one = time.perf_counter() - t0
    t0 = time.perf_counter()
    run(verify_stage(cands, result.signatures, result.shingles, PARAMS.threshold, None, stopwatch()))
    print(f"verification: one call {one:.2f} s, in steps {time.perf_counter() - t0:.2f} s")
    for stage, params in (("banding", PARAMS), ("verifying", PARAMS), ("grouping", ScanParams(PARAMS.signature, 0.15))):
        latency, cpu = cancel_in(root, stage, params)
        print(
            f"cancel in {stage:9s}: returned in {latency * 1000:5.1f} ms, CPU in the 0.5 s after: {cpu * 1000:4.1f} ms"
        )


if __name__ == "__main__":
    main()
