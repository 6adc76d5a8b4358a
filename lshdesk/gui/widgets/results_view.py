"""The Results view: Pairs table (sortable, filterable), Groups tree, Documents table, as sub-tabs."""

from __future__ import annotations

import os

import numpy as np
from PySide6.QtCore import QPoint, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLineEdit,
    QMenu,
    QTableView,
    QTabWidget,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.models.results import DocumentsModel, GroupsModel, PairsModel

PAIR_WIDTHS = (0, 0, 90, 90, 70)  # 0: the column stretches to share the width the others leave
DOC_WIDTHS = (0, 90, 80, 70, 80, 400)


def _table(model) -> QTableView:
    """A sortable table of whole rows."""
    view = QTableView()
    view.setModel(model)
    view.setTabKeyNavigation(False)  # Tab leaves the table; the arrow keys move between cells
    view.setSortingEnabled(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    view.verticalHeader().setDefaultSectionSize(22)
    view.verticalHeader().hide()
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # long paths keep their file name
    header = view.horizontalHeader()
    header.setStretchLastSection(False)
    header.setDefaultSectionSize(80)
    return view


def _size_columns(view: QTableView, widths: tuple[int, ...]) -> None:
    header = view.horizontalHeader()
    for i, w in enumerate(widths[: header.count()]):
        header.setSectionResizeMode(i, QHeaderView.ResizeMode.Interactive if w else QHeaderView.ResizeMode.Stretch)
        if w:
            view.setColumnWidth(i, w)


def _size_group_columns(view: QTreeView) -> None:
    gh = view.header()
    gh.setStretchLastSection(False)
    gh.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    for i, w in ((1, 100), (2, 140)):
        gh.setSectionResizeMode(i, QHeaderView.ResizeMode.Interactive)
        gh.resizeSection(i, w)


class ResultsView(QWidget):
    """Shows a result; emits ``docsSelected`` with the document indices the user picked (a pair, a group...)."""

    docsSelected = Signal(tuple)
    pairActivated = Signal()  # a pair was double-clicked (or Enter pressed): read it side by side

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
        self.pairs.setToolTip("Double-click a pair to read it side by side")
        self.groups_model = GroupsModel(self)
        self.groups = QTreeView()
        self.groups.setModel(self.groups_model)
        self.groups.setAccessibleName("Groups")
        self.groups.setUniformRowHeights(True)
        self.groups.setAlternatingRowColors(True)
        self.groups.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        _size_group_columns(self.groups)
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
        self._connect_selection()
        self.pairs.activated.connect(lambda _index: self.pairActivated.emit())
        for view in (self.pairs, self.documents, self.groups):
            view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            view.customContextMenuRequested.connect(lambda pos, v=view: self._menu(v, pos))

    def _connect_selection(self) -> None:
        self.pairs.selectionModel().selectionChanged.connect(self._pair_selected)
        self.documents.selectionModel().selectionChanged.connect(self._docs_selected)
        self.groups.selectionModel().selectionChanged.connect(self._group_selected)

    def show_through(self, pairs, groups, documents) -> None:
        """Show the views through proxies of their models that keep the rows and answer the models' methods (e.g.
        adding the Mark check boxes); ``pairs_model``, ``groups_model`` and ``docs_model`` become the proxies."""
        self.pairs_model, self.groups_model, self.docs_model = pairs, groups, documents
        for view, model in ((self.pairs, pairs), (self.groups, groups), (self.documents, documents)):
            view.setModel(model)
        _size_group_columns(self.groups)
        self._connect_selection()

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        self.result, self.names = result, names
        self.pairs_model.set_result(result, names)
        self.docs_model.set_result(result, names)
        self.groups_model.set_result(result, names)
        if result is not None and len(result.groups) <= 200:
            self.groups.expandAll()
        _size_columns(self.pairs, PAIR_WIDTHS)
        _size_columns(self.documents, DOC_WIDTHS)
        self.documents.setColumnHidden(5, not (result and result.skipped))  # no skipped file: no reason column
        self.pairs.sortByColumn(2, Qt.SortOrder.DescendingOrder)
        self.tabs.setTabText(0, f"Pairs ({len(result.pairs) if result else 0:,})")
        self.tabs.setTabText(1, f"Groups ({len(result.groups) if result else 0:,})")
        n_docs = len(result.docs) if result else 0
        n_skip = len(result.skipped) if result else 0
        self.tabs.setTabText(2, f"Documents ({n_docs:,} + {n_skip:,} skipped)")

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
        rows = self.groups.selectionModel().selectedRows()
        if rows:
            docs = self.groups_model.members(rows[0])
            if rows[0].parent().isValid():  # a member: show it with the group's first other member
                other = next((m for m in self.groups_model.group_of(rows[0]) if m != docs[0]), None)
                docs = (docs[0], other) if other is not None else docs
            self.docsSelected.emit(tuple(docs))

    def files_at(self, view: QAbstractItemView, pos: QPoint) -> list[str]:
        """The files of the row under ``pos``: a pair's two documents, one document, or a skipped file."""
        index = view.indexAt(pos)
        r = self.result
        if not index.isValid() or r is None:
            return []
        if view is self.pairs:
            return [r.docs.paths[i] for i in self.pairs_model.pair_at(index.row(), r)]
        if view is self.groups:
            return [r.docs.paths[i] for i in self.groups_model.members(index)]
        i = self.docs_model.data_row(index.row())
        return [r.docs.paths[i] if i < len(r.docs) else r.skipped[i - len(r.docs)].path]

    def context_menu(self, view: QAbstractItemView, pos: QPoint) -> QMenu | None:
        """Open each file of the row under ``pos`` in the system's default application, or show its folder."""
        files = self.files_at(view, pos)
        if not files:
            return None
        menu = QMenu(self)
        for path in files[:8]:
            name = os.path.basename(path)
            menu.addAction(f"Open {name}", lambda p=path: QDesktopServices.openUrl(QUrl.fromLocalFile(p)))
            menu.addAction(
                f"Show {name} in its folder",
                lambda p=path: QDesktopServices.openUrl(QUrl.fromLocalFile(os.path.dirname(p))),
            )
        if view is self.pairs:
            menu.addSeparator()
            menu.addAction("Read side by side", self.pairActivated.emit)
        return menu

    def _menu(self, view: QAbstractItemView, pos: QPoint) -> None:
        menu = self.context_menu(view, pos)
        if menu is not None:
            menu.exec(view.viewport().mapToGlobal(pos))
            menu.deleteLater()

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
