"""Scatter items whose points share one style, filled a few thousand points per event-loop turn, so thousands of
points never stall the window."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QObject, QRectF, QTimer

# points per turn: as many as the S-curve draws at most (its MAX_POINTS), so that a slider step's points come in one
# turn and the plot is repainted once for them, not twice (a repaint of the plot costs more than setting 2,000 points:
# 3,000 are set in 2-3 ms, see UniformScatter)
CHUNK = 5000


class UniformScatter(pg.ScatterPlotItem):
    """A scatter item whose points all take the item's symbol, size, pen and brush (and the hover style when hovered).

    pyqtgraph looks every new point's style up in its symbol atlas in Python (a tuple and a dict lookup a point):
    20,000 points took 80-280 ms to set (2 cores, load 10). All points share a style here, so it is looked up once
    (once more for hovered points) and given to all: 2-3 ms for 3,000 points, 17-52 ms for 20,000, painting aside.
    """

    _rect: QRectF | None = None  # the bounding rectangle, until the points, their sizes or the view change

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        """pyqtgraph's, kept: Qt asks for it many times a paint, and each time it mapped the points' pixel size
        through the view's transform in Python (a fifth to a third of a repaint of the S-curve)."""
        if self._rect is None:
            self._rect = super().boundingRect()
        return QRectF(self._rect)

    def prepareGeometryChange(self) -> None:  # noqa: N802 - pyqtgraph calls it for new points and a new view
        self._rect = None
        super().prepareGeometryChange()

    def clear(self) -> None:
        super().clear()
        self._rect = None

    def _updateMaxSpotSizes(self, **kwargs) -> None:  # noqa: N802 - pyqtgraph's: the padding for the symbols
        super()._updateMaxSpotSizes(**kwargs)
        self._rect = None

    def updateSpots(self, dataSet=None) -> None:  # noqa: N802, N803 - pyqtgraph's names
        data = self.data if dataSet is None else dataSet
        if not (self.opts["pxMode"] and self.opts["useCache"]) or np.any(data["size"] != -1):
            super().updateSpots(dataSet)  # a point with its own style: pyqtgraph's way
            return
        todo = data["sourceRect"]["w"] == 0
        for hovered in (False, True):
            mask = todo & (data["hovered"] == hovered)
            first = np.flatnonzero(mask)[:1]
            if len(first):
                style = list(zip(*self._style(["symbol", "size", "pen", "brush"], data=data, idx=first)))
                data["sourceRect"][mask] = self.fragmentAtlas[style][0]
        self._maybeRebuildAtlas()
        self._updateMaxSpotSizes(data=data)
        self.invalidate()


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
