"""The progress over the views (where the results will appear): the stage, its count, the bar and Cancel, drawn from
the one progress area's own ``Shown`` (never a second source), while a job runs."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QProgressBar, QPushButton

from lshdesk.gui.widgets.elided_label import ElidedLabel
from lshdesk.gui.widgets.progress_area import ProgressArea, Shown


class ProgressStrip(QFrame):
    """Follows ``area``: shown while its job runs; its Cancel is the area's (``cancelRequested``)."""

    def __init__(self, area: ProgressArea, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("progress_strip")
        self.setAccessibleName("Progress")
        self.setStyleSheet(
            "#progress_strip { background: palette(alternate-base); border-left: 4px solid palette(highlight); }"
        )
        self.stage = ElidedLabel()
        self.stage.setAccessibleName("Stage")
        font = self.stage.font()
        font.setBold(True)
        self.stage.setFont(font)
        self.bar = QProgressBar()
        self.bar.setAccessibleName("Progress of the stage")
        self.bar.setTextVisible(False)
        self.bar.setMaximumWidth(220)
        self.rate = QLabel()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop (Esc); the previous results stay")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(8, 3, 6, 3)
        lay.addWidget(self.stage, 1)
        lay.addWidget(self.rate)
        lay.addWidget(self.bar)
        lay.addWidget(self.cancel_button)
        self.cancel_button.clicked.connect(area.cancelRequested)
        area.shown.connect(self.show_now)
        self.show_now(area.now)

    def show_now(self, now: Shown) -> None:
        self.stage.setText(now.text)
        self.rate.setText(now.rate)
        self.bar.setRange(0, now.total)
        self.bar.setValue(now.done)
        self.cancel_button.setVisible(now.cancellable)
        self.setVisible(now.busy)
