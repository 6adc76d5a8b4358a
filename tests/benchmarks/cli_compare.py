"""The command line as users run it, from fresh processes, against rensa's and datasketch's whole pipelines.

Every timing is a new interpreter, start to finish (``python -m lshdesk scan DIR -o OUT.csv -q`` with
``PYTHONPATH`` set to the tree measured; the competitors' scripts of ``bench_tools`` with their imports), page
cache warm; medians of ``--runs``; ratios are taken within this run. Compiled bytecode is kept (in a scratch
``PYTHONPYCACHEPREFIX``, ``PYTHONDONTWRITEBYTECODE`` unset), as an installed package has its ``.pyc`` files: without
them every run compiles lshdesk's ~60 modules again (~60 ms of CPU, an empty folder's scan 2.1x ``import numpy``
instead of 1.5x; ``--no-pyc`` measures that). The start-up rows give the processes' CPU seconds beside the wall
seconds: on a loaded machine the wall clock mostly measures the others' work. Printed (issue 29's targets):

- first scan after a fresh install (empty cache folders: ``XDG_CACHE_HOME`` a new temporary folder) / the second;
- ``lshdesk scan EMPTY_FOLDER`` / ``python -c "import numpy"``, and one small file's scan minus ``import numpy``;
- the whole scan / rensa's and / datasketch's, on each corpus;
- in one process, the unicode corpus's scan / reading its bytes (``os.open``, ``os.read``, ``os.close`` per file).

    python tests/benchmarks/gen_corpus.py /tmp/lshdesk-bench/synth100k --docs 100000
    python tests/benchmarks/cli_compare.py --corpus /work/shared/corpora/dev/docs \\
        --corpus /work/shared/corpora/unicode/docs --corpus /tmp/lshdesk-bench/synth100k --runs 3
    python tests/benchmarks/cli_compare.py --tree /work/main      # the same figures of another checkout
    python tests/benchmarks/cli_compare.py --only startup --runs 21   # the start-up rows alone
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_common as bc  # noqa: E402

HERE = os.path.abspath(__file__)
REPO = os.path.abspath(os.path.join(os.path.dirname(HERE), "..", ".."))
UNICODE_DOCS = os.path.realpath(os.path.join(REPO, "..", "shared", "corpora", "unicode", "docs"))
DEFAULT_CORPORA = (bc.DEV_DOCS, UNICODE_DOCS)
SMALL_TEXT = "A small file of a few words, as a user scans one to try the command line.\n"


class Cli:
    """Runs ``python -m lshdesk`` of one tree in fresh processes, from a neutral folder, caches in ``cache``."""

    def __init__(self, tree: str, scratch: str) -> None:
        self.tree, self.scratch = tree, scratch
        self.out = os.path.join(scratch, "pairs.csv")  # a real file: never a device as -o
        self.user_cache = tempfile.mkdtemp(prefix="xdg-cache-user-", dir=scratch)  # the later runs' cache folders

    def env(self, cache: str) -> dict:
        # NUMBA_CACHE_DIR too: a tree still on numba then starts cold as after a fresh install (ignored without it)
        return {**os.environ, "PYTHONPATH": self.tree, "XDG_CACHE_HOME": cache, "NUMBA_CACHE_DIR": f"{cache}/nb"}

    def scan(self, root: str, threshold: float, cache: str) -> float:
        """Wall seconds of one ``lshdesk scan``, start to CSV written."""
        return self.scan_times(root, threshold, cache)[0]

    def scan_times(self, root: str, threshold: float, cache: str) -> tuple[float, float]:
        """Wall and CPU seconds of one ``lshdesk scan``."""
        cmd = [sys.executable, "-m", "lshdesk", "scan", root, "-t", str(threshold), "-q", "-o", self.out]
        return _timed_cpu(cmd, self.env(cache), self.scratch)

    def pairs(self) -> int:
        with open(self.out, newline="", encoding="utf-8") as f:
            return sum(1 for _ in csv.reader(f)) - 1  # the header


def _timed(cmd: list[str], env: dict | None, cwd: str) -> float:
    return _timed_cpu(cmd, env, cwd)[0]


def _timed_cpu(cmd: list[str], env: dict | None, cwd: str) -> tuple[float, float]:
    """Wall seconds of the command, and the CPU seconds (user + system) of its process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, cwd=cwd, env=env, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def _warm_page_cache(root: str) -> int:
    files = bc.list_files(root)
    for p in files:
        with open(p, "rb") as f:
            f.read()
    return len(files)


def fresh_install(cli: Cli, root: str, args: argparse.Namespace, report: dict) -> None:
    """First scan with empty cache folders vs the second with the same folders; a new folder per run."""
    first, second = [], []
    for _ in range(args.runs):
        cache = tempfile.mkdtemp(prefix="xdg-cache-", dir=cli.scratch)
        first.append(cli.scan(root, args.threshold, cache))
        second.append(cli.scan(root, args.threshold, cache))
    f, s = bc.median(first), bc.median(second)
    report["fresh_install"] = {"root": root, "first_s": first, "second_s": second, "ratio": f / s}
    print(f"first scan after a fresh install / the second: {f:.2f} s / {s:.2f} s = {f / s:.2f}x (target <= 1.2x)")


def startup(cli: Cli, args: argparse.Namespace, report: dict) -> None:
    """An empty folder's and one small file's scans against ``python -c "import numpy"``."""
    empty = tempfile.mkdtemp(prefix="empty-", dir=cli.scratch)
    small = tempfile.mkdtemp(prefix="small-", dir=cli.scratch)
    with open(os.path.join(small, "note.txt"), "w", encoding="utf-8") as f:
        f.write(SMALL_TEXT)
    cache = cli.user_cache
    cli.scan(small, args.threshold, cache)  # untimed: a fresh install's first run is measured above
    runs = max(5, args.runs)
    numpy_s, empty_s, small_s = [], [], []
    for _ in range(runs):  # interleaved, so a change of load touches all three alike
        numpy_s.append(_timed_cpu([sys.executable, "-c", "import numpy"], None, cli.scratch))
        empty_s.append(cli.scan_times(empty, args.threshold, cache))
        small_s.append(cli.scan_times(small, args.threshold, cache))
    report["startup"] = {"import_numpy_s": numpy_s, "empty_s": empty_s, "small_file_s": small_s}  # (wall, cpu)
    for (i, clock), (pick, how) in itertools.product(
        enumerate(("wall", "CPU")), ((bc.median, "medians"), (min, "best"))
    ):
        n, e, s = (pick([t[i] for t in ts]) for ts in (numpy_s, empty_s, small_s))
        print(
            f"{clock}, {how} of {runs}: `lshdesk scan EMPTY_FOLDER` / `python -c 'import numpy'`: {e:.3f} s / {n:.3f} s "
            f"= {e / n:.2f}x (target <= 1.3x); one small file's scan {s:.3f} s, {s - n:+.3f} s from it (target <= +0.1 s)"
        )


def whole_scans(cli: Cli, root: str, args: argparse.Namespace, report: dict) -> None:
    """The whole scan (CLI) vs rensa's and datasketch's pipelines, each a fresh process, same threshold."""
    n_files = _warm_page_cache(root)
    cache = cli.user_cache
    cli.scan(root, args.threshold, cache)  # untimed: the signature cache as on a user's second scan
    times: dict[str, list[float]] = {"lshdesk": [], "rensa": [], "datasketch": []}
    found: dict[str, int] = {}
    for tool in times:
        runs = args.slow_runs if tool == "datasketch" and n_files > 20000 else args.runs
        for _ in range(runs):
            if tool == "lshdesk":
                times[tool].append(cli.scan(root, args.threshold, cache))
                found[tool] = cli.pairs()
            else:
                spec = {"tool": tool, "root": root, "threshold": args.threshold, "k": 128}
                t0 = time.perf_counter()
                out = bc.run_worker(HERE, spec)  # the whole process: interpreter, imports, pipeline, pairs printed
                times[tool].append(time.perf_counter() - t0)
                found[tool] = out["pairs"]
    med = {tool: bc.median(ts) for tool, ts in times.items()}
    report.setdefault("whole_scan", {})[root] = {"files": n_files, "runs_s": times, "pairs": found}
    print(
        f"\n{root} ({n_files:,} files, t = {args.threshold}): "
        + ", ".join(f"{tool} {m:.2f} s ({found[tool]:,} pairs)" for tool, m in med.items())
    )
    for tool in ("rensa", "datasketch"):
        print(f"  whole scan / {tool}'s: {med['lshdesk'] / med[tool]:.3f}x")


def in_process(root: str, args: argparse.Namespace, report: dict) -> None:
    """One process (``--worker``): the scan of ``root`` vs reading its bytes with os.read in a loop."""
    _warm_page_cache(root)
    out = bc.run_worker(
        HERE,
        {"tool": "in_process", "root": root, "threshold": args.threshold, "runs": args.runs},
        env={"PYTHONPATH": args.tree},
    )
    report["in_process"] = out
    scan_s, read_s = bc.median(out["scan_s"]), bc.median(out["read_s"])
    print(
        f"\nin one process, {root}: scan {scan_s:.2f} s (first {out['scan_s'][0]:.2f} s) / os.read loop "
        f"{read_s:.3f} s = {scan_s / read_s:.2f}x (target <= 3x)"
    )


def _worker(spec: dict) -> dict:
    if spec["tool"] != "in_process":
        import bench_tools as bt

        fn = bt.scan_rensa if spec["tool"] == "rensa" else bt.scan_datasketch
        return {"pairs": len(fn(spec["root"], spec["threshold"], spec["k"])["pairs"])}
    paths = bc.list_files(spec["root"])
    read_s, scan_s = [], []
    from lshdesk.core.params import ScanParams
    from lshdesk.core.scan.pipeline import run, scan

    for _ in range(spec["runs"]):
        t0 = time.perf_counter()
        for p in paths:
            fd = os.open(p, os.O_RDONLY)
            while os.read(fd, 1 << 16):  # 64 KB, as read_floor.py: 1 MB asks are mmap'ed afresh (~6x the time)
                pass
            os.close(fd)
        read_s.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        run(scan([spec["root"]], ScanParams(threshold=spec["threshold"])))
        scan_s.append(time.perf_counter() - t0)
    return {"read_s": read_s, "scan_s": scan_s}


def _bytecode(scratch: str, tree: str, keep: bool) -> None:
    """Every process of this run (ours and the competitors') keeps its compiled bytecode in ``scratch``, compiled
    before the first timing as pip compiles a package it installs; or (not ``keep``) none at all."""
    if not keep:
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
        print("bytecode: none kept (--no-pyc): every run compiles every module it imports\n")
        return
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = os.path.join(scratch, "pycache")  # never written into the trees measured
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(tree, "lshdesk")], check=True)
    warm = "import numpy, numpy.random, sqlite3, platformdirs, bench_tools, datasketch, rensa"  # the others' imports
    subprocess.run([sys.executable, "-c", warm], check=True, cwd=os.path.dirname(HERE))
    print(f"bytecode: kept in {os.environ['PYTHONPYCACHEPREFIX']}, compiled before the timings\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--corpus", action="append", help="a folder of documents (repeatable; default: dev and unicode)")
    ap.add_argument("--tree", default=REPO, help=f"the lshdesk checkout measured (default {REPO})")
    ap.add_argument("--runs", type=int, default=3, help="runs per measurement; medians are printed (default 3)")
    ap.add_argument("--slow-runs", type=int, default=1, help="runs of datasketch on corpora over 20k files")
    ap.add_argument("--threshold", type=float, default=0.8)
    ap.add_argument("--json", help="also write every timing to this JSON file")
    ap.add_argument("--only", choices=("all", "startup"), default="all", help="startup: the start-up rows alone")
    ap.add_argument("--no-pyc", action="store_true", help="compile every module at every run (no bytecode kept)")
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(_worker(json.loads(args.worker))))
        return
    args.tree = os.path.abspath(args.tree)
    corpora = [os.path.realpath(c) for c in args.corpus or DEFAULT_CORPORA]  # one spelling: the unicode corpus is found
    mc = bc.machine()
    report: dict = {"machine": mc, "tree": args.tree}
    print(
        f"# lshdesk's command line ({args.tree}) vs rensa {mc['rensa']} and datasketch {mc['datasketch']}\n\n"
        f"{mc['cpu']}, {mc['cores']} cores; Python {mc['python']}, numpy {mc['numpy']}; "
        f"load average at start {mc['load_avg']}; medians of {args.runs}\n"
    )
    with tempfile.TemporaryDirectory(prefix="lshdesk-cli-bench-") as scratch:
        _bytecode(scratch, args.tree, keep=not args.no_pyc)
        cli = Cli(args.tree, scratch)
        if args.only == "all":
            _warm_page_cache(corpora[0])
            fresh_install(cli, corpora[0], args, report)
        startup(cli, args, report)
        for root in corpora if args.only == "all" else ():
            whole_scans(cli, root, args, report)
        if args.only == "all":
            in_process(UNICODE_DOCS if UNICODE_DOCS in corpora else corpora[0], args, report)
    print(f"\nload average at the end {os.getloadavg()}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
