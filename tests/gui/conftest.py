"""GUI test fixtures: the real main window with its own settings file, and a generated corpus with planted pairs."""

from __future__ import annotations

from pathlib import Path

import pytest
from gui_helpers import dark_palette, make_corpus, running_threads, scan_and_wait, set_test_params
from PySide6.QtCore import QSettings, Qt

from lshdesk.gui.mainwindow import MainWindow


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    """A settings file of the test's own (recent folders, window layout), never the user's; no signature cache
    (tests that replace ``scan`` with a fake need not take its ``cache`` argument; test_settings checks the cache)."""
    s = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    s.setValue("cache/enabled", "false")
    return s


@pytest.fixture
def window(qtbot, settings, tmp_path):
    """The real main window, shown offscreen; at teardown no worker thread may be left running. Its pairs marked not
    duplicates are kept in the test's own folder (the session's data folder holds every other test's folders)."""
    w = MainWindow(settings)
    w.not_duplicates.data_dir = str(tmp_path / "not-duplicates")
    qtbot.addWidget(w)
    w.setWindowState(Qt.WindowState.WindowNoState)  # the offscreen screen (800 x 800) is small: it opens maximised
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    yield w
    assert w.shutdown(5000), "worker threads still running at teardown"
    assert not running_threads(w)


@pytest.fixture
def dark(qapp):
    """The application under a dark palette for the test (as when the system's scheme is dark), then back."""
    old = qapp.palette()
    qapp.setPalette(dark_palette())
    yield qapp.palette()
    qapp.setPalette(old)


@pytest.fixture(scope="session")
def corpus_dir(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """The generated corpus (made once per session; tests must not change it) and its documents' texts."""
    root = tmp_path_factory.mktemp("corpus")
    return root, make_corpus(root)


@pytest.fixture
def scanned(qtbot, window, corpus_dir):
    """The window after scanning the generated corpus (one folder) with the test parameters: (window, texts)."""
    root, texts = corpus_dir
    set_test_params(window)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window)
    return window, texts
