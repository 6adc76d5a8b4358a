"""b-bit MinHash (Li & König), an advanced page: the classic 32-bit slots against 1, 2, 4 and 8 bits a slot in the same
memory, and one-permutation hashing, with the mean absolute error over many seeds on the sentences' pairs or the
user's files, as a table and a plot."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QSpinBox, QWidget

from lshdesk.core.teaching import bbit
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.exercises import Exercise
from lshdesk.core.teaching.figures import to_fixed
from lshdesk.gui.accessible import describe
from lshdesk.gui.learn.common import MAX_LESSON_DOCS, LessonPage, esc, formula_box, rich_label
from lshdesk.gui.learn.corpus_source import CorpusSource
from lshdesk.gui.learn.exercise_box import ExerciseBox
from lshdesk.gui.learn.lesson_plot import Plot
from lshdesk.gui.learn.tables import fit_rows, lesson_table, table_item
from lshdesk.gui.theme import SET_COLORS, plot_colors

INTRO = (
    "A classic slot keeps a 32-bit minimum. <b>b-bit MinHash</b> (Li &amp; König) keeps only its lowest b bits, so "
    "the same memory holds 32/b times more slots. Two <i>different</i> minima now agree by chance, with probability "
    "C = 2<sup>−b</sup>, so the share of agreeing slots is P = C + (1 − C)·J, and the estimate undoes it: "
    "<b>Ĵ = (P̂ − C) / (1 − C)</b>. More slots make up for the chance agreements where J is high; near J = 0 "
    "the classic signature is exact (no slot agrees) while b-bit slots still agree by chance."
)
HEADERS = ["Signature", "Slots", "Bits a document", "Mean |Ĵ − J|, all pairs", "pairs J ≥ 0.5", "pairs J < 0.5"]
FILE_BUDGET = 3 * 10**8  # slot evaluations (shingles x slots x seeds) on the user's files: a few seconds here


def bbit_exercises() -> list[Exercise]:
    p = bbit.chance_agreement(1) + (1 - bbit.chance_agreement(1)) * 0.6
    j_hat = float(bbit.bbit_estimate(0.7, 2))
    classic = np.sqrt(0.9 * 0.1 / 16)
    ratio = classic / float(bbit.bbit_std(0.9, 1, 512))
    return [
        Exercise(
            "With b = 1, what share of the slots agree, on average, for a pair at J = 0.6?",
            f"C + (1 − C)·J = 0.5 + 0.5 × 0.6 = {to_fixed(p, 2)}: the slots whose minimum is shared, and half of "
            "the others by chance.",
            p,
            0.01,
        ),
        Exercise(
            "With b = 2, 70 % of the slots agree. What is the estimate Ĵ?",
            f"C = 2^−2 = 0.25; Ĵ = (0.7 − 0.25) / (1 − 0.25) = {to_fixed(j_hat, 2)}.",
            j_hat,
            0.01,
        ),
        Exercise(
            "In the memory of 16 classic slots (512 bits), b = 1 has 512 slots. At J = 0.9, how many times smaller "
            "is its standard error?",
            f"Classic: √(0.9 × 0.1 / 16) = {to_fixed(classic, 4)}. b = 1: P = 0.95, √(0.95 × 0.05 / 512) / 0.5 = "
            f"{to_fixed(float(bbit.bbit_std(0.9, 1, 512)), 4)}: {to_fixed(ratio, 1)} times smaller.",
            ratio,
            0.1,
        ),
    ]


class BbitLesson(LessonPage):
    """k classic slots and the number of seeds; the table and the plot of each scheme's error at equal memory."""

    story_values = (8, 16, 32, 64)  # ← → step k through these
    story_box = "k"

    def __init__(self, source: CorpusSource, parent: QWidget | None = None) -> None:
        super().__init__("b-bit MinHash: more slots in the same memory", INTRO, parent)
        self.source = source
        self.add_use_files(source, self.use_my_files)
        self.k = _spin(
            2, 64, 16, "Classic slots k", "The classic signature's slots: it sets every scheme's memory, 32·k bits"
        )
        self.seeds = _spin(10, 1000, 200, "Seeds", "How many sets of hash functions each error is averaged over")
        form = QFormLayout()
        form.addRow("Classic slots k (sets the memory: 32·k bits)", self.k)
        form.addRow("Seeds (each a new set of hash functions)", self.seeds)
        self.body.addLayout(form)
        self.what = rich_label("")
        self.table = lesson_table(HEADERS, "Error at equal memory")
        self.plot = Plot(260, "bbit_error")
        describe(
            self.plot,
            "Each scheme's mean error |Ĵ − J| against the pair's exact Jaccard J (0 to 1), at equal memory: the "
            "classic 32-bit slots, the b-bit ones and one permutation; the table above gives the averages",
            "Error of b-bit MinHash plot",
        )
        self.plot.setLabel("bottom", "exact Jaccard J of the pair")
        self.plot.setLabel("left", "mean |Ĵ − J|")
        self.plot.getAxis("left").enableAutoSIPrefix(False)
        self.plot.setXRange(0, 1, padding=0.02)
        self.plot.addLegend(offset=(10, 5), colCount=3)  # two rows along the top, over the headroom _draw leaves
        self.plot.title_fn = lambda: f"b-bit MinHash at equal memory ({32 * self.k.value()} bits a document)"
        self.costs = formula_box("")
        for w in (self.what, self.table, self.plot, self.costs):
            self.body.addWidget(w)
        self.figure = self.plot  # kept on screen in presentation mode
        self.exercises = ExerciseBox(bbit_exercises())
        self.body.addWidget(self.exercises)
        self.body.addStretch(1)
        self.docs: list[tuple[str, str]] | None = None
        for box in (self.k, self.seeds):
            box.valueChanged.connect(self._show)
        self._show()

    def use_my_files(self, on: bool) -> None:
        self.docs = self.source.documents()[:MAX_LESSON_DOCS] if on else None
        self._show()

    def reset(self) -> None:
        self.k.setValue(16)
        self.seeds.setValue(200)
        self.exercises.reset()

    def _show(self) -> None:
        texts = [text for _, text in self.docs] if self.docs else list(t.SENTENCES)
        schemes = bbit.equal_memory(self.k.value())
        seeds = self.seeds.value()
        if self.docs:
            seeds = bbit.seeds_within(texts, t.WORDS, schemes, seeds, FILE_BUDGET)
        self.result = m = bbit.measure(texts, t.WORDS, schemes, seeds, t.jaccard_matrix(texts))
        what = f"your {len(texts)} files" if self.docs else f"the {len(texts)} sample sentences"
        high = int(np.count_nonzero(m.jaccard >= 0.5))
        self.what.setText(
            f"On {esc(what)} ({len(m.jaccard)} pairs, {high} at J ≥ 0.5; word shingles), {seeds} seeds of the fast "
            f"family, each scheme in {32 * self.k.value()} bits a document. Each figure is |Ĵ − J| averaged over the "
            "seeds and the pairs; the smallest in each column is bold." + self._verdict(m)
        )
        self._fill(m)
        self._draw(m)
        self._costs(m)

    @staticmethod
    def _verdict(m: bbit.Measurement) -> str:
        """Which scheme does best at high and at low J, against the classic one (computed, for the page's text)."""
        out = []
        for name, mask in (("J ≥ 0.5", m.jaccard >= 0.5), ("J &lt; 0.5", m.jaccard < 0.5)):
            mae = m.mae(mask)
            if not np.isnan(mae).all():
                best = int(np.nanargmin(mae))
                out.append(
                    f"at {name}, {m.schemes[best].label} ({to_fixed(float(mae[best]), 4)} against the classic "
                    f"{to_fixed(float(mae[0]), 4)})"
                )
        return " Best " + "; ".join(out) + "." if out else ""

    def _fill(self, m: bbit.Measurement) -> None:
        cols = [m.mae(), m.mae(m.jaccard >= 0.5), m.mae(m.jaccard < 0.5)]
        self.table.setRowCount(len(m.schemes))
        for r, s in enumerate(m.schemes):
            self.table.setItem(r, 0, table_item(s.label, left=True))
            self.table.setItem(r, 1, table_item(f"{s.slots:,}"))
            self.table.setItem(r, 2, table_item(f"{s.slots * s.bits:,}"))
            for c, values in enumerate(cols):
                v = values[r]
                best = not np.isnan(v) and v == np.nanmin(values)
                self.table.setItem(r, 3 + c, table_item("–" if np.isnan(v) else to_fixed(float(v), 4), bold=best))
        fit_rows(self.table)
        self.table.setFixedHeight(self.table.verticalHeader().length() + self.table.horizontalHeader().height() + 4)

    def _draw(self, m: bbit.Measurement) -> None:
        self.plot.clear()
        order = np.argsort(m.jaccard, kind="stable")
        # b-bit in red, blue, orange, purple; one permutation in teal, dashed (the only green)
        inks = [plot_colors().text, *(SET_COLORS[i].color() for i in (0, 1, 3, 4, 2))]
        for s, err, ink, symbol in zip(m.schemes, m.abs_error, inks, "osdtx+"):
            dash = Qt.PenStyle.DashLine if s.one_permutation else Qt.PenStyle.SolidLine
            self.plot.plot(
                m.jaccard[order],
                err[order],
                pen=pg.mkPen(ink, width=3 if s.bits == bbit.SLOT_BITS else 2, style=dash),
                symbol=symbol,
                symbolSize=7,
                symbolBrush=ink,
                symbolPen=None,
                name=s.label,
            )
        self.plot.setYRange(0, 1.6 * float(np.max(m.abs_error)) or 0.01, padding=0)
        self.plot.apply_font()

    def _costs(self, m: bbit.Measurement) -> None:
        one = next(s for s in m.schemes if s.bits == 1)
        low = m.jaccard < 0.5
        negative = float(np.mean(m.negative[m.schemes.index(one), low])) if low.any() else float("nan")
        self.costs.setText(
            f"<b>What it costs.</b> {one.slots // self.k.value()} times as many hash functions to evaluate for "
            f"every shingle at b = 1 ({one.slots:,} against {self.k.value()}): the memory is saved, not the time. "
            f"Estimates of dissimilar pairs fall below 0 (at b = 1, {to_fixed(100 * negative, 1)} % of the "
            f"estimates of pairs at J &lt; 0.5 here). And banding needs whole-slot keys: a band of r one-bit slots "
            f"agrees by chance with probability 2<sup>−r</sup> (r = 4: {to_fixed(2.0**-4, 4)}), so two unrelated "
            "documents share a bucket far more often than with 32-bit slots. <b>One permutation</b> saves the "
            f"time instead: one hash function for all {self.k.value()} bins (the minimum in each bin of the hash's "
            "range; an empty bin takes the value of the next non-empty one to its right), in the classic memory."
        )


def _spin(lo: int, hi: int, value: int, name: str, description: str) -> QSpinBox:
    box = QSpinBox()
    box.setRange(lo, hi)
    box.setValue(value)
    return describe(box, description, name)
