"""The S-curve plot's containment mode: P(candidate | containment) of each size-class pair's scheme, not P(J).

Shown for one size-class pair, the curve at its worst sizes (what its b x r guarantees) is a solid line and the
curve at its best sizes a dashed one, shaded between: every pair of those sizes lies in the shade. Shown for all,
each class pair's guaranteed curve is a thin line. The Jaccard items (curve, star, areas, presets, rates) hide.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from lshdesk.core.explore.containment import ContainmentCurves
from lshdesk.core.humanize import plural
from lshdesk.gui.plots.scurve_pairs import KIND_CAUGHT, KIND_MISSED, KIND_OTHER, containment_pairs
from lshdesk.gui.plots.scurve_plot import CURVE, ScurvePlot, X

FAMILY = QColor(0, 114, 178, 170)  # the guaranteed curve of every class pair, thin and see-through
SPREAD = QColor(0, 114, 178, 45)
JACCARD_X = "Exact Jaccard similarity J of a pair"
CONTAINMENT_X = "Exact containment C of the smaller document in the larger"


class ContainmentLayer:
    """Puts ``plot`` in containment mode (``show``) and back in its Jaccard mode (``leave``)."""

    def __init__(self, plot: ScurvePlot) -> None:
        self.plot = plot
        self.active = False
        pi = plot.plot_item
        self.family = pg.PlotCurveItem(pen=pg.mkPen(FAMILY, width=1.5), antialias=True)
        self.low = pg.PlotDataItem(pen=pg.mkPen(CURVE, width=3), antialias=True)
        self.high = pg.PlotDataItem(pen=pg.mkPen(CURVE, width=2, style=Qt.PenStyle.DashLine), antialias=True)
        self.spread = pg.FillBetweenItem(self.low, self.high, brush=SPREAD)
        for item in (self.spread, self.family, self.low, self.high):
            item.setZValue(-5)
            item.hide()
            pi.addItem(item)

    def _jaccard_items(self) -> list:
        p = self.plot
        return [p.curve, p.star, p.fp_fill, p.fn_fill, p.rates, p.errors, *p.compare]

    def show(self, cc: ContainmentCurves, curve: int | None, max_points: int) -> int:
        """Draw the curves of class pair ``curve`` (None: all that hold a drawn pair) and its pairs; returns how
        many pairs are drawn."""
        p = self.plot
        if not self.active:
            self.active = True
            for item in self._jaccard_items():
                item.hide()
            p.plot_item.setLabel("bottom", CONTAINMENT_X)
            p.line.setMovable(False)  # the scan's schemes are made for its threshold
            p.x_word = "containment"
        p.set_threshold(cc.threshold)
        pairs = containment_pairs(cc, curve, max_points)
        p.set_pairs(pairs)
        if curve is None:
            used = cc.used()
            x = np.concatenate([np.append(X, np.nan) for _ in used]) if used else np.zeros(0)
            y = np.concatenate([np.append(cc.curves[i].lowest(X), np.nan) for i in used]) if used else np.zeros(0)
            self.family.setData(x, y, connect="finite")
            self.family.show()
            self.low.hide()
            self.high.hide()
            self.spread.hide()
            title = f"P(candidate | C) of the {plural(len(used), 'size-class pair')} drawn"  # the caption: of how many
        else:
            c = cc.curves[curve]
            self.low.setData(X, c.lowest(X))
            self.high.setData(X, c.highest(X))
            for item in (self.low, self.high, self.spread):
                item.show()
            self.family.hide()
            title = f"Containment: sets of {c.label().replace(':', ' shingles:')}"
        self._legend(curve is None)
        p.set_title(title)
        return len(pairs.left)

    def _legend(self, family: bool) -> None:
        lg, sc = self.plot.legend, self.plot.scatter
        lg.clear()
        if family:
            lg.addItem(self.family, "P(candidate | C), each size-class pair's b x r, at its worst sizes")
        else:
            lg.addItem(self.low, "P(candidate | C), the smallest set in the largest (guaranteed)")
            lg.addItem(self.high, "the same for the closest sizes of the two classes")
        lg.addItem(sc[KIND_CAUGHT], "candidate pair (caught)")
        lg.addItem(sc[KIND_MISSED], "missed pair (C ≥ threshold)")
        lg.addItem(sc[KIND_OTHER], "not a candidate, C &lt; threshold")
        self.plot.restyle()

    def leave(self) -> None:
        """Back to the Jaccard plot (the caller redraws its scheme and pairs)."""
        if not self.active:
            return
        self.active = False
        p = self.plot
        for item in (self.spread, self.family, self.low, self.high):
            item.hide()
        for item in self._jaccard_items()[:6]:  # the comparisons show again when they are set
            item.show()
        p.plot_item.setLabel("bottom", JACCARD_X)
        p.line.setMovable(True)
        p.x_word = "similarity"
        p.legend.clear()
        p.build_legend()
