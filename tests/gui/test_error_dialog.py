"""The last-resort error dialog: one dialog with the details and a working Copy report button."""

from __future__ import annotations

import logging
import sys

from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton, QWidget

from lshdesk.gui.errors import ErrorReporter


def _raise_and_report(reporter: ErrorReporter, message: str) -> None:
    try:
        raise RuntimeError(message)
    except RuntimeError:
        reporter(*sys.exc_info())


def test_uncaught_error_shows_one_dialog_with_a_copyable_report(qtbot, capsys):
    parent = QWidget()
    qtbot.addWidget(parent)
    reporter = ErrorReporter(parent)
    _raise_and_report(reporter, "first failure")
    _raise_and_report(reporter, "second failure while the dialog is open")
    box = reporter.dialog
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert "first failure" in box.text()
    assert "Traceback" in box.detailedText() and "lshdesk" in box.detailedText()
    assert reporter.suppressed == 1 and len(reporter.shown) == 1
    copy = next(b for b in box.buttons() if isinstance(b, QPushButton) and b.text() == "Copy report")
    copy.click()
    assert "first failure" in QApplication.clipboard().text()
    assert box.isVisible()  # copying does not close it
    box.close()
    _raise_and_report(reporter, "third, after closing")
    assert len(reporter.shown) == 2 and "third" in reporter.dialog.text()
    reporter.dialog.close()
    assert "first failure" in capsys.readouterr().err  # also on stderr for a terminal user


def test_the_report_goes_to_the_log_file_the_dialog_names(qtbot):
    from lshdesk.system import logs

    logs.setup()
    parent = QWidget()
    qtbot.addWidget(parent)
    reporter = ErrorReporter(parent)
    _raise_and_report(reporter, "failure worth a bug report")
    box = reporter.dialog
    assert str(logs.log_path()) in box.informativeText()
    for handler in logging.getLogger(logs.LOGGER).handlers:
        handler.flush()
    logged = logs.log_path().read_text(encoding="utf-8")
    assert "failure worth a bug report" in logged and "Traceback" in logged
    box.close()


def test_install_replaces_the_excepthook(qtbot, monkeypatch):
    monkeypatch.setattr(sys, "excepthook", sys.__excepthook__)
    reporter = ErrorReporter().install()
    assert sys.excepthook == reporter.__call__
