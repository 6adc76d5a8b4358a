"""The names of a dataset scan's rows as a few arrays, not a Python string per row.

A scan of 1 M rows held each row's reference and id as ``str`` objects (two lists: ~200 MB at the scan's peak,
~2 GB at 10 M rows). Here a row's reference is made when asked from its file's parts and its position
(``JoinedNames``), and the id column's values are one UTF-8 buffer with offsets (``StringColumn``, filled a slice
at a time by ``StringBuilder``): both are sequences of ``str`` wherever the documents' names are read.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, SupportsIndex, overload

import numpy as np
import numpy.typing as npt

CHUNK = 65536  # names made at a time when iterating


class _Names(Sequence[str]):
    """A sequence of names made on demand: indexing, slices (a list) and iteration in chunks."""

    def name(self, i: int) -> str:
        raise NotImplementedError

    def names(self, start: int, stop: int) -> list[str]:
        return [self.name(i) for i in range(start, stop)]

    def open_ended(self) -> bool:
        """True where names past the end can be made (rows still being read)."""
        return False

    @overload
    def __getitem__(self, i: SupportsIndex) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: SupportsIndex | slice) -> str | list[str]:
        n = len(self)
        if isinstance(i, slice):
            start, stop, step = i.indices(n)
            if step == 1:
                return self.names(start, max(start, stop))
            return [self.name(j) for j in range(start, stop, step)]
        i = i.__index__()
        if not -n <= i < n and not self.open_ended():
            raise IndexError("name index out of range")
        return self.name(i + n if i < 0 else i)

    def __iter__(self) -> Iterator[str]:
        for s in range(0, len(self), CHUNK):
            yield from self.names(s, min(len(self), s + CHUNK))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str) or len(other) != len(self):
            return False
        return all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]  # a sequence compared by value

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self):,} names)"


class JoinedNames(_Names):
    """Name ``i`` is ``before + str(row - starts[f]) + after``, with ``parts[f] = (before, after)`` for the file
    ``f`` holding ``row = rows[i]`` (``rows`` None: row ``i``, also past ``starts[-1]``: ``starts`` grows while a
    scan reads, and rows of the file being read are named by the last file's parts)."""

    def __init__(self, parts: list[tuple[str, str]], starts: list[int], rows: npt.NDArray[np.int64] | None = None):
        self.parts, self.starts, self.rows = parts, starts, rows

    def __len__(self) -> int:
        if self.rows is not None:
            return len(self.rows)
        return self.starts[-1] if self.starts else 0

    def open_ended(self) -> bool:
        return self.rows is None

    def name(self, i: int) -> str:
        g = int(self.rows[i]) if self.rows is not None else i
        f = int(np.searchsorted(self.starts, g, side="right")) - 1
        before, after = self.parts[f]
        return f"{before}{g - self.starts[f]}{after}"

    def names(self, start: int, stop: int) -> list[str]:
        g = self.rows[start:stop] if self.rows is not None else np.arange(start, stop, dtype=np.int64)
        starts = np.asarray(self.starts, dtype=np.int64)
        f = np.searchsorted(starts, g, side="right") - 1
        at = g - starts[f]
        parts = self.parts
        return [f"{parts[a][0]}{r}{parts[a][1]}" for a, r in zip(f.tolist(), at.tolist())]


class StringColumn(_Names):
    """Strings as one UTF-8 buffer and their offsets (string ``i`` is ``data[offsets[i]:offsets[i + 1]]``)."""

    def __init__(self, data: npt.NDArray[np.uint8], offsets: npt.NDArray[np.int64]) -> None:
        self.data, self.offsets = data, offsets

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def name(self, i: int) -> str:
        return self.data[self.offsets[i] : self.offsets[i + 1]].tobytes().decode("utf-8")

    def names(self, start: int, stop: int) -> list[str]:
        off = self.offsets[start : stop + 1]
        if not len(off):
            return []
        blob = self.data[off[0] : off[-1]].tobytes()
        cut = (off - off[0]).tolist()
        return [blob[a:z].decode("utf-8") for a, z in zip(cut, cut[1:])]


class StringBuilder:
    """A ``StringColumn`` filled a batch of strings at a time, its buffers grown in place (``ndarray.resize``)."""

    def __init__(self) -> None:
        self.data = np.zeros(1 << 16, dtype=np.uint8)
        self.offsets = np.zeros(1 << 12, dtype=np.int64)
        self.n = 0

    def add_utf8(self, data: npt.NDArray[np.uint8], offsets: npt.NDArray[np.int64]) -> None:
        """Strings given as UTF-8 bytes and offsets from 0."""
        m, end = len(offsets) - 1, int(self.offsets[self.n])
        if self.n + m + 1 > len(self.offsets):
            self.offsets.resize(max(self.n + m + 1, len(self.offsets) * 3 // 2), refcheck=False)
        if end + len(data) > len(self.data):
            self.data.resize(max(end + len(data), len(self.data) * 3 // 2), refcheck=False)
        self.data[end : end + len(data)] = data
        self.offsets[self.n + 1 : self.n + m + 1] = offsets[1:] + end
        self.n += m

    def add(self, values: Sequence[Any]) -> None:
        """Each value as ``str`` gives it."""
        raw = [str(v).encode("utf-8") for v in values]
        off = np.zeros(len(raw) + 1, dtype=np.int64)
        np.cumsum([len(r) for r in raw], out=off[1:])
        self.add_utf8(np.frombuffer(b"".join(raw), dtype=np.uint8), off)

    def finish(self) -> StringColumn:
        """The strings added (the buffers trimmed in place)."""
        self.offsets.resize(self.n + 1, refcheck=False)
        self.data.resize(int(self.offsets[-1]), refcheck=False)
        return StringColumn(self.data, self.offsets)
