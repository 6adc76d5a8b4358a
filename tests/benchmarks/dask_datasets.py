"""Datasets on the Dask engine next to the local engine (issue 35; a script, not a test).

Usage: python tests/benchmarks/dask_datasets.py [--rows 100000] [--words 60] [--dir DIR] [--repeat 2] [--workers 2]

Writes DIR (default: <tmp>/lshdesk-dask-data-<rows>) once: ``--rows`` English-like rows (Zipf vocabulary, 5 % edited
copies of earlier rows) as data.parquet (row groups of 8,192 rows) and data.jsonl; a non-empty DIR it did not make
is refused. Then, for each file, with the default parameters (word:3, k = 128, threshold 0.8): the local engine and
the Dask engine on a LocalCluster of ``--workers`` single-threaded processes (``gather=False``, as the command line),
the cluster started and warmed up before the clock starts. Prints each run's wall time and the client's CPU
seconds (the workers' are not counted), the parts the dataset was cut into, whether the pairs, groups and row names
equal the local engine's, and the load average (the machine is shared: read the figures with it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

from dask_throughput import _load, _same, machine  # noqa: E402

MARK = ".lshdesk-dask-data-bench"


def generate(root: Path, n_rows: int, words: int, seed: int = 8) -> tuple[Path, Path]:
    """DIR/data.parquet and DIR/data.jsonl (made once, kept for later runs)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if root.exists() and any(root.iterdir()) and not (root / MARK).exists():
        raise SystemExit(f"{root} is not empty and was not made by this script: give a new or empty folder")
    parquet, jsonl = root / "data.parquet", root / "data.jsonl"
    if (root / "DONE").exists():
        return parquet, jsonl
    root.mkdir(parents=True, exist_ok=True)
    (root / MARK).write_text("made by tests/benchmarks/dask_datasets.py\n")
    rng = np.random.default_rng(seed)
    letters = np.array(list("etaoinshrdlucmfwypvbgkjqxz"))
    vocab = np.array(["".join(rng.choice(letters, int(rng.integers(2, 9)))) for _ in range(30_000)])
    p = 1.0 / np.arange(1, len(vocab) + 1) ** 1.1
    p /= p.sum()
    docs: list[np.ndarray] = []
    for i in range(n_rows):
        if i > 10 and rng.random() < 0.05:
            d = docs[int(rng.integers(0, i))].copy()
            hit = rng.random(len(d)) < 0.05
            d[hit] = rng.choice(len(vocab), int(hit.sum()), p=p)
        else:
            d = rng.choice(len(vocab), int(rng.integers(words // 2, words * 3 // 2)), p=p)
        docs.append(d)
    texts = [" ".join(vocab[d]) for d in docs]
    pq.write_table(pa.table({"id": [f"r{i}" for i in range(n_rows)], "text": texts}), parquet, row_group_size=8192)
    with open(jsonl, "w", encoding="utf-8") as f:
        f.writelines(json.dumps({"id": f"r{i}", "text": t}) + "\n" for i, t in enumerate(texts))
    (root / "DONE").write_text("ok\n")
    return parquet, jsonl


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--words", type=int, default=60)
    ap.add_argument("--dir")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()

    from distributed import Client, LocalCluster

    from lshdesk.core.params import ScanParams
    from lshdesk.core.scan.pipeline import run, scan
    from lshdesk.distributed import rows
    from lshdesk.distributed import scan as dask_scan

    root = Path(args.dir or Path(tempfile.gettempdir()) / f"lshdesk-dask-data-{args.rows}")
    files = generate(root, args.rows, args.words)
    print(f"machine: {machine()}")
    params = ScanParams()

    def timed(make) -> tuple[float, float, object]:
        best = (float("inf"), 0.0, None)
        for _ in range(args.repeat):
            t, c = time.perf_counter(), time.process_time()
            res = run(make())
            best = min(best, (time.perf_counter() - t, time.process_time() - c, res), key=lambda x: x[0])
        return best

    with LocalCluster(
        n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0"
    ) as cl:
        with Client(cl, set_as_default=False) as client:
            run(dask_scan([str(files[0])], params, client=client, gather=False))  # every worker loads the kernels
            for path in files:
                mb = path.stat().st_size / 1e6
                parts, _ = rows.plan(rows.dataset_files([str(path)]) or [], args.workers, ())
                local = timed(lambda: scan([str(path)], params))
                far = timed(lambda: dask_scan([str(path)], params, client=client, gather=False))
                same = _same(local[2], far[2]) and far[2].docs.rel == local[2].docs.rel
                print(f"{path.name} ({mb:.0f} MB, {args.rows:,} rows, {len(parts)} parts), load {_load()}")
                for name, (secs, cpu, res) in (("local engine", local), (f"dask, {args.workers} workers", far)):
                    print(f"  {name:16s} {secs:7.2f} s  client CPU {cpu:6.2f} s  {len(res.pairs):,} pairs")
                print(f"  {'same pairs, groups, names' if same else 'DIFFERENT FROM LOCAL'}; x{local[0] / far[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
