"""A small corpus for the action tests (imported as ``actions_corpus``): groups of near-copies in two folders."""

from __future__ import annotations

import os
import random
from pathlib import Path

from lshdesk.core.params import Banding, ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scan.pipeline import ScanResult, run, scan


def _words(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 8))) for _ in range(n)]


def make_corpus(root: Path, seed: int = 3) -> tuple[list[Path], list[Path]]:
    """``keep/`` (to be the reference folder) and ``work/``: three groups of near-copies and two lone files.

    Group 1 has a copy in ``keep/``; groups 2 and 3 live in ``work/`` only. Copies differ by one word, so every
    pair inside a group is far above the threshold and groups are far apart. Returns (keep files, work files).
    """
    rng = random.Random(seed)
    keep, work = root / "keep", root / "work"
    (work / "sub").mkdir(parents=True)
    keep.mkdir()
    made: dict[str, list[Path]] = {"keep": [], "work": []}
    for g in range(3):
        base = _words(rng, 300)
        names = [work / f"g{g}_a.txt", work / "sub" / f"g{g}_b.txt", work / f"g{g}_copy_c.txt"]
        if g == 0:
            names[0] = keep / "g0_a.txt"
        for i, path in enumerate(names):
            words = list(base)
            words[i * 7] = f"edit{i}"
            path.write_text(" ".join(words) + " " + "x " * i)  # sizes differ: the largest is the last
            os.utime(path, ns=(1_700_000_000_000_000_000 + (g * 10 + 3 - i) * 10**9,) * 2)  # the last is oldest
            made["keep" if path.parent == keep else "work"].append(path)
    for i in range(2):
        lone = work / f"lone{i}.txt"
        lone.write_text(" ".join(_words(rng, 200)))
        made["work"].append(lone)
    return made["keep"], made["work"]


def scan_corpus(root: Path, reference: bool = True) -> ScanResult:
    params = ScanParams(SignatureParams(ShingleSpec("word", 3), "fast", 128, 1), 0.5, Banding(32, 4))
    return run(scan([str(root / "keep"), str(root / "work")], params, reference=[0] if reference else []))
