"""Choosing k for a target error, and b x r for a target cut-off (MMDS 3.4.3): the S-curve with the two areas the
automatic choice weighs shaded: pairs below the cut-off that become candidates, pairs above it that are missed."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QDoubleSpinBox, QFormLayout, QSpinBox, QWidget

from lshdesk.core.scurve import false_negative_area, false_positive_area, optimal_banding, probability, threshold
from lshdesk.core.teaching.exercises import Exercise
from lshdesk.core.teaching.figures import to_fixed
from lshdesk.gui.accessible import describe
from lshdesk.gui.learn.colours import FALSE_POSITIVE, MISSED, swatch
from lshdesk.gui.learn.common import LessonPage, formula_box, rich_label
from lshdesk.gui.learn.exercise_box import ExerciseBox
from lshdesk.gui.learn.lesson_plot import unit_plot

INTRO = (
    "Two choices come before any scan. <b>k</b>, the signature's length, sets how close the estimate is: it "
    "averages k agree-or-not draws, so its standard error at similarity J is √(J(1 − J)/k), and a target error ε "
    "needs <b>k ≈ J(1 − J)/ε²</b>. <b>b × r</b> (with b·r ≤ k) sets where the S-curve rises. The book places the "
    "rise near (1/b)<sup>1/r</sup>, its approximate threshold; lshdesk calls the similarity you want the "
    "<b>cut-off</b> t and picks the b × r whose curve wastes least: the area under the curve left of t (pairs "
    "below t that become candidates) and the area above it right of t (pairs at t or more that are missed)."
)


def k_for(j: float, error: float) -> int:
    """The signature length whose standard error at similarity ``j`` is at most ``error``."""
    return max(1, math.ceil(j * (1 - j) / error**2))


def choosing_exercises() -> list[Exercise]:
    k = k_for(0.5, 0.05)
    best = optimal_banding(0.8, 128)
    fp, fn = (float(f(0.8, best.bands, best.rows)) for f in (false_positive_area, false_negative_area))
    return [
        Exercise(
            "What k gives a standard error of at most 0.05 at J = 0.5?",
            f"J(1 − J)/ε² = 0.25 / 0.0025 = {k}.",
            float(k),
            0.5,
        ),
        Exercise(
            "Doubling k: by what factor does the standard error shrink?",
            f"By √2: it goes as 1/√k. Halving the error takes 4 times as many slots ({to_fixed(1 / math.sqrt(2), 3)}).",
            1 / math.sqrt(2),
            0.01,
        ),
        Exercise(
            "With k = 128 and cut-off 0.8, which b × r has the smallest total of the two areas? (Give b.)",
            f"{best.bands} × {best.rows}: areas {to_fixed(fp, 4)} (candidates below 0.8) and {to_fixed(fn, 4)} "
            f"(missed at 0.8 or more); the book's threshold of that scheme is {to_fixed(threshold(best.bands, best.rows), 3)}.",
            float(best.bands),
            0.01,
        ),
    ]


class ChoosingLesson(LessonPage):
    """J and ε give k; the cut-off and k give b x r, drawn with the false-positive and false-negative areas."""

    story_values = (0.5, 0.6, 0.7, 0.8, 0.9)  # ← → step cutoff through these
    story_box = "cutoff"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Choosing k, b and r", INTRO, parent)
        self.j, self.error, self.cutoff = (
            _double(0.5, 0.01, 0.99),
            _double(0.05, 0.005, 0.5, 3),
            _double(0.8, 0.05, 1.0),
        )
        self.k = QSpinBox()
        self.k.setRange(2, 512)
        self.k.setValue(128)
        describe(self.k, "Slots of the signature, split into b bands of r rows for the cut-off", "Signature length k")
        self.k.setMaximumWidth(200)
        form = QFormLayout()
        form.addRow("Similarity J", self.j)
        form.addRow("Target error ε", self.error)
        form.addRow("Signature length k (for b × r)", self.k)
        form.addRow("Cut-off t", self.cutoff)
        self.body.addLayout(form)
        describe(self.j, "The similarity of the pair to estimate: the signature length it needs is worked out for it")
        describe(self.error, "The standard error of the estimate wanted at J: a smaller ε needs a longer signature")
        describe(self.cutoff, "Pairs at this Jaccard or more should become candidates: b × r is chosen for it")
        self.k_text = formula_box("")
        self.scheme_text = rich_label("")
        self.legend = rich_label(
            f"<b>Colours:</b> {swatch('false positives: below t, yet candidates', FALSE_POSITIVE)} &nbsp; "
            f"{swatch('missed: at t or more, no candidate', MISSED)}"
        )
        self.plot = unit_plot(300, "choosing_scheme", "Jaccard similarity J", "P(candidate)")
        describe(
            self.plot,
            "The chosen scheme's S-curve, the chance of becoming a candidate against J (0 to 1), a dashed line at "
            "the cut-off; shaded: the false positives left of it and the misses right of it (their areas in the text)",
            "Chosen scheme's S-curve plot",
        )
        for w in (self.k_text, self.scheme_text, self.legend, self.plot):
            self.body.addWidget(w)
        self.figure = self.plot  # kept on screen in presentation mode
        self.exercises = ExerciseBox(choosing_exercises())
        self.body.addWidget(self.exercises)
        self.body.addStretch(1)
        for box in (self.j, self.error, self.k, self.cutoff):
            box.valueChanged.connect(self._show)
        self._show()

    def reset(self) -> None:
        for box, v in ((self.j, 0.5), (self.error, 0.05), (self.cutoff, 0.8)):
            box.setValue(v)
        self.k.setValue(128)
        self.exercises.reset()

    def _show(self) -> None:
        j, e, t, k = self.j.value(), self.error.value(), self.cutoff.value(), self.k.value()
        need = k_for(j, e)
        self.k_text.setText(
            f"At J = {j:g}, a standard error of {e:g} needs <b>k = {need:,}</b> (J(1 − J)/ε² = "
            f"{to_fixed(j * (1 - j) / e**2, 1)}); k = {k} gives {to_fixed(math.sqrt(j * (1 - j) / k), 3)}."
        )
        self.best = best = optimal_banding(t, k)
        fp, fn = (float(f(t, best.bands, best.rows)) for f in (false_positive_area, false_negative_area))
        self.scheme_text.setText(
            f"For cut-off {t:g} and k = {k}: <b>{best.bands} × {best.rows}</b> (equal weights) leaves areas "
            f"{to_fixed(fp, 4)} left of t and {to_fixed(fn, 4)} right of it; the book's threshold of this scheme, "
            f"(1/b)<sup>1/r</sup>, is {to_fixed(threshold(best.bands, best.rows), 3)}."
        )
        self._draw(t, best.bands, best.rows)

    def _draw(self, t: float, b: int, r: int) -> None:
        self.plot.clear()
        xs = np.linspace(0, 1, 401)
        ys = probability(xs, b, r)
        left, right = xs <= t, xs >= t
        zero, one = pg.PlotDataItem(xs[left], np.zeros(left.sum())), pg.PlotDataItem(xs[right], np.ones(right.sum()))
        below, above = pg.PlotDataItem(xs[left], ys[left]), pg.PlotDataItem(xs[right], ys[right])
        for a, c, tone in ((zero, below, FALSE_POSITIVE), (above, one, MISSED)):
            color = tone.color()
            color.setAlpha(150)
            self.plot.addItem(pg.FillBetweenItem(a, c, brush=color))
        self.plot.plot(xs, ys, pen=pg.mkPen(width=2))
        self.plot.addItem(pg.InfiniteLine(t, angle=90, pen=pg.mkPen(style=pg.QtCore.Qt.PenStyle.DashLine)))


def _double(value: float, lo: float, hi: float, decimals: int = 2) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(lo, hi)
    box.setDecimals(decimals)
    box.setSingleStep(10**-decimals * 5 if decimals > 2 else 0.05)
    box.setValue(value)
    box.setMaximumWidth(200)
    return box
