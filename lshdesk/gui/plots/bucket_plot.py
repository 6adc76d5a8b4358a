"""Histogram of band-bucket sizes: how many buckets hold 2, 3, 4-5, ... documents (counts on a log scale)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetrics

from lshdesk.gui.accessible import describe
from lshdesk.gui.plots.export import add_export_action, export_plot
from lshdesk.gui.theme import Tone, plot_colors, style_plot_item, watch_palette

BAR, BAR_EDGE = "#0072B2", Tone("#003f66", "#9fd3f5")
LABEL_GAP = 10  # pixels kept free between two size labels on the axis
TITLE_POINTS = 9
TITLE_MARGIN = 8  # pixels of the plot area's width the title cannot use (the label's padding)


def size_bins(max_size: int) -> npt.NDArray[np.int64]:
    """Bin edges 2, 3, 4, 6, 8, 12, 16, ... (each bin [edge, next)), covering ``max_size``."""
    edges = [2, 3, 4]
    while edges[-1] <= max_size:
        e = edges[-1]
        edges.append(e + e // 2 if e & (e - 1) == 0 else 2 * (e - e // 3))
    return np.array(edges, dtype=np.int64)


BUCKETS_SAID = "How many buckets (over all bands) hold each number of documents, bars on a log scale: "


def _label(lo: int, hi: int) -> str:
    return str(lo) if hi == lo + 1 else f"{lo}-{hi - 1}"


class BucketPlot(pg.PlotWidget):
    """Bars of bucket counts per size bin; the height is log10(count) + 1 so single buckets still show."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        describe(self, BUCKETS_SAID + "none yet", "Bucket sizes plot")
        pi = self.getPlotItem()
        pi.setMenuEnabled(False)
        pi.hideButtons()
        pi.setMouseEnabled(x=False, y=False)
        pi.setLabel("bottom", "Documents in the bucket")
        pi.setLabel("left", "Buckets")
        for ax in ("bottom", "left"):
            pi.getAxis(ax).enableAutoSIPrefix(False)
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.8, brush=BAR)
        pi.addItem(self.bars)
        self.counts = np.zeros(0, dtype=np.int64)
        self.labels: list[str] = []
        self._title = ""
        self._shorter: tuple[str, ...] = ()
        self._restyle()
        watch_palette(self, self._restyle)
        add_export_action(self, self.export, "bucket_sizes", "Export the bucket sizes plot")

    def _restyle(self) -> None:
        if getattr(self, "closed", False):  # pyqtgraph's close() has deleted the scene's items
            return
        c = plot_colors()
        self.setBackground(c.background)
        style_plot_item(self.getPlotItem(), c)
        self.bars.setOpts(pen=pg.mkPen(BAR_EDGE.color()))
        self._set_title(self._title, *self._shorter)

    def _set_title(self, text: str, *shorter: str) -> None:
        """Title the plot with ``text``, or the first of the ``shorter`` ones that fits its width (a narrow plot cut
        "largest 11" to "largest 1"); the export keeps the whole text."""
        self._title, self._shorter = text, shorter
        if not text:
            return
        font = QFont(self.font())
        font.setPointSize(TITLE_POINTS)
        box = self.getPlotItem().getViewBox().width()  # the title's column is the plot area's, beside the axis
        room = (box if box > 0 else self.width()) - TITLE_MARGIN
        fits = [t for t in (text, *shorter) if QFontMetrics(font).horizontalAdvance(t) <= room]
        shown = fits[0] if fits else (shorter or (text,))[-1]
        self.getPlotItem().setTitle(shown, color=plot_colors().text.name(), size=f"{TITLE_POINTS}pt")

    def title_shown(self) -> str:
        return self.getPlotItem().titleLabel.text

    def label_step(self) -> int:
        """Every how many bars a size is written under the axis, so that the labels never overlap."""
        if not self.labels:
            return 1
        spacing = max(self.getPlotItem().getViewBox().width(), 1.0) / len(self.labels)
        widest = max(QFontMetrics(self.font()).horizontalAdvance(t) for t in self.labels) + LABEL_GAP
        return max(1, int(np.ceil(widest / spacing)))

    def _set_ticks(self) -> None:
        step = self.label_step()
        major = [(i, text) for i, text in enumerate(self.labels) if i % step == 0]
        minor = [(i, "") for i in range(len(self.labels)) if i % step]
        self.getPlotItem().getAxis("bottom").setTicks([major, minor])

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if getattr(self, "labels", None) and not getattr(self, "closed", False):  # not before __init__, nor after close
            self._set_ticks()
            self._set_title(self._title, *self._shorter)

    def export(self, path: str) -> None:
        """Save the plot as PNG or SVG (by the extension)."""
        export_plot(self, path, "Bucket sizes", f"lshdesk: {self._title}")

    def set_sizes(self, sizes: npt.NDArray[np.int64]) -> None:
        """Show the sizes of all buckets of two or more documents (over all bands)."""
        pi = self.getPlotItem()
        if len(sizes) == 0:
            self.counts = np.zeros(0, dtype=np.int64)
            self.labels = []
            self.bars.setOpts(x=[], height=[])
            self._set_title("No bucket holds two documents")
            describe(self, BUCKETS_SAID + "no bucket holds two documents")
            return
        edges = size_bins(int(sizes.max()))
        counts = np.histogram(sizes, bins=edges)[0]
        keep = np.flatnonzero(counts)
        keep = np.arange(0, keep.max() + 1)  # no gaps in the axis up to the largest
        self.counts = counts[keep]
        heights = np.where(self.counts > 0, np.log10(np.maximum(self.counts, 1)) + 1, 0)
        self.bars.setOpts(x=np.arange(len(keep)), height=heights)
        self.labels = [_label(int(edges[k]), int(edges[k + 1])) for k in keep]
        self._set_ticks()
        top = int(np.ceil(heights.max()))
        pi.getAxis("left").setTicks([[(h, f"{10 ** (h - 1):,}") for h in range(1, top + 1)]])
        pi.setRange(xRange=(-0.6, len(keep) - 0.4), yRange=(0, max(top, 1) + 0.1), padding=0)
        n, most = f"{len(sizes):,}", f"{int(sizes.max()):,}"
        self._set_title(
            f"{n} buckets of 2+ documents, largest {most}", f"{n} buckets, largest {most}", f"largest {most}"
        )
        bars = "; ".join(f"{label}: {int(c):,}" for label, c in zip(self.labels, self.counts) if c)
        describe(self, f"{BUCKETS_SAID}{n} buckets, largest {most} documents; buckets by documents held: {bars}")
