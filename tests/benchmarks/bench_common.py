"""Shared pieces of the benchmarks: the machine, the spec's tokens in plain Python, truth sets, timing, memory.

Imports only the standard library and numpy at module level, so a competitor's timed run does not pay for
lshdesk's imports and lshdesk's does not pay for datasketch's (scipy).
"""

from __future__ import annotations

import csv
import json
import os
import platform
import re
import resource
import statistics
import string
import subprocess
import sys
import unicodedata
from pathlib import Path

TOKEN_RE = re.compile(r"[^\W_]+")
_ASCII_SEP = str.maketrans({c: " " for c in map(chr, range(128)) if c not in string.ascii_letters + string.digits})
DEV_DOCS = "/work/shared/corpora/dev/docs"


def tokenize(text: str) -> list[str]:
    """The spec's tokens (NFKC + casefold, runs of letters and digits), with the fastest exact Python path for ASCII.

    This is what the competitor pipelines use: a user's best plain-Python tokenizer giving the same tokens.
    """
    if text.isascii():
        return text.lower().translate(_ASCII_SEP).split()
    return TOKEN_RE.findall(unicodedata.normalize("NFKC", text).casefold())


def shingles(tokens: list[str], n: int = 3) -> set[str]:
    """Word n-gram strings; a document shorter than n gives one shingle of all its tokens (lshdesk's rule)."""
    if len(tokens) < n:
        return {" ".join(tokens)} if tokens else set()
    return {" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}


def list_files(root: str) -> list[str]:
    """Every file below root, sorted (what a user's script walks)."""
    out = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        out.extend(os.path.join(d, f) for f in sorted(files))
    return out


def jaccard(a: set, b: set) -> float:
    u = len(a | b)
    return len(a & b) / u if u else 0.0


def rss_mb() -> float:
    """This process's resident set size now, in MB (from /proc, no psutil needed)."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def peak_rss_mb() -> float:
    """This process's peak resident set size so far, in MB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def machine() -> dict:
    """CPU model, cores, Python, numpy, Cython (lshdesk's build) and the competitors' versions."""
    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    versions = {}
    for mod in ("numpy", "Cython", "datasketch", "rensa", "xxhash", "psutil"):
        try:
            from importlib.metadata import version

            versions[mod] = version(mod)
        except Exception:  # noqa: BLE001
            versions[mod] = "missing"
    with open("/proc/meminfo") as f:
        mem = int(f.readline().split()[1]) / 2**20
    flags = Path("/proc/cpuinfo").read_text()
    simd = "AVX-512" if " avx512f" in flags else "AVX2" if " avx2" in flags else "SSE"
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "simd": simd,
        "memory_gb": round(mem, 1),
        "python": platform.python_version(),
        **versions,
        "load_avg": os.getloadavg(),
    }


def dev_truth(root: str, threshold: float) -> set[tuple[str, str]]:
    """The dev corpus's complete 3-gram truth at threshold (truth.csv lists every pair with J3 >= 0.3)."""
    truth_csv = os.path.join(os.path.dirname(root.rstrip("/")), "truth.csv")
    with open(truth_csv, newline="") as f:
        return {(r["a"], r["b"]) for r in csv.DictReader(f) if float(r["jaccard_3gram"]) >= threshold - 1e-6}


def exact_truth(root: str, candidates: set[tuple[str, str]], threshold: float) -> set[tuple[str, str]]:
    """Pairs among ``candidates`` (relative paths) whose exact 3-gram Jaccard, from plain Python sets, is >= t."""
    cache: dict[str, set[str]] = {}

    def sh(rel: str) -> set[str]:
        if rel not in cache:
            with open(os.path.join(root, rel), encoding="utf-8") as f:
                cache[rel] = shingles(TOKEN_RE.findall(unicodedata.normalize("NFKC", f.read()).casefold()))
        return cache[rel]

    return {(a, b) for a, b in candidates if jaccard(sh(a), sh(b)) >= threshold - 1e-9}


def planted_pairs(root: str) -> set[tuple[str, str]]:
    """The generator's planted (copy, original) pairs, sorted within each pair, if a planted.csv is beside root."""
    path = os.path.join(os.path.dirname(root.rstrip("/")), os.path.basename(root.rstrip("/")) + ".planted.csv")
    if not os.path.isfile(path):
        return set()
    with open(path, newline="") as f:
        return {tuple(sorted((r["copy"], r["original"]))) for r in csv.DictReader(f)}


def run_worker(script: str, spec: dict, env: dict | None = None, timeout: float = 3600) -> dict:
    """Run ``script --worker JSON`` in a fresh interpreter; return the JSON its last output line holds."""
    cmd = [sys.executable, script, "--worker", json.dumps(spec)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})})
    if r.returncode != 0:
        raise RuntimeError(f"worker {spec} failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")
