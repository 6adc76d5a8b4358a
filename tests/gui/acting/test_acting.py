"""Acting on marked files from the window: confirmation first, move and undo, trash, refusals, the log."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from actions_corpus import make_corpus
from gui_helpers import scan_and_wait
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from lshdesk.core.actions.log import ActionLog


@pytest.fixture
def scanned(qtbot, window, tmp_path):
    """The window after scanning work/ alone (three groups, two lone files), with an action log of the test's own."""
    make_corpus(tmp_path / "c")
    window.acting.log = ActionLog(tmp_path / "log.jsonl")
    window.folders.open([str(tmp_path / "c" / "work")], scan_now=False)
    scan_and_wait(qtbot, window)
    assert len(window.state.result.groups) == 3
    return window, tmp_path


def _mark(window, *names: str) -> list[str]:
    paths = window.state.result.docs.paths
    window.state.set_marks(np.array([os.path.basename(p) in names for p in paths]))
    return [p for p in paths if os.path.basename(p) in names]


def _confirm_and_wait(qtbot, window, dialog) -> None:
    assert dialog is not None and dialog.isVisible()
    qtbot.mouseClick(dialog.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.acting.slot.busy, timeout=10000)


def test_nothing_moves_without_the_confirmation(qtbot, scanned, monkeypatch):
    window, tmp = scanned
    marked = _mark(window, "g0_b.txt", "g1_b.txt")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(tmp / "out")))
    for action in (window.acting.actions.trash, window.acting.actions.move):
        action.trigger()
        dialog = window.acting.confirm
        assert dialog.isVisible() and dialog.model.rowCount() == 2
        assert all(p in [dialog.model.data(dialog.model.index(r, 0)) for r in range(2)] for p in marked)
        qtbot.keyClick(dialog, Qt.Key.Key_Return)  # Enter is Cancel: a move takes a deliberate click
        assert not dialog.isVisible()
    assert all(os.path.exists(p) for p in marked) and not (tmp / "out").exists()
    assert window.acting.log.read() == [] and not window.acting.slot.busy


def test_move_to_folder_updates_the_results_and_undo_moves_the_files_back(qtbot, scanned, monkeypatch):
    window, tmp = scanned
    marked = _mark(window, "g0_b.txt", "g1_copy_c.txt")
    data = {p: Path(p).read_bytes() for p in marked}
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(tmp / "out")))
    window.acting.actions.move.trigger()
    _confirm_and_wait(qtbot, window, window.acting.confirm)
    for p in marked:
        dest = tmp / "out" / "work" / os.path.relpath(p, tmp / "c" / "work")
        assert not os.path.exists(p) and dest.read_bytes() == data[p]
    r = window.state.result
    assert not set(marked) & set(r.docs.paths)  # moved documents leave the results
    assert sorted(len(g) for g in r.groups) == [2, 3]  # group 0 (two in work/) is gone, group 1 lost one of three
    assert all(r.docs.paths[i] not in marked for i in np.concatenate([r.pairs.left, r.pairs.right]))
    assert window.results.pairs_model.rowCount() == len(r.pairs) and not window.state.marks.any()
    assert "Moved 2 files to" in window.progress.stage.text()
    log = window.acting.show_log()
    assert log.model.rowCount() == 2 and {log.model.data(log.model.index(i, 2)) for i in range(2)} == set(marked)
    log.close()

    window.acting.actions.undo.trigger()
    qtbot.waitUntil(lambda: not window.acting.slot.busy, timeout=10000)
    assert all(Path(p).read_bytes() == data[p] for p in marked)
    assert "Moved 2 files back" in window.progress.stage.text()
    window.acting.actions.undo.trigger()  # nothing more to undo
    assert "Nothing to move back" in window.progress.stage.text()


def test_undo_again_moves_back_the_move_before(qtbot, scanned, monkeypatch):
    window, tmp = scanned
    moved = {}
    for name, folder in (("g0_b.txt", "out1"), ("lone0.txt", "out2")):
        (moved[folder],) = _mark(window, name)
        monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, f=folder, **k: str(tmp / f)))
        window.acting.actions.move.trigger()
        _confirm_and_wait(qtbot, window, window.acting.confirm)
        assert not os.path.exists(moved[folder])
    window.acting.actions.undo.trigger()
    qtbot.waitUntil(lambda: not window.acting.slot.busy, timeout=10000)
    assert os.path.exists(moved["out2"]) and not os.path.exists(moved["out1"])  # the newest move first
    assert "Undo again for the move before" in window.progress.stage.text()
    window.acting.actions.undo.trigger()
    qtbot.waitUntil(lambda: not window.acting.slot.busy, timeout=10000)
    assert os.path.exists(moved["out1"]) and "Moved 1 file back" in window.progress.stage.text()
    assert "Undo again" not in window.progress.stage.text()


def test_move_to_trash_goes_to_the_trash_folder(qtbot, scanned):
    window, _ = scanned
    (marked,) = _mark(window, "lone1.txt")
    data = Path(marked).read_bytes()
    window.acting.actions.trash.trigger()
    _confirm_and_wait(qtbot, window, window.acting.confirm)
    assert not os.path.exists(marked) and marked not in window.state.result.docs.paths
    files = Path(os.environ["XDG_DATA_HOME"]) / "Trash" / "files"
    assert any(f.name.startswith("lone1") and f.read_bytes() == data for f in files.iterdir())
    window.acting.actions.undo.trigger()  # Undo restores it from the trash, into the results too
    qtbot.waitUntil(lambda: not window.acting.slot.busy, timeout=10000)
    assert Path(marked).read_bytes() == data and marked in window.state.result.docs.paths
    assert "Restored 1 file from the trash" in window.progress.stage.text() and "Scan again" not in (
        window.progress.stage.text()
    )


def test_a_file_changed_after_the_scan_is_refused_and_stays_marked(qtbot, scanned, monkeypatch):
    window, tmp = scanned
    changed, other = _mark(window, "g2_a.txt", "g2_b.txt")
    Path(changed).write_text("edited after the scan")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(tmp / "out")))
    window.acting.actions.move.trigger()
    _confirm_and_wait(qtbot, window, window.acting.confirm)
    assert os.path.exists(changed) and not os.path.exists(other)
    box = window.acting.refused_box
    assert box.isVisible() and "g2_a.txt" in box.informativeText() and "changed since the scan" in box.detailedText()
    r = window.state.result
    assert changed in r.docs.paths and other not in r.docs.paths
    assert [r.docs.paths[i] for i in np.flatnonzero(window.state.marks)] == [changed]
    assert "1 file left alone" in window.progress.stage.text()
    box.close()


def test_cancel_in_the_progress_area_stops_before_the_next_file(qtbot, scanned, monkeypatch):
    import threading

    from lshdesk.core.actions import run as runs

    window, tmp = scanned
    marked = _mark(window, "g0_b.txt", "g1_b.txt", "g2_b.txt")
    first_moved, release = threading.Event(), threading.Event()
    real_move = runs.move_file

    def slow_move(src, dest):  # the first file moves, then the worker waits for the test to press Cancel
        real_move(src, dest)
        first_moved.set()
        release.wait(5)

    monkeypatch.setattr(runs, "move_file", slow_move)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(tmp / "out")))
    window.acting.actions.move.trigger()
    qtbot.mouseClick(window.acting.confirm.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(first_moved.is_set, timeout=5000)
    assert window.progress.cancel_button.isVisible()
    qtbot.mouseClick(window.progress.cancel_button, Qt.MouseButton.LeftButton)
    release.set()
    qtbot.waitUntil(lambda: not window.acting.slot.running, timeout=5000)
    qtbot.waitUntil(lambda: "Cancelled" in window.progress.stage.text(), timeout=5000)
    assert [os.path.exists(p) for p in marked] == [False, True, True]  # scan order: g0_b went, the others stayed
    assert marked[0] not in window.state.result.docs.paths and marked[1] in window.state.result.docs.paths
    assert [e.source for e in window.acting.log.read()] == [marked[0]]


def test_an_undo_cancelled_halfway_leaves_the_rest_for_undo_again(qtbot, scanned, monkeypatch):
    import threading

    from lshdesk.core.actions import run as runs

    window, tmp = scanned
    marked = _mark(window, "g0_b.txt", "g1_b.txt", "g2_b.txt")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(tmp / "out")))
    window.acting.actions.move.trigger()
    _confirm_and_wait(qtbot, window, window.acting.confirm)
    assert not any(os.path.exists(p) for p in marked)
    first_back, release = threading.Event(), threading.Event()
    real_move = runs.move_file

    def slow_move(src, dest):  # the first file moves back, then the worker waits for the test to press Cancel
        real_move(src, dest)
        first_back.set()
        release.wait(5)

    monkeypatch.setattr(runs, "move_file", slow_move)
    window.acting.actions.undo.trigger()
    qtbot.waitUntil(first_back.is_set, timeout=5000)
    qtbot.mouseClick(window.progress.cancel_button, Qt.MouseButton.LeftButton)
    release.set()
    qtbot.waitUntil(lambda: "Cancelled" in window.progress.stage.text(), timeout=5000)
    assert [os.path.exists(p) for p in marked] == [True, False, False]
    assert "Undo again to move the other 2 files back" in window.progress.stage.text()
    monkeypatch.setattr(runs, "move_file", real_move)
    window.acting.actions.undo.trigger()
    qtbot.waitUntil(lambda: not window.acting.slot.busy, timeout=10000)
    assert all(os.path.exists(p) for p in marked) and "Moved 2 files back" in window.progress.stage.text()
    window.acting.actions.undo.trigger()
    assert "Nothing to move back" in window.progress.stage.text()


def test_the_confirmation_shows_where_each_file_goes(qtbot, scanned, monkeypatch):
    window, tmp = scanned
    marked = _mark(window, "g0_b.txt", "g1_copy_c.txt")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(tmp / "out")))
    window.acting.actions.move.trigger()
    dialog = window.acting.confirm
    m = dialog.model
    assert m.headerData(1, Qt.Orientation.Horizontal) == "To"
    shown = {m.data(m.index(r, 0)): m.data(m.index(r, 1)) for r in range(m.rowCount())}
    assert shown == {p: str(tmp / "out" / "work" / os.path.relpath(p, tmp / "c" / "work")) for p in marked}
    dialog.reject()


def test_undo_of_a_move_brings_the_documents_back_into_the_results(qtbot, scanned, monkeypatch):
    window, tmp = scanned
    before = sorted(window.state.result.docs.paths)
    groups = sorted(len(g) for g in window.state.result.groups)
    _mark(window, "g0_b.txt", "g1_copy_c.txt")
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *a, **k: str(tmp / "out")))
    window.acting.actions.move.trigger()
    _confirm_and_wait(qtbot, window, window.acting.confirm)
    assert len(window.state.result.docs) == len(before) - 2
    window.acting.actions.undo.trigger()
    qtbot.waitUntil(lambda: not window.acting.slot.busy, timeout=10000)
    r = window.state.result
    assert sorted(r.docs.paths) == before and sorted(len(g) for g in r.groups) == groups
    assert window.results.pairs_model.rowCount() == len(r.pairs) and "Scan again" not in window.progress.stage.text()


def test_the_marked_list_is_never_offered_inside_a_scanned_folder(qtbot, scanned, monkeypatch):
    window, tmp = scanned
    _mark(window, "g0_b.txt")
    offered = []

    def save(parent, title, path, filters):
        offered.append(path)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save))
    window.acting.actions.export.trigger()
    work = os.path.realpath(tmp / "c" / "work")
    [path] = offered
    assert os.path.basename(path) == "marked.csv" and not os.path.realpath(path).startswith(work + os.sep)
