"""A one-line label that shows as much of its text as its room allows, cut with "…", and the whole text as its
tooltip when cut: a long closing message in the progress area no longer loses its end out of sight."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QLabel


class ElidedLabel(QLabel):
    """``text()`` is the whole text; what is painted is cut to the width."""

    def minimumSizeHint(self) -> QSize:
        return QSize(min(80, super().minimumSizeHint().width()), super().minimumSizeHint().height())

    def setText(self, text: str) -> None:
        super().setText(text)
        self._tip()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._tip()

    def shown(self) -> str:
        """The text as painted at the present width."""
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, self.contentsRect().width())

    def _tip(self) -> None:
        self.setToolTip(self.text() if self.shown() != self.text() else "")

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.drawText(self.contentsRect(), int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), self.shown())
