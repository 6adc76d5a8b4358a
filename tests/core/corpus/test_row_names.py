"""A dataset scan's row names as arrays: they read as the lists of strings they replace."""

from __future__ import annotations

import numpy as np
import pytest

from lshdesk.core.corpus import row_names
from lshdesk.core.corpus.row_names import JoinedNames, StringBuilder


def test_joined_names_are_each_files_parts_around_the_rows_position_in_it():
    parts = [("a.parquet#row=", "&text=t"), ("b.parquet#row=", "&text=t")]
    names = JoinedNames(parts, [0, 3, 5], np.array([0, 2, 3, 4], dtype=np.int64))
    want = ["a.parquet#row=0&text=t", "a.parquet#row=2&text=t", "b.parquet#row=0&text=t", "b.parquet#row=1&text=t"]
    assert list(names) == want and names == want and len(names) == 4
    assert names[2] == want[2] and names[-1] == want[-1] and names[1:3] == want[1:3] and names[::2] == want[::2]
    assert names.index(want[3]) == 3 and want[1] in names
    with pytest.raises(IndexError):
        names[4]


def test_names_while_reading_run_past_the_files_counted_so_far():
    names = JoinedNames([("a#row=", ""), ("b#row=", "")], [0, 3])  # b is being read: its rows are not counted yet
    assert names[1] == "a#row=1" and names[7] == "b#row=4"


def test_a_string_column_gives_back_what_was_added_in_batches(monkeypatch):
    monkeypatch.setattr(row_names, "CHUNK", 3)  # iteration crosses chunks
    values = ["doc-1", "", "Zürich ünïcode", "x" * 70000, "last", 17, None]
    b = StringBuilder()
    b.add(values[:2])
    text = [v.encode() for v in values[2:5]]
    off = np.cumsum([0] + [len(t) for t in text]).astype(np.int64)
    b.add_utf8(np.frombuffer(b"".join(text), np.uint8), off)  # past the first buffer's 64 kB: grown in place
    b.add(values[5:])
    col = b.finish()
    want = [str(v) for v in values]
    assert len(col) == 7 and list(col) == want and col == want and col[2] == "Zürich ünïcode" and col[-1] == "None"
    assert col != want[:-1] and col != "doc-1"
