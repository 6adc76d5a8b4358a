"""Throughput of the Dask engine with 1 and 2 local worker processes next to the local engine (a script, not a test).

Usage: python tests/benchmarks/dask_throughput.py [--docs 20000] [--words 300] [--dir DIR] [--repeat 2] [--workers 1 2]

Generates DIR (default: <tmp>/lshdesk-dask-bench-<docs>) with ``--docs`` English-like files (Zipf vocabulary,
5% of them edited copies of others), reused when it is already there; a non-empty DIR it did not make is refused.
Then, on the same folder, with the default parameters (word:3, fast family, k = 128, threshold 0.8): the local
engine (``pipeline.scan``), and the Dask engine on a LocalCluster of 1 and 2 single-threaded worker processes
(``gather=False``, as ``lshdesk scan --engine dask``).
The cluster is started and warmed up (kernels loaded in every worker) before the clock starts; its start-up time is
printed apart. Each configuration runs ``--repeat`` times and the fastest run is shown, with its stage times; every
Dask result is checked to equal the local one. Prints the machine, the load average (other processes compete for
the cores: read the figures with it), documents per second and MB per second.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def machine() -> str:
    cpu = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(next(l for l in Path("/proc/meminfo").read_text().splitlines() if l.startswith("MemTotal")).split()[1])
        mem = f", {kb / 2**20:.0f} GiB"
    except (OSError, StopIteration, ValueError):
        pass
    import dask
    import distributed

    return (
        f"{platform.system()} {platform.release()}, {cpu}, {os.cpu_count()} logical cores{mem}; Python "
        f"{platform.python_version()}, numpy {np.__version__}, dask {dask.__version__}, "
        f"distributed {distributed.__version__}"
    )


MARK = ".lshdesk-dask-bench"  # written first into a folder this script makes: only such a folder is written into


def generate(root: Path, n_docs: int, words: int, seed: int = 8) -> None:
    """Seeded English-like documents in folders of 1,000; 5% are copies of an earlier one with 2% of words changed.

    A folder that exists, is not empty and was not made here (no ``MARK``) is refused: ``--dir ~/docs`` once wrote
    20,000 files among the user's own."""
    if root.exists() and any(root.iterdir()) and not (root / MARK).exists():
        raise SystemExit(f"{root} is not empty and was not made by this script: give a new or empty folder")
    if (root / "DONE").exists():
        return
    root.mkdir(parents=True, exist_ok=True)
    (root / MARK).write_text("made by tests/benchmarks/dask_throughput.py\n")
    rng = np.random.default_rng(seed)
    letters = np.array(list("etaoinshrdlucmfwypvbgkjqxz"))
    vocab = ["".join(rng.choice(letters, int(rng.integers(2, 9)))) for _ in range(30_000)]
    p = 1.0 / np.arange(1, len(vocab) + 1) ** 1.1
    p /= p.sum()
    docs: list[np.ndarray] = []
    for i in range(n_docs):
        if i > 10 and rng.random() < 0.05:
            d = docs[int(rng.integers(0, i))].copy()
            hit = rng.random(len(d)) < 0.02
            d[hit] = rng.choice(len(vocab), int(hit.sum()), p=p)
        else:
            d = rng.choice(len(vocab), int(rng.integers(words // 2, words * 3 // 2)), p=p)
        docs.append(d)
        folder = root / f"{i // 1000:04d}"
        folder.mkdir(parents=True, exist_ok=True)
        text = " ".join(vocab[w] for w in d)
        (folder / f"doc{i:07d}.txt").write_text(text[0].upper() + text[1:] + ".\n", encoding="utf-8")
    (root / "DONE").write_text("ok\n")


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def _same(a, b) -> bool:
    return all(
        np.array_equal(getattr(a.pairs, f), getattr(b.pairs, f)) for f in ("left", "right", "jaccard", "estimate")
    ) and [g.tolist() for g in a.groups] == [g.tolist() for g in b.groups]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=20_000)
    ap.add_argument("--words", type=int, default=300)
    ap.add_argument("--dir")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = ap.parse_args()

    from distributed import Client, LocalCluster

    from lshdesk.core.params import ScanParams
    from lshdesk.core.scan.pipeline import run, scan
    from lshdesk.distributed import scan as dask_scan

    root = Path(args.dir or Path(tempfile.gettempdir()) / f"lshdesk-dask-bench-{args.docs}")
    t = time.perf_counter()
    generate(root, args.docs, args.words)
    mb = sum(f.stat().st_size for f in root.rglob("*.txt")) / 1e6
    print(f"machine: {machine()}")
    print(f"corpus: {root} ({args.docs:,} documents, {mb:.1f} MB, ready in {time.perf_counter() - t:.1f} s)")
    warm = root / "0000"
    params = ScanParams()

    def report(name: str, res, secs: float, extra: str = "") -> None:
        st = ", ".join(f"{k} {v:.2f}" for k, v in res.stage_seconds.items())
        print(
            f"{name:18s} {secs:7.2f} s  {len(res.docs) / secs:8,.0f} docs/s  {mb / secs:6.2f} MB/s  "
            f"{len(res.pairs):,} pairs{extra}  [{st}]  load {_load()}"
        )

    run(scan([str(warm)], params))  # the kernels compiled / loaded in this process
    best, local = float("inf"), None
    for _ in range(args.repeat):
        t = time.perf_counter()
        res = run(scan([str(root)], params))
        if time.perf_counter() - t < best:
            best, local = time.perf_counter() - t, res
    report("local engine", local, best)
    base = best

    for w in args.workers:
        t = time.perf_counter()
        with LocalCluster(
            n_workers=w, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0"
        ) as cluster:
            with Client(cluster, set_as_default=False) as client:
                start = time.perf_counter() - t
                run(dask_scan([str(warm)], params, client=client, gather=False))  # every worker loads the kernels
                best, res = float("inf"), None
                for _ in range(args.repeat):
                    t = time.perf_counter()
                    one = run(dask_scan([str(root)], params, client=client, gather=False))
                    if time.perf_counter() - t < best:
                        best, res = time.perf_counter() - t, one
        ok = "same as local" if _same(res, local) else "DIFFERENT FROM LOCAL"
        report(
            f"dask, {w} worker{'s' if w > 1 else ''}",
            res,
            best,
            f", {ok}, x{base / best:.2f} vs local, cluster up in {start:.1f} s",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
