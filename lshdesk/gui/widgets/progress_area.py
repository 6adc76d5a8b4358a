"""The one progress area: stage, bar, files per second, time left, and Cancel."""

from __future__ import annotations

import time

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from lshdesk.core.humanize import human_seconds
from lshdesk.core.scan.progress import STAGE_WORDS, Progress
from lshdesk.gui.widgets.elided_label import ElidedLabel


class ProgressArea(QWidget):
    """Shows a running job's progress; emits ``cancelRequested`` when Cancel is pressed."""

    cancelRequested = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.stage = ElidedLabel("Ready")  # a long closing message is cut with "…", whole in its tooltip
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(260)
        self.bar.setAccessibleName("Scan progress")
        self.rate = QLabel()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the scan (Esc); the previous results stay")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.stage)
        lay.addWidget(self.bar)
        lay.addWidget(self.rate)
        lay.addWidget(self.cancel_button)
        lay.addStretch(1)
        self.cancel_button.clicked.connect(self.cancelRequested)
        self._t_stage = 0.0
        self._done_at_start = 0
        self._last_stage = ""
        self.finish("Ready")

    def start(self, text: str) -> None:
        self.stage.setText(text)
        self.bar.setRange(0, 0)
        self.bar.show()
        self.rate.clear()
        self.cancel_button.show()
        self._last_stage = ""

    def update_progress(self, p: Progress) -> None:
        """Show a report: the stage in words, done of total in the stage's own unit, its rate and time left."""
        if p.stage != self._last_stage:
            self._last_stage = p.stage
            self._t_stage, self._done_at_start = time.monotonic(), p.done
            self.rate.clear()
        words = STAGE_WORDS.get(p.stage, p.stage)
        if p.total:
            self.bar.setRange(0, p.total)
            self.bar.setValue(p.done)
            self.stage.setText(f"{words}: {p.done:,} / {p.total:,} {p.unit}")
            spent, gained = time.monotonic() - self._t_stage, p.done - self._done_at_start
            if gained > 0 and spent > 0.2:
                rate = gained / spent
                self.rate.setText(f"{rate:,.0f} {p.unit}/s, {human_seconds((p.total - p.done) / rate)} left")
        else:
            self.bar.setRange(0, 0)
            self.stage.setText(f"{words}: {p.done:,} {p.unit}" if p.stage == "listing" else words)

    def finish(self, text: str) -> None:
        """Show a closing message; the bar, the rate and Cancel go away."""
        self.stage.setText(text)
        self.bar.hide()
        self.rate.clear()
        self.cancel_button.hide()


def duration(seconds: float) -> str:
    """A duration for people: '4 ms', '0.35 s', '12.3 s', '2 min 05 s'."""
    if seconds < 0.1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 10:
        return f"{seconds:.2f} s"
    if seconds < 60:
        return f"{seconds:.1f} s"
    return f"{int(seconds // 60)} min {int(seconds % 60):02d} s"
