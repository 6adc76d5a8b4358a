"""Before a scan that will be slow: its warning with Continue / Stop, while the scan waits at a gate."""

from __future__ import annotations

import threading
from collections.abc import Generator
from typing import TypeVar

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from lshdesk.core.scan.progress import Progress


class Gate:
    """Where a scan's worker waits for the user's answer to a warning (or for a cancel)."""

    def __init__(self) -> None:
        self._open = threading.Event()

    def open(self) -> None:
        self._open.set()

    def wait(self, cancel: threading.Event) -> None:
        while not self._open.wait(0.05) and not cancel.is_set():
            pass


T = TypeVar("T")  # the scan's result, passed on


def pause_at_warnings(
    gen: Generator[Progress, None, T], gate: Gate, cancel: threading.Event
) -> Generator[Progress, None, T]:
    """Pass a scan's reports on; after one with a ``warning``, wait at the gate before going on (a worker thread
    waits here, not the GUI); a cancel while waiting ends the wait, and the scan stops at its next check."""
    while True:
        try:
            p = next(gen)
        except StopIteration as stop:
            return stop.value
        yield p
        if getattr(p, "warning", ""):
            gate.wait(cancel)


class ScanWarning(QMessageBox):
    """'About 1.4 M candidate pairs, ~20 s; ...': Continue or Stop; ``decided`` says which (True: continue)."""

    decided = Signal(bool)

    def __init__(self, warning: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setIcon(QMessageBox.Icon.Warning)
        self.setWindowTitle("A slow scan ahead")
        self.setText(f"This scan will compare {warning}.")
        self.setInformativeText("Continue anyway, or stop and change the parameters?")
        self.continue_button = self.addButton("Continue", QMessageBox.ButtonRole.AcceptRole)
        self.stop_button = self.addButton("Stop", QMessageBox.ButtonRole.RejectRole)
        self.continue_button.setToolTip("Run the scan as it is, however long it takes")
        self.stop_button.setToolTip(
            "Cancel this scan (the previous results stay), to change the parameters first (Esc)"
        )
        self.setDefaultButton(self.stop_button)
        self.setEscapeButton(self.stop_button)
        self.buttonClicked.connect(lambda b: self.decided.emit(b is self.continue_button))
