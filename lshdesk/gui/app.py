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
    """The main window, with the process made ready for scans that do not stall it (see ``workers.warm_up``).

    After the window is built, ``gc.freeze()`` moves the start-up objects (modules, classes, Qt wrappers) out of
    the garbage collector's sight: a full collection triggered during a scan holds the GIL while it walks every
    tracked object, and at 100,000 files it stalled the GUI for 71 ms; with the freeze, 19 ms. A 1 ms GIL switch
    interval (Python's default is 5 ms) bounds each wait of the GUI thread for the GIL while scan threads run
    Python code: every Qt call back into Python (a model's ``data()``, a slot) waits for one.
    """
    from lshdesk.gui.mainwindow import MainWindow
    from lshdesk.gui.workers import warm_up

    warm_up()
    window = MainWindow(settings)
    gc.collect()
    gc.freeze()
    sys.setswitchinterval(SWITCH_INTERVAL)
    return window


def open_paths(window: MainWindow, paths: list[str]) -> None:
    """What the app opens on: a saved session (``FILE.lshdesk``), the folders given, or the sample corpus at its
    own threshold (which never becomes the user's: see ``ScanController``)."""
    sessions = [p for p in paths if p.endswith(".lshdesk") and os.path.isfile(p)]
    if sessions:
        window.files.open_session(sessions[0])
    elif paths:
        window.open_folders(paths)
    elif sample := sample_corpus():
        window.params_panel.threshold.setValue(SAMPLE_THRESHOLD)
        window.open_folders([sample])


def run_app(paths: list[str] | None = None) -> int:
    """Open the main window on ``paths`` (or the sample corpus) and run the event loop."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QPalette, QPixmap
    from PySide6.QtWidgets import QApplication, QSplashScreen

    from lshdesk.gui.errors import ErrorReporter
    from lshdesk.gui.resources import icon

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("lshdesk")
    app.setApplicationName("lshdesk")
    app.setWindowIcon(icon("app"))
    pixmap = QPixmap(460, 110)  # in the system's colours, light or dark (lshdesk never forces a palette)
    pixmap.fill(app.palette().color(QPalette.ColorRole.Window))
    splash = QSplashScreen(pixmap)  # the kernels load before the window (the first start compiles them: ~10 s)
    splash.show()
    splash.showMessage(
        "lshdesk\nPreparing the compiled kernels (the first start after installing takes a few seconds)…",
        Qt.AlignmentFlag.AlignCenter,
        app.palette().color(QPalette.ColorRole.WindowText),
    )
    app.processEvents()
    window = make_window()
    ErrorReporter(window).install()
    window.show()
    splash.finish(window)
    open_paths(window, list(paths or []))

    return app.exec()
