"""Lesson 4, the S-curve: b and r sliders, P(J) = 1 - (1 - J^r)^b, its threshold, and where real pairs sit on it."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QSlider, QWidget

from lshdesk.core.scurve import probability, threshold
from lshdesk.core.teaching import lessons as t
from lshdesk.gui.learn.common import MAX_LESSON_DOCS, CorpusSource, LessonPage, Plot, formula_box, rich_label
from lshdesk.gui.plots.export import choose_and_export
from lshdesk.gui.theme import ACCENT, TEAL, Tone, keep_color, plot_colors

LINE = Tone("#c4502f", "#f4a081")  # the threshold line and its label

INTRO = (
    "With b bands of r rows, two documents of similarity J agree on one slot with probability J, on a whole band "
    "(r slots) with probability J<sup>r</sup>, and on at least one of the b bands (they become a <b>candidate "
    "pair</b>) with probability P(J) below. Plotted against J it is an <b>S-curve</b>: pairs far below the "
    "threshold are almost never candidates, pairs far above it almost always are. Move the sliders and watch the "
    "step slide and sharpen; more slots (k = b × r) make it steeper."
)
PRESETS = (("strict 1 × 16", 1, 16), ("balanced 4 × 4", 4, 4), ("loose 16 × 1", 16, 1), ("the article's 10 × 2", 10, 2))
MAX_B, MAX_R = 64, 32


class SCurveLesson(LessonPage):
    """Sliders for b and r, the curve, the threshold line, and the sample pairs (or the user's) on the curve."""

    def __init__(self, source: CorpusSource, parent: QWidget | None = None) -> None:
        super().__init__("4 · The S-curve", INTRO, parent)
        self.source = source
        self.add_use_files(source, self.use_my_files)  # first: it sits above the sliders, and Tab reaches it first
        self.b_slider = self._slider(MAX_B, 4, "Bands b")
        self.r_slider = self._slider(MAX_R, 4, "Rows per band r")
        self.b_label, self.r_label = QLabel(), QLabel()
        for lab in (self.b_label, self.r_label):
            lab.setMinimumWidth(150)
        controls = QGridLayout()
        controls.addWidget(self.b_label, 0, 0)
        controls.addWidget(self.b_slider, 0, 1)
        controls.addWidget(self.r_label, 1, 0)
        controls.addWidget(self.r_slider, 1, 1)
        presets = QHBoxLayout()
        presets.addWidget(QLabel("Schemes:"))
        for name, b, r in PRESETS:
            button = QPushButton(name)
            button.clicked.connect(lambda _=False, b=b, r=r: self.set_scheme(b, r))
            presets.addWidget(button)
        presets.addStretch(1)
        self.export_button = QPushButton("Export plot…")
        self.export_button.setToolTip("Save the plot as PNG or SVG (or right-click the plot)")
        presets.addWidget(self.export_button)
        self.body.addLayout(controls)
        self.body.addLayout(presets)
        self.formula = formula_box("")
        self.threshold_label = QLabel()
        keep_color(self.threshold_label, ACCENT, "font-weight:600")
        self.body.addWidget(self.formula)
        self.body.addWidget(self.threshold_label)

        self.plot = Plot(280, "s_curve_lesson")
        self.plot.setLabel("bottom", "similarity J (exact Jaccard of the pair)")
        self.plot.setLabel("left", "P(candidate pair)")
        self.plot.setXRange(0, 1, padding=0.02)
        self.plot.setYRange(0, 1, padding=0.02)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.addLegend(offset=(10, 10))
        self.js = np.linspace(0, 1, 401)
        self.one_slot = self.plot.plot(
            self.js, self.js, pen=pg.mkPen("#999", width=1, style=Qt.PenStyle.DashLine), name="one slot: P = J"
        )
        self.curve = self.plot.plot(name="P(J) = 1 − (1 − J^r)^b")
        self.points = pg.ScatterPlotItem(size=9, name="pairs of documents")
        self.plot.addItem(self.points)
        self.line = pg.InfiniteLine(angle=90, label="threshold {value:.3f}", labelOpts={"position": 0.12})
        self.plot.addItem(self.line)
        self.body.addWidget(self.plot, 1)
        self.pairs_label = rich_label("")
        self.body.addWidget(self.pairs_label)
        self.export_button.clicked.connect(
            lambda: choose_and_export(self, self.plot.export, "s_curve_lesson", "Export the plot")
        )

        self.names, self.pair_j = "the eight sample sentences", t.jaccard_matrix(t.SENTENCES)[np.triu_indices(8, 1)]
        self.b_slider.valueChanged.connect(self.update_curve)
        self.r_slider.valueChanged.connect(self.update_curve)
        self.restyle()
        self.update_curve()

    def restyle(self) -> None:
        c = plot_colors()
        self.curve.setPen(pg.mkPen(ACCENT.color(), width=3))
        self.points.setPen(pg.mkPen(c.background))
        self.points.setBrush(pg.mkBrush(TEAL.color()))
        line = LINE.color()
        self.line.setPen(pg.mkPen(line, width=2))
        self.line.label.setColor(line)
        self.line.label.fill = pg.mkBrush(c.fill(200))
        self.line.label.update()

    def _slider(self, maximum: int, value: int, name: str) -> QSlider:
        s = QSlider(Qt.Orientation.Horizontal)
        s.setRange(1, maximum)
        s.setValue(value)
        s.setAccessibleName(name)
        s.setPageStep(1)
        return s

    def set_scheme(self, b: int, r: int) -> None:
        self.b_slider.setValue(b)
        self.r_slider.setValue(r)

    def use_my_files(self, on: bool) -> None:
        if on:
            docs = self.source.documents()[:MAX_LESSON_DOCS]
            n = len(docs)
            self.pair_j = t.jaccard_matrix([text for _, text in docs])[np.triu_indices(n, 1)]
            self.names = (
                f"your first {n} documents (word sets)" if n == MAX_LESSON_DOCS else f"your {n} documents (word sets)"
            )
        else:
            self.names, self.pair_j = "the eight sample sentences", t.jaccard_matrix(t.SENTENCES)[np.triu_indices(8, 1)]
        self.update_curve()

    def update_curve(self) -> None:
        b, r = self.b_slider.value(), self.r_slider.value()
        thr = threshold(b, r)
        self.b_label.setText(f"bands <b>b = {b}</b>")
        self.r_label.setText(f"rows per band <b>r = {r}</b>")
        self.curve.setData(self.js, probability(self.js, b, r))
        self.line.setValue(thr)
        self.threshold_label.setText(
            f"threshold ≈ (1/b)^(1/r) = (1/{b})^(1/{r}) = {thr:.3f}   ·   k = b × r = {b * r} hash functions"
        )
        self.formula.setText(
            f"P(J) = 1 − (1 − J<sup>r</sup>)<sup>b</sup> = 1 − (1 − J<sup>{r}</sup>)<sup>{b}</sup>. "
            f"For example P(0.3) = {float(probability(0.3, b, r)):.3f}, P(0.5) = {float(probability(0.5, b, r)):.3f}, "
            f"P(0.8) = {float(probability(0.8, b, r)):.3f}. The threshold (orange line) is roughly where the curve is "
            "steepest: pairs more similar than it are likely candidates, pairs less similar are likely ignored."
        )
        j = self.pair_j
        p = probability(j, b, r)
        self.points.setData(j, p)
        above = j >= thr
        self.pairs_label.setText(
            f"<b>On the curve:</b> the {len(j):,} pairs of {self.names}. "
            f"{int(above.sum()):,} pairs are at or above the threshold; on average {p[above].sum():.1f} of them become "
            f"candidates. Of the {int((~above).sum()):,} pairs below it, {p[~above].sum():.2f} become candidates "
            "on average: those are the <i>false positives</i> an exact check then throws away."
        )
