"""Lesson 'One slot, step by step': a sentence signed hash function by hash function, each minimum found and shown."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.minhash import ARTICLE_PRIME
from lshdesk.core.params import SignatureParams
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.exercises import lesson_exercises
from lshdesk.gui.accessible import describe
from lshdesk.gui.learn.colours import CURRENT as CURRENT_TONE
from lshdesk.gui.learn.colours import MINIMUM as MINIMUM_TONE
from lshdesk.gui.learn.colours import legend_html
from lshdesk.gui.learn.common import LessonPage, buddy, formula_box, rich_label
from lshdesk.gui.learn.exercise_box import ExerciseBox
from lshdesk.gui.learn.flow import FlowLayout
from lshdesk.gui.learn.step_text import explanation
from lshdesk.gui.learn.tables import fit_rows, lesson_table, table_item
from lshdesk.gui.plots.export import choose_and_export, export_widget

INTRO = (
    "Where does each number of a signature come from? Here one sentence is signed the way the encyclopedia entry "
    "does it. Each word is first turned into a number x by the FNV-1a string hash. Hash function i then maps x to "
    f"h<sub>i</sub>(x) = (a<sub>i</sub>·x + b<sub>i</sub>) mod {ARTICLE_PRIME:,}, where a<sub>i</sub> and "
    "b<sub>i</sub> are drawn from a random-number stream started by the <b>seed</b>. Slot i of the signature is "
    "the <b>smallest</b> h<sub>i</sub> over all the words. Press <i>Next word</i> (or →) to feed the words in one at "
    "a time and watch the running minimum; ← steps back, Home starts again."
)
MAX_SHINGLES = 40
CURRENT = CURRENT_TONE  # the word just fed in
MINIMUM = MINIMUM_TONE  # the word giving the smallest value so far


STEP_TIPS = (  # what Restart, Back, Next word, Next hash function and To the end do
    "Back to the first word of the first hash function: the slots empty",
    "Undo the last step",
    "Hash the next word: a slot keeps the smaller of its value and the word's",
    "Finish this hash function's slot and go to the next function",
    "Every word through every hash function: the whole signature",
)


class StepLesson(LessonPage):
    """Sentence, seed and k in; Restart / Back / Next word / Next hash function / To the end; two tables out."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("One slot, step by step", INTRO, parent)
        self.sample = QComboBox()
        self.sample.addItems([f"{i}: {s}" for i, s in enumerate(t.SENTENCES)])
        self.sample.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.sample.setMinimumContentsLength(16)
        describe(self.sample, "One of the eight sample sentences, copied into the sentence field", "Sample sentence")
        self.text = QLineEdit(t.SENTENCES[0])
        self.text.setPlaceholderText("Type any sentence")
        describe(
            self.text, "The sentence whose words are hashed, step by step: a sample's, or type your own", "Sentence"
        )
        self.seed = QSpinBox()
        self.seed.setRange(1, 2**31 - 1)
        self.seed.setValue(t.LESSON_PARAMS.seed)
        self.k = QSpinBox()
        self.k.setRange(1, 32)
        self.k.setValue(t.LESSON_PARAMS.k)
        describe(self.seed, "The seed that draws the hash functions: another seed, other slot values", "Seed")
        describe(self.k, "How many hash functions, one slot of the signature each", "Slots k")
        row1 = QHBoxLayout()
        row1.addWidget(buddy("Sample:", self.sample))
        row1.addWidget(self.sample, 1)
        row1.addWidget(buddy("seed", self.seed))
        row1.addWidget(self.seed)
        row1.addWidget(buddy("k", self.k))
        row1.addWidget(self.k)
        row2 = QHBoxLayout()
        row2.addWidget(buddy("Sentence:", self.text))
        row2.addWidget(self.text, 1)
        self.body.addLayout(row1)
        self.body.addLayout(row2)
        self.restart_button = QPushButton("Restart")
        self.back_button = QPushButton("◂ Back")
        self.next_button = QPushButton("Next word ▸")
        self.function_button = QPushButton("Next hash function ▸▸")
        self.end_button = QPushButton("To the end ▸|")
        buttons = FlowLayout()
        steppers = (self.restart_button, self.back_button, self.next_button, self.function_button, self.end_button)
        for b, tip in zip(steppers, STEP_TIPS, strict=True):
            b.setToolTip(tip)
            buttons.addWidget(b)
        self.add_reset(buttons)
        self.export_button = QPushButton("Export figure…")
        self.export_button.setToolTip("Save both tables as PNG or SVG, titled with the sentence, seed, k and step")
        self.export_button.clicked.connect(
            lambda: choose_and_export(self, self.export, "signature_step", "Export the figure")
        )
        buttons.addWidget(self.export_button)
        self.body.addLayout(buttons)
        self.explain = formula_box("")
        self.body.addWidget(self.explain)

        self._build_tables()
        self.key = rich_label("")  # the colours' legend
        self.body.addWidget(self.key)
        self.why = rich_label(
            "Why the smallest? Two sentences get the same value in slot i exactly when the word with the smallest "
            "h<sub>i</sub> among all their words is one they share, which happens with probability J."
        )
        self.body.addWidget(self.why)
        self.note = QLabel()
        self.body.addWidget(self.note)
        self.exercises = ExerciseBox(lesson_exercises("step"))
        self.body.addWidget(self.exercises)

        self.sample.currentIndexChanged.connect(lambda i: self.text.setText(t.SENTENCES[i]))
        self.text.textChanged.connect(self.restart)
        self.seed.valueChanged.connect(self.restart)
        self.k.valueChanged.connect(self.restart)
        self.restart_button.clicked.connect(self.restart)
        self.back_button.clicked.connect(self.step_back)
        self.next_button.clicked.connect(self.next_word)
        self.function_button.clicked.connect(self.next_function)
        self.end_button.clicked.connect(self.to_end)
        self.restart()
        self.restyle()

    def _build_tables(self) -> None:
        """The figure: this hash function's values word by word, beside the signature so far."""
        self.function_title = rich_label("")
        self.values = lesson_table(["word", "x = FNV-1a(word)", "h(x)", "smallest so far"], "Hash function values")
        self.signature_table = lesson_table(["slot", "value", "from word"], "Signature")
        left = QVBoxLayout()
        left.addWidget(self.function_title)
        left.addWidget(self.values, 1)
        right = QVBoxLayout()
        right.addWidget(rich_label("<b>The signature</b> so far (one slot per hash function)"))
        right.addWidget(self.signature_table, 1)
        self.figure = QWidget()
        tables = QHBoxLayout(self.figure)
        tables.setContentsMargins(0, 0, 0, 0)
        tables.addLayout(left, 3)
        tables.addLayout(right, 2)
        self.body.addWidget(self.figure, 1)

    def reading(self) -> list[QWidget]:
        return [*super().reading(), self.why]

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == event.Type.FontChange and hasattr(self, "values"):
            fit_rows(self.values)
            fit_rows(self.signature_table)

    def restyle(self) -> None:
        self.key.setText(legend_html("current", "minimum"))
        if hasattr(self, "st"):
            self.show_step()

    def parameters(self) -> dict[str, str]:
        return {
            "sentence": self.text.text(),
            "hash family": f"article, seed {self.seed.value()}, k = {self.st.k}",
            "step": f"hash function h{self.fn}, {self.seen} of {len(self.st.shingles)} words seen",
        }

    # --- the walk ------------------------------------------------------------------------------------------------
    def reset(self) -> None:
        for w in (self.sample, self.text, self.seed, self.k):
            w.blockSignals(True)
        self.sample.setCurrentIndex(0)
        self.text.setText(t.SENTENCES[0])
        self.seed.setValue(t.LESSON_PARAMS.seed)
        self.k.setValue(t.LESSON_PARAMS.k)
        for w in (self.sample, self.text, self.seed, self.k):
            w.blockSignals(False)
        self.restart()

    def export(self, path: str) -> None:
        """Both tables as shown, under a title with the sentence, the seed, k and the step reached."""
        title = (
            f"Signing “{self.text.text()}” (article family, seed {self.seed.value()}, k = {self.st.k}): "
            f"hash function h{self.fn}, {self.seen} of {len(self.st.shingles)} words seen"
        )
        export_widget(self.figure, path, title)

    def step_forward(self) -> None:
        self.next_word()

    def step_home(self) -> None:
        self.restart()

    def step_back(self) -> None:
        """Undo one word: back to the previous hash function's last word when at a function's first."""
        n = len(self.st.shingles)
        if self.seen > 1:
            self.seen -= 1
        elif self.seen == 1 and self.fn > 0:
            self.fn, self.seen = self.fn - 1, n
        elif self.seen == 1:
            self.seen = 0
        else:
            return
        self.show_step()

    def restart(self) -> None:
        params = SignatureParams(t.WORDS, "article", self.k.value(), self.seed.value())
        st = t.step_through(self.text.text(), params)
        cut = len(st.shingles) > MAX_SHINGLES
        if cut:
            st = t.StepThrough(
                st.shingles[:MAX_SHINGLES],
                st.x[:MAX_SHINGLES],
                st.a,
                st.b,
                st.values[:MAX_SHINGLES],
                st.running_min[:MAX_SHINGLES],
                st.values[:MAX_SHINGLES].argmin(axis=0),
            )
        self.note.setText(f"Only the first {MAX_SHINGLES} distinct words are used." if cut else "")
        self.st, self.fn, self.seen = st, 0, 0
        self.show_step()

    @property
    def done(self) -> bool:
        n = len(self.st.shingles)
        return n == 0 or (self.fn == self.st.k - 1 and self.seen == n)

    def next_word(self) -> None:
        n = len(self.st.shingles)
        if self.done:
            return
        if self.seen < n:
            self.seen += 1
        else:
            self.fn, self.seen = self.fn + 1, 1
        self.show_step()

    def next_function(self) -> None:
        n = len(self.st.shingles)
        if self.done:
            return
        if self.seen < n:
            self.seen = n
        else:
            self.fn, self.seen = self.fn + 1, n
        self.show_step()

    def to_end(self) -> None:
        if len(self.st.shingles):
            self.fn, self.seen = self.st.k - 1, len(self.st.shingles)
        self.show_step()

    def signature_values(self) -> list[int | None]:
        """The slot values the page shows now (None for slots not computed yet)."""
        n = len(self.st.shingles)
        out: list[int | None] = []
        for i in range(self.st.k):
            if i < self.fn or (i == self.fn and self.seen == n and n):
                out.append(int(self.st.running_min[n - 1, i]))
            elif i == self.fn and self.seen:
                out.append(int(self.st.running_min[self.seen - 1, i]))
            else:
                out.append(None)
        return out

    # --- showing -------------------------------------------------------------------------------------------------
    def show_step(self) -> None:
        st, i, seen, n = self.st, self.fn, self.seen, len(self.st.shingles)
        a, b = int(st.a[i]), int(st.b[i])
        self.function_title.setText(
            f"<b>Hash function h<sub>{i}</sub></b> (fills slot {i}; slots 0–{st.k - 1}): a<sub>{i}</sub> = {a:,}, b<sub>{i}</sub> = {b:,}"
        )
        self.values.setRowCount(n)
        holder = st.holder(seen - 1, i) if seen else -1
        for s in range(n):
            shown = s < seen
            bg = MINIMUM if s == holder else CURRENT if s == seen - 1 else None
            self.values.setItem(s, 0, table_item(st.shingles[s], s == holder, bg, left=True))
            self.values.setItem(s, 1, table_item(f"{int(st.x[s]):,}", False, bg))
            self.values.setItem(s, 2, table_item(f"{int(st.values[s, i]):,}" if shown else "", s == holder, bg))
            self.values.setItem(s, 3, table_item(f"{int(st.running_min[s, i]):,}" if shown else "", False, bg))
        if seen:
            self.values.scrollToItem(self.values.item(seen - 1, 0))
        self.signature_table.setRowCount(st.k)
        for slot, v in enumerate(self.signature_values()):
            current = slot == i
            bg = CURRENT if current and seen < n else MINIMUM if current else None
            who = st.shingles[st.holder(n - 1 if slot < i else seen - 1, slot)] if v is not None else ""
            self.signature_table.setItem(slot, 0, table_item(str(slot), current, bg))
            self.signature_table.setItem(slot, 1, table_item("" if v is None else f"{v:,}", current, bg))
            self.signature_table.setItem(slot, 2, table_item(who, False, bg, left=True))
        self.signature_table.scrollToItem(self.signature_table.item(i, 0))
        self.explain.setText(explanation(self.st, self.fn, self.seen))
        for button in (self.next_button, self.function_button, self.end_button):
            button.setEnabled(not self.done)
        self.back_button.setEnabled(self.seen > 0)
