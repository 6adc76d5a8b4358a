"""lshdesk vs datasketch vs rensa in one run: whole scans with recall, the signature stage, the front-end floor.

Every measurement runs in a fresh interpreter (so imports and peak memory are each tool's own); the figures are
medians of ``--runs`` runs; ratios are taken within this run. Examples:

    python tests/benchmarks/compare.py                                  # the dev corpus, 3 runs
    python tests/benchmarks/gen_corpus.py /tmp/lshdesk-bench/synth100k --docs 100000
    python tests/benchmarks/compare.py --corpus /tmp/lshdesk-bench/synth100k --slow-runs 1 --json out.json
    python tests/benchmarks/compare.py --only startup            # `lshdesk scan` of an empty folder alone

Also printed: the start-up (an empty folder's scan from a fresh interpreter) and the dense scan (char:5 at 0.3)
against the default one, lshdesk alone.

Recall is against exact Jaccard of word 3-grams: the dev corpus's truth.csv (complete), or for another folder
the pairs planted by gen_corpus.py plus every pair any tool reported, each checked with plain Python sets.
Memory is the peak resident set of the worker minus its size before the scan (after imports and, for
lshdesk, after a tiny scan, whose time is reported apart).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

import bench_common as bc  # noqa: E402

TOOLS = ("lshdesk", "rensa", "datasketch")
HERE = os.path.abspath(__file__)


def _worker(spec: dict) -> None:
    import bench_tools as bt

    task = spec["task"]
    if task == "scan":
        fn = {"lshdesk": bt.scan_lshdesk, "datasketch": bt.scan_datasketch, "rensa": bt.scan_rensa}[spec["tool"]]
        out = fn(spec["root"], spec["threshold"], spec["k"])
    elif task == "dense":
        out = _scan_settings(spec["root"], spec["shingle"], spec["threshold"], spec["k"])
    elif task == "sign":
        out = bt.sign_stage(spec["root"], spec["k"], spec["tool"], spec["max_docs"])
    else:
        out = bt.floor(spec["root"])
    print(json.dumps(out))


def _scan_settings(root: str, shingle: str, t: float, k: int) -> dict:
    import time

    from lshdesk.core.params import ScanParams, ShingleSpec, SignatureParams
    from lshdesk.core.scan.estimate import TooManyCandidates
    from lshdesk.core.scan.pipeline import run, scan

    params = ScanParams(SignatureParams(ShingleSpec.parse(shingle), k=k), threshold=t)
    try:
        run(scan([root], params))  # untimed: the page cache warm
    except TooManyCandidates as e:  # lshdesk refuses what would exhaust the memory
        return {"refused": str(e)}
    said: list[str] = []  # the slow-scan warning, with its estimate of the verification's time
    t0 = time.perf_counter()
    r = run(scan([root], params), lambda p: said.append(p.warning) if p.stage == "estimating" else None)
    out = {"scan_s": time.perf_counter() - t0, "n_candidates": len(r.candidates), "n_pairs": len(r.pairs)}
    return {**out, "stages": r.stage_seconds, "warning": said[0] if said else ""}


def startup(args: argparse.Namespace, report: dict) -> None:
    """``lshdesk scan`` of an empty folder from a fresh interpreter: wall and CPU seconds (medians)."""
    import resource
    import subprocess
    import tempfile
    import time

    repo = os.path.join(os.path.dirname(HERE), "..", "..")
    env = {**os.environ, "PYTHONPATH": os.path.abspath(repo)}
    walls, cpus = [], []
    with tempfile.TemporaryDirectory(prefix="lshdesk-empty-") as empty:
        for _ in range(max(5, args.runs)):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            cmd = [sys.executable, "-m", "lshdesk", "scan", empty, "-q", "--no-cache"]  # never -o /dev/null (root)
            subprocess.run(cmd, check=True, cwd=repo, env=env, stdout=subprocess.DEVNULL)
            walls.append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    report["startup"] = {"wall_s": bc.median(walls), "cpu_s": bc.median(cpus)}
    print(
        f"\nStart-up: `lshdesk scan` of an empty folder {bc.median(walls):.2f} s wall, {bc.median(cpus):.2f} s CPU "
        f"(medians of {len(walls)}; target <= 0.3 s)"
    )


def dense(root: str, args: argparse.Namespace, report: dict) -> None:
    """The dense settings (char:5 at 0.3) against the default scan (word:3 at 0.8), lshdesk alone, same run: in
    one process after a warm-up scan (the scan itself), and from the command line (``lshdesk scan --no-cache``
    in a fresh interpreter: what a user waits, start-up and reading included; the issue's measure)."""
    rows = {}
    for shingle, t in (("word:3", 0.8), ("char:5", 0.3)):
        outs = [
            bc.run_worker(HERE, {"task": "dense", "root": root, "shingle": shingle, "threshold": t, "k": args.k})
            for _ in range(args.runs)
        ]
        if "refused" in outs[0]:
            report.setdefault("dense", {})[root] = outs[0]
            print(f"\nDense scan: {shingle} at {t} refused by lshdesk: {outs[0]['refused']}")
            return
        cli = [_cli_seconds(root, shingle, t, args.k) for _ in range(args.runs)]
        rows[shingle] = {**outs[0], "scan_s": bc.median([o["scan_s"] for o in outs]), "cli_s": bc.median(cli)}
    ratio = rows["char:5"]["scan_s"] / rows["word:3"]["scan_s"]
    cli_ratio = rows["char:5"]["cli_s"] / rows["word:3"]["cli_s"]
    report.setdefault("dense", {})[root] = {**rows, "ratio": ratio, "cli_ratio": cli_ratio}
    d, w = rows["char:5"], rows["word:3"]
    print(
        f"\nDense scan: char:5 at 0.3 ({d['n_candidates']:,} candidates, {d['n_pairs']:,} pairs) vs word:3 at 0.8\n"
        f"  command line:   {d['cli_s']:.2f} s vs {w['cli_s']:.2f} s: {cli_ratio:.1f}x (target <= 4x)\n"
        f"  in one process: {d['scan_s']:.2f} s vs {w['scan_s']:.2f} s: {ratio:.1f}x "
        f"(stages: {', '.join(f'{k} {v:.2f}' for k, v in d['stages'].items())})\n"
        f"  the warning said: {d['warning'] or '(none)'}"
    )


def _cli_seconds(root: str, shingle: str, t: float, k: int) -> float:
    import subprocess
    import time

    repo = os.path.join(os.path.dirname(HERE), "..", "..")
    cmd = [sys.executable, "-m", "lshdesk", "scan", root, "--shingle", shingle, "--threshold", str(t)]
    cmd += ["--num-perm", str(k), "--no-cache", "-q"]  # the output to the null device by the shell's means, not -o
    t0 = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": os.path.abspath(repo)}
    subprocess.run(cmd, check=True, cwd=repo, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def _truth(root: str, t: float, found: list[set]) -> set:
    if os.path.isfile(os.path.join(os.path.dirname(root.rstrip("/")), "truth.csv")):
        return bc.dev_truth(root, t)
    return bc.exact_truth(root, bc.planted_pairs(root) | set().union(*found), t)


def _fmt(x: float, nd: int = 2) -> str:
    return f"{x:.{nd}f}" if x == x else "-"


def bench_corpus(root: str, args: argparse.Namespace, report: dict) -> None:
    n_files = len(bc.list_files(root))
    print(f"\n## {root} ({n_files} files)\n")
    for p in bc.list_files(root):  # warm the page cache once, untimed
        with open(p, "rb") as f:
            f.read()
    res: dict = {}
    for t in args.thresholds:
        for tool in args.tools:
            runs = args.slow_runs if (tool == "datasketch" and n_files > 20000) else args.runs
            outs = [
                bc.run_worker(HERE, {"task": "scan", "tool": tool, "root": root, "threshold": t, "k": args.k})
                for _ in range(runs)
            ]
            res[(tool, t)] = outs
            print(f"  {tool} t={t}: " + ", ".join(f"{o['scan_s']:.2f}s" for o in outs), flush=True)
    rows = []
    for t in args.thresholds:
        found = [set(map(tuple, res[(tool, t)][0]["pairs"])) for tool in args.tools]
        truth = _truth(root, t, found)
        base = bc.median([o["scan_s"] for o in res[("lshdesk", t)]]) if "lshdesk" in args.tools else float("nan")
        for tool, f in zip(args.tools, found):
            outs = res[(tool, t)]
            med = bc.median([o["scan_s"] for o in outs])
            row = {
                "tool": tool,
                "threshold": t,
                "scan_s": med,
                "runs": [o["scan_s"] for o in outs],
                "import_s": bc.median([o["import_s"] for o in outs]),
                "warm_s": outs[0].get("warm_s", 0.0),
                "mem_mb": bc.median([o["mem_mb"] for o in outs]),
                "peak_rss_mb": bc.median([o["peak_rss_mb"] for o in outs]),
                "recall": len(f & truth) / len(truth) if truth else float("nan"),
                "truth": len(truth),
                "found": len(f),
                "wrong": len(f - truth),
                "candidates": outs[0]["n_candidates"],
                "scheme": outs[0]["scheme"],
                "lshdesk_ratio": base / med,
                "stages": outs[0]["stages"],
            }
            if tool == "lshdesk":
                row.update(sig_mb=outs[0]["sig_mb"], ids_mb=outs[0]["ids_mb"])
            rows.append(row)
    print(
        "\n| tool | t | scan s (median) | runs | lshdesk time / tool time | recall | pairs (truth) | wrong | "
        "candidates | b x r | import s | memory MB (peak RSS) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['tool']} | {r['threshold']} | {_fmt(r['scan_s'])} | {len(r['runs'])} | {_fmt(r['lshdesk_ratio'], 3)} "
            f"| {_fmt(r['recall'], 4)} | {r['found']} ({r['truth']}) | {r['wrong']} | {r['candidates']} | {r['scheme']} "
            f"| {_fmt(r['import_s'])}{' + ' + _fmt(r['warm_s']) + ' kernels' if r['warm_s'] else ''} "
            f"| {_fmt(r['mem_mb'], 0)} ({_fmt(r['peak_rss_mb'], 0)}) |"
        )
    for r in rows:
        print(f"  stages {r['tool']} t={r['threshold']}: " + ", ".join(f"{k} {v:.2f}" for k, v in r["stages"].items()))
    for r in rows:
        if r["tool"] == "lshdesk":
            budget = 2 * r["sig_mb"] + 150
            print(
                f"  lshdesk memory t={r['threshold']}: {r['mem_mb']:.0f} MB; signatures {r['sig_mb']:.1f} MB, "
                f"shingle ids {r['ids_mb']:.1f} MB; target 2 x signatures + 150 = {budget:.0f} MB"
            )
    report.setdefault("scan", {})[root] = rows

    if not args.no_sign:
        print(f"\nSignature stage alone (k = {args.k}, the same shingle ids for each tool):\n")
        print("| tool | docs | docs/s (median) | vs rensa |")
        print("|---|---|---|---|")
        sign = {}
        for tool in args.tools:
            docs = min(args.sign_docs, 5000) if tool == "datasketch" else args.sign_docs
            outs = [
                bc.run_worker(HERE, {"task": "sign", "tool": tool, "root": root, "k": args.k, "max_docs": docs})
                for _ in range(args.runs)
            ]
            sign[tool] = outs
        ref = bc.median([o["docs_per_s"] for o in sign["rensa"]]) if "rensa" in sign else float("nan")
        for tool, outs in sign.items():
            v = bc.median([o["docs_per_s"] for o in outs])
            print(f"| {tool} | {outs[0]['docs']} | {v:,.0f} | {v / ref:.2f} |")
            if tool == "lshdesk":
                v2 = bc.median([o["docs_per_s_2threads"] for o in outs])
                print(f"| lshdesk, 2 threads | {outs[0]['docs']} | {v2:,.0f} | {v2 / ref:.2f} |")
        if "rensa" in args.tools:
            outs = [
                bc.run_worker(
                    HERE,
                    {"task": "sign", "tool": "rensa", "root": root, "k": args.k, "max_docs": args.sign_docs},
                    env={"RAYON_NUM_THREADS": "1"},
                )
                for _ in range(args.runs)
            ]
            v = bc.median([o["docs_per_s"] for o in outs])
            print(f"| rensa, RAYON_NUM_THREADS=1 | {outs[0]['docs']} | {v:,.0f} | {v / ref:.2f} |")
            sign["rensa_1thread"] = outs
        report.setdefault("sign", {})[root] = sign

    fl = [bc.run_worker(HERE, {"task": "floor", "root": root}) for _ in range(args.runs)]
    m = {k: bc.median([o[k] for o in fl]) for k in fl[0] if k != "files"}
    print(
        f"\nFront end alone, {fl[0]['files']} files (medians): read {m['read_s']:.2f} s; read + spec tokens in "
        f"Python {m['read_tokenize_python_s']:.2f} s; lshdesk listing {m['lshdesk_listing_s']:.2f} s, "
        f"read + tokens + shingle ids (2 threads) {m['lshdesk_read_tokenize_ids_s']:.2f} s"
    )
    report.setdefault("floor", {})[root] = m


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--corpus", action="append", help=f"a folder of documents (repeatable; default {bc.DEV_DOCS})")
    ap.add_argument("--runs", type=int, default=3, help="runs per measurement; the median is reported (default 3)")
    ap.add_argument("--slow-runs", type=int, default=1, help="runs of datasketch on corpora over 20k files (default 1)")
    ap.add_argument("--thresholds", type=float, nargs="+", default=[0.5, 0.8])
    ap.add_argument("--tools", nargs="+", default=list(TOOLS), choices=TOOLS)
    ap.add_argument("--k", type=int, default=128)
    ap.add_argument(
        "--sign-docs", type=int, default=100_000, help="documents for the signature stage (datasketch: 5000)"
    )
    ap.add_argument("--no-sign", action="store_true", help="skip the signature-stage table")
    ap.add_argument("--json", help="also write every figure to this JSON file")
    ap.add_argument("--no-dense", action="store_true", help="skip the dense scan (char:5 at 0.3) vs the default")
    ap.add_argument("--only", choices=("startup", "dense"), help="measure only this (no comparison with the others)")
    args = ap.parse_args()
    if args.worker:
        _worker(json.loads(args.worker))
        return
    report = {"machine": bc.machine()}
    mc = report["machine"]
    print(
        f"# lshdesk vs rensa vs datasketch\n\nMachine: {mc['cpu']}, {mc['cores']} cores, {mc['simd']}, "
        f"{mc['memory_gb']} GB; Python {mc['python']}, numpy {mc['numpy']}, Cython {mc['Cython']}, datasketch "
        f"{mc['datasketch']}, rensa {mc['rensa']}, xxhash {mc['xxhash']}; load average at start {mc['load_avg']}"
    )
    if args.only in (None, "startup"):
        startup(args, report)
    for root in args.corpus or [bc.DEV_DOCS]:
        if args.only is None:
            bench_corpus(os.path.abspath(root), args, report)
        if args.only == "dense" or (args.only is None and not args.no_dense):
            dense(os.path.abspath(root), args, report)
        if args.json:  # after each corpus, so a long run keeps what it measured
            with open(args.json, "w") as f:
                json.dump(report, f, indent=1, default=str)


if __name__ == "__main__":
    main()
