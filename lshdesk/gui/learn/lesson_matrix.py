"""The signature matrix, row by row: Mining of Massive Datasets' own example (Figs. 3.2-3.5), stepped with ← →."""

from __future__ import annotations

from itertools import combinations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QTableWidget, QWidget

from lshdesk.core.teaching import mmds
from lshdesk.core.teaching.exercises import Exercise
from lshdesk.core.teaching.figures import ratio_text, to_fixed
from lshdesk.gui.learn.colours import CURRENT, MINIMUM, swatch
from lshdesk.gui.learn.common import LessonPage, esc, formula_box, rich_label
from lshdesk.gui.learn.exercise_box import ExerciseBox
from lshdesk.gui.learn.flow import FlowLayout
from lshdesk.gui.learn.tables import fit_rows, lesson_table, table_item

INTRO = (
    "The book computes MinHash signatures without permuting anything. Its <b>characteristic matrix</b> has a row "
    "per element and a column per set, a 1 where the set holds the element. Two hash functions, "
    "h1(x) = x + 1 mod 5 and h2(x) = 3x + 1 mod 5, stand in for two random orders of the rows. Every slot of the "
    "<b>signature matrix</b> starts at ∞; then, <b>row by row</b>, each set with a 1 in that row lowers its slot "
    "for h<sub>i</sub> to h<sub>i</sub>(row) if that is smaller. Step through the rows with ← → (Home: back to "
    "the start), or click a cell of the matrix to change a set and see the signatures follow."
)
WHY = (
    "<b>Why the minimum works.</b> After the last row, SIG(h, S) is the smallest h-value over S's rows: the first "
    "of S's rows in the order h gives them. Two sets get the same first row with probability J(S, T) when the "
    "order is a random permutation (the row that comes first among S ∪ T is equally likely to be any of them, and "
    "the sets agree exactly when it lies in S ∩ T). h(x) = (ax + b) mod p only approximates such a permutation "
    "(its orders are a small, structured family: here 20 of the 120 orders of 5 rows); the table's last column "
    "counts, over all 20, how often two sets agree: close to J, not equal to it. Real signatures use many functions "
    "from a family closer to min-wise independent."
)


def _slot(v: int) -> str:
    return "∞" if v == mmds.INF else str(v)


def matrix_exercises() -> list[Exercise]:
    """Three exercises, their answers computed from the book's example."""
    steps = mmds.signature_steps()
    after_c, final = steps[3].sig, steps[-1].sig
    e14 = mmds.signature_estimate(final, 0, 3)
    s1, s4 = ({mmds.ELEMENTS[r] for r, row in enumerate(mmds.MATRIX) if row[c]} for c in (0, 3))
    first = min(range(len(mmds.ELEMENTS)), key=lambda r: mmds.hash_values(r)[0])
    return [
        Exercise(
            "After row c (the third row), what is SIG(h1, S4)?",
            f"Rows a and c hold S4: h1(a) = 1, h1(c) = 3, and min(1, 3) = {after_c[0, 3]}.",
            float(after_c[0, 3]),
        ),
        Exercise(
            "With both hash functions, what do the finished signatures estimate for J(S1, S4)? (And the true J?)",
            f"S1 and S4 agree on {round(e14 * 2)} of 2 functions: estimate {to_fixed(e14, 2)}; the true J is "
            f"{ratio_text(len(s1 & s4), len(s1 | s4))} (they share {', '.join(sorted(s1 & s4))} of "
            f"{', '.join(sorted(s1 | s4))}). Two functions are far too few to be close.",
            e14,
        ),
        Exercise(
            "h1 orders the rows by their value x + 1 mod 5. Which row comes first in that order?",
            f"Row {mmds.ELEMENTS[first]} (x = {first}): h1({first}) = 0, the smallest value. So SIG(h1, S) is 0 "
            "exactly for the sets that hold that row.",
            float(first),
            0.01,
        ),
    ]


class MatrixLesson(LessonPage):
    """Both matrices, the current row, the slots it lowered, the estimates against the true similarities."""

    steps = True

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("The signature matrix, row by row (MMDS Fig. 3.4)", INTRO, parent)
        self.matrix = [list(row) for row in mmds.MATRIX]
        self.shown = 0  # how many rows are processed
        self.chars = lesson_table(["Row (x)", *mmds.SETS, "h1(x)", "h2(x)"], "Characteristic matrix")
        self.sig = lesson_table(["", *mmds.SETS], "Signature matrix")
        self.chars.cellClicked.connect(self._flip)
        tables = QHBoxLayout()
        tables.addWidget(self.chars, 3)
        tables.addWidget(self.sig, 2)
        self.body.addLayout(tables)
        self.step_text = rich_label("")
        self.legend = rich_label(
            f"<b>Colours:</b> {swatch('the row being read', CURRENT)} &nbsp; "
            f"{swatch('a slot it lowered: the smallest value so far', MINIMUM)}"
        )
        buttons = FlowLayout()
        self.back_button, self.forward_button = QPushButton("◂ Previous row"), QPushButton("Next row ▸")
        self.back_button.setToolTip("Undo the last row read: the signature matrix as it was before it")
        self.forward_button.setToolTip("Read the next row of the matrix: the slots it lowers are marked")
        self.back_button.clicked.connect(self.step_back)
        self.forward_button.clicked.connect(self.step_forward)
        buttons.addWidget(self.back_button)
        buttons.addWidget(self.forward_button)
        self.add_reset(buttons)
        self.body.addLayout(buttons)
        self.estimates = lesson_table(
            ["Pair", "Signatures agree", "Estimate", "True J", "All 20 (ax + b) mod 5"], "Estimates"
        )
        for w in (self.legend, self.step_text, self.estimates, formula_box(WHY)):
            self.body.addWidget(w)
        self.figure = self.chars  # kept on screen in presentation mode: the row being read
        self.exercises = ExerciseBox(matrix_exercises())
        self.body.addWidget(self.exercises)
        self.body.addStretch(1)
        self._show()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # a zoom (presentation mode): rows as tall as the new font
            self._show()

    def step_back(self) -> None:
        self.shown = max(self.shown - 1, 0)
        self._show()

    def step_forward(self) -> None:
        self.shown = min(self.shown + 1, len(self.matrix))
        self._show()

    def step_home(self) -> None:
        self.shown = 0
        self._show()

    def reset(self) -> None:
        self.matrix = [list(row) for row in mmds.MATRIX]
        self.exercises.reset()
        self.step_home()

    def _flip(self, row: int, col: int) -> None:
        """A click on a set's cell puts the element into the set or takes it out (the book's example, changed)."""
        if 1 <= col <= len(mmds.SETS):
            self.matrix[row][col - 1] ^= 1
            self._show()

    def _show(self) -> None:
        steps = mmds.signature_steps(self.matrix)
        step = steps[self.shown]
        current = step.row
        self._fill_chars(current)
        _fill(
            self.sig,
            [[f"h{i + 1}", *(_slot(v) for v in step.sig[i])] for i in range(len(mmds.HASHES))],
            {(i, c + 1) for i, c in zip(*step.changed.nonzero())},
        )
        self.step_text.setText(self._explain(step))
        done = steps[-1].sig
        rows = []
        for i, j in combinations(range(len(mmds.SETS)), 2):
            est = mmds.signature_estimate(done, i, j)
            agree = int(round(est * len(mmds.HASHES)))
            jac = mmds.column_jaccard(self.matrix, i, j)
            same, n = mmds.family_agreement(self.matrix, i, j)
            rows.append(
                [
                    f"{mmds.SETS[i]}, {mmds.SETS[j]}",
                    f"{agree} of {len(mmds.HASHES)}",
                    to_fixed(est, 2),
                    to_fixed(jac, 2),
                    f"{same} of {n} = {to_fixed(same / n, 2)}",
                ]
            )
        _fill(self.estimates, rows, set())
        self.back_button.setEnabled(self.shown > 0)
        self.forward_button.setEnabled(self.shown < len(self.matrix))

    def _fill_chars(self, current: int) -> None:
        rows = [
            [f"{mmds.ELEMENTS[r]} ({r})", *map(str, self.matrix[r]), *map(str, mmds.hash_values(r))]
            for r in range(len(self.matrix))
        ]
        _fill(self.chars, rows, set(), current)
        self.chars.setToolTip("Click a set's cell to put the element in or take it out")

    def _explain(self, step: mmds.RowStep) -> str:
        if step.row < 0:
            return "Before any row: every slot is ∞. Press → (or Next row) to read row a."
        r = step.row
        h = mmds.hash_values(r)
        holders = [mmds.SETS[c] for c in range(len(mmds.SETS)) if self.matrix[r][c]]
        lowered = [f"SIG(h{i + 1}, {mmds.SETS[c]}) = {step.sig[i, c]}" for i, c in zip(*step.changed.nonzero())]
        head = (
            f"<b>Row {mmds.ELEMENTS[r]}</b> (x = {r}): h1 = {h[0]}, h2 = {h[1]}; "
            f"{', '.join(holders) if holders else 'no set'} hold{'s' if len(holders) == 1 else ''} it. "
        )
        tail = ("Lowered: " + "; ".join(lowered) + ".") if lowered else "No slot is lowered: each is already smaller."
        if self.shown == len(self.matrix):
            tail += " That was the last row: these are the signatures (the book's Fig. 3.5)."
        return head + esc(tail)


def _fill(table: QTableWidget, rows: list[list[str]], lit: set[tuple[int, int]], current: int = -1) -> None:
    table.setRowCount(len(rows))
    for r, cells in enumerate(rows):
        for c, text in enumerate(cells):
            bg = MINIMUM if (r, c) in lit else CURRENT if r == current else None
            table.setItem(r, c, table_item(text, bold=c == 0, bg=bg, left=c == 0))
    fit_rows(table)
    table.setFixedHeight(table.horizontalHeader().height() + sum(table.rowHeight(r) for r in range(len(rows))) + 4)
