"""Starting the app: it opens on the sample corpus, already scanned, with a hint on opening one's own folders."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

from gui_helpers import brute_pairs, table
from PySide6.QtWidgets import QApplication

import lshdesk.gui.app as app_module


def test_the_app_opens_on_the_sample_corpus_already_scanned(qtbot, settings, monkeypatch):
    windows = []
    real_make = app_module.make_window

    def make_window(_settings=None):
        windows.append(real_make(settings))  # the test's own settings file, never the user's
        qtbot.addWidget(windows[-1])
        return windows[-1]

    switch = sys.getswitchinterval()
    monkeypatch.setattr(app_module, "make_window", make_window)
    monkeypatch.setattr(QApplication, "exec", lambda self=None: 0)
    monkeypatch.setattr(app_module, "dispose", lambda window: None)  # the window is used after the (stubbed) loop
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # run_app installs the error dialog: put it back after
    try:
        assert app_module.run_app([]) == 0
        (window,) = windows
        qtbot.waitUntil(lambda: window.state.result is not None and not window.scans.is_scanning(), timeout=20000)
        assert sys.getswitchinterval() == app_module.SWITCH_INTERVAL

        sample = Path(app_module.sample_corpus())
        texts = {p.relative_to(sample).as_posix(): p.read_text(encoding="utf-8") for p in sample.rglob("*.txt")}
        truth = brute_pairs(texts, app_module.SAMPLE_THRESHOLD)
        assert len(truth) == 9  # resources/SAMPLE.md: 9 planted pairs at 0.3 or more
        shown = {frozenset(r[:2]) for r in table(window.results.pairs_model)}
        assert shown == set(truth)
        sizes = [
            window.results.groups_model.rowCount(window.results.groups_model.index(r, 0))
            for r in range(window.results.groups_model.rowCount())
        ]
        assert sorted(sizes) == [2] * 7 + [3]  # the meeting-notes chain is one group of three
        assert (
            window.corpus_panel.hint.isVisibleTo(window) and "Open your own folders" in window.corpus_panel.hint.text()
        )
        assert sys.excepthook.__self__.parent is window  # uncaught errors show one dialog over this window
        assert window.shutdown()
    finally:
        sys.setswitchinterval(switch)
        gc.unfreeze()


def test_quitting_deletes_the_window_while_python_and_qt_are_whole(qtbot, settings, monkeypatch):
    """After the loop, run_app deletes the window it made before returning: left to
    the interpreter's exit, about 1 quit in 8 crashed once the Learn pages were made (a plot's item called a
    Python override while Python finalised)."""
    import shiboken6

    windows = []
    real_make = app_module.make_window
    monkeypatch.setattr(
        app_module, "make_window", lambda _settings=None: windows.append(real_make(settings)) or windows[-1]
    )
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)

    def loop(self=None):
        (window,) = windows
        qtbot.waitUntil(lambda: window.state.result is not None and not window.scans.is_scanning(), timeout=20000)
        assert len(window.learn.pages) == len(window.learn.built)  # every page made, its plots among them
        assert window.shutdown()
        return 0

    monkeypatch.setattr(QApplication, "exec", loop)
    switch = sys.getswitchinterval()
    try:
        assert app_module.run_app([]) == 0
        assert not shiboken6.isValid(windows[0])
    finally:
        sys.setswitchinterval(switch)
        gc.unfreeze()


def test_resizing_the_window_or_switching_tabs_asks_the_readers_to_step_back(qtbot, settings, monkeypatch):
    import time

    from lshdesk.core import threads
    from lshdesk.gui.app import make_window

    window = make_window(settings)
    qtbot.addWidget(window)
    window.resize(1000, 700)
    window.show()
    qtbot.waitExposed(window)
    for act in (lambda: window.resize(1100, 760), lambda: window.tabs.setCurrentIndex(1)):
        monkeypatch.setattr(threads, "_yield_until", 0.0)
        before = time.monotonic()
        act()
        qtbot.wait(1)
        assert threads._yield_until > before  # readers asked to step back for a moment (its length: not timed here)
    window.results.tabs.setCurrentIndex(0)
    monkeypatch.setattr(threads, "_yield_until", 0.0)
    before = time.monotonic()
    window.results.tabs.setCurrentIndex(2)
    assert threads._yield_until > before
    monkeypatch.setattr(threads, "_yield_until", 0.0)
    window.close()
