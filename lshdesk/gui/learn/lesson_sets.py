"""Lesson 1, sets and Jaccard: the article's token-toggle demo (3 sets, 20 hash functions, 10 bands of 2 rows)."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from lshdesk.core.scurve import probability
from lshdesk.core.teaching import lessons as t
from lshdesk.gui.learn.common import LessonPage, formula_box, rich_label
from lshdesk.gui.theme import (
    ACCENT,
    SET_COLORS,
    TEAL_BG,
    Tone,
    is_dark,
    keep_color,
    keep_style,
    muted_html,
    span,
    text_on,
)

INTRO = (
    "A document can be compared as a <b>set</b> of its words (its <i>shingles</i>). Below are three small sets "
    "S1, S2, S3 drawn from a list of 20 words. <b>Click a word</b> to put it into a set or take it out. "
    "The <b>Jaccard similarity</b> of two sets is the share of all their words that they have in common: "
    "1 for identical sets, 0 for sets with nothing in common."
)
HOW = (
    f"<b>MinHash.</b> Each word is a number x, its place in the list (cat = 0, dog = 1, …, nut = 19). "
    f"K = {t.DEMO_K} hash functions h<sub>i</sub>(x) = (a<sub>i</sub>·x + b<sub>i</sub>) mod {t.DEMO_P:,} "
    "shuffle those numbers; a set's <b>signature</b> keeps, for each h<sub>i</sub>, the smallest value over the set's "
    "words. Two sets get the same smallest value with probability J. "
    f"<b>LSH.</b> The 20 values are cut into B = {t.DEMO_B} <b>bands</b> of R = {t.DEMO_R} rows. Sets whose two "
    "values agree in a band fall into the same <b>bucket</b>, and sharing any bucket makes them a "
    "<b>candidate pair</b>: the chance of that is 1 − (1 − J<sup>R</sup>)<sup>B</sup>. Press Run."
)
FOCUS = Tone("#d35400", "#ffb74d")  # the keyboard focus ring: stands out on pale and on strong chips
CHIPS = {  # off: pale, on: strong; (background, border, text) for light and dark palettes
    False: (("#dce8f5", "#9bbbd4", "#222222"), ("#1d3557", "#f4f4f4", "#1d3557")),
    True: (("#2a3a4f", "#4d6a8c", "#e6e6e6"), ("#9cc3f5", "#101b2b", "#9cc3f5")),
}


def chip_css() -> str:
    """A word chip: pale when the word is out of the set, strong when it is in; a frame when it has focus."""
    (bg, border, text), (on_bg, on_text, on_border) = CHIPS[is_dark()]
    return (
        f"QPushButton {{ background:{bg}; border:1px solid {border}; border-radius:5px; padding:2px 6px; color:{text}; }}"
        f"QPushButton:checked {{ background:{on_bg}; color:{on_text}; border-color:{on_border}; }}"
        f"QPushButton:focus {{ border:2px solid {FOCUS.name()}; padding:1px 5px; }}"
    )


class SetsLesson(LessonPage):
    """Three clickable sets, live Jaccard, and Run: signatures by band with the shared buckets highlighted."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("1 · Sets and Jaccard", INTRO, parent)
        self.sets: list[set[str]] = [set(s) for s in t.INIT_SETS]
        self.chips: list[dict[str, QPushButton]] = []
        grid = QGridLayout()
        grid.setHorizontalSpacing(4)
        grid.setVerticalSpacing(3)
        for i in range(len(self.sets)):
            label = QLabel(f"<b style='font-size:14pt'>S{i + 1}</b>")
            keep_color(label, SET_COLORS[i])
            grid.addWidget(label, 3 * i, 0, 2, 1)
            if i:
                grid.setRowMinimumHeight(3 * i - 1, 8)
            row: dict[str, QPushButton] = {}
            for x, tok in enumerate(t.UNIVERSE):
                chip = QPushButton(tok)
                chip.setCheckable(True)
                keep_style(chip, chip_css)
                chip.setAccessibleName(f"{tok} in S{i + 1}")
                chip.setToolTip(f"x = {x}. Click to put '{tok}' into S{i + 1} or take it out")
                chip.clicked.connect(lambda _=False, i=i, tok=tok: self.toggle(i, tok))
                grid.addWidget(chip, 3 * i + x // 10, 1 + x % 10)
                row[tok] = chip
            self.chips.append(row)
        chips = QWidget()
        chips.setLayout(grid)
        self.jaccard_label = rich_label("")
        self.jaccard_label.setMinimumWidth(300)
        top = QHBoxLayout()
        top.addWidget(chips)
        top.addWidget(self.jaccard_label, 1)
        self.body.addLayout(top)
        self.body.addWidget(formula_box(HOW))

        self.run_button = QPushButton("Run MinHash + LSH")
        self.reset_button = QPushButton("Reset")
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.reset_button)
        buttons.addStretch(1)
        self.body.addLayout(buttons)
        self.table = QTableWidget(len(self.sets), t.DEMO_B)
        self.table.setAccessibleName("Signatures by band")
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; the arrow keys move between cells
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setVerticalHeaderLabels([f"S{i + 1}" for i in range(len(self.sets))])
        self.table.setHorizontalHeaderLabels(
            [f"Band B{b}\nh{b * t.DEMO_R}, h{b * t.DEMO_R + 1}" for b in range(t.DEMO_B)]
        )
        a, b = t.demo_constants()
        for band in range(t.DEMO_B):
            i0, i1 = band * t.DEMO_R, band * t.DEMO_R + 1
            self.table.horizontalHeaderItem(band).setToolTip(
                f"slots {i0} and {i1}:\nh{i0}(x) = ({a[i0]}·x + {b[i0]}) mod {t.DEMO_P}\n"
                f"h{i1}(x) = ({a[i1]}·x + {b[i1]}) mod {t.DEMO_P}"
            )
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setDefaultSectionSize(44)
        self.table.setFixedHeight(self.table.horizontalHeader().sizeHint().height() + 3 * 44 + 4)
        self.buckets_label = rich_label("")
        self.status = QLabel()
        keep_color(self.status, ACCENT, "font-weight:600")
        self.caption = rich_label("")
        self._caption()
        self.body.addWidget(self.caption)
        self.body.addWidget(self.table)
        self.body.addWidget(self.buckets_label)
        self.body.addWidget(self.status)
        self.body.addStretch(1)
        self.run_button.clicked.connect(self.run)
        self.reset_button.clicked.connect(self.reset)
        self.result: t.DemoRun | None = None
        self._show_sets()
        self._hide_result()

    def restyle(self) -> None:
        self._caption()
        self._show_sets()
        if self.result is not None:
            self.run()

    def _caption(self) -> None:
        self.caption.setText(
            "Each cell holds a set's two signature values in that band: together they are its <b>bucket key</b>. "
            + span("&nbsp;Green&nbsp;", TEAL_BG)
            + " cells are buckets shared with another set."
        )

    # --- intents ------------------------------------------------------------------------------------------------
    def toggle(self, i: int, token: str) -> None:
        self.sets[i] ^= {token}
        self._show_sets()
        self._hide_result("The sets changed: press Run to hash them again.")

    def reset(self) -> None:
        self.sets = [set(s) for s in t.INIT_SETS]
        self._show_sets()
        self._hide_result()

    def run(self) -> None:
        """Hash the sets exactly as the article's demo does and show the signatures and the shared buckets."""
        self.result = run = t.run_demo([sorted(s, key=t.UNIVERSE.index) for s in self.sets])
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
        self.table.show()
        self.caption.show()
        if run.shared:
            chips = " &nbsp; ".join(
                span(f"&nbsp;{t.band_label(key)}: " + " ".join(f"<b>S{m + 1}</b>" for m in members) + "&nbsp;", TEAL_BG)
                for key, members in run.shared
            )
            pairs = ", ".join(f"S{i + 1}–S{j + 1}" for i, j in run.candidates)
            text = f"<b>Shared buckets</b> (highlighted above): {chips}<br><b>Candidate pairs:</b> {pairs}"
        else:
            text = "<b>Shared buckets:</b> " + muted_html("none — the sets are too different.")
        self.buckets_label.setText(text)
        self.buckets_label.show()
        j = t.jaccard(self.sets[0], self.sets[1])
        self.status.setText(f"S1 vs S2 Jaccard similarity: {'NaN' if math.isnan(j) else f'{j:.2f}'}")

    # --- showing ------------------------------------------------------------------------------------------------
    def _show_sets(self) -> None:
        for s, row in zip(self.sets, self.chips):
            for tok, chip in row.items():
                chip.setChecked(tok in s)
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
            common = ", ".join(sorted(a & b, key=t.UNIVERSE.index)) or "nothing"
            lines.append(
                f"{name} = |S{i + 1} ∩ S{j + 1}| / |S{i + 1} ∪ S{j + 1}| = {inter}/{union} = <b>{jac:.2f}</b>"
                "<br>" + muted_html(f"&nbsp;&nbsp;in common: {common}; chance to become candidates: {chance:.2f}")
            )
        self.jaccard_label.setText("<br>".join(lines))

    def _hide_result(self, message: str = "") -> None:
        self.result = None
        self.table.clearContents()
        self.table.hide()
        self.buckets_label.hide()
        self.caption.hide()
        self.status.setText(message)

    def jaccard_values(self) -> dict[tuple[int, int], float]:
        """The exact similarities the page shows, by pair of set indices (for tests and screen readers)."""
        return {(i, j): t.jaccard(self.sets[i], self.sets[j]) for i, j in ((0, 1), (0, 2), (1, 2))}
