"""Lesson 3's layout: its signature grid takes the room its column leaves; two columns that stack when narrow."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QBoxLayout, QVBoxLayout, QWidget


class GridRoom(QWidget):
    """Holds a widget at the height its layout gives it, at least ``lines`` lines of the current font: the grid's own
    height-for-width (its lines of bands at the widest cells) would push a lesson past a 1280 x 800 window, while its
    wrapped view fits narrower cells to the room it is given."""

    def __init__(self, lines: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lines = lines
        QVBoxLayout(self).setContentsMargins(0, 0, 0, 0)
        self._fit()

    def hasHeightForWidth(self) -> bool:
        return False

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.minimumHeight())

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._fit()

    def set_lines(self, lines: int) -> None:
        self.lines = lines
        self._fit()

    def _fit(self) -> None:
        self.setMinimumHeight(self.lines * self.fontMetrics().height())


class Columns(QBoxLayout):
    """A left and a right column side by side, stacked one above the other when the page is too narrow for both."""

    def __init__(self, left: list[tuple[QWidget, int]], right: list[tuple[QWidget, int]]) -> None:
        super().__init__(QBoxLayout.Direction.LeftToRight)
        for widgets, stretch in ((left, 1), (right, 0)):
            column = QVBoxLayout()
            column.setSpacing(8)
            for w, s in widgets:
                column.addWidget(w, s)
            self.addLayout(column, stretch)

    def arrange(self, wide: bool) -> None:
        """Side by side when ``wide``, else the right column under the left."""
        direction = QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom
        if self.direction() != direction:
            self.setDirection(direction)
