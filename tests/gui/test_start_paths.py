"""Starting on folders (issue 31, item 13): `lshdesk-gui PATH` and `lshdesk gui PATH` both open and scan PATH (a
folder named at start is one the user wants read, as the sample is read at once); the corpus panel never says
"No folder yet" under a listed folder while its first scan runs."""

from __future__ import annotations

import gc
import sys

import pytest
from PySide6.QtWidgets import QApplication

import lshdesk.gui.app as app_module
from lshdesk.cli import launch, main
from lshdesk.gui.widgets.corpus_panel import NO_FOLDER, NOT_SCANNED, SCANNING


@pytest.fixture
def started(qtbot, settings, monkeypatch):
    """run_app with the test's settings and no event loop of its own: the windows it made."""
    windows = []
    real_make = app_module.make_window

    def make_window(_settings=None):
        windows.append(real_make(settings))
        qtbot.addWidget(windows[-1])
        return windows[-1]

    monkeypatch.setattr(app_module, "make_window", make_window)
    monkeypatch.setattr(QApplication, "exec", lambda self=None: 0)
    monkeypatch.setattr(app_module, "dispose", lambda window: None)  # the window is used after the (stubbed) loop
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)
    switch = sys.getswitchinterval()
    yield windows
    for w in windows:
        assert w.shutdown()
    sys.setswitchinterval(switch)
    gc.unfreeze()


@pytest.mark.parametrize("entry", ["lshdesk-gui", "lshdesk gui"])
def test_both_commands_open_and_scan_the_folder_given(qtbot, started, tmp_path, monkeypatch, entry):
    for name, text in (("a.txt", "the same words in both files here"), ("b.txt", "the same words in both files here")):
        (tmp_path / name).write_text(text)
    if entry == "lshdesk-gui":
        monkeypatch.setattr(sys, "argv", ["lshdesk-gui", str(tmp_path)])
        assert launch.gui_main() == 0
    else:
        assert main(["gui", str(tmp_path)]) == 0
    (window,) = started
    assert window.state.folders == [str(tmp_path)]
    summary = window.corpus_panel.summary.text()
    assert window.scans.is_scanning() and summary == SCANNING  # the folder is listed: never "No folder yet"
    qtbot.waitUntil(lambda: window.state.result is not None and not window.scans.is_scanning(), timeout=20000)
    assert list(window.state.result.roots) == [str(tmp_path)] and len(window.state.result.pairs) == 1


def test_the_summary_follows_the_folders_before_any_scan(qtbot, window, tmp_path):
    panel = window.corpus_panel
    assert panel.summary.text() == NO_FOLDER
    window.folders.add([str(tmp_path)])
    assert panel.summary.text() == NOT_SCANNED
    window.state.remove_folder(str(tmp_path))
    assert panel.summary.text() == NO_FOLDER
