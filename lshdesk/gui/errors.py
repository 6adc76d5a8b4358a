"""The GUI's error dialogs: a long job's failure, and the last resort for an uncaught exception (with 'Copy report')."""

from __future__ import annotations

import logging
import platform
import sys
import traceback
from types import TracebackType

from PySide6 import __version__ as pyside_version
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

from lshdesk import __version__
from lshdesk.system.logs import LOGGER, log_path


def report_text(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> str:
    """A plain-text report a user can paste into an issue: versions, then the traceback."""
    lines = [
        f"lshdesk {__version__}, Python {platform.python_version()}, PySide6 {pyside_version}, {platform.platform()}",
        "",
        *traceback.format_exception(exc_type, exc, tb),
    ]
    return "\n".join(line.rstrip("\n") for line in lines)


def show_failure(parent: QWidget | None, title: str, message: str, details: str = "") -> QMessageBox:
    """A long job that failed: one warning dialog that does not block, the details (a traceback) behind a button."""
    box = QMessageBox(QMessageBox.Icon.Warning, title, message, parent=parent)
    if details:
        box.setDetailedText(details)
    box.open()
    return box


class ErrorReporter:
    """Installed as ``sys.excepthook``: shows one dialog at a time; errors raised while it is open are counted."""

    def __init__(self, parent: QWidget | None = None) -> None:
        self.parent = parent
        self.dialog: QMessageBox | None = None
        self.shown: list[str] = []
        self.suppressed = 0

    def install(self) -> ErrorReporter:
        sys.excepthook = self.__call__
        return self

    def __call__(self, exc_type, exc, tb) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            QApplication.quit()
            return
        text = report_text(exc_type, exc, tb)
        print(text, file=sys.stderr)
        logging.getLogger(LOGGER).error("uncaught error in the window\n%s", text)
        if self.dialog is not None and self.dialog.isVisible():
            self.suppressed += 1
            return
        self.shown.append(text)
        box = QMessageBox(
            QMessageBox.Icon.Critical,
            "lshdesk: something went wrong",
            f"{exc_type.__name__}: {exc}",
            parent=self.parent,
        )
        box.setInformativeText(
            "lshdesk keeps running; what you were doing may not have finished. "
            "Please send the report (Copy report) with a note of what you did.\n\n"
            f"The report is also in the log file: {log_path()}"
        )
        box.setDetailedText(text)
        box.addButton(QMessageBox.StandardButton.Close)
        copy = box.addButton("Copy report", QMessageBox.ButtonRole.ActionRole)
        copy.clicked.disconnect()  # keep the dialog open after copying
        copy.clicked.connect(lambda: QApplication.clipboard().setText(text))
        self.dialog = box
        box.open()
