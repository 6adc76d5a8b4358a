"""Lesson 'Signatures and the estimate': two documents' k values side by side, agreeing slots, estimate vs Jaccard."""

from __future__ import annotations

import math

import numpy as np
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from lshdesk.core.params import ShingleSpec, SignatureParams
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.exercises import lesson_exercises
from lshdesk.core.teaching.figures import ratio_text, to_fixed
from lshdesk.gui.learn.common import CorpusSource, LessonPage, esc, formula_box, lesson_grid, rich_label, short
from lshdesk.gui.learn.exercise_box import ExerciseBox
from lshdesk.gui.learn.flow import FlowLayout
from lshdesk.gui.learn.shingles import ShingleChoice
from lshdesk.gui.theme import ACCENT, SET_COLORS, colored, keep_color, muted_html

INTRO = (
    "A <b>signature</b> is a document's k MinHash values, one per hash function (one per <b>slot</b>); every "
    "document gets exactly k numbers however long it is. Pick two of lshdesk's eight sample sentences (written "
    "for lshdesk: the encyclopedia entry never published its own; an exact repeat and a paraphrase hide among "
    "unrelated ones), or type or paste your own two texts, and compare."
)
STORY = ((0, 1, None), (0, 6, None), (2, 3, None), (0, 1, 1), (0, 1, 2), (0, 1, 3))  # (a, b, seed): → steps them
SEEDS_TOLD = "the paraphrase at other seeds: the estimate moves around J"


def why_html(kind: str) -> str:
    """MMDS's X / Y argument for the shingles compared (``kind``: 'words', 'word:2 shingles', …)."""
    return (
        "<b>Why the share of agreeing slots estimates J</b> (as <i>Mining of Massive Datasets</i> argues it): sort "
        f"the {kind} of A ∪ B into type X, in both sets, and type Y, in only one ({kind} in neither, type Z, never "
        f"matter). A hash function drawn at random makes every one of A ∪ B equally likely to hash lowest. The slot "
        "agrees exactly when that lowest one is of type X, so with probability |X| / (|X| + |Y|) = "
        "|A ∩ B| / |A ∪ B| = J."
    )


class SignaturesLesson(LessonPage):
    """Two documents (or the students' own texts), their signatures in the grid, the estimate next to the exact J."""

    def __init__(self, source: CorpusSource, parent: QWidget | None = None) -> None:
        super().__init__("Signatures and the estimate", INTRO, parent)
        self.story_step = 0
        self.source = source
        self.add_use_files(source, self.use_my_files)
        self.docs: list[tuple[str, str]] = []
        self.doc_a, self.doc_b = QComboBox(), QComboBox()
        self.own_a, self.own_b = QPlainTextEdit(), QPlainTextEdit()
        for box, own, name in ((self.doc_a, self.own_a, "A"), (self.doc_b, self.own_b, "B")):
            box.setAccessibleName(f"Document {name}")
            box.setToolTip(f"The document whose signature is row {name} of the grid")
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            box.setMinimumContentsLength(20)
            own.setAccessibleName(f"Your own text {name}")
            own.setAccessibleDescription(f"Text typed here is signed as document {name}, in place of the choice above")
            own.setPlaceholderText(f"Type or paste your own text {name} here (it replaces the choice above)")
            own.setTabChangesFocus(True)
            own.setFixedHeight(int(2.6 * own.fontMetrics().height()) + 8)
        self.seed = QSpinBox()
        self.seed.setRange(1, 2**31 - 1)
        self.seed.setValue(t.LESSON_PARAMS.seed)
        self.seed.setToolTip("The seed of the hash functions: another seed draws other a_i, b_i and other signatures")
        self.k = QSpinBox()
        self.k.setRange(1, 64)
        self.k.setValue(t.LESSON_PARAMS.k)
        self.k.setToolTip("The number of hash functions (slots); more slots, a more exact estimate")
        form = QGridLayout()
        for row, (letter, box, own, name, spin) in enumerate(
            (("A", self.doc_a, self.own_a, "seed", self.seed), ("B", self.doc_b, self.own_b, "k", self.k))
        ):
            mark, label = QLabel(f"<b>{letter}</b>"), QLabel(name)
            keep_color(mark, SET_COLORS[row])
            mark.setBuddy(box)
            label.setBuddy(spin)
            form.addWidget(mark, 2 * row, 0)
            form.addWidget(box, 2 * row, 1)
            form.addWidget(label, 2 * row, 2)
            form.addWidget(spin, 2 * row, 3)
            form.addWidget(own, 2 * row + 1, 1, 1, 3)
        form.setColumnStretch(1, 1)
        self.body.addLayout(form)
        self.shingles = ShingleChoice()
        self.body.addWidget(self.shingles)
        self._build_tries()
        tries_row = QHBoxLayout()
        tries_row.addWidget(self.tries, 1)
        self.body.addLayout(tries_row)
        self.words = rich_label("")
        self.body.addWidget(self.words)
        self.figures = formula_box("")
        self.body.addWidget(self.figures)
        self.why = rich_label("")
        self.body.addWidget(self.why)
        self.grid = lesson_grid(230)
        self.figure = self.grid
        self.body.addWidget(self.grid, 1)
        self.story = rich_label("")
        self.body.addWidget(self.story)
        self.exercises = ExerciseBox(lesson_exercises("signatures"))
        self.body.addWidget(self.exercises)

        for box in (self.doc_a, self.doc_b):
            box.currentIndexChanged.connect(self.update_pair)
        for own in (self.own_a, self.own_b):
            own.textChanged.connect(self.update_pair)
        self.seed.valueChanged.connect(self.update_pair)
        self.k.valueChanged.connect(self.update_pair)
        self.shingles.changed.connect(self.update_pair)
        self.use_my_files(False)

    def parameters(self) -> dict[str, str]:
        texts, names = self.texts()
        return {
            "A": f"{names[0]}: {texts[0]}",
            "B": f"{names[1]}: {texts[1]}",
            "shingles": str(self.shingles.spec()),
            "hash family": f"article, seed {self.seed.value()}, k = {self.k.value()}",
            "estimate": f"{self.matches} of {self.k.value()} slots agree; exact J = {self.jaccard:.3f}",
        }

    def _build_tries(self) -> None:
        """The 'Try:' buttons (the paraphrase, the exact repeat, an unrelated pair) and Reset."""
        self.tries = QWidget()
        tries = FlowLayout(self.tries)
        tries.addWidget(QLabel("Try:"))
        for words, a, b in (
            ("the paraphrase 0 – 1", 0, 1),
            ("the exact repeat 0 – 6", 0, 6),
            ("unrelated 2 – 3", 2, 3),
        ):
            button = QPushButton(words)
            button.setToolTip(f"Compare sample sentences {a} and {b}: their signatures and the estimate of J")
            button.clicked.connect(lambda _=False, a=a, b=b: self.pick(a, b))
            tries.addWidget(button)
        self.add_reset(tries)

    def restyle(self) -> None:
        if self.docs:
            self.update_pair()

    def reading(self) -> list[QWidget]:
        return [*super().reading(), self.shingles.explain, self.why]

    # --- the story: the paraphrase, the exact repeat, an unrelated pair, then the paraphrase at other seeds ---------
    def step_forward(self) -> None:
        self._story(min(len(STORY) - 1, self.story_step + 1))

    def step_back(self) -> None:
        self._story(max(0, self.story_step - 1))

    def step_home(self) -> None:
        self._story(0)

    def _story(self, step: int) -> None:
        if self.use_files is not None and self.use_files.isChecked():
            return  # the story is told on the sample sentences
        self.story_step = step
        a, b, seed = STORY[step]
        self.seed.blockSignals(True)
        self.seed.setValue(seed if seed is not None else t.LESSON_PARAMS.seed)
        self.seed.blockSignals(False)
        self.doc_a.blockSignals(True)
        self.doc_a.setCurrentIndex(a)
        self.doc_a.blockSignals(False)
        self.doc_b.setCurrentIndex(b)
        self.update_pair()

    def reset(self) -> None:
        self.story_step = 0
        for w in (self.own_a, self.own_b, self.seed, self.k, self.shingles):
            w.blockSignals(True)
        self.own_a.clear()
        self.own_b.clear()
        self.seed.setValue(t.LESSON_PARAMS.seed)
        self.k.setValue(t.LESSON_PARAMS.k)
        self.shingles.reset()
        for w in (self.own_a, self.own_b, self.seed, self.k, self.shingles):
            w.blockSignals(False)
        if self.use_files is not None and self.use_files.isChecked():
            self.use_files.setChecked(False)  # back on the sample sentences
        else:
            self.use_my_files(False)

    def use_my_files(self, on: bool) -> None:
        self.docs = list(self.source.documents()) if on else [(f"{i}: {s}", s) for i, s in enumerate(t.SENTENCES)]
        for box in (self.doc_a, self.doc_b):
            box.blockSignals(True)
            box.clear()
            box.addItems([short(f"{i}: {name}", 80) if on else name for i, (name, _) in enumerate(self.docs)])
            box.blockSignals(False)
        self.tries.setVisible(not on)
        self.doc_a.setCurrentIndex(0)
        self.doc_b.setCurrentIndex(1)
        self.update_pair()

    def pick(self, a: int, b: int) -> None:
        """Compare documents a and b (indices into the current list)."""
        self.doc_a.setCurrentIndex(a)
        self.doc_b.setCurrentIndex(b)

    def texts(self) -> tuple[list[str], list[str]]:
        """The two texts compared (the students' own where typed) and their short names."""
        on = bool(self.use_files and self.use_files.isChecked())
        texts, names = [], []
        for box, own, letter in ((self.doc_a, self.own_a, "A"), (self.doc_b, self.own_b, "B")):
            typed = own.toPlainText()
            i = box.currentIndex()
            if typed.strip():
                texts.append(typed)
                names.append(f"your text {letter}")
            else:
                texts.append(self.docs[i][1])
                names.append(
                    short(self.docs[i][0].replace("\\", "/").rsplit("/", 1)[-1], 14) if on else f"sentence {i}"
                )
        return texts, names

    def update_pair(self) -> None:
        if self.doc_a.currentIndex() < 0 or self.doc_b.currentIndex() < 0:
            return
        spec = self.shingles.spec()
        params = SignatureParams(spec, "article", self.k.value(), self.seed.value())
        texts, names = self.texts()
        self.sigs = sigs = t.lesson_signatures(texts, params)
        wa, wb = t.word_set(texts[0], spec), t.word_set(texts[1], spec)
        inter, union = len(wa & wb), len(wa | wb)
        self.jaccard = inter / union if union else math.nan
        self.matches = int(np.count_nonzero(sigs[0] == sigs[1]))
        self.estimate = self.matches / params.k
        self.grid.set_data(sigs, names, None, {(0, 1): self.jaccard})
        self.words.setText(self._words_html(wa, wb, spec))
        spread = math.sqrt(self.jaccard * (1 - self.jaccard) / params.k) if union else math.nan
        self.figures.setText(
            f"<b>{self.matches} of {params.k}</b> slots agree → estimate = {self.matches}/{params.k} = "
            + colored(ratio_text(self.matches, params.k), ACCENT, True)
            + " &nbsp;·&nbsp; true Jaccard = |A ∩ B| / |A ∪ B| = "
            f"{inter}/{union} = " + colored(ratio_text(inter, union), ACCENT, True) + " &nbsp;·&nbsp; off by "
            f"{to_fixed(abs(self.estimate - self.jaccard), 3) if union else 'NaN'}<br>"
            + muted_html(
                "Each slot agrees with probability J, so the estimate is typically off by about "
                f"√(J(1 − J)/k) = {to_fixed(spread, 3)}. Change the seed to draw other hash functions and watch "
                "the estimate move around J; raise k to make it steadier. The hash functions (a·x + b) mod p are a "
                "cheap stand-in for random permutations (the entry's own caveat), close enough that the "
                "measured error follows the theory."
            )
        )
        kind = "words" if str(spec) == "word" else f"{spec} shingles"
        self.story.setText(self._story_html())
        self.why.setText(
            why_html(kind)
            + (
                f" Here |X| = {inter} and |Y| = {union - inter}: P = {inter}/{union} = {ratio_text(inter, union)}."
                if union
                else ""
            )
        )

    def _story_html(self) -> str:
        a, b, seed = STORY[self.story_step]
        here = (self.doc_a.currentIndex(), self.doc_b.currentIndex(), self.seed.value())
        typed = self.own_a.toPlainText().strip() or self.own_b.toPlainText().strip()
        on_files = self.use_files is not None and self.use_files.isChecked()
        if typed or on_files or here != (a, b, seed if seed is not None else t.LESSON_PARAMS.seed):
            return "Your own choice. Home goes back to the story's first step (→ steps through it)."
        what = (
            ("the paraphrase", "the exact repeat", "an unrelated pair")[self.story_step]
            if self.story_step < 3
            else (SEEDS_TOLD)
        )
        return (
            f"<b>Step {self.story_step + 1} of {len(STORY)}</b> (→ next, ← back, Home first): {what}, "
            f"sentences {a} and {b}, seed {here[2]}."
        )

    def _words_html(self, wa: set[str], wb: set[str], spec: ShingleSpec) -> str:
        kind = "word" if str(spec) == "word" else "shingle"
        if len(wa) > 60 or len(wb) > 60:
            return (
                f"A has {len(wa):,} distinct {kind}s, B has {len(wb):,}; they share {len(wa & wb):,} "
                f"(of {len(wa | wb):,} in all)."
            )

        def words(ws: set[str], other: set[str]) -> str:
            return " · ".join(f"<b><u>{esc(w)}</u></b>" if w in other else muted_html(esc(w)) for w in sorted(ws))

        return (
            f"{kind.capitalize()} sets ({spec}; the shared ones <b><u>underlined</u></b>, the others pale):<br>"
            f"<b>A</b> {words(wa, wb)}<br><b>B</b> {words(wb, wa)}"
        )
