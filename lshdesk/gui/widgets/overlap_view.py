"""Folder against folder, in the Results view: which side's documents have a near-duplicate on the other and how much
of each side's text the other holds, as bars and figures, with the pairs behind them."""

from __future__ import annotations

from collections.abc import Generator

import numpy as np
from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from lshdesk.core.overlap import Overlap, Side, default_sides, overlap
from lshdesk.core.pathnames import display
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.core.scan.progress import Progress
from lshdesk.gui.models.arraymodel import ArrayTableModel, Column
from lshdesk.gui.theme import TEAL_BG
from lshdesk.gui.widgets.result_tables import table
from lshdesk.gui.workers import WorkerSlot


class OverlapBars(QWidget):
    """Per side two bars: the share of its documents with a near-duplicate across, and of its shingles held across."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.found: Overlap | None = None
        self.setMinimumHeight(4 * self.fontMetrics().height() + 40)
        self.setAccessibleName("Overlap of the two sides, as bars")

    def show_overlap(self, found: Overlap | None) -> None:
        self.found = found
        self.setAccessibleDescription("; ".join(found.lines()) if found is not None else "")
        self.update()

    def _rows(self) -> list[tuple[str, float, str]]:
        rows = []
        for side, other in ((self.found.a, self.found.b), (self.found.b, self.found.a)) if self.found else ():
            share = side.matched / side.docs if side.docs else 0.0
            rows.append(
                (
                    f"{_short(side)}: documents with a near-duplicate in {_short(other)}",
                    share,
                    f"{side.matched:,} of {side.docs:,} ({share:.0%})",
                )
            )
            if side.contained is not None:  # None: a cluster's scan kept no shingle sets here
                rows.append(
                    (
                        f"{_short(side)}: shingles also in {_short(other)}",
                        side.contained,
                        f"{side.contained:.0%} of {side.shingles:,}",
                    )
                )
        return rows

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        pal, fm = self.palette(), self.fontMetrics()
        line = fm.height() + 8
        label_w = min(self.width() // 2, max((fm.horizontalAdvance(t) for t, _, _ in self._rows()), default=0) + 12)
        figure_w = fm.horizontalAdvance("00,000 of 00,000 (100%)") + 12
        bar_w = max(self.width() - label_w - figure_w, 40)
        for i, (text, share, figure) in enumerate(self._rows()):
            y = 6 + i * line
            p.setPen(pal.color(QPalette.ColorRole.WindowText))
            shown = fm.elidedText(text, Qt.TextElideMode.ElideMiddle, label_w - 12)
            p.drawText(
                QRectF(0, y, label_w - 12, line), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, shown
            )
            p.fillRect(QRectF(label_w, y + 4, bar_w, line - 8), pal.color(QPalette.ColorRole.AlternateBase))
            p.fillRect(QRectF(label_w, y + 4, bar_w * min(max(share, 0.0), 1.0), line - 8), TEAL_BG.color(pal))
            p.drawText(QRectF(label_w + bar_w + 8, y, figure_w, line), Qt.AlignmentFlag.AlignVCenter, figure)
        p.end()


def _similarity(v: object) -> str:
    return f"{float(v):.3f}"  # type: ignore[arg-type]


def _short(side: Side) -> str:
    return side.name if len(side.name) <= 40 else "…" + side.name[-39:]


class OverlapView(QWidget):
    """The sides (a choice of which folders stand against the rest), their bars and figures, and the cross pairs."""

    pairPicked = Signal(tuple)  # (left, right): a pair behind the figures, to read side by side

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.result: ScanResult | None = None
        self.names: list[str] = []
        self.found: Overlap | None = None
        self.stale = False  # a result came while the view was hidden: compared when it is shown
        self.side = QComboBox()
        self.side.setAccessibleName("Which folders stand against the others")
        self.side.setToolTip("Side A: these folders; side B: every other folder scanned")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.bars = OverlapBars()
        self.pairs_model = ArrayTableModel(self)
        self.pairs = table(self.pairs_model)
        self.pairs.setAccessibleName("Pairs joining the two sides")
        self.pairs.setToolTip("The pairs behind the figures; double-click one to read it side by side")
        top = QHBoxLayout()
        top.addWidget(QLabel("Side A:"))
        top.addWidget(self.side, 1)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.summary)
        lay.addWidget(self.bars)
        lay.addWidget(self.pairs, 1)
        self.slot = WorkerSlot(self, "Could not compare the folders")  # the comparison, off the GUI thread
        self.side.currentIndexChanged.connect(lambda _i: self._show())
        self.pairs.activated.connect(self._activated)

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        self.result, self.names = result, names
        self.side.blockSignals(True)
        self.side.clear()
        if result is not None and (first := default_sides(result)) is not None:
            choices = [first[0], *((i,) for i in range(len(result.roots)) if (i,) != first[0])]
            for a in choices:
                self.side.addItem(", ".join(display(result.roots[i]) for i in a), a)
        self.side.blockSignals(False)
        if self.isVisible():
            self._show()
        else:  # compared when the tab is shown: a scan of two folders does not pay for it unasked
            self.stale = True
            self.slot.cancel()
            self._fill(None)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.stale:
            self._show()

    def _show(self) -> None:
        """Compare the sides chosen in the worker (the shingles of each side: about 1 s at 100k documents)."""
        r, a = self.result, self.side.currentData()
        self.stale = False
        self._fill(None)
        if r is None or not a:
            self.slot.cancel()
            self.summary.setText("Scan two folders or more to compare them.")
            return
        sides = (tuple(a), tuple(i for i in range(len(r.roots)) if i not in a))
        self.summary.setText("Comparing the two sides…")
        self.slot.start(lambda cancel: _compared(r, sides), self._compared)

    def _compared(self, found: Overlap | None) -> None:
        self._fill(found)
        if found is None:
            self.summary.setText("Scan two folders or more to compare them.")

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Stop the comparison running, if any; True if no thread is left."""
        return self.slot.shutdown(timeout_ms)

    def _fill(self, found: Overlap | None) -> None:
        """The bars, the figures and the pairs of ``found`` (None: none yet)."""
        r = self.result
        self.found = found
        self.bars.show_overlap(found)
        if found is not None:
            self.summary.setText("<br>".join(found.lines()))
        rows = found.pairs if found is not None else np.zeros(0, np.int64)
        none = np.zeros(0, np.int64)
        p = r.pairs if r is not None else None
        self.pairs_model.set_columns(
            [
                Column("Document A", self.names, index=p.left[rows] if p is not None else none),
                Column("Document B", self.names, index=p.right[rows] if p is not None else none),
                Column("Similarity", p.jaccard[rows] if p is not None else none, _similarity, "Exact Jaccard", True),
            ]
        )

    def _activated(self, index) -> None:
        if self.found is None or self.result is None:
            return
        i = int(self.found.pairs[self.pairs_model.data_row(index.row())])
        self.pairPicked.emit((int(self.result.pairs.left[i]), int(self.result.pairs.right[i])))


def _compared(
    result: ScanResult, sides: tuple[tuple[int, ...], tuple[int, ...]]
) -> Generator[Progress, None, Overlap | None]:
    """``overlap`` as a worker's job."""
    yield Progress("comparing the sides", 0, 1)
    return overlap(result, sides)
