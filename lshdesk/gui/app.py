"""Starting the app: the QApplication, the main window, and the sample corpus it opens on."""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")


def sample_corpus() -> str | None:
    """The built-in sample corpus (``resources/sample`` of the source tree), if it is there."""
    here = Path(__file__).resolve().parents[2] / "resources" / "sample"
    return str(here) if here.is_dir() else None


def run_app(paths: list[str] | None = None) -> int:
    """Open the main window on ``paths`` (or the sample corpus) and run the event loop."""
    from PySide6.QtWidgets import QApplication

    from lshdesk.gui.mainwindow import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName("lshdesk")
    app.setApplicationName("lshdesk")
    window = MainWindow()
    window.show()
    folders = list(paths or [])
    if not folders and (sample := sample_corpus()):
        window.params_panel.threshold.setValue(0.3)
        folders = [sample]
    if folders:
        window.open_folders(folders)

    return app.exec()
