"""Extraction throughput per format (files/s and MB/s of input) on generated files, printed with the machine.

    python tests/benchmarks/extract_throughput.py [--files 20] [--paragraphs 6 60] [--seconds 1.0]

Each format's files hold the same text as the .txt (written by fpdf2, python-docx, odfpy or by hand, see
tests/core/format_samples.py); one process, one core: a process pool scales it by the cores the scan uses.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core"))

from format_samples import MAKERS, make_doc  # noqa: E402

from lshdesk.core.corpus.extract import extract_text  # noqa: E402

LIBRARIES = ("pypdf", "python-docx", "beautifulsoup4", "markdown-it-py", "striprtf", "lxml", "cryptography")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), cpu)
    except OSError:
        pass
    libs = []
    for name in LIBRARIES:
        try:
            libs.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            libs.append(f"{name} (absent)")
    return (
        f"{platform.system()} {platform.release()}, {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}\n"
        + ", ".join(libs)
    )


def bench(files: list[tuple[bytes, str]], seconds: float) -> tuple[float, float, int]:
    """(files/s, MB/s, characters of text per file) over as many passes as fit in ``seconds`` (at least one)."""
    for data, name in files[:2]:  # warm up: first-call imports are not throughput
        extract_text(data, name)
    n, size, chars, t0 = 0, 0, 0, time.perf_counter()
    while True:
        for data, name in files:
            chars += len(extract_text(data, name))
            size += len(data)
            n += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return n / elapsed, size / elapsed / 2**20, chars // n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=20, help="distinct files per format and size (default 20)")
    ap.add_argument("--paragraphs", type=int, nargs="+", default=[6, 60], help="document sizes, in 60-word paragraphs")
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measurement (default 1 s)")
    args = ap.parse_args()
    print(machine())
    print(f"{'format':7s} {'paras':>5s} {'KB/file':>8s} {'chars/file':>10s} {'files/s':>9s} {'MB/s':>7s}")
    for paragraphs in args.paragraphs:
        docs = [make_doc(seed=s, n_paragraphs=paragraphs) for s in range(args.files)]
        for fid, (make, ext) in MAKERS.items():
            files = [(make(d), "doc" + ext) for d in docs]
            kb = sum(len(d) for d, _ in files) / len(files) / 1024
            rate, mbps, chars = bench(files, args.seconds)
            print(f"{fid:7s} {paragraphs:5d} {kb:8.1f} {chars:10d} {rate:9.1f} {mbps:7.2f}", flush=True)


if __name__ == "__main__":
    main()
