"""Lesson 4, the S-curve: b and r sliders, P(J) = 1 - (1 - J^r)^b, its threshold, and where real pairs sit on it."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QSlider, QSpinBox, QWidget

from lshdesk.core.humanize import scheme_text
from lshdesk.core.scurve import optimal_banding, probability, threshold
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.exercises import lesson_exercises
from lshdesk.core.teaching.figures import prob_text, to_fixed
from lshdesk.gui.learn.common import (
    MAX_LESSON_DOCS,
    CorpusSource,
    LessonPage,
    buddy,
    cutoff_box,
    formula_box,
    rich_label,
)
from lshdesk.gui.learn.exercise_box import ExerciseBox
from lshdesk.gui.learn.flow import FlowLayout, together
from lshdesk.gui.learn.lesson_plot import Plot
from lshdesk.gui.plots.export import choose_and_export
from lshdesk.gui.theme import ACCENT, TEAL, Tone, keep_color, plot_colors

LINE = Tone("#c4502f", "#f4a081")  # the threshold line and its label

INTRO = (
    "With b bands of r rows, two documents of similarity J agree on one slot with probability J, on a whole band "
    "(r slots) with probability J<sup>r</sup>, and on at least one of the b bands (they become a <b>candidate "
    "pair</b>) with probability P(J) below. Plotted against J it is an <b>S-curve</b>: pairs far below the "
    "step are almost never candidates, pairs far above it almost always are. Move the sliders and watch the "
    "step slide and sharpen; more slots (k = b × r) make it steeper. What counts as similar is yours to say: "
    "the threshold <b>t</b>. The steepest point (1/b)<sup>1/r</sup> only approximates where the scheme puts its "
    "own threshold; candidates below t are false positives, which the exact check after banding removes."
)
MMDS = (20, 5, 0.8, 0.3)  # Mining of Massive Datasets' worked example: b = 20, r = 5, pairs at 0.8 and at 0.3
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
        presets = FlowLayout()
        presets.addWidget(QLabel("Schemes:"))
        for name, b, r in PRESETS:
            button = QPushButton(name)
            button.clicked.connect(lambda _=False, b=b, r=r: self.set_scheme(b, r))
            presets.addWidget(button)
        self.add_reset(presets)
        self.export_button = QPushButton("Export plot…")
        self.export_button.setToolTip("Save the plot as PNG or SVG (or right-click the plot)")
        presets.addWidget(self.export_button)
        self.cutoff = cutoff_box()
        self.k_box = QSpinBox()
        self.k_box.setRange(1, 256)
        self.k_box.setValue(16)
        self.k_box.setAccessibleName("Slots k for the choice")
        self.tune_button = QPushButton("Choose b × r for t")
        self.tune_button.setToolTip(
            "The S-curve tab's auto-tune (its balanced criterion): the b × r ≤ k that weighs the false positives "
            "below t and the misses above t equally"
        )
        tune = FlowLayout()
        tune.addWidget(together(buddy("similar when J ≥ t =", self.cutoff), self.cutoff))
        tune.addWidget(together(buddy("with at most k =", self.k_box), self.k_box))
        tune.addWidget(self.tune_button)
        self.body.addLayout(controls)
        self.body.addLayout(tune)
        self.body.addLayout(presets)
        self.formula = formula_box("")
        self.threshold_label = QLabel()
        self.threshold_label.setWordWrap(True)
        keep_color(self.threshold_label, ACCENT, "font-weight:600")
        self.body.addWidget(self.formula)
        self.body.addWidget(self.threshold_label)

        self.plot = Plot(280, "s_curve_lesson")
        self.plot.setLabel("bottom", "similarity J (exact Jaccard of the pair)")
        self.plot.setLabel("left", "P(candidate pair)")
        self.plot.setXRange(0, 1, padding=0.02)
        self.plot.setYRange(0, 1, padding=0.02)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.addLegend(offset=(-10, -10))  # bottom right: the curves never go there
        self.js = np.linspace(0, 1, 401)
        self.one_slot = self.plot.plot(
            self.js, self.js, pen=pg.mkPen("#999", width=1, style=Qt.PenStyle.DashLine), name="one slot: P = J"
        )
        self.curve = self.plot.plot(name="P(J) = 1 − (1 − J^r)^b")
        self.points = pg.ScatterPlotItem(size=9, name="pairs of documents")
        self.plot.addItem(self.points)
        self.line = pg.InfiniteLine(angle=90, label="steepest ≈ {value:.3f}", labelOpts={"position": 0.12})
        self.plot.addItem(self.line)
        self.t_line = pg.InfiniteLine(angle=90, label="t = {value:.2f}", labelOpts={"position": 0.88})
        self.plot.addItem(self.t_line)
        self.plot.title_fn = self.export_title
        self.plot.apply_font()
        self.body.addWidget(self.plot, 1)
        self.pairs_label = rich_label("")
        self.body.addWidget(self.pairs_label)
        self.exercises = ExerciseBox(lesson_exercises(4))
        self.body.addWidget(self.exercises)
        self.export_button.clicked.connect(
            lambda: choose_and_export(self, self.plot.export, "s_curve_lesson", "Export the plot")
        )

        self.names, self.pair_j = "the eight sample sentences", t.jaccard_matrix(t.SENTENCES)[np.triu_indices(8, 1)]
        self.b_slider.valueChanged.connect(self.update_curve)
        self.r_slider.valueChanged.connect(self.update_curve)
        self.cutoff.valueChanged.connect(self.update_curve)
        self.tune_button.clicked.connect(self.tune)
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
        self.t_line.setPen(pg.mkPen(TEAL.color(), width=2, style=Qt.PenStyle.DashLine))
        self.t_line.label.setColor(TEAL.color())
        self.t_line.label.fill = pg.mkBrush(c.fill(200))
        self.t_line.label.update()

    def reset(self) -> None:
        self.cutoff.setValue(t.SIMILAR_CUTOFF)
        self.k_box.setValue(16)
        self.set_scheme(4, 4)
        if self.use_files is not None and self.use_files.isChecked():
            self.use_files.setChecked(False)

    def tune(self) -> None:
        """The S-curve tab's auto-tune (balanced weights) for the threshold t and at most k slots."""
        choice = optimal_banding(self.cutoff.value(), self.k_box.value())
        self.set_scheme(choice.bands, choice.rows)

    def export_title(self) -> str:
        b, r = self.b_slider.value(), self.r_slider.value()
        return (
            f"S-curve P(J) = 1 − (1 − J^{r})^{b}: {scheme_text(b, r)}, k = {b * r}, "
            f"t = {self.cutoff.value():.2f}, steepest ≈ {to_fixed(threshold(b, r), 3)}; points: {self.names}"
        )

    def _slider(self, maximum: int, value: int, name: str) -> QSlider:
        s = QSlider(Qt.Orientation.Horizontal)
        s.setRange(1, maximum)
        s.setValue(value)
        s.setAccessibleName(name)
        s.setToolTip(f"{name}: move it to see the S-curve change")
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
        thr, cut = threshold(b, r), self.cutoff.value()
        self.b_label.setText(f"bands <b>b = {b}</b>")
        self.r_label.setText(f"rows per band <b>r = {r}</b>")
        self.curve.setData(self.js, probability(self.js, b, r))
        self.line.setValue(thr)
        self.t_line.setValue(cut)
        self.threshold_label.setText(
            f"steepest point ≈ (1/b)^(1/r) = (1/{b})^(1/{r}) = {to_fixed(thr, 3)}   ·   your threshold t = "
            f"{cut:.2f}   ·   k = b × r = {b * r} hash functions"
        )
        p = lambda j: prob_text(float(probability(j, b, r)))  # noqa: E731
        mb, mr, hi, lo = MMDS
        self.formula.setText(
            f"P(J) = 1 − (1 − J<sup>r</sup>)<sup>b</sup> = 1 − (1 − J<sup>{r}</sup>)<sup>{b}</sup>. "
            f"For example P(0.3) = {p(0.3)}, P(0.5) = {p(0.5)}, P(0.8) = {p(0.8)}. "
            "The orange line marks where the curve is steepest, roughly where the scheme starts to make pairs "
            "candidates; the green dashed line is t. Candidates left of t are false positives (the exact check "
            "drops them), pairs right of t that never become candidates are missed (false negatives).<br>"
            f"<b>Choosing b and r</b> (<i>Mining of Massive Datasets</i>' example): b = {mb}, r = {mr} (k = "
            f"{mb * mr}) has its steepest point at {to_fixed(threshold(mb, mr), 2)}. A pair at J = {hi} becomes a "
            f"candidate with P = {prob_text(float(probability(hi, mb, mr)), 5)}: about 1 in "
            f"{round(1 / (1 - float(probability(hi, mb, mr)))):,} such pairs is missed. A pair at J = {lo} does with "
            f"P = {to_fixed(float(probability(lo, mb, mr)), 3)}: a false positive to check. More rows push the step "
            "right (fewer false positives, more misses); more bands pull it left. Pick the step a little left of t "
            "when misses cost more than checks."
        )
        j = self.pair_j
        p_j = probability(j, b, r)
        self.points.setData(j, p_j)
        similar = t.is_similar(j, cut)
        self.pairs_label.setText(
            f"<b>On the curve:</b> the {len(j):,} pairs of {self.names}. {int(similar.sum()):,} are similar "
            f"(J ≥ t = {cut:.2f}); on average {p_j[similar].sum():.1f} of them become candidates and "
            f"{(1 - p_j[similar]).sum():.2f} are missed. Of the {int((~similar).sum()):,} pairs below t, "
            f"{p_j[~similar].sum():.2f} become candidates on average: those are the <i>false positives</i> the "
            "exact check then throws away."
        )
