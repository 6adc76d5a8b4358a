"""Lesson 'The S-curve': b and r sliders, P(J) = 1 - (1 - J^r)^b, its named points, and real pairs on it."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDoubleSpinBox, QGridLayout, QLabel, QPushButton, QSlider, QSpinBox, QWidget

from lshdesk.core.humanize import plural, scheme_text
from lshdesk.core.scurve import optimal_banding, probability
from lshdesk.core.teaching import curve_points as cp
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.exercises import lesson_exercises
from lshdesk.core.teaching.figures import prob_is, prob_text, to_fixed
from lshdesk.gui.accessible import describe
from lshdesk.gui.learn.common import (
    CUTOFF_LABEL,
    MAX_LESSON_DOCS,
    CorpusSource,
    LessonPage,
    buddy,
    cutoff_box,
    esc,
    formula_box,
    rich_label,
)
from lshdesk.gui.learn.exercise_box import ExerciseBox
from lshdesk.gui.learn.flow import FlowLayout, together
from lshdesk.gui.learn.lesson_plot import Plot
from lshdesk.gui.plots.export import choose_and_export
from lshdesk.gui.theme import ACCENT, Tone, keep_color, plot_colors

LINE = Tone("#c4502f", "#f4a081")  # the book's threshold (1/b)^(1/r): its line and label

INTRO = (
    "With b bands of r rows, two documents of similarity J agree on one slot with probability J, on a whole band "
    "(r slots) with probability J<sup>r</sup>, and on at least one of the b bands (they become a <b>candidate "
    "pair</b>) with probability P(J) below. Plotted against J it is an <b>S-curve</b>: pairs far below the "
    "step are almost never candidates, pairs far above it almost always are. Move the sliders and watch the "
    "step slide and sharpen; more slots (k = b × r) make it steeper. What counts as similar is yours to say: "
    "the <b>cut-off t</b>. <i>Mining of Massive Datasets</i> calls (1/b)<sup>1/r</sup> the <i>threshold</i> and "
    "says it approximates where the step is; the curve is steepest a little left of it, at "
    "((r − 1)/(rb − 1))<sup>1/r</sup>, and crosses ½ at (1 − 2<sup>−1/b</sup>)<sup>1/r</sup>. → and ← step "
    "through the schemes below."
)
MMDS = (20, 5, 0.8, 0.3)  # Mining of Massive Datasets' worked example: b = 20, r = 5, pairs at 0.8 and at 0.3
PRESETS = (
    ("strict 1 × 16", 1, 16),
    ("balanced 4 × 4", 4, 4),
    ("loose 16 × 1", 16, 1),
    ("the article's 10 × 2", 10, 2),
    ("the book's 20 × 5", 20, 5),
)
MAX_B, MAX_R = 64, 32


class SCurveLesson(LessonPage):
    """Sliders for b and r, the curve, its named points, the cut-off, and the sample pairs (or the user's) on it."""

    def __init__(self, source: CorpusSource, parent: QWidget | None = None) -> None:
        super().__init__("The S-curve", INTRO, parent)
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
            button.setToolTip(f"Set the scheme to {b} band{'s' * (b > 1)} of {r} row{'s' * (r > 1)} (k = {b * r})")
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
        describe(
            self.k_box, "The most slots b × r the auto-tune may use (Choose b × r for t)", "Slots k for the choice"
        )
        self.misses = QDoubleSpinBox()
        self.misses.setRange(0.05, 0.95)
        self.misses.setSingleStep(0.05)
        self.misses.setValue(0.5)
        self.misses.setAccessibleName("Weight of misses")
        self.misses.setToolTip(
            "How much a missed pair counts against a false positive (their weights add up to 1): 0.5 weighs them "
            "equally, more makes the auto-tune put the step left of t"
        )
        self.tune_button = QPushButton("Choose b × r for t")
        self.tune_button.setToolTip(
            "The S-curve tab's auto-tune: the b × r ≤ k that minimises the weighted areas of false positives below "
            "t and misses above t"
        )
        tune = FlowLayout()
        tune.addWidget(together(buddy(CUTOFF_LABEL, self.cutoff), self.cutoff))
        tune.addWidget(together(buddy("with at most k =", self.k_box), self.k_box))
        tune.addWidget(together(buddy("misses weigh", self.misses), self.misses))
        tune.addWidget(self.tune_button)
        self.body.addLayout(controls)
        self.body.addLayout(tune)
        self.body.addLayout(presets)
        self.formula = formula_box("")
        self.threshold_label = QLabel()
        self.threshold_label.setTextFormat(Qt.TextFormat.RichText)  # its values are escaped: never shown as '&lt;'
        self.threshold_label.setWordWrap(True)
        keep_color(self.threshold_label, ACCENT, "font-weight:600")
        self.body.addWidget(self.formula)
        self.body.addWidget(self.threshold_label)

        self._build_plot()
        self.plot.title_fn = self.export_title
        self.plot.apply_font()
        self.body.addWidget(self.plot, 1)
        self.pairs_label = rich_label("")
        self.body.addWidget(self.pairs_label)
        self.exercises = ExerciseBox(lesson_exercises("scurve"))
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

    def _build_plot(self) -> None:
        """The curve, the one-slot line, the pairs, the two marks, the two vertical lines, the legend below."""
        self.plot = Plot(280, "s_curve_lesson")
        describe(
            self.plot,
            "The S-curve of the scheme b × r: the chance that a pair becomes a candidate against its similarity J "
            "(0 to 1), beside the one-slot line P = J, with the cut-off and the threshold as vertical lines and the "
            "pairs drawn as points (the text under it lists them)",
            "S-curve lesson plot",
        )
        self.plot.setLabel("bottom", "similarity J (exact Jaccard of the pair)")
        self.plot.setLabel("left", "P(candidate pair)")
        self.plot.setXRange(0, 1, padding=0.02)
        self.plot.setYRange(0, 1, padding=0.02)
        self.plot.setMouseEnabled(x=False, y=False)
        self.js = np.linspace(0, 1, 401)
        self.one_slot = self.plot.plot(
            self.js, self.js, pen=pg.mkPen("#999", width=1, style=Qt.PenStyle.DashLine), name="one slot: P = J"
        )
        self.curve = self.plot.plot(name="P(J)")
        self.points = pg.ScatterPlotItem(size=8, symbol="o", name="pairs")
        self.steep_mark = pg.ScatterPlotItem(size=15, symbol="d", name="steepest point")
        self.half_mark = pg.ScatterPlotItem(size=13, symbol="s", name="P = ½")
        for item in (self.points, self.steep_mark, self.half_mark):
            self.plot.addItem(item)
        self.line = pg.InfiniteLine(angle=90, label="", labelOpts={"position": 0.93})  # P there is about 0.65
        self.plot.addItem(self.line)
        self.t_line = pg.InfiniteLine(angle=90, label="", labelOpts={"position": 0.88})
        self.plot.addItem(self.t_line)
        legend = self.plot.legend_below(4)
        self.line_key, self.t_key = pg.PlotDataItem(), pg.PlotDataItem()  # the vertical lines' keys in the legend
        legend.addItem(self.line_key, "book's threshold")
        legend.addItem(self.t_key, "cut-off t")
        self.figure = self.plot

    def restyle(self) -> None:
        c = plot_colors()
        self.curve.setPen(pg.mkPen(ACCENT.color(), width=3))
        self.points.setPen(pg.mkPen(c.text, width=1.5))
        self.points.setBrush(pg.mkBrush(0, 0, 0, 0))
        for mark in (self.steep_mark, self.half_mark):
            mark.setPen(pg.mkPen(c.background, width=1.5))
            mark.setBrush(pg.mkBrush(c.text))
        line = LINE.color()
        self.line.setPen(pg.mkPen(line, width=2))
        self.line.label.setColor(line)
        self.line.label.fill = pg.mkBrush(c.fill(200))
        self.line.label.update()
        self.t_line.setPen(pg.mkPen(c.text, width=2, style=Qt.PenStyle.DashLine))
        self.line_key.setPen(self.line.pen)
        self.t_key.setPen(self.t_line.pen)
        self.t_line.label.setColor(c.text)
        self.t_line.label.fill = pg.mkBrush(c.fill(200))
        self.t_line.label.update()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == event.Type.FontChange and hasattr(self, "half_mark"):
            line = self.fontMetrics().height()  # the marks as large as the text (a projector)
            self.points.setSize(max(8, line * 0.45))
            self.steep_mark.setSize(max(15, line * 0.8))
            self.half_mark.setSize(max(13, line * 0.7))

    def reset(self) -> None:
        self.cutoff.setValue(t.SIMILAR_CUTOFF)
        self.k_box.setValue(16)
        self.misses.setValue(0.5)
        self.set_scheme(4, 4)
        if self.use_files is not None and self.use_files.isChecked():
            self.use_files.setChecked(False)

    def tune(self) -> None:
        """The S-curve tab's auto-tune for the cut-off t and at most k slots, misses weighed as chosen."""
        w = self.misses.value()
        choice = optimal_banding(self.cutoff.value(), self.k_box.value(), fp_weight=1 - w, fn_weight=w)
        self.set_scheme(choice.bands, choice.rows)

    def parameters(self) -> dict[str, str]:
        b, r = self.b_slider.value(), self.r_slider.value()
        return {
            "scheme": f"{scheme_text(b, r)}, k = {b * r}",
            "points": points_text(b, r),
            "cut-off t": f"{self.cutoff.value():.2f}",
            "pairs on the curve": self.names,
        }

    def reading(self) -> list[QWidget]:
        return [*super().reading(), self.formula, self.pairs_label]

    def step_forward(self) -> None:
        self._story(+1)

    def step_back(self) -> None:
        self._story(-1)

    def step_home(self) -> None:
        self.set_scheme(*PRESETS[0][1:])

    def _story(self, step: int) -> None:
        here = (self.b_slider.value(), self.r_slider.value())
        at = next((i for i, (_, b, r) in enumerate(PRESETS) if (b, r) == here), -1 if step > 0 else len(PRESETS))
        _, b, r = PRESETS[max(0, min(len(PRESETS) - 1, at + step))]
        self.set_scheme(b, r)

    def export_title(self) -> str:
        b, r = self.b_slider.value(), self.r_slider.value()
        return (
            f"S-curve P(J) = 1 − (1 − J^{r})^{b}: {scheme_text(b, r)}, k = {b * r}, "
            f"cut-off t = {self.cutoff.value():.2f}, {points_text(b, r)}; points: {self.names}"
        )

    def _slider(self, maximum: int, value: int, name: str) -> QSlider:
        s = QSlider(Qt.Orientation.Horizontal)
        s.setRange(1, maximum)
        s.setValue(value)
        s.setToolTip(f"{name}: move it to see the S-curve change")
        describe(s, f"{name} of the scheme: move it to see the S-curve change", name)
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
        pts, cut = cp.curve_points(b, r), self.cutoff.value()
        self.b_label.setText(f"bands <b>b = {b}</b>")
        self.r_label.setText(f"rows per band <b>r = {r}</b>")
        self.curve.setData(self.js, probability(self.js, b, r))
        self.line.setValue(pts.book)
        self.line.label.setFormat(f"book's threshold ≈ {to_fixed(pts.book, 3)}")
        self.t_line.setValue(cut)
        self.t_line.label.setFormat(f"cut-off t = {to_fixed(cut, 2)}")
        # the labels sit left of their lines, where the (rising) curve is below P at the line: high up is clear of
        # it, unless P there is already high (then low down is)
        self.t_line.label.setPosition(0.12 if float(probability(cut, b, r)) > 0.72 else 0.80)
        steep = [] if pts.steepest is None else [pts.steepest]
        self.steep_mark.setData(steep, [float(probability(x, b, r)) for x in steep])
        self.half_mark.setData([pts.half], [0.5])
        self.threshold_label.setText(
            esc(f"{points_text(b, r)}   ·   your cut-off t = {cut:.2f}   ·   k = b × r = {b * r}")
        )
        self.formula.setText(self._formula_html(b, r))
        j = self.pair_j
        p_j = probability(j, b, r)
        self.points.setData(j, p_j)
        similar = t.is_similar(j, cut)
        n_sim = int(similar.sum())
        self.pairs_label.setText(
            f"<b>On the curve:</b> the {len(j):,} pairs of {esc(self.names)}. {plural(n_sim, 'is', 'are')} similar "
            f"(J ≥ cut-off t = {cut:.2f}); on average {to_fixed(float(p_j[similar].sum()), 2)} of them become "
            f"candidates and {to_fixed(float((1 - p_j[similar]).sum()), 2)} are missed. Of the "
            f"{int((~similar).sum()):,} pairs below t, {to_fixed(float(p_j[~similar].sum()), 2)} become candidates "
            "on average: those are the <i>false positives</i> the exact check then throws away."
        )

    def _formula_html(self, b: int, r: int) -> str:
        """P(J) for this scheme at three similarities, what the marks mean, and the book's worked example."""
        p = lambda j: esc(f"P({j}){prob_is(float(probability(j, b, r)))}")  # noqa: E731
        mb, mr, hi, lo = MMDS
        book = cp.curve_points(mb, mr)
        at_book = float(probability(cp.book_threshold(b, r), b, r))
        return (
            f"P(J) = 1 − (1 − J<sup>r</sup>)<sup>b</sup> = 1 − (1 − J<sup>{r}</sup>)<sup>{b}</sup>. "
            f"For example {p(0.3)}, {p(0.5)}, {p(0.8)}. "
            "The orange line is the book's threshold (1/b)<sup>1/r</sup>: the curve crosses it at "
            f"P = 1 − (1 − 1/b)<sup>b</sup> = {esc(prob_text(at_book))}, not at ½. The diamond marks where the "
            "curve is steepest, the square where P = ½; the dashed line is your cut-off t. Candidates left of t "
            "are false positives (the exact check drops them), pairs right of t that never become candidates are "
            "missed (false negatives).<br>"
            f"<b>Choosing b and r</b> (<i>Mining of Massive Datasets</i>' example): b = {mb}, r = {mr} (k = "
            f"{mb * mr}) has the book's threshold (1/{mb})<sup>1/{mr}</sup> = {to_fixed(book.book, 3)}; the curve "
            f"is steepest at {to_fixed(book.steepest or 0.0, 3)} and crosses ½ at {to_fixed(book.half, 3)}. A pair "
            f"at J = {hi} becomes a candidate with P = {esc(prob_text(float(probability(hi, mb, mr)), 5))}: about 1 "
            f"in {round(1 / (1 - float(probability(hi, mb, mr)))):,} such pairs is missed. A pair at J = {lo} does "
            f"with P = {to_fixed(float(probability(lo, mb, mr)), 3)}: a false positive to check. More rows push the "
            "step right (fewer false positives, more misses); more bands pull it left. Put the step a little left "
            "of t when misses cost more than checks: raise the weight of misses before you choose."
        )


def points_text(b: int, r: int) -> str:
    """The curve's three named points in one line, rounded the one way every lesson rounds (half up)."""
    pts = cp.curve_points(b, r)
    shape = cp.shape(b, r)
    steep = (
        f"steepest at {to_fixed(pts.steepest, 3)}"
        if pts.steepest is not None
        else "steepest at J = 0 (r = 1: concave)"
        if shape == "concave"
        else "steepest at J = 1 (b = 1: convex)"
        if shape == "convex"
        else "a straight line"
    )
    return f"book's threshold (1/b)^(1/r) = {to_fixed(pts.book, 3)}, {steep}, P = ½ at {to_fixed(pts.half, 3)}"
