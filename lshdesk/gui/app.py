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
    Python code: every Qt call back into Python (a model's ``data()``, a slot) waits for one. The compiled kernels
    are made ready afterwards, behind the shown window (``kernel_warmup``).
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
    own threshold (which never becomes the user's: see ``ScanController``). True if folders were opened (to scan
    now, or, with ``scan_now=False``, once the kernels are ready)."""
    sessions = [p for p in paths if p.endswith(".lshdesk") and os.path.isfile(p)]
    if sessions:
        window.files.open_session(sessions[0])
        return False
    if not paths and (sample := sample_corpus()):
        window.params_panel.threshold.setValue(SAMPLE_THRESHOLD)
        paths = [sample]
    if paths:
        window.open_folders(paths, scan_now=scan_now)
    return bool(paths)


def run_app(paths: list[str] | None = None) -> int:
    """Open the main window on ``paths`` (or the sample corpus), scan once the kernels are ready, run the loop.

    The window shows while the kernels load (the first run compiles them, ~10 s: ``kernel_warmup`` says so).
    """
    from PySide6.QtWidgets import QApplication

    from lshdesk import __version__
    from lshdesk.gui import kernel_warmup
    from lshdesk.gui.errors import ErrorReporter
    from lshdesk.gui.resources import icon
    from lshdesk.system.desktop import APP_ID

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("lshdesk")
    app.setApplicationName("lshdesk")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_ID)  # the menu entry of `lshdesk install-desktop`: its icon and name in the dock
    app.setWindowIcon(icon("app"))
    warming = kernel_warmup.start(now=False)  # the views built now wait for it; it starts once the window shows
    window = make_window()
    ErrorReporter(window).install()
    wanted = open_paths(window, list(paths or []), scan_now=False)
    kernel_warmup.show_until_ready(window, warming, _scan_if_idle(window, wanted))
    window.show()
    app.processEvents()  # the first paint, before the compiler takes the GIL
    warming.start()
    return app.exec()


def _scan_if_idle(window: MainWindow, wanted: bool):
    """What to do when the kernels are ready: scan the opened folders, unless the user already started a scan."""
    return lambda: window.start_scan() if wanted and not window.is_scanning() and window.state.result is None else None
