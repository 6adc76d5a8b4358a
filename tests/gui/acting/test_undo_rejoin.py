"""Files that Undo moves back or restores from the trash return to the tables without a rescan (issue 31, item 12;
issue 36), whichever earlier action of the window took them out and in whatever order they come back."""

from __future__ import annotations

import os

import numpy as np
import pytest
from actions_corpus import make_corpus
from gui_helpers import scan_and_wait, table
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from lshdesk.core.actions.log import ActionLog


@pytest.fixture
def scanned(qtbot, window, tmp_path):
    make_corpus(tmp_path / "c")
    window.acting.log = ActionLog(tmp_path / "log.jsonl")
    window.folders.open([str(tmp_path / "c" / "work")], scan_now=False)
    scan_and_wait(qtbot, window)
    return window, tmp_path


def _act(qtbot, window, action, *names: str) -> None:
    paths = window.state.result.docs.paths
    window.state.set_marks(np.array([os.path.basename(p) in names for p in paths]))
    action.trigger()
    qtbot.mouseClick(window.acting.confirm.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.acting.slot.busy, timeout=10000)


def _undo(qtbot, window) -> str:
    window.acting.actions.undo.trigger()
    qtbot.waitUntil(lambda: not window.acting.slot.busy, timeout=10000)
    return window.progress.stage.text()


def test_two_moves_undone_one_after_the_other_both_return_to_the_tables(qtbot, scanned, monkeypatch):
    window, tmp = scanned
    before, pairs_before = sorted(window.state.result.docs.paths), table(window.results.pairs_model)
    for name, folder in (("g0_b.txt", "out1"), ("g1_copy_c.txt", "out2"), ("lone0.txt", "out3")):
        monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, f=folder, **k: str(tmp / f)))
        _act(qtbot, window, window.acting.actions.move, name)
    assert len(window.state.result.docs) == len(before) - 3
    for n_back in (1, 2, 3):  # newest first; each Undo brings its file into the tables
        said = _undo(qtbot, window)
        assert len(window.state.result.docs) == len(before) - 3 + n_back and "Scan again" not in said
    r = window.state.result
    assert sorted(r.docs.paths) == before and table(window.results.pairs_model) == pairs_before
    assert window.results.pairs_model.rowCount() == len(r.pairs)


def test_a_trashed_file_restored_after_a_later_move_returns_too(qtbot, scanned, monkeypatch):
    window, tmp = scanned
    before = sorted(window.state.result.docs.paths)
    _act(qtbot, window, window.acting.actions.trash, "g0_b.txt")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(tmp / "out")))
    _act(qtbot, window, window.acting.actions.move, "lone1.txt")
    window.state.set_marks(np.array([os.path.basename(p) == "lone0.txt" for p in window.state.result.docs.paths]))
    assert "Scan again" not in _undo(qtbot, window)  # the move: lone1 back
    assert "Scan again" not in _undo(qtbot, window)  # the trash: g0_b restored, into the tables too
    r = window.state.result
    assert sorted(r.docs.paths) == before
    marked = [os.path.basename(r.docs.paths[i]) for i in np.flatnonzero(window.state.marks)]
    assert marked == ["lone0.txt"]  # the marks of the documents that stayed are kept
