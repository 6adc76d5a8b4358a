"""Replacing duplicates by links: a real hard or symbolic link to the document kept, the original in the trash,
logged, and Undo bringing the original back; every refusal said."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from actions_corpus import make_corpus, scan_corpus

from lshdesk.core.actions import links
from lshdesk.core.actions.log import ActionLog, last_run
from lshdesk.core.actions.plan import make_plan
from lshdesk.core.actions.run import ActionRun, UndoRun
from lshdesk.core.scan.pipeline import run

KINDS = ("hardlink", "symlink")


@pytest.fixture
def scanned(tmp_path):
    make_corpus(tmp_path / "c")
    return tmp_path, scan_corpus(tmp_path / "c", reference=True)


def _doc(result, name):
    return next(i for i, p in enumerate(result.docs.paths) if os.path.basename(p) == name)


def _link_run(result, kind, tmp, marked: dict[str, str]):
    """Replace each marked name by a link to its kept name."""
    marks = np.zeros(len(result.docs), dtype=bool)
    keep = {}
    for name, kept in marked.items():
        marks[_doc(result, name)] = True
        keep[_doc(result, name)] = result.docs.paths[_doc(result, kept)] if kept else ""
    ref = tuple(result.roots[i] for i in result.reference)
    r = ActionRun(
        make_plan(result, marks), kind, result.roots, log=ActionLog(tmp / "log.jsonl"), keep=keep, reference=ref
    )
    return run(r.steps())


@pytest.mark.parametrize("kind", KINDS)
def test_a_duplicate_becomes_a_link_to_the_kept_document_and_undo_brings_it_back(scanned, kind):
    tmp, result = scanned
    dup, kept = result.docs.paths[_doc(result, "g1_b.txt")], result.docs.paths[_doc(result, "g1_a.txt")]
    original = Path(dup).read_bytes()
    assert original != Path(kept).read_bytes()  # a near-duplicate, not a copy: the original must stay recoverable
    done = _link_run(result, kind, tmp, {"g1_b.txt": "g1_a.txt"})
    assert done.refused == [] and done.gone == [_doc(result, "g1_b.txt")]
    assert Path(dup).read_bytes() == Path(kept).read_bytes()
    if kind == "hardlink":
        assert not os.path.islink(dup) and os.stat(dup).st_ino == os.stat(kept).st_ino
    else:
        assert os.path.islink(dup) and not os.path.isabs(os.readlink(dup)) and os.path.samefile(dup, kept)
    (entry,) = ActionLog(tmp / "log.jsonl").read()
    assert (entry.action, entry.source, entry.link) == (kind, dup, kept)
    assert Path(entry.dest).read_bytes() == original and "Trash" in entry.dest  # the original, in the trash
    back = run(UndoRun(last_run(ActionLog(tmp / "log.jsonl").read(), KINDS), ActionLog(tmp / "log.jsonl")).steps())
    assert back.refused == [] and back.done == [dup]
    assert not os.path.islink(dup) and Path(dup).read_bytes() == original
    assert os.stat(dup).st_ino != os.stat(kept).st_ino and not os.path.exists(entry.dest)


def test_what_is_never_replaced(scanned, monkeypatch):
    tmp, result = scanned
    os.unlink(result.docs.paths[_doc(result, "g2_a.txt")])  # the document kept is gone
    done = _link_run(
        result,
        "hardlink",
        tmp,
        {"g0_a.txt": "g0_b.txt", "g1_copy_c.txt": "", "g2_b.txt": "g2_a.txt", "g1_b.txt": "g1_b.txt"},
    )
    why = {os.path.basename(p): reason for p, reason in done.refused}
    assert why["g0_a.txt"] == "a file of a reference folder: never replaced"
    assert why["g1_copy_c.txt"] == "every document of its group is marked: none is kept to link to"
    assert why["g2_b.txt"].startswith("the document kept (") and "cannot be reached" in why["g2_b.txt"]
    assert why["g1_b.txt"].startswith("already the same file as")
    assert done.done == [] and not (tmp / "log.jsonl").exists()


def test_a_hard_link_across_file_systems_is_refused_before_anything_moves(scanned, monkeypatch):
    tmp, result = scanned
    kept = result.docs.paths[_doc(result, "g1_a.txt")]
    real_stat = os.stat

    class Elsewhere:  # the kept document's stat, as if it were on another device
        def __init__(self, st):
            self.st_mode, self.st_dev, self.st_ino = st.st_mode, st.st_dev + 1, st.st_ino

    monkeypatch.setattr(links.os, "stat", lambda p, *a, **k: Elsewhere(real_stat(p)) if p == kept else real_stat(p))
    dup = result.docs.paths[_doc(result, "g1_b.txt")]
    before = Path(dup).read_bytes()
    done = _link_run(result, "hardlink", tmp, {"g1_b.txt": "g1_a.txt"})
    assert "a hard link cannot cross file systems (use symbolic links)" in done.refused[0][1]
    assert Path(dup).read_bytes() == before and not os.path.islink(dup)


def test_a_link_that_cannot_be_made_puts_the_original_back(scanned, monkeypatch):
    tmp, result = scanned
    dup = result.docs.paths[_doc(result, "g1_b.txt")]
    before = Path(dup).read_bytes()

    def refuse(kind, target, path):
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(links, "make", refuse)
    done = _link_run(result, "symlink", tmp, {"g1_b.txt": "g1_a.txt"})
    assert done.refused[0][1].endswith("the original is back in its place") and done.done == []
    assert Path(dup).read_bytes() == before and not os.path.islink(dup) and not (tmp / "log.jsonl").exists()


def test_undo_leaves_a_link_the_user_replaced_since(scanned):
    tmp, result = scanned
    dup = result.docs.paths[_doc(result, "g1_b.txt")]
    _link_run(result, "symlink", tmp, {"g1_b.txt": "g1_a.txt"})
    os.unlink(dup)
    Path(dup).write_text("the user's own new file")
    back = run(UndoRun(last_run(ActionLog(tmp / "log.jsonl").read(), KINDS), ActionLog(tmp / "log.jsonl")).steps())
    assert back.done == [] and "is no longer the link to" in back.refused[0][1]
    assert Path(dup).read_text() == "the user's own new file"
