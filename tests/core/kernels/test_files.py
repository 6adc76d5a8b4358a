"""The compiled file reader refuses buffers it would overrun, a file listed with an impossible size is read
again by the caller, and one listed without a size is sized by its ``fstat``: empty, over the cap, or read where
it fits (``tests/core/corpus/test_native.py`` checks it reads what Python reads)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from lshdesk.core.corpus import native
from lshdesk.core.kernels.files import AGAIN, BIG, EMPTY, PLAIN, read_files

pytestmark = pytest.mark.skipif(not native.NATIVE, reason="the compiled reader is used on POSIX systems only")


def call(names: bytes, sizes: list[int], buf_size: int | None = None, n_offsets: int | None = None, cap: int = 1 << 20):
    size = np.array(sizes, dtype=np.int64)
    buf = np.empty(buf_size if buf_size is not None else int(size.clip(0).sum()) + 1, dtype=np.uint8)
    offsets = np.empty(n_offsets if n_offsets is not None else len(sizes) + 1, dtype=np.int64)
    state = np.empty(len(sizes), dtype=np.uint8)
    stamps = np.empty((len(sizes), 4), dtype=np.int64)
    names_a = np.frombuffer(names, dtype=np.uint8)
    done, end = read_files(names_a, size, cap, True, native.CLAIMED, native.FLAGS, buf, offsets, state, stamps)
    return buf[:end].tobytes(), offsets[: done + 1].tolist(), state[:done].tolist(), stamps[:done]


def test_files_are_read_as_listed(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"alpha beta")
    (tmp_path / "b.txt").write_bytes(b"gamma")
    names = f"{tmp_path / 'a.txt'}\0{tmp_path / 'b.txt'}\0{tmp_path / 'a.txt'}\0".encode()
    got = call(names, [10, 5, -3])  # the last listed with a size no file has: left to the caller
    assert got[:3] == (b"alpha betagamma", [0, 10, 15, 15], [PLAIN, PLAIN, AGAIN])
    st = os.stat(tmp_path / "b.txt")
    assert got[3][1].tolist() == [st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns]  # its fstat
    assert got[3][2].tolist() == [-1] * 4  # AGAIN: no stamp, the caller stats it


def test_files_listed_without_a_size_are_sized_by_fstat(tmp_path):
    for name, data in (("empty.txt", b""), ("big.txt", b"x" * 30), ("a.txt", b"alpha beta"), ("b.txt", b"b" * 8)):
        (tmp_path / name).write_bytes(data)
    names = "".join(f"{tmp_path / n}\0" for n in ("empty.txt", "big.txt", "a.txt", "b.txt")).encode()
    data, offsets, state, stamps = call(names, [-1] * 4, buf_size=16, cap=20)
    assert (data, offsets, state) == (b"alpha beta", [0, 0, 0, 10], [EMPTY, BIG, PLAIN])  # b.txt does not fit
    assert stamps[:, 0].tolist() == [0, 30, 10]  # the size over the cap is told
    data, offsets, state, stamps = call(names[names.index(b"b.txt") - len(str(tmp_path)) - 1 :], [-1], buf_size=4)
    assert (data, offsets, state, stamps[:, 0].tolist()) == (b"", [0], [], [])  # the first does not fit: none read


def test_buffers_the_reader_would_overrun_are_refused(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"alpha beta")
    name = f"{tmp_path / 'a.txt'}".encode()
    with pytest.raises(ValueError, match="NUL-terminated"):
        call(name, [10])  # no NUL after the name: open would read past the buffer
    with pytest.raises(ValueError, match="buffer of 11"):
        call(name + b"\0", [10], buf_size=10)  # no room for the byte that tells a grown file
    with pytest.raises(ValueError, match="offsets"):
        call(name + b"\0", [10], n_offsets=1)
