"""Reading a corpus from a local S3 server: objects/s by concurrency, then the local and Dask engines (a script).

Usage: python tests/benchmarks/remote.py [--docs 100000] [--words 300] [--sample 3000] [--workers 1 2 4]

Generates the synthetic corpus of ``dask_throughput.py`` (``--docs`` English-like files, 5% edited copies),
starts a moto S3 server (server mode, 127.0.0.1, a free port) and uploads the corpus to ``s3://bench/docs``.
Then prints:

1. objects/s fetched by ``core.corpus.remote.fetch`` with 1, 4 and 16 requests in flight (``--sample`` objects);
2. the local engine on the folder and on the bucket, and the Dask engine on the bucket with 1, 2 and 4 worker
   processes (each worker reads its partition from the server itself), documents/s, checked to find the same
   pairs as the folder's scan.

moto is a Python server on the same machine: it shares the cores with the scan, and its per-request cost (not
the network) bounds the figures. They measure lshdesk's overheads and concurrency, not a real store's latency.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "core" / "corpus")]

from dask_throughput import _load, _same, generate, machine  # noqa: E402
from s3_server import start, stop, upload  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=100_000)
    ap.add_argument("--words", type=int, default=300)
    ap.add_argument("--sample", type=int, default=3000, help="objects fetched per concurrency level")
    ap.add_argument("--concurrency", type=int, nargs="+", default=[1, 4, 16])
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--dir")
    ap.add_argument("--reads-only", action="store_true", help="only the objects/s figures, no scans")
    args = ap.parse_args()

    root = Path(args.dir or Path(tempfile.gettempdir()) / f"lshdesk-dask-bench-{args.docs}")
    generate(root, args.docs, args.words)
    files = sorted(p for p in root.rglob("*.txt"))
    mb = sum(p.stat().st_size for p in files) / 1e6
    print(f"machine: {machine()}")
    print(f"corpus: {root} ({len(files):,} documents, {mb:.1f} MB)")

    server = start()
    os.environ.update(
        AWS_ENDPOINT_URL=server.endpoint,
        AWS_ACCESS_KEY_ID="bench",
        AWS_SECRET_ACCESS_KEY="bench",
        AWS_DEFAULT_REGION="us-east-1",
    )
    try:
        return _bench(args, root, files, mb)
    finally:
        stop(server)


def _bench(args, root: Path, files: list[Path], mb: float) -> int:
    import fsspec
    from distributed import Client, LocalCluster

    from lshdesk.core.corpus import remote
    from lshdesk.core.params import ScanParams
    from lshdesk.core.scan.pipeline import run, scan
    from lshdesk.distributed import scan as dask_scan

    fs = fsspec.filesystem("s3", skip_instance_cache=True)
    fs.mkdir("bench")
    t = time.perf_counter()
    upload(fs, root, "bench/docs")
    print(f"uploaded to s3://bench/docs in {time.perf_counter() - t:.1f} s (moto at {os.environ['AWS_ENDPOINT_URL']})")

    urls = [f"s3://bench/docs/{p.relative_to(root).as_posix()}" for p in files[: args.sample]]
    remote.fetch(urls[:50], 1 << 20)  # the connection pool opened
    print("\nreading objects (core.corpus.remote.fetch):")
    for c in args.concurrency:
        t = time.perf_counter()
        got = remote.fetch(urls, 1 << 20, concurrency=c)
        secs = time.perf_counter() - t
        assert all(isinstance(g, bytes) for g in got)
        print(f"  {c:3d} in flight  {len(urls) / secs:8,.0f} objects/s  ({len(urls):,} objects in {secs:.2f} s)")

    if args.reads_only:
        return 0
    params = ScanParams()
    warm = str(root / "0000")
    run(scan([warm], params))  # kernels compiled / loaded

    def report(name: str, res, secs: float, extra: str = "") -> None:
        st = ", ".join(f"{k} {v:.1f}" for k, v in res.stage_seconds.items())
        print(
            f"  {name:24s} {secs:7.1f} s  {len(res.docs) / secs:7,.0f} docs/s  {mb / secs:5.2f} MB/s  "
            f"{len(res.pairs):,} pairs{extra}  [{st}]  load {_load()}"
        )

    print("\nscans (default parameters: word:3, fast, k = 128, threshold 0.8):")
    t = time.perf_counter()
    local = run(scan([str(root)], params))
    report("local engine, folder", local, time.perf_counter() - t)
    t = time.perf_counter()
    far = run(scan(["s3://bench/docs"], params))
    ok = "same pairs" if _same(far, local) else "DIFFERENT PAIRS"
    report("local engine, bucket", far, time.perf_counter() - t, f", {ok}")

    for w in args.workers:
        with LocalCluster(n_workers=w, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0") as cl:
            with Client(cl, set_as_default=False) as client:
                run(dask_scan([f"s3://bench/docs/{files[0].parent.name}"], params, client=client, gather=False))
                t = time.perf_counter()
                res = run(dask_scan(["s3://bench/docs"], params, client=client, gather=False))
                secs = time.perf_counter() - t
        ok = "same pairs" if _same(res, local) else "DIFFERENT PAIRS"
        report(f"dask, {w} worker{'s' if w > 1 else ''}, bucket", res, secs, f", {ok}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
