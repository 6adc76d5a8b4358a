"""The Signatures tab: the signature grid fed from a scan result and the selection, or a hint how to select."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QStackedWidget, QVBoxLayout, QWidget

from lshdesk.core.clustering import exact_jaccard
from lshdesk.core.compare import all_pairs
from lshdesk.gui.signatures.grid import SignatureGrid

if TYPE_CHECKING:
    from lshdesk.core.scan.pipeline import ScanResult

HINT = (
    "Select documents to compare their signatures here: a pair in Results › Pairs, a group in Results › Groups, "
    "or several documents in Results › Documents (Ctrl+click to pick more than one)."
)


class SignatureView(QWidget):
    """The Signatures tab: a SignatureGrid for the selected documents of a scan result, or a hint how to select."""

    MAX_DOCS = 64

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.result: ScanResult | None = None
        self.names: list[str] = []
        self.docs: tuple[int, ...] = ()
        self.hint = QLabel(HINT)
        self.hint.setWordWrap(True)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setMaximumWidth(560)
        hint_page = QWidget()
        hv = QHBoxLayout(hint_page)
        hv.addWidget(self.hint)
        self.note = QLabel()
        self.pick = QComboBox()
        self.pick.setAccessibleName("Which documents to show")
        self.pick.setToolTip(f"A grid shows at most {self.MAX_DOCS} documents: pick which of the selected ones")
        picker = QWidget()
        pl = QHBoxLayout(picker)
        pl.setContentsMargins(0, 0, 0, 0)
        pl.addWidget(self.note)
        pl.addWidget(self.pick)
        pl.addStretch(1)
        self.picker = picker
        picker.hide()
        self.grid = SignatureGrid()
        page = QWidget()
        pv = QVBoxLayout(page)
        pv.setContentsMargins(0, 0, 0, 0)
        pv.addWidget(picker)
        pv.addWidget(self.grid, 1)
        self.stack = QStackedWidget()
        self.stack.addWidget(hint_page)
        self.stack.addWidget(page)
        lay = QVBoxLayout(self)
        lay.addWidget(self.stack)
        self.pick.currentIndexChanged.connect(lambda _i: self._show_page())

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        self.result, self.names = result, list(names)
        self.show_docs(())

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Nothing to stop: a grid is drawn in the GUI thread (a ``View`` of the window)."""
        return True

    def show_docs(self, docs: tuple[int, ...]) -> None:
        """Show the signatures of these documents (2 or more), with exact Jaccard from the scan's shingle sets."""
        docs = tuple(dict.fromkeys(int(d) for d in docs))
        self.docs = docs
        r = self.result
        if r is None or len(docs) < 2:
            one = "One document selected: Ctrl+click another to compare their signatures.\n\n" if len(docs) == 1 else ""
            self.hint.setText(("Scan a folder first. " if r is None else "") + one + HINT)
            self.stack.setCurrentIndex(0)
            return
        self.picker.setVisible(len(docs) > self.MAX_DOCS)
        self.pick.blockSignals(True)
        self.pick.clear()
        for start in range(0, len(docs), self.MAX_DOCS):
            stop = min(start + self.MAX_DOCS, len(docs))
            self.pick.addItem(f"documents {start + 1}-{stop}", start)
        self.pick.blockSignals(False)
        self.note.setText(f"{len(docs):,} documents selected; a grid shows {self.MAX_DOCS} at a time:")
        self._show_page()

    def _show_page(self) -> None:
        """The grid of the chosen 64 (or fewer) documents, with exact Jaccard from the scan's shingle sets."""
        r = self.result
        if r is None or len(self.docs) < 2:
            return
        start = self.pick.currentData() or 0
        shown = np.array(self.docs[start : start + self.MAX_DOCS], dtype=np.int64)
        if len(shown) < 2:
            shown = np.array(self.docs[-self.MAX_DOCS :], dtype=np.int64)  # a last page of one: show it with others
        left, right = all_pairs(len(shown))
        jac = exact_jaccard(r.shingles, shown[left], shown[right])
        jaccard = {(int(i), int(j)): float(s) for i, j, s in zip(left, right, jac)}
        self.grid.set_data(r.signatures[shown], [self.names[d] for d in shown], r.banding, jaccard)
        self.shown = tuple(shown.tolist())
        self.stack.setCurrentIndex(1)
