"""Lesson 'Sets and Jaccard': three clickable sets of the article's 20 words and their exact Jaccard similarities."""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QBoxLayout, QHBoxLayout, QLineEdit, QPushButton, QWidget

from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.exercises import lesson_exercises
from lshdesk.core.teaching.figures import to_fixed
from lshdesk.gui.learn.chips import ChipGrid, legend_html, parse_words
from lshdesk.gui.learn.common import LessonPage, buddy, esc, formula_box, rich_label
from lshdesk.gui.learn.exercise_box import ExerciseBox

INTRO = (
    "A document can be compared as the <b>set</b> of its words: each element of the set is called a "
    "<b>shingle</b> (here one word; later lessons also use runs of words or characters). Below are three small sets "
    "S1, S2, S3 drawn from a list of 20 words. <b>Click a word</b> to put it into a set or take it out. "
    "The <b>Jaccard similarity</b> J = |A ∩ B| / |A ∪ B| is the share of all their words that two sets have in "
    "common: 1 for identical sets, 0 for sets with nothing in common. Press → to go through the pairs one by one."
)
PAIRS = ((0, 1), (0, 2), (1, 2))


class SetsLesson(LessonPage):
    """Three sets as word chips, their three similarities, and a story that takes one pair at a time."""

    def __init__(self, parent: QWidget | None = None, title: str = "Sets and Jaccard", intro: str = INTRO) -> None:
        super().__init__(title, intro, parent)
        self.words = list(t.UNIVERSE)
        self.sets: list[set[int]] = [{t.UNIVERSE.index(w) for w in s} for s in t.INIT_SETS]
        self.own = QLineEdit()
        self.own.setPlaceholderText("Type your own words to name the 20 chips (spaces between), or leave the article's")
        self.own.setAccessibleName("Your own words")
        own_row = QHBoxLayout()
        own_row.addWidget(buddy("Own words:", self.own))
        own_row.addWidget(self.own, 1)
        self.body.addLayout(own_row)
        self.grid = ChipGrid(len(self.sets), self.words)
        self.jaccard_label = rich_label("")
        self.figure = QWidget()
        self.top = QBoxLayout(QBoxLayout.Direction.LeftToRight, self.figure)
        self.top.setContentsMargins(0, 0, 0, 0)
        self.top.addWidget(self.grid)
        self.top.addWidget(self.jaccard_label, 1)
        self.body.addWidget(self.figure)
        self.chip_legend = rich_label(legend_html())
        self.body.addWidget(self.chip_legend)
        self.pair_step = 0  # 0: all three pairs; 1-3: one pair, its intersection and union spelled out
        self.grid.toggled.connect(self.toggle)
        self.own.textChanged.connect(self._rename)
        self.build_rest()
        self._show_sets()

    def build_rest(self) -> None:
        """The story box, Reset and the exercises (the article's demo puts its pipeline here instead)."""
        self.story = formula_box("")
        self.body.addWidget(self.story)
        self.reset_button = QPushButton("Reset")
        self.reset_button.setToolTip("Back to the article's three sets")
        self.reset_button.clicked.connect(self.reset)
        row = QHBoxLayout()
        row.addWidget(self.reset_button)
        row.addStretch(1)
        self.body.addLayout(row)
        self.exercises = ExerciseBox(lesson_exercises("sets"))
        self.body.addWidget(self.exercises)
        self.body.addStretch(1)

    @property
    def chips(self) -> list[dict[str, QPushButton]]:
        """Each set's chips by their word (for tests and screen readers)."""
        return [dict(zip(self.words, row)) for row in self.grid.chips]

    def restyle(self) -> None:
        self.chip_legend.setText(legend_html())
        self._show_sets()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """The similarities go beside the chips when there is room, else below them (no sideways scrolling)."""
        wide = event.size().width() >= self.grid.sizeHint().width() + 28 * self.fontMetrics().averageCharWidth() + 40
        self.top.setDirection(QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom)
        super().resizeEvent(event)

    def parameters(self) -> dict[str, str]:
        return {f"S{i + 1}": "{" + ", ".join(self.words[x] for x in sorted(s)) + "}" for i, s in enumerate(self.sets)}

    # --- intents ------------------------------------------------------------------------------------------------
    def toggle(self, i: int, x: int) -> None:
        self.sets[i] ^= {x}
        self._show_sets()

    def _rename(self, text: str) -> None:
        self.words = parse_words(text)
        self.grid.set_words(self.words)
        self._show_sets()

    def reset(self) -> None:
        self.own.clear()
        self.sets = [{t.UNIVERSE.index(w) for w in s} for s in t.INIT_SETS]
        self.pair_step = 0
        self._show_sets()

    def step_forward(self) -> None:
        self.pair_step = min(len(PAIRS), self.pair_step + 1)
        self._show_sets()

    def step_back(self) -> None:
        self.pair_step = max(0, self.pair_step - 1)
        self._show_sets()

    def step_home(self) -> None:
        self.pair_step = 0
        self._show_sets()

    # --- showing ------------------------------------------------------------------------------------------------
    def pair_line(self, i: int, j: int) -> str:
        """One pair's similarity, in words (the demo adds its chance to become candidates)."""
        a, b = self.sets[i], self.sets[j]
        inter, union = len(a & b), len(a | b)
        name = f"J(S{i + 1}, S{j + 1})"
        if union == 0:
            return f"{name} = 0/0: undefined, both sets are empty"
        return (
            f"{name} = |S{i + 1} ∩ S{j + 1}| / |S{i + 1} ∪ S{j + 1}| = {inter}/{union} = "
            f"<b>{to_fixed(inter / union, 2)}</b>"
        )

    def _words(self, xs: set[int]) -> str:
        return "{" + ", ".join(esc(self.words[x]) for x in sorted(xs)) + "}"

    def story_html(self) -> str:
        """The step shown: all pairs, or one pair with its intersection and union written out."""
        if self.pair_step == 0:
            return "Step 0 of 3: the three pairs, side by side. Press → for the first pair's words."
        i, j = PAIRS[self.pair_step - 1]
        a, b = self.sets[i], self.sets[j]
        inter, union = a & b, a | b
        j_text = f"{len(inter)}/{len(union)} = {to_fixed(len(inter) / len(union), 2)}" if union else "0/0, undefined"
        return (
            f"Step {self.pair_step} of 3: S{i + 1} ∩ S{j + 1} = {self._words(inter)}, {len(inter)} words in both; "
            f"S{i + 1} ∪ S{j + 1} = {self._words(union)}, {len(union)} words in either. "
            f"<b>J = {j_text}</b>."
        )

    def _show_sets(self) -> None:
        self.grid.show_sets(self.sets)
        lines = []
        for n, (i, j) in enumerate(PAIRS, 1):
            line = self.pair_line(i, j)
            lines.append(f"<u>{line}</u>" if n == self.pair_step else line)
        self.jaccard_label.setText("<br>".join(lines))
        if hasattr(self, "story"):
            self.story.setText(self.story_html())

    def words_of(self, i: int) -> set[str]:
        """The words now in set i, by their chips' names (for tests and screen readers)."""
        return {self.words[x] for x in self.sets[i]}

    def jaccard_values(self) -> dict[tuple[int, int], float]:
        """The exact similarities the page shows, by pair of set indices (for tests and screen readers)."""
        return {(i, j): t.jaccard(self.sets[i], self.sets[j]) for i, j in PAIRS}
