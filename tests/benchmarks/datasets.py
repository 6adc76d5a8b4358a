"""Datasets against folders (issue 35): the same 1 M documents as one Parquet file, as JSON Lines and as 1 M files.

    nice -n 10 python tests/benchmarks/datasets.py /tmp/lshdesk-bench/synth1m --out /tmp/lshdesk-bench/data35

Reads the folder (never writes there) and writes its documents, in listing order, once, as OUT/synth1m.parquet
(row groups of 65,536 rows, the default compression) and OUT/synth1m.jsonl, each row ``{"path": ..., "text": ...}``.
Then each scan runs in a fresh process, side by side, with the default settings (word:3, k = 128, threshold 0.8)
and no signature cache: the folder, the Parquet file and the JSON Lines file (``--id-column path``, so the pairs
are named as the folder's). Reports each scan's time and peak resident set (``ru_maxrss``), the time ratio
against the folder (target <= 0.7; medians of ``--repeats`` alternated runs), whether the pairs are the same,
and Parquet read throughput: lshdesk's reader (``datasets.text_slices``, the buffers handed to the kernels)
against pyarrow's own reads of the text column (``read_table``; ``iter_batches`` with its defaults and on one
thread): all in one fresh process, ``--reads`` rounds after one unmeasured, the order reversed every other round,
each read's CPU seconds (every thread's: the steady figure on a shared machine) and wall seconds; the share is
pyarrow's fastest median over lshdesk's (target >= 80 %). Each scan's CPU seconds are reported beside its time.

    nice -n 5 python tests/benchmarks/datasets.py --rows 10000000 --out /tmp/lshdesk-bench/rows

``--rows N`` only scans N generated rows (``gen_corpus.write_parquet``: ~``--words`` words a row, a tenth of them
edited copies; written once to OUT/rowsN.parquet, a row group at a time) and reports the time, CPU, peak resident
set and pairs: no folder of N files is made or scanned.
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


READERS = ("read_table", "iter_batches", "iter_batches_1", "lshdesk")


def _read(how: str, path: str) -> int:
    """The text column's bytes, read by pyarrow (``read_table``; ``iter_batches`` with its defaults; on one thread)
    or by lshdesk's reader (``datasets.text_slices``: the buffers the kernels are handed)."""
    import pyarrow.parquet as pq

    from lshdesk.core.corpus import datasets

    got = 0
    if how == "read_table":
        got = pq.read_table(path, columns=["text"]).column(0).nbytes
    elif how.startswith("iter_batches"):
        for b in pq.ParquetFile(path).iter_batches(columns=["text"], use_threads=how == "iter_batches"):
            got += b.column(0).nbytes
    else:
        for s in datasets.text_slices(path, "text", None, 0, 1 << 40):
            got += len(s.buf)
    return got


def _read_worker(spec: dict) -> dict:
    """Every reader ``rounds`` times in one process after a round unmeasured (the file in the page cache, the
    libraries loaded), the order reversed every other round; each read's wall and CPU seconds."""
    wall: dict[str, list[float]] = {how: [] for how in READERS}
    cpu: dict[str, list[float]] = {how: [] for how in READERS}
    for r in range(spec["rounds"] + 1):
        for how in READERS if r % 2 else READERS[::-1]:
            t0, c0 = time.perf_counter(), _cpu()
            _read(how, spec["path"])
            if r:
                wall[how].append(time.perf_counter() - t0)
                cpu[how].append(_cpu() - c0)
    return {"wall": wall, "cpu": cpu}


def read_throughput(script: str, parquet: str, rounds: int) -> None:
    """lshdesk's read of the text column against pyarrow's best (the fastest of its reads, by each measure)."""
    got = run_worker(script, {"kind": "read", "path": parquet, "rounds": rounds}, timeout=7200)
    for what in ("cpu", "wall"):
        m = {how: median(v) for how, v in got[what].items()}
        own = min(m[how] for how in READERS if how != "lshdesk")
        share = own / m["lshdesk"]
        print(
            f"Parquet text column, {'CPU' if what == 'cpu' else 'wall'} seconds (medians of {rounds} alternated "
            f"rounds): pyarrow read_table {m['read_table']:.2f}, iter_batches {m['iter_batches']:.2f}, on one "
            f"thread {m['iter_batches_1']:.2f}; lshdesk's reader {m['lshdesk']:.2f}: {share:.0%} of pyarrow's "
            f"throughput (target >= 80 %: {'met' if share >= 0.8 else 'NOT met'}); lshdesk's runs "
            + ", ".join(f"{x:.2f}" for x in got[what]["lshdesk"]),
            flush=True,
        )


def _load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def rows_run(script: str, out: str, n_rows: int, words: int) -> None:
    """``--rows N``: N generated rows as one Parquet file (made once, a row group at a time: ``gen_corpus``),
    scanned once in a fresh process: time, CPU, peak resident memory and pairs; no folder to compare with."""
    import gen_corpus

    parquet = os.path.join(out, f"rows{n_rows}.parquet")
    if not os.path.isfile(parquet):
        os.makedirs(out, exist_ok=True)
        t0, c0 = time.perf_counter(), _cpu()
        planted = gen_corpus.write_parquet(parquet, n_rows, words, 0.1, 7)
        print(
            f"wrote {n_rows:,} rows ({os.path.getsize(parquet) / 2**30:.2f} GB, {planted:,} planted copies) to "
            f"{parquet} in {time.perf_counter() - t0:.0f} s, {_cpu() - c0:.0f} s of CPU; load {_load()}",
            flush=True,
        )
    pairs = os.path.join(out, f"pairs-rows{n_rows}.tsv")
    print(f"scanning {parquet}; load {_load()}", flush=True)
    g = run_worker(script, {"kind": "scan", "root": parquet, "id_column": "path", "pairs": pairs}, timeout=4 * 3600)
    stages = ", ".join(f"{k} {v:.1f} s" for k, v in g["stages"].items())
    print(
        f"rows{n_rows}: {g['docs']:,} rows, {g['candidates']:,} candidates, {g['pairs']:,} pairs in "
        f"{g['seconds']:.1f} s, {g['cpu']:.1f} s of CPU ({stages}); peak RSS {g['peak_mb']:,.0f} MB "
        f"({g['peak_mb'] / 1024:.1f} GB); load {_load()}",
        flush=True,
    )


def _pairs(path: str) -> set[str]:
    with open(path, encoding="utf-8") as f:
        return set(f)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?")
    ap.add_argument("--out", default="/tmp/lshdesk-bench/data35")
    ap.add_argument("--reads", type=int, default=9, help="alternated rounds of each Parquet reader (default 9)")
    ap.add_argument("--rows", type=int, help="only scan this many generated rows as Parquet (no folder, no reads)")
    ap.add_argument("--words", type=int, default=50, help="mean words per generated row (--rows; default 50)")
    ap.add_argument("--repeats", type=int, default=1, help="alternated scans of each corpus (default 1)")
    ap.add_argument("--worker")
    args = ap.parse_args()
    if args.worker:
        spec = json.loads(args.worker)
        print(json.dumps(_scan_worker(spec) if spec["kind"] == "scan" else _read_worker(spec)))
        return
    script = os.path.abspath(__file__)
    if args.rows:
        rows_run(script, args.out, args.rows, args.words)
        return
    if not args.folder:
        ap.error("give the folder of documents (or --rows N)")
    parquet, jsonl = write_datasets(args.folder, args.out)
    print(f"load {_load()}", flush=True)
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
    read_throughput(script, parquet, args.reads)
    print(f"load {_load()}")


if __name__ == "__main__":
    main()
