"""The S-curve view's lower tabs: the missed pairs (with their best band agreement) and the bucket sizes.

Only the tab shown is filled when a scheme's figures arrive; the other is filled when it is opened (the bucket
plot's title and ticks took 10-40 ms of every slider step while the missed pairs were shown, 2 cores at load 15).
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QSplitter, QTableView, QTabWidget

from lshdesk.core.explore.figures import Figures
from lshdesk.gui.accessible import describe
from lshdesk.gui.models.arraymodel import ArrayTableModel, Column
from lshdesk.gui.plots.bucket_plot import BucketPlot

_FIT = QHeaderView.ResizeMode
MISSED_SAID = (
    "The pairs at or above the threshold that the scheme does not make candidates, with their similarity and the "
    "most rows agreeing in one band; a row clicked shows its pair"
)
BUCKETS_SAID = "The largest buckets: their band, how many documents and which; a row clicked shows two of them"


def _table(model: ArrayTableModel, name: str, description: str) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setTabKeyNavigation(False)  # Tab leaves the table; the arrow keys move between cells
    describe(view, description, name)
    view.setSortingEnabled(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(22)
    view.horizontalHeader().setResizeContentsPrecision(64)  # numbers fitted to 64 rows, not 1,000, every step
    view.setWordWrap(False)
    return view


class ScurveTables(QTabWidget):
    """Missed pairs and buckets of the scheme shown; ``pairPicked`` when a row is clicked (a bucket gives its first
    two members)."""

    pairPicked = Signal(int, int)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.figures: Figures | None = None
        self._names: list[str] = []
        self._filled: set[int] = set()  # the tabs showing ``figures``
        self.missed_model = ArrayTableModel(self)
        self.missed_view = _table(self.missed_model, "Missed pairs", MISSED_SAID)
        self.bucket_model = ArrayTableModel(self)
        self.bucket_view = _table(self.bucket_model, "Largest buckets", BUCKETS_SAID)
        self._modes = {  # names stretch, numbers fit
            self.missed_view: (_FIT.Stretch, _FIT.Stretch, _FIT.ResizeToContents, _FIT.ResizeToContents),
            self.bucket_view: (_FIT.ResizeToContents, _FIT.ResizeToContents, _FIT.Stretch),
        }
        self.bucket_plot = BucketPlot()
        self.bucket_plot.setMinimumWidth(260)
        buckets = QSplitter(Qt.Orientation.Horizontal)
        buckets.addWidget(self.bucket_plot)
        buckets.addWidget(self.bucket_view)
        buckets.setSizes([380, 420])
        self.setTabToolTip(self.addTab(self.missed_view, "Missed pairs"), MISSED_SAID)
        self.setTabToolTip(self.addTab(buckets, "Buckets"), "The bucket sizes (a plot) and the largest buckets")
        describe(self, "The scheme's missed pairs and its buckets, a tab each", "Missed pairs and buckets")
        self.missed_view.clicked.connect(self._missed_clicked)
        self.bucket_view.clicked.connect(self._bucket_clicked)
        self.currentChanged.connect(lambda _i: self._fill())

    def clear(self) -> None:
        self.figures, self._filled = None, set()
        self.missed_model.set_columns([], [])
        self.bucket_model.set_columns([], [])
        self.bucket_plot.set_sizes(np.zeros(0, np.int64))
        self.setTabText(0, "Missed pairs")
        self.setTabText(1, "Buckets")

    def show_figures(self, f: Figures, names: list[str], known: bool) -> None:
        """Show a scheme's figures; ``known`` says whether the missed pairs are known yet (exact similarities)."""
        self.figures, self._names, self._filled = f, names, set()
        est = "≈" if f.sampled else ""
        self.setTabText(0, f"Missed pairs ({est}{f.missed_total:,.0f})" if known else "Missed pairs")
        self.setTabText(1, f"Buckets ({len(f.bucket_sizes):,})")
        self._fill()

    def _fill(self) -> None:
        """Fill the tab shown with the figures, if not yet."""
        i = self.currentIndex()
        if self.figures is None or i in self._filled:
            return
        self._filled.add(i)
        (self._fill_missed if i == 0 else self._fill_buckets)(self.figures, self._names)
        view = (self.missed_view, self.bucket_view)[i]
        for col, mode in enumerate(self._modes[view][: view.model().columnCount()]):
            view.horizontalHeader().setSectionResizeMode(col, mode)

    def _fill_missed(self, f: Figures, names: list[str]) -> None:
        ml, mr = f.missed_left, f.missed_right
        self.missed_model.set_columns(
            [
                Column("Document A", names, index=ml),
                Column("Document B", names, index=mr),
                Column("Similarity", f.missed_jaccard, lambda v: f"{v:.3f}", "Exact Jaccard similarity", True),
                Column(
                    "Best band",
                    f.missed_agreement,
                    lambda v, r=f.banding.rows: f"{v} of {r} rows",
                    "The most rows agreeing in any one band: all r would have made it a candidate",
                    True,
                ),
            ],
            lambda: [f"{names[a]} {names[b]}".lower() for a, b in zip(ml.tolist(), mr.tolist())],
        )
        self.missed_view.sortByColumn(2, Qt.SortOrder.DescendingOrder)

    def _fill_buckets(self, f: Figures, names: list[str]) -> None:
        members = [b.members for b in f.largest]
        self.bucket_model.set_columns(
            [
                Column("Band", [b.band + 1 for b in f.largest], str, "Band number (1 = the first r slots)", True),
                Column("Documents", [len(m) for m in members], lambda v: f"{v:,}", "", True),
                Column(
                    "Members",
                    [", ".join(names[i] for i in m[:6].tolist()) + (" …" if len(m) > 6 else "") for m in members],
                ),
            ],
            [" ".join(names[i] for i in m[:50].tolist()).lower() for m in members],
        )
        self.bucket_view.sortByColumn(1, Qt.SortOrder.DescendingOrder)
        self.bucket_plot.set_sizes(f.bucket_sizes)

    def _missed_clicked(self, index) -> None:
        f = self.figures
        if f is not None and index.isValid():
            i = self.missed_model.data_row(index.row())
            self.pairPicked.emit(int(f.missed_left[i]), int(f.missed_right[i]))

    def _bucket_clicked(self, index) -> None:
        f = self.figures
        if f is not None and index.isValid():
            m = f.largest[self.bucket_model.data_row(index.row())].members
            self.pairPicked.emit(int(m[0]), int(m[1]))
