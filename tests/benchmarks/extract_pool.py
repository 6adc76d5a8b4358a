"""PDF / DOCX / ODT / EPUB extraction on the scan's thread vs in the process pool: files/s and the GIL it leaves free.

    python tests/benchmarks/extract_pool.py [--files 60] [--paragraphs 30]

Both read the same generated files through ``frontend.read_listed`` (the scan's unit of reading). "GIL free" is
the share of wall time a bystander thread, asking for the GIL every millisecond, got it within 5 ms: what the
window's event loop would feel during a scan.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "core" / "corpus"))

from format_samples import MAKERS, make_doc  # noqa: E402

from lshdesk.core.corpus.pool import ExtractPool  # noqa: E402
from lshdesk.core.scan.frontend import read_listed  # noqa: E402


def _bystander(stop: threading.Event, late: list[float]) -> None:
    while not stop.is_set():
        t = time.perf_counter()
        time.sleep(0.001)
        late.append(time.perf_counter() - t - 0.001)


def measure(paths: list[str], pool: ExtractPool | None) -> tuple[float, float, float]:
    stop, late = threading.Event(), []
    th = threading.Thread(target=_bystander, args=(stop, late))
    th.start()
    t0 = time.perf_counter()
    prep = read_listed(paths, range(len(paths)), 1 << 26, False, pool=pool)
    wall = time.perf_counter() - t0
    stop.set()
    th.join()
    assert len(prep.ok) == len(paths), prep.skipped[:3]
    return wall, sum(x < 0.005 for x in late) / max(1, len(late)), max(late, default=0.0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=60, help="files per format (default 60)")
    ap.add_argument("--paragraphs", type=int, default=30)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="lshdesk-extract-") as tmp:
        paths = []
        for kind in ("pdf", "docx", "odt", "epub"):
            make, ext = MAKERS[kind]
            for i in range(args.files):
                p = os.path.join(tmp, f"{kind}-{i:04d}{ext}")
                Path(p).write_bytes(make(make_doc(seed=i, n_paragraphs=args.paragraphs)))
                paths.append(p)
        mb = sum(os.path.getsize(p) for p in paths) / 2**20
        print(f"{len(paths)} files ({mb:.1f} MB), {os.cpu_count()} cores")
        warm = [paths[i * args.files] for i in range(4)]
        measure(warm, None)  # the extractors' imports, before timing (each worker process warms the same way)
        wall, free, worst = measure(paths, None)
        print(
            f"  on the thread : {wall:6.2f} s  {len(paths) / wall:7.0f} files/s  GIL free {free:4.0%}  worst wait {worst * 1e3:5.0f} ms"
        )
        with ExtractPool() as pool:
            measure(warm + warm, pool)  # start the workers (spawn, imports) before timing
            wall2, free2, worst2 = measure(paths, pool)
        print(
            f"  process pool  : {wall2:6.2f} s  {len(paths) / wall2:7.0f} files/s  GIL free {free2:4.0%}  worst wait {worst2 * 1e3:5.0f} ms  ({pool.size} workers)"
        )
        print(f"  speed-up {wall / wall2:.2f}x")


if __name__ == "__main__":
    main()
