"""Choose the default false-positive / false-negative weighting by measurement: recall vs time per weighting.

For each weighting, threshold and hash seed: the scheme ``optimal_banding(t, k, fp, fn)`` picks, the candidate
pairs it yields, the verified pairs (exact Jaccard >= t), recall against the truth, and the banding + exact
verification time (the only part of a scan the weighting changes). Signatures are computed once per seed.

    python tests/benchmarks/weights.py                                   # dev corpus, 10 seeds
    python tests/benchmarks/weights.py --corpus /tmp/lshdesk-bench/synth100k --seeds 3
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

import bench_common as bc  # noqa: E402
import numpy as np  # noqa: E402

from lshdesk.core.clustering import exact_jaccard  # noqa: E402
from lshdesk.core.params import ScanParams, SignatureParams  # noqa: E402
from lshdesk.core.scan.pipeline import find_pairs, run, scan  # noqa: E402
from lshdesk.core.scurve import optimal_banding  # noqa: E402

WEIGHTS = [(0.5, 0.5), (0.3, 0.7), (0.2, 0.8), (0.1, 0.9), (0.05, 0.95)]


def _truth_indices(root: str, rel: list[str], t: float, result) -> set[tuple[int, int]]:
    index = {r: i for i, r in enumerate(rel)}
    if os.path.isfile(os.path.join(os.path.dirname(root.rstrip("/")), "truth.csv")):
        return {tuple(sorted((index[a], index[b]))) for a, b in bc.dev_truth(root, t)}
    planted = np.array([sorted((index[a], index[b])) for a, b in bc.planted_pairs(root)], dtype=np.int64)
    jac = exact_jaccard(result.shingles, planted[:, 0], planted[:, 1])
    return {tuple(p) for p in planted[jac >= t - 1e-12].tolist()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=bc.DEV_DOCS)
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--thresholds", type=float, nargs="+", default=[0.5, 0.7, 0.8])
    ap.add_argument("--k", type=int, default=128)
    ap.add_argument("--repeat", type=int, default=3, help="timed repeats of banding + verification (median)")
    args = ap.parse_args()
    root = os.path.abspath(args.corpus)
    rows: dict = {}
    truths: dict = {}
    for seed in range(1, args.seeds + 1):
        result = run(scan([root], ScanParams(SignatureParams(k=args.k, seed=seed))))
        for t in args.thresholds:
            if t not in truths:
                truths[t] = _truth_indices(root, result.docs.rel, t, result)
            truth = truths[t]
            for fp, fn in WEIGHTS:
                banding = optimal_banding(t, args.k, fp, fn)
                times = []
                for _ in range(args.repeat):
                    t0 = time.perf_counter()
                    cands, pairs = find_pairs(result.signatures, result.shingles, banding, t, result.docs.root)
                    times.append(time.perf_counter() - t0)
                found = set(zip(pairs.left.tolist(), pairs.right.tolist()))
                if "synth" in root or not os.path.isfile(os.path.join(os.path.dirname(root), "truth.csv")):
                    truth = truth | found  # planted pairs plus any other verified pair (all have J >= t)
                row = rows.setdefault((t, fp, fn), {"scheme": str(banding), "recall": [], "cands": [], "time": []})
                row["recall"].append(len(found & truth) / len(truth) if truth else float("nan"))
                row["cands"].append(len(cands))
                row["time"].append(float(np.median(times)))
        print(f"seed {seed} done", file=sys.stderr, flush=True)
    n_docs = len(result.docs)
    print(f"\n{root}: {n_docs} documents, k = {args.k}, {args.seeds} seeds; machine {bc.machine()['cpu']}\n")
    print("| t | fp / fn weights | b x r | mean recall | min recall | candidates (mean) | band + verify ms (median) |")
    print("|---|---|---|---|---|---|---|")
    for (t, fp, fn), r in sorted(rows.items()):
        print(
            f"| {t} | {fp} / {fn} | {r['scheme']} | {np.mean(r['recall']):.4f} | {np.min(r['recall']):.4f} "
            f"| {np.mean(r['cands']):.0f} | {1000 * np.median(r['time']):.1f} |"
        )


if __name__ == "__main__":
    main()
