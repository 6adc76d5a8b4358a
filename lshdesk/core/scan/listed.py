"""The files a scan lists, as flat lists and typed arrays (not one object per file), stamped by the reader."""

from __future__ import annotations

from array import array
from collections.abc import Sequence

import numpy as np

from lshdesk.core.corpus.listing import FileRun, SourceFile


class Listing:
    """The files a scan reads, one flat list per property (not one object per file: a scan of 100k files
    otherwise keeps 200k objects that the garbage collector walks, holding the GIL for tens of ms); the numbers
    in typed arrays, 8 bytes each rather than an int object and a pointer (1 M files: ~150 MB less at the peak)."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.rel: list[str | int] = []  # a file's name below its root, or where it starts in its path (``rel_of``)
        self.root = array("q")
        self.size = array("q")
        self.mtime = array("q")  # nanoseconds: int64 holds them until the year 2262
        self.ino = array("Q")  # inode numbers are unsigned 64-bit
        self.ctime = array("q")

    def add(self, f: SourceFile) -> None:
        self.paths.append(f.path)
        self.rel.append(f.rel)
        self.root.append(f.root)
        self.size.append(f.size)
        self.mtime.append(f.mtime_ns)
        self.ino.append(f.ino)
        self.ctime.append(f.ctime_ns)

    def add_run(self, run: FileRun) -> None:
        """Files listed without a ``stat``: sizes -1 and times 0 until ``restamp``."""
        n = len(run.paths)
        self.paths += run.paths
        self.rel += [run.cut] * n  # each name below the root is its path from ``cut`` on (``rel_of``)
        self.root += array("q", [run.root]) * n
        self.size += array("q", [-1]) * n
        zeros = array("q", bytes(8 * n))
        self.mtime += zeros
        self.ino += array("Q", bytes(8 * n))
        self.ctime += zeros

    def restamp(self, index: Sequence[int], stamps: np.ndarray) -> None:
        """Files ``index`` as the reader found them (``stamps``: size, mtime_ns, inode, ctime_ns; a row of -1s
        keeps the listing's)."""
        n = len(index)
        if not n:
            return
        a = index[0]
        if index[-1] - a + 1 == n and bool((stamps[:, 0] >= 0).all()):  # a run of files, all read: by slices
            cols = np.ascontiguousarray(stamps.T)
            self.size[a : a + n] = array("q", cols[0].tobytes())
            self.mtime[a : a + n] = array("q", cols[1].tobytes())
            self.ino[a : a + n] = array("Q", cols[2].tobytes())
            self.ctime[a : a + n] = array("q", cols[3].tobytes())
            return
        for i, (size, mtime, ino, ctime) in zip(index, stamps.tolist()):
            if size >= 0:
                self.size[i], self.mtime[i], self.ino[i], self.ctime[i] = size, mtime, ino & (2**64 - 1), ctime

    def rel_of(self, i: int) -> str:
        """File ``i``'s name below its root."""
        rel = self.rel[i]
        return self.paths[i][rel:] if isinstance(rel, int) else rel

    def stamp(self, i: int) -> tuple[int, int, int, int]:
        """File ``i``'s size, modification time, inode and change time: what the signature cache keys it on."""
        return self.size[i], self.mtime[i], self.ino[i], self.ctime[i]

    def __len__(self) -> int:
        return len(self.paths)
