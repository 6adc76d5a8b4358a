"""Listing a big folder: lshdesk's listing (as a scan lists) against ``os.walk`` and a bare ``os.scandir`` walk.

    nice -n 10 python tests/benchmarks/listing.py /tmp/lshdesk-bench/synth100k --repeat 3

Each is timed warm (the folder's inodes in the page cache after an untimed walk), best of ``--repeat``, in one
process, in wall time and in CPU time (user + system: steadier on a shared machine). ``os.walk`` lists names only,
and so does the scan's listing (``walk(..., runs=True)`` into a ``Listing``, as ``pipeline.sign_stage`` does):
plain text files need no ``stat`` (sizes and times come from the reader's ``fstat``). ``lshdesk stat-ed`` is the
listing other callers get (one ``lstat`` per file). Target (issue 29): the scan's listing <= 1.5 x ``os.walk``.
"""

from __future__ import annotations

import argparse
import os
import time


def walk_names(root: str) -> int:
    n = 0
    for _d, _dirs, files in os.walk(root):
        n += len(files)
    return n


def scandir_walk(root: str) -> int:
    """Every file below root by ``os.scandir`` and the entries' cached type, no stat."""
    n, stack = 0, [root]
    while stack:
        with os.scandir(stack.pop()) as it:
            for e in it:
                if e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
                else:
                    n += 1
    return n


def scandir_stat_walk(root: str) -> int:
    """``scandir_walk`` with one stat per file (what a listing that needs sizes cannot avoid)."""
    n, stack = 0, [root]
    while stack:
        with os.scandir(stack.pop()) as it:
            for e in it:
                if e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
                else:
                    e.stat()
                    n += 1
    return n


def lshdesk_listing(root: str) -> int:
    """The scan's listing: runs of plain text files, not stat-ed, into the flat ``Listing``."""
    from lshdesk.core.corpus.listing import Skipped, SourceFile
    from lshdesk.core.corpus.sources import walk
    from lshdesk.core.params import CorpusOptions
    from lshdesk.core.scan.listed import Listing

    files = Listing()
    for entry in walk([root], CorpusOptions(), runs=True):
        if isinstance(entry, SourceFile):
            files.add(entry)
        elif not isinstance(entry, Skipped):
            files.add_run(entry)
    return files


def lshdesk_stat_listing(root: str) -> int:
    """The listing with a ``stat`` per file (``walk`` without runs: what the Dask engine and other callers get)."""
    from lshdesk.core.corpus.listing import SourceFile
    from lshdesk.core.corpus.sources import walk
    from lshdesk.core.params import CorpusOptions
    from lshdesk.core.scan.listed import Listing

    files = Listing()
    for entry in walk([root], CorpusOptions()):
        if isinstance(entry, SourceFile):
            files.add(entry)
    return files


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    walk_names(args.folder)  # warm the inodes
    times = {}
    for name, fn in (
        ("os.walk", walk_names),
        ("scandir", scandir_walk),
        ("scandir+stat", scandir_stat_walk),
        ("lshdesk", lshdesk_listing),
        ("lshdesk stat", lshdesk_stat_listing),
    ):
        best, cpu, n = float("inf"), float("inf"), 0
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            got = fn(args.folder)  # lshdesk's listing is kept (a scan keeps it): freed after the clock stops
            best, cpu = min(best, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
            n = got if isinstance(got, int) else len(got)
            del got
        times[name] = (best, cpu)
        print(f"{name:13s} {best:7.3f} s wall {cpu:7.3f} s CPU  {n:,} files")
    wall, cpu = (times["lshdesk"][i] / times["os.walk"][i] for i in (0, 1))
    print(
        f"target listing: lshdesk {times['lshdesk'][0]:.3f} s, os.walk {times['os.walk'][0]:.3f} s: "
        f"{wall:.2f}x wall, {cpu:.2f}x CPU (target <= 1.5x)"
    )


if __name__ == "__main__":
    main()
