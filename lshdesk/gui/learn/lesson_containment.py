"""Containment: a short excerpt inside a long document has a low Jaccard similarity with it, so a Jaccard scan never
finds it; C(A in B) = |A ∩ B| / |A| does, and how lshdesk scans by it (size classes, as LSH Ensemble)."""

from __future__ import annotations

import numpy as np
from PySide6.QtWidgets import QDoubleSpinBox, QFormLayout, QSpinBox, QWidget

from lshdesk.core.query.containment import CLASS_RATIO, jaccard_bound
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.exercises import Exercise
from lshdesk.core.teaching.figures import ratio_text, to_fixed
from lshdesk.gui.accessible import describe
from lshdesk.gui.learn.common import LessonPage, esc, formula_box, rich_label
from lshdesk.gui.learn.exercise_box import ExerciseBox
from lshdesk.gui.learn.lesson_plot import unit_plot

INTRO = (
    "Jaccard similarity compares two sets as equals. A quotation, an abstract or a copied paragraph is a <b>small</b> "
    "set inside a <b>large</b> one: all of it is in the long document, yet their Jaccard is small, because the "
    "union is as large as the long document. <b>Containment</b> asks the other question: how much of A is in B? "
    "C(A in B) = |A ∩ B| / |A|. It is not symmetric: C(B in A) = |A ∩ B| / |B|."
)
HOW = (
    "<b>How lshdesk scans by containment</b> (Measure: Containment in the parameters, or "
    "<code>--measure containment</code>): for a "
    "smaller set of size s inside a larger of size l, C ≥ t means J ≥ t·s / (s + l − t·s), lowest for the "
    f"smallest s and largest l. So documents are sorted into size classes (each {CLASS_RATIO:g} times the last), "
    "and each pair of classes gets its own banding for that lowest Jaccard (the idea of LSH Ensemble, Zhu et al. "
    "2016); every candidate is then checked exactly."
)


def sentence_example() -> tuple[float, float, int, int]:
    """(C, J, |A|, |B|) of the first sample sentence inside the eight sentences together (word sets)."""
    a = t.word_set(t.SENTENCES[0])
    b = t.word_set(" ".join(t.SENTENCES))
    return len(a & b) / len(a), len(a & b) / len(a | b), len(a), len(b)


def containment_exercises() -> list[Exercise]:
    j_needed = float(jaccard_bound(0.8, 100, 1000))
    c, j, na, nb = sentence_example()
    return [
        Exercise(
            "An excerpt of 50 shingles lies wholly inside a document of 500. What is their Jaccard similarity?",
            f"|A ∩ B| = 50 and |A ∪ B| = 500: J = 50/500 = {to_fixed(50 / 500, 2)}, while C(A in B) = 1.",
            0.1,
        ),
        Exercise(
            "Sets of 100 and 1,000 shingles, the small one contained at 0.8: what is their Jaccard?",
            f"J = 0.8 × 100 / (100 + 1,000 − 0.8 × 100) = {to_fixed(j_needed, 4)}: a Jaccard scan at 0.8 cannot see "
            "it; a scheme for that class pair bands for this Jaccard.",
            j_needed,
            0.001,
        ),
        Exercise(
            "The first sample sentence inside all eight sentences put together: what is C(sentence in all)? And J?",
            f"C = {ratio_text(round(c * na), na)} = {to_fixed(c, 2)} (every word of it is there); J = "
            f"{ratio_text(na, nb)} = {to_fixed(j, 3)}: the sentence is {na} of the {nb} distinct words.",
            c,
        ),
    ]


class ContainmentLesson(LessonPage):
    """Sizes and a cut-off; the Jaccard a contained pair has, its curve over the size ratio, the sample's example."""

    story_values = (10, 50, 100, 250, 500)  # ← → step small through these
    story_box = "small"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Containment: a small text inside a large one", INTRO, parent)
        self.small = describe(_spin(50), "How many distinct shingles the small text A has (it lies wholly inside B)")
        self.large = describe(_spin(500), "How many distinct shingles the large text B has, A's among them")
        self.cutoff = QDoubleSpinBox()
        self.cutoff.setRange(0.05, 1.0)
        self.cutoff.setSingleStep(0.05)
        self.cutoff.setValue(0.8)
        describe(
            self.cutoff,
            "How much of A must lie in B to count as contained: the figures say the Jaccard J "
            "such a pair has, and whether a Jaccard scan at this cut-off finds it",
            "Containment cut-off",
        )
        self.cutoff.setMaximumWidth(200)
        form = QFormLayout()
        form.addRow("Shingles of the small text A", self.small)
        form.addRow("Shingles of the large text B", self.large)
        form.addRow("Containment cut-off t", self.cutoff)
        self.body.addLayout(form)
        self.figures = rich_label("")
        c, j, na, nb = sentence_example()
        self.example = rich_label(
            esc(
                f"The sample: the first sentence ({na} distinct words) inside all eight together ({nb}): "
                f"C = {to_fixed(c, 2)}, J = {to_fixed(j, 3)}."
            )
        )
        self.plot = unit_plot(260, "containment_jaccard", "size ratio |A| / |B|", "Jaccard at containment t")
        self.plot.addLegend(offset=(10, 10))
        describe(
            self.plot,
            "The Jaccard J of a pair whose small text is contained at the cut-off, against the size ratio |A| / |B| "
            "(0 to 1): J falls as the large text grows; a dot marks the sizes chosen",
            "Jaccard of a contained pair plot",
        )
        for w in (self.figures, self.plot, self.example, formula_box(HOW)):
            self.body.addWidget(w)
        self.figure = self.plot  # kept on screen in presentation mode
        self.exercises = ExerciseBox(containment_exercises())
        self.body.addWidget(self.exercises)
        self.body.addStretch(1)
        for box in (self.small, self.large, self.cutoff):
            box.valueChanged.connect(self._show)
        self._show()

    def reset(self) -> None:
        self.small.setValue(50)
        self.large.setValue(500)
        self.cutoff.setValue(0.8)
        self.exercises.reset()

    def _show(self) -> None:
        s, l, c = self.small.value(), max(self.large.value(), self.small.value()), self.cutoff.value()
        self.needed = float(jaccard_bound(c, s, l))
        self.figures.setText(
            f"A wholly inside B: C(A in B) = 1, C(B in A) = {to_fixed(s / l, 3)}, J = {to_fixed(s / l, 3)}. "
            f"Contained at {c:g}: J = {to_fixed(self.needed, 4)}, so a Jaccard scan at cut-off {c:g} "
            f"{'finds it' if self.needed >= c else 'misses it'}."
        )
        self.plot.clear()
        ratio = np.linspace(0.001, 1, 300)
        self.plot.plot(ratio, c * ratio / (1 + ratio - c * ratio), pen={"width": 2}, name=f"J of a pair at C = {c:g}")
        self.plot.plot([s / l], [self.needed], pen=None, symbol="o", symbolSize=9, name="these sizes")


def _spin(value: int) -> QSpinBox:
    box = QSpinBox()
    box.setRange(1, 10**7)
    box.setValue(value)
    box.setGroupSeparatorShown(True)
    box.setMaximumWidth(200)
    return box
