"""Reading a batch of listed local files in one compiled, GIL-free call (``kernels.files``), on POSIX systems.

A scan of many small files spent most of its reading time in Python between system calls (open, fstat, read and
close, each wrapped), holding the GIL: two reading threads did no better than one. Here the names go to the kernel
as one buffer and the bytes come back as one buffer. The kernel also says which files are plain ASCII text, whose
bytes are their tokens. A file the kernel could not read as listed is marked AGAIN, and the caller reads it again
the usual way (``reading.read_bytes``), which gives the reason. So the outcome is the same as reading in Python.
The kernel is compiled at install; elsewhere than on POSIX (Windows) it is built but not called.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from lshdesk.core.corpus.extract import FORMATS
from lshdesk.core.corpus.reading import OPEN_FLAGS
from lshdesk.core.kernels.files import AGAIN, PLAIN, READ, read_files

__all__ = ["AGAIN", "NATIVE", "PLAIN", "READ", "Slurped", "slurp"]

NATIVE = os.name == "posix"  # open/read/close with POSIX meanings; elsewhere files are read in Python
# The extensions whose files have a reader of their own (PDF, DOCX, Markdown, HTML, ...): never PLAIN.
CLAIMED = np.frombuffer(
    b"".join(ext.encode("ascii") + b"\0" for f in FORMATS.values() if f.id != "txt" for ext in sorted(f.extensions)),
    dtype=np.uint8,
)
FLAGS = OPEN_FLAGS | getattr(os, "O_CLOEXEC", 0)  # as Python reads (a FIFO never blocks), not inherited


@dataclass(frozen=True)
class Slurped:
    """A batch's bytes: file ``j`` (of the batch) is ``buf[offsets[j]:offsets[j + 1]]``; ``state[j]`` says how
    it was read (PLAIN, READ, or AGAIN with no bytes)."""

    buf: np.ndarray
    offsets: np.ndarray
    state: np.ndarray

    def view(self, j: int) -> memoryview:
        return self.buf[self.offsets[j] : self.offsets[j + 1]].data

    def all_plain(self) -> bool:
        return not self.state.any()  # PLAIN is 0


def slurp(
    paths: Sequence[str], index: Sequence[int], sizes: Sequence[int], formats: frozenset[str] | None
) -> Slurped | None:
    """Read ``paths[i] for i in index`` (listed with ``sizes[i]`` bytes) in the kernel; None where it cannot be
    used (not POSIX, a name the file system cannot take): the caller then reads every file in Python."""
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
    buf = np.empty(int(size.sum()) + 1, dtype=np.uint8)
    offsets = np.empty(len(chosen) + 1, dtype=np.int64)
    state = np.empty(len(chosen), dtype=np.uint8)
    txt_ok = formats is None or "txt" in formats
    end = read_files(np.frombuffer(names, dtype=np.uint8), size, txt_ok, CLAIMED, FLAGS, buf, offsets, state)
    return Slurped(buf[:end], offsets, state)
