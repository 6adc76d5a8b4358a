"""Mark > Replace with links in the window: the confirmation names each link's target, the results lose the
replaced files, and Edit > Undo puts the originals back into their place and into the results."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from test_acting import _confirm_and_wait, _mark, scanned  # noqa: F401 (the fixture)

from lshdesk.core.actions import links


@pytest.mark.parametrize("kind", links.KINDS)
def test_replace_with_links_then_undo(qtbot, scanned, kind):  # noqa: F811
    window, tmp = scanned
    (dup,) = _mark(window, "g1_b.txt")
    r = window.state.result
    group = next(g for g in r.groups if r.docs.paths.index(dup) in g.tolist())
    kept = next(r.docs.paths[i] for i in group.tolist() if r.docs.paths[i] != dup)  # the group's first unmarked
    original = Path(dup).read_bytes()
    getattr(window.acting.actions, kind).trigger()
    dialog = window.acting.confirm
    becomes = dialog.model.data(dialog.model.index(0, 1))
    assert becomes == f"link to {kept}"
    _confirm_and_wait(qtbot, window, dialog)
    assert os.path.samefile(dup, kept) and (os.path.islink(dup) == (kind == "symlink"))
    assert dup not in window.state.result.docs.paths  # it is the kept document now: out of the results
    assert "Replaced 1 file with" in window.progress.stage.text()
    window.acting.undo()
    qtbot.waitUntil(lambda: not window.acting.slot.busy, timeout=10000)
    assert Path(dup).read_bytes() == original and not os.path.islink(dup)
    assert dup in window.state.result.docs.paths  # back in the results without a rescan
    assert "Put back 1 file in place of their links." in window.progress.stage.text()


def test_a_group_marked_whole_has_no_document_to_link_to(qtbot, scanned):  # noqa: F811
    window, tmp = scanned
    r = window.state.result
    group = r.groups[-1].tolist()
    marks = np.zeros(len(r.docs), dtype=bool)
    marks[group] = True
    window.state.set_marks(marks)
    window.acting.actions.hardlink.trigger()
    dialog = window.acting.confirm
    assert {dialog.model.data(dialog.model.index(i, 1)) for i in range(len(group))} == {
        "not replaced: no document kept"
    }
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert all(not os.path.islink(r.docs.paths[i]) for i in group)
