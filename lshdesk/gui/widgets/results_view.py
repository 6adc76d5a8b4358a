"""The Results view: Pairs table (sortable, filterable), Groups tree, Documents table, as sub-tabs."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLineEdit,
    QTableView,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.pipeline import ScanResult
from lshdesk.gui.models.results import DocumentsModel, PairsModel


def _table(model) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSortingEnabled(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    view.verticalHeader().setDefaultSectionSize(22)
    view.verticalHeader().hide()
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.horizontalHeader().setStretchLastSection(True)
    return view


class ResultsView(QWidget):
    """Shows a result; emits ``docsSelected`` with the document indices the user picked (a pair, a group...)."""

    docsSelected = Signal(tuple)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.result: ScanResult | None = None
        self.names: list[str] = []
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter pairs and documents by name (Ctrl+F)")
        self.filter.setClearButtonEnabled(True)
        self.filter.setAccessibleName("Filter results")
        self.pairs_model = PairsModel(self)
        self.pairs = _table(self.pairs_model)
        self.pairs.setAccessibleName("Pairs")
        self.groups = QTreeWidget()
        self.groups.setHeaderLabels(["Group / document", "Documents", "Lowest similarity"])
        self.groups.setAccessibleName("Groups")
        self.groups.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.docs_model = DocumentsModel(self)
        self.documents = _table(self.docs_model)
        self.documents.setAccessibleName("Documents")
        self.tabs = QTabWidget()
        self.tabs.addTab(self.pairs, "Pairs")
        self.tabs.addTab(self.groups, "Groups")
        self.tabs.addTab(self.documents, "Documents")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.filter)
        lay.addWidget(self.tabs)
        self.filter.textChanged.connect(self._filter)
        self.pairs.selectionModel().selectionChanged.connect(self._pair_selected)
        self.documents.selectionModel().selectionChanged.connect(self._docs_selected)
        self.groups.itemSelectionChanged.connect(self._group_selected)

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        self.result, self.names = result, names
        self.pairs_model.set_result(result, names)
        self.docs_model.set_result(result, names)
        self._fill_groups()
        for view, widths in ((self.pairs, (330, 330, 80, 80, 60)), (self.documents, (420, 80, 80, 70, 70, 300))):
            for i, w in enumerate(widths[: view.model().columnCount()]):
                view.setColumnWidth(i, w)
        self.pairs.sortByColumn(2, Qt.SortOrder.DescendingOrder)
        self.tabs.setTabText(0, f"Pairs ({len(result.pairs) if result else 0:,})")
        self.tabs.setTabText(1, f"Groups ({len(result.groups) if result else 0:,})")
        n_docs = len(result.docs) if result else 0
        n_skip = len(result.skipped) if result else 0
        self.tabs.setTabText(2, f"Documents ({n_docs:,} + {n_skip:,} skipped)")

    def _fill_groups(self) -> None:
        self.groups.clear()
        r = self.result
        if r is None:
            return
        items = []
        for gi, (members, low) in enumerate(zip(r.groups, r.group_min)):
            first = self.names[int(members[0])]
            label = f"Group {gi + 1}: {first} and {len(members) - 1} more"
            top = QTreeWidgetItem([label, str(len(members)), f"{low:.3f}"])
            top.setData(0, Qt.ItemDataRole.UserRole, tuple(int(m) for m in members))
            top.setToolTip(2, "The least similar two documents of the group: low means a chain A~B~C where A and C differ")
            for m in members.tolist():
                child = QTreeWidgetItem([self.names[m], "", ""])
                child.setData(0, Qt.ItemDataRole.UserRole, (m,))
                child.setToolTip(0, r.docs.paths[m])
                top.addChild(child)
            items.append(top)
        self.groups.addTopLevelItems(items)
        if len(items) <= 200:
            self.groups.expandAll()

    def _filter(self, text: str) -> None:
        self.pairs_model.set_filter(text)
        self.docs_model.set_filter(text)

    def _pair_selected(self) -> None:
        rows = self.pairs.selectionModel().selectedRows()
        if rows and self.result is not None:
            self.docsSelected.emit(self.pairs_model.pair_at(rows[0].row(), self.result))

    def _docs_selected(self) -> None:
        rows = sorted(i.row() for i in self.documents.selectionModel().selectedRows())
        docs = tuple(d for d in (self.docs_model.doc_at(r) for r in rows) if d is not None)
        if docs:
            self.docsSelected.emit(docs)

    def _group_selected(self) -> None:
        items = self.groups.selectedItems()
        if items:
            docs = items[0].data(0, Qt.ItemDataRole.UserRole)
            parent = items[0].parent()
            if len(docs) == 1 and parent is not None:  # a member: show it with the group's first other member
                group = parent.data(0, Qt.ItemDataRole.UserRole)
                other = next((m for m in group if m != docs[0]), None)
                docs = (docs[0], other) if other is not None else docs
            self.docsSelected.emit(tuple(docs))

    def select_pair(self, left: int, right: int) -> None:
        """Show a pair selected elsewhere (e.g. on the S-curve) in the Pairs table, if it is listed."""
        if self.result is None:
            return
        p = self.result.pairs
        hits = np.flatnonzero(((p.left == left) & (p.right == right)) | ((p.left == right) & (p.right == left)))
        if len(hits):
            row = self.pairs_model.view_row(int(hits[0]))
            if row >= 0:
                self.pairs.selectRow(row)
