"""The S-curve plot: P(J) for a scheme and up to two others, FP/FN areas, the threshold line, and the real pairs.

Caught pairs are drawn above y = 1 and pairs that are not candidates below y = 0, each at its exact similarity
(with a small fixed jitter), so the curve between them reads as "the chance of moving up". Colours are the
Okabe-Ito palette, and every kind of point also has its own symbol.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPixmapCache
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem

from lshdesk.core.explore.figures import RateBins
from lshdesk.core.params import Banding
from lshdesk.core.scurve import probability
from lshdesk.core.scurve import threshold as curve_threshold
from lshdesk.gui.accessible import describe
from lshdesk.gui.plots.export import add_export_action, export_item
from lshdesk.gui.plots.fit import fit_legend, show_title
from lshdesk.gui.plots.scatter_fill import ScatterFill, UniformScatter
from lshdesk.gui.plots.scurve_pairs import KIND_CAUGHT, KIND_MISSED, KIND_OTHER, PlotPairs, empty_pairs, jitter
from lshdesk.gui.theme import Tone, plot_colors, style_legend, style_plot_item, watch_palette

X = np.linspace(0.0, 1.0, 401)
CURVE = "#0072B2"
COMPARE = ("#CC79A7", "#6F6F6F")
FP, FN = QColor(230, 159, 0, 80), QColor(86, 180, 233, 90)
CAUGHT, MISSED, OTHER = "#009E73", "#D55E00", "#9A9A9A"
STAR_EDGE = Tone("#003f66", "#cfe8ff")
RUG = 0.09  # height of the bands of points above 1 and below 0
CACHED = QGraphicsItem.CacheMode.DeviceCoordinateCache


PIXMAP_CACHE_KB = 64 * 1024  # the items kept drawn: up to ~8 of the plot's size (4.5 MB each at 1920 x 1080)


def keep_drawn(item: QGraphicsItem) -> None:
    """Paint ``item`` into a pixmap when it changes and blit that at the other repaints of the plot: a slider step
    repaints the plot twice (the new curve at once, then the answer's points), and each time every item was painted
    again although most had not changed (replaying the axes' pictures, with the grid, was a third of a repaint).
    Qt keeps the pixmaps in ``QPixmapCache``: its limit is raised so that they are not evicted from it."""
    item.setCacheMode(CACHED)
    if QPixmapCache.cacheLimit() < PIXMAP_CACHE_KB:
        QPixmapCache.setCacheLimit(PIXMAP_CACHE_KB)


class ScurvePlot(pg.GraphicsLayoutWidget):
    """The plot with its legend below it; emits ``thresholdMoved`` while the line is dragged, ``thresholdReleased``
    at the end, and ``pairClicked`` with a drawn pair's documents."""

    thresholdMoved = Signal(float)
    thresholdReleased = Signal(float)
    pairClicked = Signal(int, int)
    painted = Signal(float)  # time.perf_counter() at the end of a paint of the plot

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.names: list[str] = []
        self.pairs = empty_pairs()
        self.banding = Banding(1, 1)
        self.t = 0.5
        self.x_word = "similarity"  # what a pair's x is: "containment" in a containment scan's view
        self._quiet = False
        self._text = "#000000"  # the title's colour (``restyle``)
        pi = self.plot_item = self.addPlot(row=0, col=0)
        pi.setMenuEnabled(False)
        pi.hideButtons()
        pi.showGrid(x=True, y=True, alpha=0.15)
        for ax, label in (("bottom", "Exact Jaccard similarity J of a pair"), ("left", "Candidate probability")):
            pi.setLabel(ax, label)
            pi.getAxis(ax).enableAutoSIPrefix(False)
        ticks = [(v, f"{v:g}") for v in np.round(np.arange(0, 1.01, 0.2), 1)]
        pi.getAxis("left").setTicks([ticks + [(1 + RUG / 2 + 0.02, "caught"), (-RUG / 2 - 0.02, "not caught")], []])
        pi.setRange(xRange=(-0.01, 1.01), yRange=(-RUG - 0.04, 1 + RUG + 0.04), padding=0)
        pi.setMouseEnabled(x=False, y=False)
        self.legend = pg.LegendItem(colCount=3, labelTextSize="8pt", horSpacing=14)
        self.addItem(self.legend, row=1, col=0)
        self.fp_fill, self.fn_fill = QGraphicsPathItem(), QGraphicsPathItem()  # the two areas, outlined by _shade
        for item, brush in ((self.fp_fill, FP), (self.fn_fill, FN)):
            item.setBrush(pg.mkBrush(brush))
            item.setPen(pg.mkPen(None))
            pi.addItem(item)
        self.compare = [
            pg.PlotDataItem(pen=pg.mkPen(c, width=2, style=s))
            for c, s in zip(COMPARE, (Qt.PenStyle.DashLine, Qt.PenStyle.DashDotLine))
        ]
        for c in self.compare:
            pi.addItem(c)
        self.curve = pg.PlotDataItem(pen=pg.mkPen(CURVE, width=3), antialias=True)
        pi.addItem(self.curve)
        self.star = pg.ScatterPlotItem(symbol="star", size=16, brush=pg.mkBrush(CURVE))
        pi.addItem(self.star)
        self.errors = pg.ErrorBarItem(beam=0.008)
        pi.addItem(self.errors)
        self.rates = pg.ScatterPlotItem(symbol="s", size=7)
        pi.addItem(self.rates)
        hover = {"hoverable": True, "tip": self._tip, "hoverSize": 13, "hoverPen": pg.mkPen("#D55E00", width=2)}
        self.scatter = {
            KIND_OTHER: UniformScatter(symbol="t1", size=6, pen=pg.mkPen(OTHER), brush=pg.mkBrush(OTHER), **hover),
            KIND_CAUGHT: UniformScatter(symbol="o", size=7, pen=pg.mkPen("#00573f"), brush=pg.mkBrush(CAUGHT), **hover),
            KIND_MISSED: UniformScatter(symbol="x", size=11, pen=pg.mkPen(MISSED), brush=pg.mkBrush(MISSED), **hover),
        }
        self.filling = ScatterFill(self)  # gives them their points a few thousand per event-loop turn
        for s in self.scatter.values():
            s.sigClicked.connect(self._clicked)
            pi.addItem(s)
        self.line = pg.InfiniteLine(
            0.5,
            angle=90,
            movable=True,
            bounds=(0.05, 1.0),
            hoverPen=pg.mkPen("#D55E00", width=3),
            label="threshold {value:.2f}",
            labelOpts={"position": 0.55},
        )
        self.line.setZValue(20)
        pi.addItem(self.line)
        self.line.sigPositionChanged.connect(lambda: self._line_moved(False))
        self.line.sigPositionChangeFinished.connect(lambda: self._line_moved(True))
        self._title = ""
        self._compared: list[tuple[str, Banding]] | None = None  # the comparison curves drawn
        self._say()
        self.build_legend()
        self._keep_items_drawn()
        self.restyle()
        watch_palette(self, self.restyle)
        add_export_action(self, self.export, "scurve", "Export the S-curve")

    def _keep_items_drawn(self) -> None:
        """The items a slider step leaves as they are, painted from their pixmaps (``keep_drawn``): the axes with the
        grid, the title, the legend, the line, the dashed comparison curves; the points, rates and error bars change
        with an answer, not with the new curve drawn at the step."""
        pi = self.plot_item
        for item in (pi.getAxis("left"), pi.getAxis("bottom"), pi.titleLabel, self.legend, self.line, self.line.label):
            keep_drawn(item)
        for item in (*[c.curve for c in self.compare], *self.scatter.values(), self.rates, self.errors):
            keep_drawn(item)

    def restyle(self) -> None:
        """Background, axes, text and black-or-white marks in the palette's colours (light or dark)."""
        if getattr(self, "closed", False):  # pyqtgraph's close() has deleted the scene's items
            return
        c = plot_colors()
        self._text = c.text.name()  # the title's colour
        self.setBackground(c.background)
        style_plot_item(self.plot_item, c)
        style_legend(self.legend, c.text)
        self.star.setPen(pg.mkPen(STAR_EDGE.color()))
        self.errors.setData(pen=pg.mkPen(c.text, width=1.2))
        self.rates.setPen(pg.mkPen(c.text))
        self.rates.setBrush(pg.mkBrush(c.background))
        self.line.setPen(pg.mkPen(c.text, width=2))
        self.line.label.setColor(c.text)
        self.line.label.fill = pg.mkBrush(c.fill(220))
        self.line.label.update()
        if self._title:
            show_title(self, self._title, c.text.name())

    def build_legend(self) -> None:
        fp_proxy = pg.PlotDataItem(pen=pg.mkPen(FP.darker(150)), fillLevel=0, fillBrush=FP)
        fn_proxy = pg.PlotDataItem(pen=pg.mkPen(FN.darker(150)), fillLevel=0, fillBrush=FN)
        fp_proxy.visibleChanged.connect(lambda: self.fp_fill.setVisible(fp_proxy.isVisible()))
        fn_proxy.visibleChanged.connect(lambda: self.fn_fill.setVisible(fn_proxy.isVisible()))
        self._proxies = (fp_proxy, fn_proxy)
        self.legend.addItem(self.curve, "P(J), this scheme")
        self.legend.addItem(self.star, "its threshold (1/b)^(1/r)")
        self.legend.addItem(fp_proxy, "false-positive area")
        self.legend.addItem(fn_proxy, "false-negative area")
        self.legend.addItem(self.scatter[KIND_CAUGHT], "candidate pair (caught)")
        self.legend.addItem(self.scatter[KIND_MISSED], "missed pair (J ≥ threshold)")
        self.legend.addItem(self.scatter[KIND_OTHER], "not a candidate, J &lt; threshold")
        self.legend.addItem(self.rates, "measured rate per bin (95% CI)")
        self._keep_legend_drawn()

    def _keep_legend_drawn(self) -> None:
        for sample, label in self.legend.items:
            keep_drawn(sample)
            keep_drawn(label)

    def resizeEvent(self, event) -> None:
        """The legend and the title fitted to the new size (``plots/fit``): the plot is never wider than the view."""
        if getattr(self, "legend", None) is not None and not getattr(self, "closed", False):  # built, not closed
            fit_legend(self)
            if getattr(self, "_title", ""):
                show_title(self, self._title, self._text)
        super().resizeEvent(event)

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """Paint, then say when (``painted``): the explorer's label counts a step's time until its figures are seen."""
        super().paintEvent(event)
        self.painted.emit(time.perf_counter())

    def legend_shown(self) -> bool:
        return self.legend.isVisible()

    # --- what is shown ------------------------------------------------------------------------------------------------
    def set_names(self, names: list[str]) -> None:
        self.names = names

    def set_scheme(self, banding: Banding, comparisons: Sequence[tuple[str, Banding]] = ()) -> None:
        """Draw the curve of ``banding`` and up to two comparison schemes (name, scheme)."""
        self.banding = banding
        b, r = banding.bands, banding.rows
        self.curve.setData(X, probability(X, b, r))
        ct = curve_threshold(b, r)
        self.star.setData([ct], [float(probability(ct, b, r))])
        compared = list(comparisons)
        for i, item in enumerate(self.compare if compared != self._compared else ()):  # drawn already: kept
            if i < len(comparisons):
                name, s = comparisons[i]
                item.setData(X, probability(X, s.bands, s.rows))
                self._legend_entry(item, f"{name} {s}")
                item.show()
            else:
                item.setData([], [])
                self.legend.removeItem(item)
                item.hide()
        self._compared = compared
        self.legend.getLabel(self.curve).setText(f"P(J), {b} bands x {r} rows")
        self._title = f"{b} x {r} = {b * r} slots: P(J) = 1 - (1 - J^{r})^{b}"  # short: fits a narrow plot
        show_title(self, self._title, self._text)
        self._shade()
        self._say()

    def set_title(self, title: str) -> None:
        self._title = title
        show_title(self, title, self._text)
        self._say()

    def _legend_entry(self, item, name: str) -> None:
        label = self.legend.getLabel(item)
        if label is None:
            self.legend.addItem(item, name)
            self._keep_legend_drawn()
        else:
            label.setText(name)

    def set_threshold(self, t: float) -> None:
        """Move the threshold line (no signal: the caller knows)."""
        self.t = float(t)
        self._quiet = True
        self.line.setValue(self.t)
        self._quiet = False
        self._shade()
        self._say()

    def threshold_bounds(self, lo: float) -> None:
        """The lowest threshold the line can be dragged to (no signal: the line may be nudged to fit)."""
        self._quiet = True
        self.line.setBounds((lo, 1.0))
        self._quiet = False
        self.t = float(self.line.value())

    def _shade(self) -> None:
        """The false-positive area (under the curve, left of the threshold) and the false-negative one (above it,
        right of it), each one closed outline (pyqtgraph's FillBetweenItem joined two curves' paths point by point
        in Python: 10-15 ms of every slider step)."""
        b, r, t = self.banding.bands, self.banding.rows, self.t
        left, right = np.append(X[X < t], t), np.insert(X[X > t], 0, t)
        p_left, p_right = probability(left, b, r), probability(right, b, r)
        fp_x, fp_y = np.concatenate(([0.0], left, [t])), np.concatenate(([0.0], p_left, [0.0]))
        fn_x, fn_y = np.concatenate((right, [1.0, t])), np.concatenate((p_right, [1.0, 1.0]))
        for item, x, y in ((self.fp_fill, fp_x, fp_y), (self.fn_fill, fn_x, fn_y)):
            path = pg.arrayToQPath(x, y)
            path.closeSubpath()
            item.setPath(path)

    def set_pairs(self, pairs: PlotPairs) -> None:
        """Draw the pairs: caught above 1, the others below 0, at their exact similarity."""
        self.pairs = pairs
        jit = jitter(pairs.left, pairs.right)
        items = []
        for kind in (KIND_MISSED, KIND_CAUGHT, KIND_OTHER):  # the missed pairs first: they matter most
            idx = np.flatnonzero(pairs.kind == kind)
            y = (1.02 + RUG * jit[idx]) if kind == KIND_CAUGHT else (-0.02 - RUG * jit[idx])
            items.append((self.scatter[kind], pairs.jaccard[idx], y, idx))
        self.filling.fill(items)  # 20,000 points at once held the window for ~55 ms
        self._say()

    def _say(self) -> None:
        """What a screen reader says the plot shows: the scheme's curve, the threshold and the pairs drawn."""
        kinds = self.pairs.kind
        caught, missed = (int(np.count_nonzero(kinds == k)) for k in (KIND_CAUGHT, KIND_MISSED))
        line = ", a line to drag" if self.line.movable else ""
        shade = "; false positives shaded left of it, misses right of it" if self.fp_fill.isVisible() else ""
        describe(
            self,
            f"The chance that a pair becomes a candidate against its {self.x_word} (0 to 1): {self._title or 'none'}."
            f" The threshold at {self.t:.2f}{line}{shade}. Pairs drawn: {caught:,} caught along the top, {missed:,} "
            f"missed at or above the threshold and {len(kinds) - caught - missed:,} others along the bottom",
        )

    def set_bins(self, bins: RateBins | None) -> None:
        if bins is None:
            self.rates.setData([], [])
            self.errors.setData(x=np.zeros(0), y=np.zeros(0), top=np.zeros(0), bottom=np.zeros(0))
            return
        ok = np.flatnonzero(bins.pairs > 0)
        x = 0.5 * (bins.edges[:-1] + bins.edges[1:])[ok]
        y = bins.rate[ok]
        self.rates.setData(x, y)
        self.errors.setData(x=x, y=y, top=bins.high[ok] - y, bottom=y - bins.low[ok])

    # --- interaction ----------------------------------------------------------------------------------------------------
    def pair_text(self, i: int) -> str:
        p = self.pairs
        a, b = int(p.left[i]), int(p.right[i])
        names = (self.names[a], self.names[b]) if b < len(self.names) else (f"#{a}", f"#{b}")
        what = {
            KIND_CAUGHT: f"candidate (collided in {int(p.bands[i])} bands)",
            KIND_MISSED: "missed (not a candidate)",
            KIND_OTHER: "not a candidate",
        }[int(p.kind[i])]
        return f"{names[0]}\n{names[1]}\n{self.x_word} {p.jaccard[i]:.3f} · {what}"

    def _tip(self, x: float, y: float, data) -> str:
        return self.pair_text(int(data))

    def _clicked(self, item, points, ev) -> None:
        if len(points):
            self.select_point(int(points[0].data()))

    def select_point(self, i: int) -> None:
        """The user picked drawn pair ``i``: announce its two documents."""
        self.pairClicked.emit(int(self.pairs.left[i]), int(self.pairs.right[i]))

    def _line_moved(self, finished: bool) -> None:
        if self._quiet:
            return
        self.t = float(self.line.value())
        self._shade()
        (self.thresholdReleased if finished else self.thresholdMoved).emit(self.t)

    def export(self, path: str, scale: float = 2.0) -> None:
        """Save the plot and its legend as SVG or as PNG (``scale`` x the on-screen size), by the file's extension."""
        self.filling.finish()  # every point, even those still to come
        export_item(
            self, self.ci, path, scale, "S-curve", f"lshdesk: S-curve of {self.banding} at threshold {self.t:.2f}"
        )
