"""Datasets against folders (issue 35): the same 1 M documents as one Parquet file, as JSON Lines and as 1 M files.

    nice -n 10 python tests/benchmarks/datasets.py /tmp/lshdesk-bench/synth1m --out /tmp/lshdesk-bench/data35

Reads the folder (never writes there) and writes its documents, in listing order, once, as OUT/synth1m.parquet
(row groups of 65,536 rows, the default compression) and OUT/synth1m.jsonl, each row ``{"path": ..., "text": ...}``.
Then each scan runs in a fresh process, side by side, with the default settings (word:3, k = 128, threshold 0.8)
and no signature cache: the folder, the Parquet file and the JSON Lines file (``--id-column path``, so the pairs
are named as the folder's). Reports each scan's time and peak resident set (``ru_maxrss``), the time ratio
against the folder (target <= 0.7; medians of ``--repeats`` alternated runs), whether the pairs are the same,
and Parquet read throughput: lshdesk's reader (``datasets.text_slices``, the buffers handed to the kernels)
against pyarrow's own read of the text column (the faster of ``read_table`` and ``iter_batches``; target
>= 80 %), the median of ``--reads`` alternated runs of each. Each scan's CPU seconds are reported beside its time: on a loaded machine the steadier figure.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

from bench_common import median, peak_rss_mb, run_worker  # noqa: E402

MARK = ".lshdesk-data-bench"  # written first into the folder this script makes: only such a folder is written into


def _listing(root: str) -> list[str]:
    """The folder's .txt files below it, as a scan lists them (each folder's names sorted), relative paths."""
    out = []
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        rel = os.path.relpath(folder, root)
        out += [n if rel == "." else f"{rel}/{n}" for n in sorted(names) if n.endswith(".txt")]
    return out


def write_datasets(root: str, out: str) -> tuple[str, str]:
    """OUT/NAME.parquet and OUT/NAME.jsonl from the folder's documents (made once; kept for later runs)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    name = os.path.basename(root.rstrip("/"))
    parquet, jsonl = os.path.join(out, f"{name}.parquet"), os.path.join(out, f"{name}.jsonl")
    if os.path.isdir(out) and os.listdir(out) and not os.path.exists(os.path.join(out, MARK)):
        raise SystemExit(f"{out} is not empty and was not made by this script: give a new or empty folder")
    if os.path.isfile(parquet) and os.path.isfile(jsonl):
        return parquet, jsonl
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, MARK), "w") as f:
        f.write("made by tests/benchmarks/datasets.py\n")
    rels = _listing(root)
    t0 = time.perf_counter()
    schema = pa.schema([("path", pa.string()), ("text", pa.string())])
    with pq.ParquetWriter(parquet + ".part", schema) as pw, open(jsonl + ".part", "w", encoding="utf-8") as jw:
        for s in range(0, len(rels), 65536):
            chunk = rels[s : s + 65536]
            texts = []
            for rel in chunk:
                with open(os.path.join(root, rel), "rb") as f:
                    texts.append(f.read().decode("utf-8"))
            pw.write_table(pa.table({"path": chunk, "text": texts}, schema=schema))
            jw.write(
                "".join(json.dumps({"path": p, "text": t}, ensure_ascii=False) + "\n" for p, t in zip(chunk, texts))
            )
    os.replace(parquet + ".part", parquet)
    os.replace(jsonl + ".part", jsonl)
    print(f"wrote {len(rels):,} rows to {parquet} and {jsonl} in {time.perf_counter() - t0:.0f} s", flush=True)
    return parquet, jsonl


def _cpu() -> float:
    """This process's CPU seconds (every thread): on a loaded machine a steadier measure than the wall clock."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _scan_worker(spec: dict) -> dict:
    from lshdesk.core.params import CorpusOptions, ScanParams
    from lshdesk.core.scan.pipeline import run, scan

    base = peak_rss_mb()
    params = ScanParams(corpus=CorpusOptions(id_column=spec["id_column"]))
    t0, c0 = time.perf_counter(), _cpu()
    r = run(scan([spec["root"]], params))
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    rel = r.docs.rel
    with open(spec["pairs"], "w", encoding="utf-8") as f:
        f.writelines(f"{min(rel[a], rel[b])}\t{max(rel[a], rel[b])}\n" for a, b in zip(r.pairs.left, r.pairs.right))
    return {
        "seconds": wall,
        "cpu": cpu,
        "stages": r.stage_seconds,
        "peak_mb": peak_rss_mb(),
        "base_mb": base,
        "docs": len(r.docs),
        "pairs": len(r.pairs),
        "candidates": len(r.candidates),
    }


def _read_worker(spec: dict) -> dict:
    import pyarrow.parquet as pq

    from lshdesk.core.corpus import datasets

    t0, c0 = time.perf_counter(), _cpu()
    got = 0
    if spec["how"] == "read_table":
        got = pq.read_table(spec["path"], columns=["text"]).column(0).nbytes
    elif spec["how"] == "pyarrow":
        for b in pq.ParquetFile(spec["path"]).iter_batches(batch_size=datasets.READ_ROWS, columns=["text"]):
            got += b.column(0).nbytes
    else:
        for s in datasets.text_slices(spec["path"], "text", None, 0, 1 << 40):
            got += len(s.buf)
    return {"seconds": time.perf_counter() - t0, "cpu": _cpu() - c0, "bytes": got}


def _pairs(path: str) -> set[str]:
    with open(path, encoding="utf-8") as f:
        return set(f)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?")
    ap.add_argument("--out", default="/tmp/lshdesk-bench/data35")
    ap.add_argument("--reads", type=int, default=3, help="alternated read runs of each reader (default 3)")
    ap.add_argument("--repeats", type=int, default=1, help="alternated scans of each corpus (default 1)")
    ap.add_argument("--worker")
    args = ap.parse_args()
    if args.worker:
        spec = json.loads(args.worker)
        print(json.dumps(_scan_worker(spec) if spec["kind"] == "scan" else _read_worker(spec)))
        return
    parquet, jsonl = write_datasets(args.folder, args.out)
    script = os.path.abspath(__file__)
    got: dict[str, dict] = {}
    runs = (("files", args.folder, None), ("parquet", parquet, "path"), ("jsonl", jsonl, "path"))
    for rep in range(args.repeats):  # alternated: files, parquet, jsonl, files, ...
        for label, root, id_column in runs:
            pairs = os.path.join(args.out, f"pairs-{label}.tsv")
            g = run_worker(script, {"kind": "scan", "root": root, "id_column": id_column, "pairs": pairs}, timeout=7200)
            stages = ", ".join(f"{k} {v:.1f} s" for k, v in g["stages"].items())
            print(
                f"{label:8} {g['docs']:,} docs, {g['candidates']:,} candidates, {g['pairs']:,} pairs in "
                f"{g['seconds']:.1f} s, {g['cpu']:.1f} s of CPU ({stages}); peak RSS {g['peak_mb']:,.0f} MB",
                flush=True,
            )
            if rep == 0:
                got[label] = {**g, "pair_set": _pairs(pairs), "all_s": [], "all_cpu": []}
            got[label]["all_s"].append(g["seconds"])
            got[label]["all_cpu"].append(g["cpu"])
            got[label]["peak_mb"] = max(got[label]["peak_mb"], g["peak_mb"])
    for g in got.values():  # the medians of the runs
        g["seconds"], g["cpu"] = median(g["all_s"]), median(g["all_cpu"])
    for label in ("parquet", "jsonl"):
        ratio = got[label]["seconds"] / got["files"]["seconds"]
        cpu = got[label]["cpu"] / got["files"]["cpu"]
        same = got[label]["pair_set"] == got["files"]["pair_set"]
        print(
            f"{label}: time {ratio:.2f} x the folder's (target <= 0.7: {'met' if ratio <= 0.7 else 'NOT met'}), "
            f"CPU {cpu:.2f} x; "
            f"peak {got[label]['peak_mb']:,.0f} MB vs {got['files']['peak_mb']:,.0f} MB; same pairs: {same}"
        )
    wall: dict[str, list[float]] = {"read_table": [], "pyarrow": [], "lshdesk": []}
    cpu: dict[str, list[float]] = {how: [] for how in wall}
    for _ in range(args.reads):
        for how in wall:
            r = run_worker(script, {"kind": "read", "how": how, "path": parquet})
            wall[how].append(r["seconds"])
            cpu[how].append(r["cpu"])
    for what, t in (("time", wall), ("CPU", cpu)):
        m = {how: median(v) for how, v in t.items()}
        own = min(m["pyarrow"], m["read_table"])  # the faster of pyarrow's own two reads
        share = own / m["lshdesk"]
        print(
            f"Parquet text column, {what} (medians of {args.reads}): pyarrow read_table {m['read_table']:.2f} s, "
            f"iter_batches {m['pyarrow']:.2f} s; lshdesk's reader {m['lshdesk']:.2f} s: {share:.0%} of pyarrow's "
            f"throughput (target >= 80 %: {'met' if share >= 0.8 else 'NOT met'})"
        )


if __name__ == "__main__":
    main()
