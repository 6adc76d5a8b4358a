"""compare_files: both files read, their shared passages found, unreadable or huge files said, cancel honoured."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest

import lshdesk.core.passages as passages
from lshdesk.core.errors import ScanCancelled
from lshdesk.core.params import ShingleSpec
from lshdesk.core.scan.pipeline import run
from lshdesk.core.shingle_kinds import KINDS

SHARED = "the quick brown fox jumps over the lazy dog near the old mill"


def _files(tmp_path, a: str, b: str) -> tuple[str, str]:
    (tmp_path / "a.txt").write_text(a, encoding="utf-8")
    (tmp_path / "b.txt").write_text(b, encoding="utf-8")
    return str(tmp_path / "a.txt"), str(tmp_path / "b.txt")


def test_the_shared_passage_is_found_in_both_files(tmp_path):
    a, b = "Alpha beta gamma. " + SHARED, SHARED + " delta epsilon zeta eta."
    seen = []
    c = run(passages.compare_files(_files(tmp_path, a, b), 1 << 20, ShingleSpec.parse("word:3")), seen.append)
    assert c.texts == (a, b) and c.note == ""
    assert [(p.stage, p.done, p.total) for p in seen] == [("reading", 1, 2), ("reading", 2, 2)]
    assert c.n_shared == len(SHARED.split()) - 2  # every 3-word window of the shared passage
    for text, spans in zip(c.texts, c.spans):
        covered = "".join(text[s:e] for s, e in spans)
        assert SHARED.replace(" ", "") in covered.replace(" ", "")  # the whole passage is marked
        assert "Alpha" not in covered and "delta" not in covered  # and nothing only one file has


def test_a_vanished_file_is_shown_as_the_reason(tmp_path):
    a, b = _files(tmp_path, SHARED, SHARED)
    (tmp_path / "b.txt").unlink()
    c = run(passages.compare_files((a, b), 1 << 20, ShingleSpec.parse("word")))
    assert c.texts[0] == SHARED and c.texts[1].startswith("[cannot show this file:") and "vanished" in c.texts[1]


def test_texts_too_long_are_returned_without_passages(tmp_path, monkeypatch):
    monkeypatch.setitem(KINDS, "word", replace(KINDS["word"], highlight_chars=2 * len(SHARED) - 1))
    c = run(passages.compare_files(_files(tmp_path, SHARED, SHARED), 1 << 20, ShingleSpec.parse("word")))
    assert c.spans == ([], []) and c.n_shared == 0 and "too long to highlight" in c.note


def test_cancel_stops_before_the_passages(tmp_path):
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(ScanCancelled):
        run(passages.compare_files(_files(tmp_path, SHARED, SHARED), 1 << 20, ShingleSpec.parse("word"), cancel))
