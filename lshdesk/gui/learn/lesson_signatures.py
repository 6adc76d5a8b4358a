"""Lesson 2, signatures and the estimate: two documents' k values side by side, agreeing slots, estimate vs Jaccard."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtWidgets import QComboBox, QGridLayout, QHBoxLayout, QLabel, QPushButton, QSpinBox, QWidget

from lshdesk.core.params import SignatureParams
from lshdesk.core.teaching import lessons as t
from lshdesk.gui.learn.common import CorpusSource, LessonPage, esc, formula_box, lesson_grid, rich_label, short
from lshdesk.gui.theme import ACCENT, SET_COLORS, TEAL, colored, keep_color, muted_html

INTRO = (
    "A <b>signature</b> is a document's k MinHash values, one per hash function (one per <b>slot</b>); every "
    "document gets exactly k numbers however long it is. Two documents agree in a slot exactly when the word with "
    "the smallest hash among all their words is one they share, which happens with probability equal to their "
    "Jaccard similarity J. So the share of agreeing slots is an <b>estimate</b> of J. Pick two of the eight "
    "sample sentences (an exact repeat and a paraphrase hide among unrelated ones) and compare."
)


class SignaturesLesson(LessonPage):
    """Two documents, their signatures in the signature grid, the estimate next to the exact Jaccard."""

    def __init__(self, source: CorpusSource, parent: QWidget | None = None) -> None:
        super().__init__("2 · Signatures and the estimate", INTRO, parent)
        self.source = source
        self.add_use_files(source, self.use_my_files)
        self.docs: list[tuple[str, str]] = []
        self.doc_a, self.doc_b = QComboBox(), QComboBox()
        for box, name in ((self.doc_a, "Document A"), (self.doc_b, "Document B")):
            box.setAccessibleName(name)
            box.setMinimumContentsLength(30)
        self.seed = QSpinBox()
        self.seed.setRange(1, 2**31 - 1)
        self.seed.setValue(t.LESSON_PARAMS.seed)
        self.seed.setToolTip("The seed of the hash functions: another seed draws other a_i, b_i and other signatures")
        self.k = QSpinBox()
        self.k.setRange(1, 64)
        self.k.setValue(t.LESSON_PARAMS.k)
        self.k.setToolTip("The number of hash functions (slots); more slots, a more exact estimate")
        form = QGridLayout()
        for row, (letter, box, name, spin) in enumerate(
            (("A", self.doc_a, "seed", self.seed), ("B", self.doc_b, "k", self.k))
        ):
            mark, label = QLabel(f"<b>{letter}</b>"), QLabel(name)
            keep_color(mark, SET_COLORS[row])
            mark.setBuddy(box)
            label.setBuddy(spin)
            for col, w in enumerate((mark, box, label, spin)):
                form.addWidget(w, row, col)
        form.setColumnStretch(1, 1)
        self.body.addLayout(form)
        self.tries = QWidget()
        tries = QHBoxLayout(self.tries)
        tries.setContentsMargins(0, 0, 0, 0)
        tries.addWidget(QLabel("Try:"))
        for label, a, b in (
            ("the paraphrase 0 – 1", 0, 1),
            ("the exact repeat 0 – 6", 0, 6),
            ("unrelated 2 – 3", 2, 3),
        ):
            button = QPushButton(label)
            button.clicked.connect(lambda _=False, a=a, b=b: self.pick(a, b))
            tries.addWidget(button)
        tries.addStretch(1)
        self.body.addWidget(self.tries)
        self.words = rich_label("")
        self.body.addWidget(self.words)
        self.figures = formula_box("")
        self.body.addWidget(self.figures)
        self.grid = lesson_grid(230)
        self.body.addWidget(self.grid, 1)

        self.doc_a.currentIndexChanged.connect(self.update_pair)
        self.doc_b.currentIndexChanged.connect(self.update_pair)
        self.seed.valueChanged.connect(self.update_pair)
        self.k.valueChanged.connect(self.update_pair)
        self.use_my_files(False)

    def restyle(self) -> None:
        if self.docs:
            self.update_pair()

    def use_my_files(self, on: bool) -> None:
        self.docs = list(self.source.documents()) if on else [(f"{i}: {s}", s) for i, s in enumerate(t.SENTENCES)]
        for box in (self.doc_a, self.doc_b):
            box.blockSignals(True)
            box.clear()
            box.addItems([short(f"{i}: {name}" if on else name, 80) for i, (name, _) in enumerate(self.docs)])
            box.blockSignals(False)
        self.tries.setVisible(not on)
        self.doc_a.setCurrentIndex(0)
        self.doc_b.setCurrentIndex(1)
        self.update_pair()

    def pick(self, a: int, b: int) -> None:
        """Compare documents a and b (indices into the current list)."""
        self.doc_a.setCurrentIndex(a)
        self.doc_b.setCurrentIndex(b)

    def update_pair(self) -> None:
        a, b = self.doc_a.currentIndex(), self.doc_b.currentIndex()
        if a < 0 or b < 0:
            return
        params = SignatureParams(t.WORDS, "article", self.k.value(), self.seed.value())
        texts = [self.docs[a][1], self.docs[b][1]]
        self.sigs = sigs = t.lesson_signatures(texts, params)
        wa, wb = t.word_set(texts[0]), t.word_set(texts[1])
        inter, union = len(wa & wb), len(wa | wb)
        self.jaccard = inter / union if union else math.nan
        self.matches = int(np.count_nonzero(sigs[0] == sigs[1]))
        self.estimate = self.matches / params.k
        on = bool(self.use_files and self.use_files.isChecked())
        names = [
            short(self.docs[i][0].replace("\\", "/").rsplit("/", 1)[-1], 14) if on else f"sentence {i}" for i in (a, b)
        ]
        self.grid.set_data(sigs, names, None, {(0, 1): self.jaccard})
        self.words.setText(self._words_html(wa, wb))
        spread = math.sqrt(self.jaccard * (1 - self.jaccard) / params.k) if union else math.nan
        self.figures.setText(
            f"<b>{self.matches} of {params.k}</b> slots agree → estimate = {self.matches}/{params.k} = "
            + colored(f"{self.estimate:.3f}", ACCENT, True)
            + " &nbsp;·&nbsp; true Jaccard = |A ∩ B| / |A ∪ B| = "
            f"{inter}/{union} = " + colored(f"{self.jaccard:.3f}", TEAL, True) + " &nbsp;·&nbsp; off by "
            f"{abs(self.estimate - self.jaccard):.3f}<br>"
            + muted_html(
                "Each slot agrees with probability J, "
                f"so the estimate is typically off by about √(J(1 − J)/k) = {spread:.3f}. Change the seed to draw other "
                "hash functions and watch the estimate move around J; raise k to make it steadier."
            )
        )

    def _words_html(self, wa: set[str], wb: set[str]) -> str:
        if len(wa) > 60 or len(wb) > 60:
            return (
                f"A has {len(wa):,} distinct words, B has {len(wb):,}; they share {len(wa & wb):,} "
                f"(of {len(wa | wb):,} in all)."
            )

        def words(ws: set[str], other: set[str]) -> str:
            return " ".join(colored(esc(w), TEAL, True) if w in other else muted_html(esc(w)) for w in sorted(ws))

        return (
            "Word sets (shared words in " + colored("green", TEAL, True) + "):<br>"
            f"<b>A</b> {words(wa, wb)}<br><b>B</b> {words(wb, wa)}"
        )
