"""The one progress area: stage, bar, files per second, time left, and Cancel; what it shows is also offered (the
``shown`` signal) to the strip over the views, so both show the same progress."""

from __future__ import annotations

import time
from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from lshdesk.core.humanize import human_seconds
from lshdesk.core.scan.progress import STAGE_WORDS, Progress
from lshdesk.gui.widgets.elided_label import ElidedLabel


@dataclass(frozen=True)
class Shown:
    """What the progress area shows: the stage (with its count), the rate and time left, the bar, and whether a job
    runs and whether Cancel stops it. ``total`` 0 with ``busy``: a bar that moves without a known end."""

    text: str
    rate: str = ""
    done: int = 0
    total: int = 0
    busy: bool = False
    cancellable: bool = True


class ProgressArea(QWidget):
    """Shows a running job's progress; emits ``cancelRequested`` when Cancel is pressed, ``shown`` after each change."""

    cancelRequested = Signal()
    shown = Signal(object)  # a Shown

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
        self.now = Shown("Ready")
        self.finish("Ready")

    def _show(self, now: Shown) -> None:
        """Show ``now`` here and tell the strip over the views."""
        self.now = now
        self.stage.setText(now.text)
        self.rate.setText(now.rate)
        if now.busy:
            self.bar.setRange(0, now.total)
            self.bar.setValue(now.done)
        self.bar.setVisible(now.busy)
        self.cancel_button.setVisible(now.busy and now.cancellable)
        self.shown.emit(now)

    def start(self, text: str, cancellable: bool = True) -> None:
        """A job begins (``cancellable=False``: one that is short and all or nothing, with no Cancel)."""
        self._last_stage = ""
        self._show(Shown(text, busy=True, cancellable=cancellable))

    def update_progress(self, p: Progress) -> None:
        """Show a report: the stage in words, done of total in the stage's own unit, its rate and time left."""
        new_stage = p.stage != self._last_stage
        if new_stage:
            self._last_stage = p.stage
            self._t_stage, self._done_at_start = time.monotonic(), p.done
        words = STAGE_WORDS.get(p.stage, p.stage)
        if not p.total:
            text = f"{words}: {p.done:,} {p.unit}" if p.stage == "listing" else words
            self._show(Shown(text, busy=True, cancellable=self.now.cancellable))
            return
        rate = "" if new_stage else self.now.rate  # the last rate stays until a new one is measured
        spent, gained = time.monotonic() - self._t_stage, p.done - self._done_at_start
        if gained > 0 and spent > 0.2:
            per_s = gained / spent
            rate = f"{per_s:,.0f} {p.unit}/s, {human_seconds((p.total - p.done) / per_s)} left"
        text = f"{words}: {p.done:,} / {p.total:,} {p.unit}"
        self._show(Shown(text, rate, p.done, p.total, True, self.now.cancellable))

    def finish(self, text: str) -> None:
        """Show a closing message; the bar, the rate and Cancel go away."""
        self._show(Shown(text))


def duration(seconds: float) -> str:
    """A duration for people: '4 ms', '0.35 s', '12.3 s', '2 min 05 s'."""
    if seconds < 0.1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 10:
        return f"{seconds:.2f} s"
    if seconds < 60:
        return f"{seconds:.1f} s"
    return f"{int(seconds // 60)} min {int(seconds % 60):02d} s"
