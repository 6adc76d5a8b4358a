"""Starting the app: the QApplication, the main window, and the sample corpus it opens on."""

from __future__ import annotations

import gc
import os
import sys
from typing import TYPE_CHECKING

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from lshdesk.gui.resources import sample_corpus  # noqa: E402  (after the Qt binding is chosen for pyqtgraph)

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings

    from lshdesk.gui.mainwindow import MainWindow

SWITCH_INTERVAL = 0.001  # seconds; see make_window
SAMPLE_THRESHOLD = 0.3  # the sample's planted pairs run from 0.32 to 1.0; at 0.3 all 9 are caught, the chain too


def make_window(settings: QSettings | None = None) -> MainWindow:
    """The main window, with the process made ready for scans that do not stall it.

    After the window is built, ``gc.freeze()`` moves the start-up objects (modules, classes, Qt wrappers) out of
    the garbage collector's sight: a full collection triggered during a scan holds the GIL while it walks every
    tracked object, and at 100,000 files it stalled the GUI for 71 ms; with the freeze, 19 ms. A 1 ms GIL switch
    interval (Python's default is 5 ms) bounds each wait of the GUI thread for the GIL while scan threads run
    Python code: every Qt call back into Python (a model's ``data()``, a slot) waits for one.
    """
    from lshdesk.gui import relayout
    from lshdesk.gui.mainwindow import MainWindow

    window = MainWindow(settings)
    relayout.install(window, [window.tabs, window.results.tabs])  # readers step back while the window relayouts
    gc.collect()
    gc.freeze()
    sys.setswitchinterval(SWITCH_INTERVAL)
    return window


def open_paths(window: MainWindow, paths: list[str], scan_now: bool = True) -> bool:
    """What the app opens on: a saved session (``FILE.lshdesk``), the folders given, or the sample corpus at its
    own threshold (which never becomes the user's: see ``ScanController``). True if folders were opened (and
    scanned, unless ``scan_now=False``)."""
    sessions = [p for p in paths if p.endswith(".lshdesk") and os.path.isfile(p)]
    if sessions:
        window.files.open_session(sessions[0])
        return False
    if not paths and (sample := sample_corpus()):
        window.params_panel.threshold.setValue(SAMPLE_THRESHOLD)
        paths = [sample]
    if paths:
        window.folders.open(paths, scan_now=scan_now)
    return bool(paths)


def run_app(paths: list[str] | None = None) -> int:
    """Open the main window on ``paths`` (or the sample corpus), show it, scan what it opened, run the loop.

    The scan starts once the window has painted, so the first paint never shares the cores with its threads.
    """
    from PySide6.QtWidgets import QApplication

    from lshdesk import __version__
    from lshdesk.gui.errors import ErrorReporter
    from lshdesk.gui.resources import icon
    from lshdesk.system.desktop import APP_ID

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)  # the window's, never a QCoreApplication
    app.setOrganizationName("lshdesk")
    app.setApplicationName("lshdesk")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_ID)  # the menu entry of `lshdesk install-desktop`: its icon and name in the dock
    app.setWindowIcon(icon("app"))
    window = make_window()
    ErrorReporter(window).install()
    wanted = open_paths(window, list(paths or []), scan_now=False)
    window.show()
    app.processEvents()  # the first paint, before the scan's threads take the cores
    if wanted:
        window.scans.start()
    try:
        return app.exec()
    finally:
        dispose(window)


def dispose(window: MainWindow) -> None:
    """Delete the window and all it holds now, while Python and the QApplication are whole. Left to the
    interpreter's exit, a plot's graphics items went in no set order after Python had begun to finalise, a Qt event
    then called a Python override, and the process crashed (SIGSEGV in shiboken): about 1 quit in 8 once the Learn
    pages were made, none in 32 with this. (A full collection here too cost a quit during a scan 0.2 s more.)"""
    import shiboken6

    if shiboken6.isValid(window):
        window.hide()
        shiboken6.delete(window)
