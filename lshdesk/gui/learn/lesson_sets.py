"""Lesson 1, sets and Jaccard: the article's token-toggle demo (3 sets, 20 hash functions, 10 bands of 2 rows)."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QTableWidgetItem,
    QWidget,
)

from lshdesk.core.scurve import probability
from lshdesk.core.teaching import facts
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.exercises import lesson_exercises
from lshdesk.core.teaching.figures import ratio_text, to_fixed
from lshdesk.gui.learn.chips import ChipGrid, parse_words
from lshdesk.gui.learn.common import LessonPage, buddy, esc, formula_box, rich_label
from lshdesk.gui.learn.exercise_box import ExerciseBox
from lshdesk.gui.learn.flow import FlowLayout
from lshdesk.gui.learn.tables import band_table
from lshdesk.gui.plots.export import choose_and_export, export_widget
from lshdesk.gui.theme import ACCENT, TEAL_BG, keep_color, muted_html, span, text_on

INTRO = (
    "A document can be compared as a <b>set</b> of its words (its <i>shingles</i>). Below are three small sets "
    "S1, S2, S3 drawn from a list of 20 words. <b>Click a word</b> to put it into a set or take it out. "
    "The <b>Jaccard similarity</b> of two sets is the share of all their words that they have in common: "
    "1 for identical sets, 0 for sets with nothing in common."
)
_ORDERED = " and ".join(f"h{i}" for i in facts.order_keeping_functions())
HOW = (
    f"<b>MinHash.</b> Each word is a number x, its place in the list (the first word is 0, the last 19). "
    f"K = {t.DEMO_K} hash functions h<sub>i</sub>(x) = (a<sub>i</sub>·x + b<sub>i</sub>) mod {t.DEMO_P:,} "
    "reorder those numbers; a set's <b>signature</b> keeps, for each h<sub>i</sub>, the smallest value over the "
    "set's words. The theorem says two sets share the smallest value with probability J <i>for a hash function "
    "drawn at random from a good family</i>. This demo, like the article's, uses 20 <b>fixed</b> functions "
    f"(constants from its code, not random draws): {_ORDERED} keep the list order (h0(x) = x + 7, so its "
    "minimum is always the set's first word in the list), and some pairs of functions rank the words almost alike, "
    "so the share of agreeing slots (the <b>estimate</b>) can be well off J. "
    f"<b>LSH.</b> The 20 values are cut into B = {t.DEMO_B} <b>bands</b> of R = {t.DEMO_R} rows. Sets whose two "
    "values agree in a band fall into the same <b>bucket</b>, and sharing any bucket makes them a "
    "<b>candidate pair</b>: for random functions the chance is 1 − (1 − J<sup>R</sup>)<sup>B</sup>. Press Run, "
    "then step band by band (← → or Home)."
)
ROW_HEIGHT_LINES = 2.6  # a cell holds two values: its height in lines of the current font


class SetsLesson(LessonPage):
    """Three clickable sets, live Jaccard, and Run: signatures by band with the shared buckets highlighted."""

    steps = True

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("1 · Sets and Jaccard", INTRO, parent)
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
        self.top = QBoxLayout(QBoxLayout.Direction.LeftToRight)
        self.top.addWidget(self.grid)
        self.top.addWidget(self.jaccard_label, 1)
        self.body.addLayout(self.top)
        self.body.addWidget(formula_box(HOW))

        self.run_button = QPushButton("Run MinHash + LSH")
        self.back_button = QPushButton("◂ Previous band")
        self.forward_button = QPushButton("Next band ▸")
        self.run_button.setToolTip("Sign the sets and cut the signatures into bands, one band at a time")
        self.back_button.setToolTip("Show the band before")
        self.forward_button.setToolTip("Show the next band")
        buttons = FlowLayout()
        for b in (self.run_button, self.back_button, self.forward_button):
            buttons.addWidget(b)
        self.add_reset(buttons)
        self.export_button = QPushButton("Export figure…")
        self.export_button.setToolTip("Save the signatures by band as PNG or SVG, titled with the sets")
        self.export_button.clicked.connect(
            lambda: choose_and_export(self, self.export, "article_demo_bands", "Export the figure")
        )
        buttons.addWidget(self.export_button)
        self.body.addLayout(buttons)
        self.table = band_table(len(self.sets))
        self.buckets_label = rich_label("")
        self.estimate_label = formula_box("")
        self.status = rich_label("")
        keep_color(self.status, ACCENT, "font-weight:600")
        self.caption = rich_label("")
        self._caption()
        for w in (self.caption, self.table, self.buckets_label, self.status, self.estimate_label):
            self.body.addWidget(w)
        self.exercises = ExerciseBox(lesson_exercises(1))
        self.body.addWidget(self.exercises)
        self.body.addStretch(1)
        self.grid.toggled.connect(self.toggle)
        self.own.textChanged.connect(self._rename)
        self.run_button.clicked.connect(self.run)
        self.back_button.clicked.connect(self.step_back)
        self.forward_button.clicked.connect(self.step_forward)
        self.result: t.DemoRun | None = None
        self.shown = t.DEMO_B
        self._show_sets()
        self._hide_result()

    @property
    def chips(self) -> list[dict[str, QPushButton]]:
        """Each set's chips by their word (for tests and screen readers)."""
        return [dict(zip(self.words, row)) for row in self.grid.chips]

    def restyle(self) -> None:
        self._caption()
        self._show_sets()
        if self.result is not None:
            self._show_result()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == event.Type.FontChange and hasattr(self, "table"):
            self._fit_table()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """The similarities go beside the chips when there is room, else below them (no sideways scrolling)."""
        wide = event.size().width() >= self.grid.sizeHint().width() + 28 * self.fontMetrics().averageCharWidth() + 40
        self.top.setDirection(QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom)
        super().resizeEvent(event)

    def _fit_table(self) -> None:
        line = self.table.fontMetrics().height()
        self.table.verticalHeader().setDefaultSectionSize(int(ROW_HEIGHT_LINES * line))
        header = self.table.horizontalHeader().sizeHint().height()
        self.table.setFixedHeight(header + int(3 * ROW_HEIGHT_LINES * line) + 4)

    def _caption(self) -> None:
        self.caption.setText(
            "Each cell holds a set's two signature values in that band: together they are its <b>bucket key</b>. "
            + span("&nbsp;Green&nbsp;", TEAL_BG)
            + " cells are buckets shared with another set."
        )

    # --- intents ------------------------------------------------------------------------------------------------
    def toggle(self, i: int, x: int) -> None:
        self.sets[i] ^= {x}
        self._show_sets()
        self._hide_result("The sets changed: press Run to hash them again.")

    def _rename(self, text: str) -> None:
        self.words = parse_words(text)
        self.grid.set_words(self.words)
        self._show_sets()
        if self.result is not None:
            self._show_result()

    def reset(self) -> None:
        self.own.clear()
        self.sets = [{t.UNIVERSE.index(w) for w in s} for s in t.INIT_SETS]
        self._show_sets()
        self._hide_result()

    def run(self) -> None:
        """Hash the sets exactly as the article's demo does and show the signatures and the shared buckets."""
        self.result = t.run_demo([[t.UNIVERSE[x] for x in sorted(s)] for s in self.sets])
        self.shown = t.DEMO_B
        self._show_result()

    def export(self, path: str) -> None:
        """The table as shown (the bands stepped to so far) under a title naming the sets and the scheme."""
        if self.result is None:
            self.run()
        sets = "; ".join(
            f"S{i + 1} = {{{', '.join(self.words[x] for x in sorted(s))}}}" for i, s in enumerate(self.sets)
        )
        title = f"Article demo, K = {t.DEMO_K}, {t.DEMO_B} bands × {t.DEMO_R} rows, bands B0–B{self.shown - 1}: {sets}"
        export_widget(self.table, path, title)

    def step_forward(self) -> None:
        if self.result is None:
            self.run()
            self.shown = 1
        else:
            self.shown = min(t.DEMO_B, self.shown + 1)
        self._show_result()

    def step_back(self) -> None:
        if self.result is not None:
            self.shown = max(1, self.shown - 1)
            self._show_result()

    def step_home(self) -> None:
        if self.result is None:
            self.run()
        self.shown = 1
        self._show_result()

    # --- showing ------------------------------------------------------------------------------------------------
    def _show_result(self) -> None:
        run, n = self.result, self.shown
        shared = run.shared_mask()
        for i, keys in enumerate(run.band_keys):
            for band, key in enumerate(keys):
                v1, v2 = key.split(":")[1].split(",")
                item = QTableWidgetItem(f"{v1}\n{v2}")
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                item.setToolTip(f"S{i + 1}, band B{band}: bucket key {key}")
                if shared[i, band]:
                    item.setBackground(QBrush(TEAL_BG.color()))
                    item.setForeground(QBrush(text_on(TEAL_BG.color())))
                self.table.setItem(i, band, item)
        for band in range(t.DEMO_B):
            self.table.setColumnHidden(band, band >= n)
        self._fit_table()
        for w in (self.table, self.caption, self.buckets_label, self.estimate_label):
            w.show()
        self.back_button.setEnabled(n > 1)
        self.forward_button.setEnabled(n < t.DEMO_B)
        seen = [(key, m) for key, m in run.shared if int(key.split(":")[0][1:]) < n]
        pairs = sorted({(m[a], m[b]) for _, m in seen for a in range(len(m)) for b in range(a + 1, len(m))})
        upto = f"bands B0–B{n - 1} ({n} of {t.DEMO_B})" if n < t.DEMO_B else f"all {t.DEMO_B} bands"
        if seen:
            chips = " &nbsp; ".join(
                span(f"&nbsp;{t.band_label(key)}: " + " ".join(f"<b>S{m + 1}</b>" for m in members) + "&nbsp;", TEAL_BG)
                for key, members in seen
            )
            text = f"<b>Shared buckets</b> in {upto}: {chips}<br><b>Candidate pairs:</b> " + ", ".join(
                f"S{i + 1}–S{j + 1}" for i, j in pairs
            )
        else:
            text = f"<b>Shared buckets</b> in {upto}: " + muted_html("none — the sets are too different.")
        self.buckets_label.setText(text)
        j = t.jaccard(self.sets[0], self.sets[1])
        self.status.setText(f"S1 vs S2 Jaccard similarity: {to_fixed(j, 2)}")  # rounded half up, as the article
        self.estimate_label.setText(self._estimate_html())

    def _estimate_html(self) -> str:
        run = self.result
        m, (a, b) = facts.demo_agreement(run, 0, 1), self.sets[:2]
        inter, union = len(a & b), len(a | b)
        if not union:
            return "S1 and S2 are both empty: every slot agrees (∞ = ∞), but J = 0/0 is undefined."
        return (
            f"<b>S1 vs S2:</b> {m} of {t.DEMO_K} slots agree → estimate {m}/{t.DEMO_K} = <b>{ratio_text(m, t.DEMO_K)}"
            f"</b>; exact J = {inter}/{union} = <b>{ratio_text(inter, union)}</b>. "
            + muted_html(
                "They differ because each slot is one draw, and here not even a random one: with 20 fixed "
                "functions (some keeping the list order) the estimate is a single, biased sample. With k "
                "independent random functions the typical error is √(J(1 − J)/k) "
                f"= {to_fixed(math.sqrt(inter / union * (1 - inter / union) / t.DEMO_K), 3)}."
            )
        )

    def _show_sets(self) -> None:
        self.grid.show_sets(self.sets)
        lines = []
        for i, j in ((0, 1), (0, 2), (1, 2)):
            a, b = self.sets[i], self.sets[j]
            inter, union = len(a & b), len(a | b)
            name = f"J(S{i + 1}, S{j + 1})"
            if union == 0:
                lines.append(f"{name} = 0/0: undefined, both sets are empty")
                continue
            jac = inter / union
            chance = float(probability(jac, t.DEMO_B, t.DEMO_R))
            common = ", ".join(esc(self.words[x]) for x in sorted(a & b)) or "nothing"
            lines.append(
                f"{name} = |S{i + 1} ∩ S{j + 1}| / |S{i + 1} ∪ S{j + 1}| = {inter}/{union} = <b>{to_fixed(jac, 2)}</b>"
                "<br>"
                + muted_html(f"&nbsp;&nbsp;in common: {common}; chance to become candidates: {to_fixed(chance, 2)}")
            )
        self.jaccard_label.setText("<br>".join(lines))

    def _hide_result(self, message: str = "") -> None:
        self.result = None
        self.table.clearContents()
        for w in (self.table, self.buckets_label, self.caption, self.estimate_label):
            w.hide()
        self.back_button.setEnabled(False)
        self.forward_button.setEnabled(True)
        self.status.setText(message)

    def words_of(self, i: int) -> set[str]:
        """The words now in set i, by their chips' names (for tests and screen readers)."""
        return {self.words[x] for x in self.sets[i]}

    def jaccard_values(self) -> dict[tuple[int, int], float]:
        """The exact similarities the page shows, by pair of set indices (for tests and screen readers)."""
        return {(i, j): t.jaccard(self.sets[i], self.sets[j]) for i, j in ((0, 1), (0, 2), (1, 2))}
