"""The compiled file reader refuses buffers it would overrun, and a file listed with an impossible size is read
again by the caller (``tests/core/corpus/test_native.py`` checks it reads what Python reads)."""

from __future__ import annotations

import numpy as np
import pytest

from lshdesk.core.corpus import native
from lshdesk.core.kernels.files import AGAIN, PLAIN, read_files

pytestmark = pytest.mark.skipif(not native.NATIVE, reason="the compiled reader is used on POSIX systems only")


def call(names: bytes, sizes: list[int], buf_size: int | None = None, n_offsets: int | None = None):
    size = np.array(sizes, dtype=np.int64)
    buf = np.empty(buf_size if buf_size is not None else int(size.clip(0).sum()) + 1, dtype=np.uint8)
    offsets = np.empty(n_offsets if n_offsets is not None else len(sizes) + 1, dtype=np.int64)
    state = np.empty(len(sizes), dtype=np.uint8)
    names_a = np.frombuffer(names, dtype=np.uint8)
    end = read_files(names_a, size, True, native.CLAIMED, native.FLAGS, buf, offsets, state)
    return buf[:end].tobytes(), offsets.tolist(), state.tolist()


def test_files_are_read_as_listed(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"alpha beta")
    (tmp_path / "b.txt").write_bytes(b"gamma")
    names = f"{tmp_path / 'a.txt'}\0{tmp_path / 'b.txt'}\0{tmp_path / 'a.txt'}\0".encode()
    got = call(names, [10, 5, -3])  # the last listed with a size no file has: left to the caller
    assert got == (b"alpha betagamma", [0, 10, 15, 15], [PLAIN, PLAIN, AGAIN])


def test_buffers_the_reader_would_overrun_are_refused(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"alpha beta")
    name = f"{tmp_path / 'a.txt'}".encode()
    with pytest.raises(ValueError, match="NUL-terminated"):
        call(name, [10])  # no NUL after the name: open would read past the buffer
    with pytest.raises(ValueError, match="buffer of 11"):
        call(name + b"\0", [10], buf_size=10)  # no room for the byte that tells a grown file
    with pytest.raises(ValueError, match="offsets"):
        call(name + b"\0", [10], n_offsets=1)
