"""Scatter items filled a few thousand points per event-loop turn, so thousands of points never stall the window."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QObject, QTimer

CHUNK = 3000  # points per turn: pyqtgraph styles each new point in Python (~2.5 us), so ~8 ms a turn


class ScatterFill(QObject):
    """Gives scatter items their points: the first ``CHUNK`` at once, the rest over the next event-loop turns.

    ``fill`` replaces every item's points; a newer ``fill`` drops what an older one had left to add. ``pending``
    is True while points are still to come.
    """

    def __init__(self, parent: QObject | None = None, chunk: int = CHUNK) -> None:
        super().__init__(parent)
        self.chunk = chunk
        self._todo: list[tuple[pg.ScatterPlotItem, np.ndarray, np.ndarray, np.ndarray, int]] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._more)

    @property
    def pending(self) -> bool:
        return bool(self._todo)

    def fill(self, items: list[tuple[pg.ScatterPlotItem, np.ndarray, np.ndarray, np.ndarray]]) -> None:
        """Show ``(item, x, y, data)`` in each item, in that order (the first items' points come first)."""
        for item, *_ in items:
            # pyqtgraph's clear() empties the bounding rect before it asks for a repaint, so the points drawn go on
            # showing (stale missed-pair crosses after the scheme caught them): the scene is told first
            item.prepareGeometryChange()
            item.update()
            item.clear()
        self._todo = [(item, x, y, data, 0) for item, x, y, data in items if len(x)]
        self._more()

    def finish(self) -> None:
        """Add every point still to come, now."""
        self._timer.stop()
        while self._todo:
            self._more(len(self._todo[0][1]))

    def _more(self, budget: int = 0) -> None:
        budget = budget or self.chunk
        while self._todo and budget > 0:
            item, x, y, data, start = self._todo[0]
            stop = min(len(x), start + budget)
            item.addPoints(x=x[start:stop], y=y[start:stop], data=data[start:stop])
            budget -= stop - start
            if stop == len(x):
                self._todo.pop(0)
            else:
                self._todo[0] = (item, x, y, data, stop)
        if self._todo and not self._timer.isActive():
            self._timer.start()
