"""Emptied scatter items repaint where their points were (issue 31: stale crosses stayed on the S-curve)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QRect

from lshdesk.gui.plots.scatter_fill import ScatterFill


class Painted(QObject):
    """Collects the rectangles of the viewport's paint events."""

    def __init__(self) -> None:
        super().__init__()
        self.rects: list[QRect] = []

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.rects.append(event.rect())
        return False


def test_emptying_an_item_repaints_the_area_of_its_points(qtbot):
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    plot.resize(400, 300)
    plot.setXRange(0, 1, padding=0)
    plot.setYRange(0, 1, padding=0)
    item = pg.ScatterPlotItem(symbol="x", size=12)
    plot.addItem(item)
    plot.show()
    qtbot.waitExposed(plot)
    fill = ScatterFill()
    fill.fill([(item, np.array([0.8, 0.82]), np.array([0.5, 0.52]), np.arange(2))])
    qtbot.wait(50)
    where = plot.mapFromScene(item.mapRectToScene(item.boundingRect())).boundingRect()  # viewport pixels
    assert where.width() > 0
    painted = Painted()
    plot.viewport().installEventFilter(painted)
    fill.fill([(item, np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int64))])  # the scheme caught them all
    qtbot.waitUntil(lambda: bool(painted.rects), timeout=2000)
    qtbot.wait(50)
    covered = painted.rects[0]
    for r in painted.rects[1:]:
        covered = covered.united(r)
    assert covered.contains(where.adjusted(2, 2, -2, -2)), (covered, where)  # the crosses' pixels drawn again
