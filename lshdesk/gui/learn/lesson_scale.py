"""Why not compare every pair (MMDS 3.4): the cost of all pairs against signatures, and the expected number of
candidate pairs under b x r (the sum of P(J) over all pairs) beside the count LSH really gives, on the sentences or
the user's files."""

from __future__ import annotations

import numpy as np
from PySide6.QtWidgets import QFormLayout, QSpinBox, QWidget

from lshdesk.core.compare import all_pairs
from lshdesk.core.lsh import candidate_pairs
from lshdesk.core.params import Banding
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching import mmds
from lshdesk.core.teaching.exercises import Exercise
from lshdesk.core.teaching.figures import to_fixed
from lshdesk.gui.accessible import describe
from lshdesk.gui.learn.common import MAX_LESSON_DOCS, LessonPage, esc, formula_box, rich_label
from lshdesk.gui.learn.corpus_source import CorpusSource
from lshdesk.gui.learn.exercise_box import ExerciseBox

INTRO = (
    "Comparing every pair of n documents takes n(n − 1)/2 comparisons: it grows with the square of n. "
    "Signatures are small (k numbers a document), and banding compares only the <b>candidate pairs</b>. How many "
    "candidates to expect? Each pair becomes one with probability P(J) = 1 − (1 − J<sup>r</sup>)<sup>b</sup>, so "
    "the expected number is the <b>sum of P(J) over all pairs</b>: the few similar pairs count almost fully, the "
    "many dissimilar ones a little each."
)
SEED_N = 10**8  # the article's "hundred million web pages"


def _sci(x: float) -> str:
    """5.0 × 10<sup>15</sup>."""
    mantissa, exponent = f"{x:.1e}".split("e")
    return f"{mantissa} × 10<sup>{int(exponent)}</sup>"


def _duration(seconds: float) -> str:
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= size:
            return f"{seconds / size:,.1f} {unit}"
    return f"{seconds:,.1f} seconds"


def scale_exercises() -> list[Exercise]:
    s, seed = mmds.scale(10**5, 100), mmds.scale(SEED_N)
    sims = [0.8] * 10 + [0.2] * 1000
    e = mmds.expected_candidates(sims, 20, 5)
    return [
        Exercise(
            "How many pairs do 100,000 documents make?",
            f"n(n − 1)/2 = 100,000 × 99,999 / 2 = {s.pairs:,}: about 5 × 10^9. At a microsecond a pair, "
            f"{_duration(s.seconds)}.",
            float(s.pairs),
            s.pairs * 0.02,
        ),
        Exercise(
            "How much memory do their signatures take at k = 100, 4 bytes a value? (In MB.)",
            f"100,000 × 100 × 4 bytes = {s.signature_bytes:,} bytes = {s.signature_bytes / 1e6:g} MB.",
            s.signature_bytes / 1e6,
            0.5,
        ),
        Exercise(
            "1,000 pairs at J = 0.2 and 10 pairs at J = 0.8, banded 20 × 5: how many candidates do you expect?",
            f"10 × P(0.8) + 1,000 × P(0.2) = 10 × {to_fixed(float(mmds.expected_candidates([0.8], 20, 5)), 4)} "
            f"+ 1,000 × {to_fixed(float(mmds.expected_candidates([0.2], 20, 5)), 4)} ≈ {to_fixed(e, 1)}. "
            f"(The article's 10^8 pages make {seed.pairs:.1e} pairs; its 10^16 is n², each pair counted twice.)",
            e,
            0.5,
        ),
    ]


class ScaleLesson(LessonPage):
    """n, k and a scheme; the cost of all pairs; expected against actual candidates."""

    colourless = True  # figures in words only: no colour to name in a legend

    story_values = (10**3, 10**4, 10**5, 10**6, 10**7, 10**8)  # ← → step n through these
    story_box = "n"

    def __init__(self, source: CorpusSource, parent: QWidget | None = None) -> None:
        super().__init__("Why not compare every pair?", INTRO, parent)
        self.source = source
        self.add_use_files(source, self.use_my_files)
        self.n = _spin(2, 10**9, 10**5, "Documents n", "How many documents: all pairs grow as n², candidates do not")
        self.k = _spin(1, 1024, 100, "Signature length k", "Slots per signature: what one comparison of two costs")
        self.rate = _spin(
            1, 10**9, 10**6, "Comparisons a second", "How many exact comparisons the machine makes a second"
        )
        self.bands = _spin(1, 16, 4, "Bands b", "Bands of the LSH scheme: more bands, more candidate pairs")
        self.rows = _spin(1, 16, 4, "Rows per band r", "Rows in each band: more rows, fewer candidates by chance")
        form = QFormLayout()
        for label, box in (
            ("Documents n", self.n),
            ("Signature length k", self.k),
            ("Exact comparisons a second", self.rate),
            ("Bands b", self.bands),
            ("Rows r", self.rows),
        ):
            form.addRow(label, box)
        self.body.addLayout(form)
        self.costs = formula_box("")
        self.expect = rich_label("")
        for w in (self.costs, self.expect):
            self.body.addWidget(w)
        self.figure = self.costs  # kept on screen in presentation mode
        self.exercises = ExerciseBox(scale_exercises())
        self.body.addWidget(self.exercises)
        self.body.addStretch(1)
        self.docs: list[tuple[str, str]] | None = None  # the user's files, when used
        for box in (self.n, self.k, self.rate, self.bands, self.rows):
            box.valueChanged.connect(self._show)
        self._show()

    def use_my_files(self, on: bool) -> None:
        self.docs = self.source.documents()[:MAX_LESSON_DOCS] if on else None
        self._show()

    def reset(self) -> None:
        for box, v in ((self.n, 10**5), (self.k, 100), (self.rate, 10**6), (self.bands, 4), (self.rows, 4)):
            box.setValue(v)
        self.exercises.reset()

    def _show(self) -> None:
        s = mmds.scale(self.n.value(), self.k.value(), self.rate.value())
        seed = mmds.scale(SEED_N, self.k.value(), self.rate.value())
        self.costs.setText(
            f"<b>{s.n:,} documents</b> make <b>{s.pairs:,} pairs</b>: {_duration(s.seconds)} to compare them all at "
            f"{self.rate.value():,} a second. Their signatures take {s.signature_bytes / 1e6:,.1f} MB "
            f"({s.n:,} × {self.k.value()} values of 4 bytes). The article's 10<sup>8</sup> pages: {_sci(seed.pairs)} pairs, "
            f"{_duration(seed.seconds)}."
        )
        self.expect.setText(self._expected())

    def _expected(self) -> str:
        """Expected and actual candidates for b x r on the sentences (k = 16) or the user's files."""
        b, r = self.bands.value(), self.rows.value()
        k = t.LESSON_PARAMS.k
        if b * r > k:
            return esc(f"b × r = {b * r} is more than the lessons' k = {k}: choose a smaller scheme.")
        texts = [text for _, text in self.docs] if self.docs else list(t.SENTENCES)
        what = f"your {len(texts)} files" if self.docs else f"the {len(texts)} sample sentences"
        jac = t.jaccard_matrix(texts)
        left, right = all_pairs(len(texts))
        sims = jac[left, right]
        sigs = t.lesson_signatures(texts)
        actual = len(candidate_pairs(sigs, Banding(b, r)))
        e, spread = mmds.expected_candidates(sims, b, r), mmds.candidate_spread(sims, b, r)
        similar = int(np.count_nonzero(sims >= t.SIMILAR_CUTOFF))
        return (
            f"On {esc(what)} ({len(sims):,} pairs, {similar} of them at J ≥ {t.SIMILAR_CUTOFF:g}), banded "
            f"<b>{b} × {r}</b>: expected <b>{to_fixed(e, 1)} ± {to_fixed(spread, 1)}</b> candidate pairs (the sum of "
            f"P(J) over the pairs, ± one standard deviation); LSH with the lessons' signatures (k = {k}, seed "
            f"{t.LESSON_PARAMS.seed}) gives <b>{actual}</b>."
        )


def _spin(lo: int, hi: int, value: int, name: str, description: str) -> QSpinBox:
    box = QSpinBox()
    box.setRange(lo, hi)
    box.setValue(value)
    box.setGroupSeparatorShown(True)
    describe(box, description, name)
    box.setMaximumWidth(200)
    return box
