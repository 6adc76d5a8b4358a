"""Lesson 'The whole pipeline': the article's demo, faithful (3 sets, 20 hash functions, 10 bands of 2 rows)."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QPushButton, QTableWidgetItem, QVBoxLayout, QWidget

from lshdesk.core.scurve import probability
from lshdesk.core.teaching import facts
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.exercises import lesson_exercises
from lshdesk.core.teaching.figures import ratio_text, to_fixed
from lshdesk.gui.learn.colours import SHARED_BUCKET, legend_html, swatch
from lshdesk.gui.learn.common import formula_box, rich_label
from lshdesk.gui.learn.exercise_box import ExerciseBox
from lshdesk.gui.learn.flow import FlowLayout
from lshdesk.gui.learn.lesson_sets import SetsLesson
from lshdesk.gui.learn.tables import band_table
from lshdesk.gui.plots.export import choose_and_export, export_widget
from lshdesk.gui.theme import ACCENT, keep_color, muted_html, text_on

INTRO = (
    "The article's demo puts the whole pipeline on one page: the same three sets, each signed with K = "
    f"{t.DEMO_K} hash functions, the signatures cut into B = {t.DEMO_B} bands of R = {t.DEMO_R} rows, and the "
    "buckets the bands fall into. Press <b>Run</b>, then step band by band (← → or Home)."
)
_ORDERED = " and ".join(f"h{i}" for i in facts.order_keeping_functions())
HOW = (
    "<b>MinHash.</b> Each word is a number x, its place in the list (the first word is 0, the last 19). "
    f"K = {t.DEMO_K} hash functions h<sub>i</sub>(x) = (a<sub>i</sub>·x + b<sub>i</sub>) mod {t.DEMO_P:,} "
    "reorder those numbers; a set's signature keeps, for each h<sub>i</sub>, the smallest value over the set's "
    "words. Two sets share the smallest value with probability J <i>for a hash function drawn at random from a "
    "good family</i>. This demo, like the article's, uses 20 <b>fixed</b> functions (constants from its code, not "
    f"random draws): {_ORDERED} keep the list order (h0(x) = x + 7, so its minimum is always the set's first word "
    "in the list), and some pairs of functions rank the words almost alike. "
    f"<b>LSH.</b> Sets whose two values agree in a band fall into the same bucket, and sharing any bucket makes "
    "them a candidate pair: for random functions the chance is 1 − (1 − J<sup>R</sup>)<sup>B</sup>."
)
ROW_HEIGHT_LINES = 2.6  # a cell holds two values: its height in lines of the current font


def bands_text(n: int) -> str:
    """'band B0', 'bands B0–B3 (4 of 10)' or 'all 10 bands'."""
    if n == 1:
        return "band B0"
    return f"bands B0–B{n - 1} ({n} of {t.DEMO_B})" if n < t.DEMO_B else f"all {t.DEMO_B} bands"


class DemoLesson(SetsLesson):
    """The sets of lesson 1, Run: signatures by band with the shared buckets highlighted, band by band."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, "The article's whole pipeline", INTRO)
        self.result: t.DemoRun | None = None
        self.shown = t.DEMO_B
        self._hide_result()

    def build_rest(self) -> None:
        self.how = formula_box(HOW)
        self.body.addWidget(self.how)
        self.run_button = QPushButton("Run MinHash + LSH")
        self.back_button = QPushButton("◂ Previous band")
        self.forward_button = QPushButton("Next band ▸")
        self.run_button.setToolTip("Sign the sets with MinHash and put them in LSH buckets, band by band (the table)")
        self.back_button.setToolTip("Show one band fewer: the buckets and the pairs they make so far")
        self.forward_button.setToolTip("Show one band more: the buckets and the pairs they make so far")
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
        self.legend = rich_label("")
        self._caption()
        self.figure = QWidget()  # what presentation keeps on screen: the table with its caption, legend and buckets
        box = QVBoxLayout(self.figure)
        box.setContentsMargins(0, 0, 0, 0)
        for w in (self.caption, self.legend, self.table, self.buckets_label, self.status):
            box.addWidget(w)
        self.body.addWidget(self.figure)
        self.body.addWidget(self.estimate_label)
        self.exercises = ExerciseBox(lesson_exercises("demo"))
        self.body.addWidget(self.exercises)
        self.body.addStretch(1)
        self.run_button.clicked.connect(self.run)
        self.back_button.clicked.connect(self.step_back)
        self.forward_button.clicked.connect(self.step_forward)

    def reading(self) -> list[QWidget]:
        return [*super().reading(), self.how, self.estimate_label]

    def present(self, on: bool) -> None:
        super().present(on)
        if self.result is None:
            self.estimate_label.hide()  # nothing run yet: nothing to estimate

    def restyle(self) -> None:
        self._caption()
        super().restyle()
        if self.result is not None:
            self._show_result()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() == event.Type.FontChange and hasattr(self, "table"):
            self._fit_table()

    def _fit_table(self) -> None:
        line = self.table.fontMetrics().height()
        self.table.verticalHeader().setDefaultSectionSize(int(ROW_HEIGHT_LINES * line))
        header = self.table.horizontalHeader().sizeHint().height()
        self.table.setFixedHeight(header + int(3 * ROW_HEIGHT_LINES * line) + 4)

    def _caption(self) -> None:
        self.caption.setText(
            "Each cell holds a set's two signature values in that band: together they are its <b>bucket key</b>."
        )
        self.legend.setText(legend_html("shared bucket"))

    def pair_line(self, i: int, j: int) -> str:
        line = super().pair_line(i, j)
        a, b = self.sets[i], self.sets[j]
        if not a | b:
            return line
        chance = float(probability(len(a & b) / len(a | b), t.DEMO_B, t.DEMO_R))
        return line + "<br>" + muted_html(f"&nbsp;&nbsp;chance to become candidates: {to_fixed(chance, 2)}")

    def parameters(self) -> dict[str, str]:
        shown = bands_text(self.shown) if self.result is not None else "not run yet"
        return {**super().parameters(), "scheme": f"K = {t.DEMO_K}, {t.DEMO_B} bands × {t.DEMO_R} rows", "shown": shown}

    # --- intents ------------------------------------------------------------------------------------------------
    def toggle(self, i: int, x: int) -> None:
        super().toggle(i, x)
        self._hide_result("The sets changed: press Run to hash them again.")

    def _rename(self, text: str) -> None:
        super()._rename(text)
        if self.result is not None:
            self._show_result()

    def reset(self) -> None:
        super().reset()
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
        title = f"Article demo, K = {t.DEMO_K}, {t.DEMO_B} bands × {t.DEMO_R} rows, {bands_text(self.shown)}: {sets}"
        export_widget(self.table, path, title)  # the table alone, as the article draws its buckets

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
        if run is None:
            return
        shared = run.shared_mask()
        fill = SHARED_BUCKET.color()
        for i, keys in enumerate(run.band_keys):
            for band, key in enumerate(keys):
                v1, v2 = key.split(":")[1].split(",")
                item = QTableWidgetItem(f"{v1}\n{v2}")
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                item.setToolTip(f"S{i + 1}, band B{band}: bucket key {key}")
                if shared[i, band]:
                    item.setBackground(QBrush(fill))
                    item.setForeground(QBrush(text_on(fill)))
                self.table.setItem(i, band, item)
        for band in range(t.DEMO_B):
            self.table.setColumnHidden(band, band >= n)
        self._fit_table()
        for w in (self.table, self.caption, self.legend, self.buckets_label, self.estimate_label):
            w.show()
        self.estimate_label.setVisible(not self.presenting)
        self.back_button.setEnabled(n > 1)
        self.forward_button.setEnabled(n < t.DEMO_B)
        seen = [(key, m) for key, m in run.shared if int(key.split(":")[0][1:]) < n]
        pairs = sorted({(m[a], m[b]) for _, m in seen for a in range(len(m)) for b in range(a + 1, len(m))})
        if seen:
            chips = " &nbsp; ".join(
                swatch(f"{t.band_label(key)}: " + " ".join(f"<b>S{m + 1}</b>" for m in members), SHARED_BUCKET)
                for key, members in seen
            )
            text = f"<b>Shared buckets</b> in {bands_text(n)}: {chips}<br><b>Candidate pairs:</b> " + ", ".join(
                f"S{i + 1}–S{j + 1}" for i, j in pairs
            )
        else:
            text = f"<b>Shared buckets</b> in {bands_text(n)}: " + muted_html("none — the sets are too different.")
        self.buckets_label.setText(text)
        j = t.jaccard(self.sets[0], self.sets[1])
        self.status.setText(f"S1 vs S2 Jaccard similarity: {to_fixed(j, 2)}")  # rounded half up, as the article
        self.estimate_label.setText(self._estimate_html())

    def _estimate_html(self) -> str:
        run = self.result
        if run is None:
            return ""
        m, (a, b) = facts.demo_agreement(run, 0, 1), self.sets[:2]
        inter, union = len(a & b), len(a | b)
        if not union:
            return "S1 and S2 are both empty: every slot agrees (∞ = ∞), but J = 0/0 is undefined."
        j = inter / union
        spread = math.sqrt(j * (1 - j) / t.DEMO_K)
        gap = abs(m / t.DEMO_K - j)
        if gap <= spread:
            size = "within one typical error: ordinary noise"
        else:
            size = f"{to_fixed(gap / spread, 1)} typical errors" + (
                ": still what noise gives now and then" if gap <= 2 * spread else ": large for noise"
            )
        return (
            f"<b>S1 vs S2:</b> {m} of {t.DEMO_K} slots agree → estimate {m}/{t.DEMO_K} = <b>{ratio_text(m, t.DEMO_K)}"
            f"</b>; exact J = {inter}/{union} = <b>{ratio_text(inter, union)}</b>, a gap of {to_fixed(gap, 3)}. "
            + muted_html(
                "Each slot is one draw, so the estimate scatters around J: with k independent random functions the "
                f"typical error is √(J(1 − J)/k) = {to_fixed(spread, 3)}, and this gap is {size}. One run cannot "
                "tell noise from bias: only the average over many draws can (the experiment 'Error versus k' "
                "takes it over many seeds)."
            )
        )

    def _hide_result(self, message: str = "") -> None:
        self.result = None
        self.table.clearContents()
        for w in (self.table, self.buckets_label, self.caption, self.legend, self.estimate_label):
            w.hide()
        self.back_button.setEnabled(False)
        self.forward_button.setEnabled(True)
        self.status.setText(message)
