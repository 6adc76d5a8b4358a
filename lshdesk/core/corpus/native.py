"""Reading a batch of listed local files in one compiled, GIL-free call (``kernels.files``), on POSIX systems.

A scan of many small files spent most of its reading time in Python between system calls (open, fstat, read and
close, each wrapped), holding the GIL: two reading threads did no better than one. Here the names go to the kernel
as one buffer and the bytes come back as one buffer, with each file's size, modification time, inode and change
time from its ``fstat`` (a file listed without a ``stat``, size -1, is sized by it, and found empty or over the
size cap there). The kernel also says which files are plain ASCII text, whose bytes are their tokens. A file the kernel could not read as listed is marked AGAIN, and the caller reads it again
the usual way (``reading.read_bytes``), which gives the reason. So the outcome is the same as reading in Python.
The kernel is compiled at install; elsewhere than on POSIX (Windows) it is built but not called.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from lshdesk.core.corpus.extract import FORMATS
from lshdesk.core.corpus.reading import OPEN_FLAGS
from lshdesk.core.kernels.files import AGAIN, BIG, EMPTY, PLAIN, READ, UTF8, read_files

__all__ = ["AGAIN", "BIG", "EMPTY", "NATIVE", "PLAIN", "READ", "UTF8", "Slurped", "slurp"]

NATIVE = os.name == "posix"  # open/read/close with POSIX meanings; elsewhere files are read in Python
# The extensions whose files have a reader of their own (PDF, DOCX, Markdown, HTML, ...): never PLAIN.
CLAIMED = np.frombuffer(
    b"".join(ext.encode("ascii") + b"\0" for f in FORMATS.values() if f.id != "txt" for ext in sorted(f.extensions)),
    dtype=np.uint8,
)
FLAGS = OPEN_FLAGS | getattr(os, "O_CLOEXEC", 0)  # as Python reads (a FIFO never blocks), not inherited


@dataclass(frozen=True)
class Slurped:
    """The first ``len(state)`` files of a batch read: file ``j`` is ``buf[offsets[j]:offsets[j + 1]]``;
    ``state[j]`` says how it was read (PLAIN, UTF8, READ, or AGAIN, EMPTY, BIG with no bytes); ``stamps[j]`` its size,
    mtime_ns, inode and ctime_ns (-1s for AGAIN)."""

    buf: np.ndarray
    offsets: np.ndarray
    state: np.ndarray
    stamps: np.ndarray

    def view(self, j: int) -> memoryview:
        ends = self._ends
        return self._bytes[ends[j] : ends[j + 1]]

    @cached_property
    def _bytes(self) -> memoryview:
        return self.buf.data

    @cached_property
    def _ends(self) -> list[int]:  # Python ints: a view per file costs ~0.3 us, not ~5 us of numpy indexing
        return self.offsets.tolist()

    def all_plain(self) -> bool:
        return not self.state.any()  # PLAIN is 0


def slurp(
    paths: Sequence[str],
    index: Sequence[int],
    sizes: Sequence[int],
    formats: frozenset[str] | None,
    max_bytes: int = 1 << 62,
    budget: int = 1 << 20,
) -> Slurped | None:
    """Read ``paths[i] for i in index`` (listed with ``sizes[i]`` bytes, or -1: not known) in the kernel; None
    where it cannot be used (not POSIX, a name the file system cannot take): the caller then reads every file in
    Python. The files listed without a size get ``budget`` bytes between them beyond those listed with one (or
    the first alone, if larger): the Slurped may hold only the first files of the batch, and the caller reads the
    others in another call."""
    if not NATIVE or not len(index):
        return None
    chosen = [paths[i] for i in index]
    joined = "\0".join(chosen) + "\0"
    try:
        names = joined.encode(sys.getfilesystemencoding(), sys.getfilesystemencodeerrors())
    except UnicodeEncodeError:
        return None
    if names.count(0) != len(chosen):  # a NUL inside a name: not a name any file can have
        return None
    size = np.fromiter((sizes[i] for i in index), dtype=np.int64, count=len(chosen))
    listed = int(size.clip(0).sum())
    offsets = np.empty(len(chosen) + 1, dtype=np.int64)
    state = np.empty(len(chosen), dtype=np.uint8)
    stamps = np.empty((len(chosen), 4), dtype=np.int64)
    txt_ok = formats is None or "txt" in formats
    room = listed + budget + 1
    while True:
        buf = np.empty(room, dtype=np.uint8)
        name_bytes = np.frombuffer(names, dtype=np.uint8)
        done, end = read_files(name_bytes, size, max_bytes, txt_ok, CLAIMED, FLAGS, buf, offsets, state, stamps)
        if done or not len(chosen):
            return Slurped(buf[:end], offsets[: done + 1], state[:done], stamps[:done])
        room = listed + int(stamps[0, 0]) + 1  # the first file is larger than the budget: it alone
