"""The Results view: Pairs table (sortable, filterable), Groups tree (linked or strict), Documents table, as sub-tabs."""

from __future__ import annotations

import os

import numpy as np
from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QTabWidget,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.corpus.datasets import parse_row_ref
from lshdesk.core.scan.explain import explain_empty
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.models.groups import GroupsModel
from lshdesk.gui.models.results import DocumentsModel, PairsModel
from lshdesk.gui.widgets.file_drop import accept_files, take_files
from lshdesk.gui.widgets.file_menu import add_file_entries
from lshdesk.gui.widgets.overlap_view import OverlapView
from lshdesk.gui.widgets.result_tables import (
    DOC_WIDTHS,
    PAIR_WIDTHS,
    FilterEdit,
    paint_names,
    size_columns,
    size_group_columns,
    table,
)

SUB_TABS = (
    ("Pairs", "Alt+P"),
    ("Groups", "Alt+G"),
    ("Documents", "Alt+D"),
    ("Overlap", "Alt+O"),
)  # Alt+F is the File menu
GROUP_MODES = (
    ("Linked groups (chains included)", "Documents linked by verified pairs: A~B and B~C put A, B, C together"),
    ("Strict groups (every pair ≥ threshold)", "Every two documents of a group form a verified pair"),
)


class ResultsView(QWidget):
    """Shows a result; emits ``docsSelected`` with the document indices the user picked (a pair, a group...)."""

    docsSelected = Signal(tuple)
    pairActivated = Signal()  # a pair was double-clicked (or Enter pressed): read it side by side
    groupActivated = Signal(tuple)  # a group was double-clicked (or Enter pressed): its documents, for the Signatures
    findSimilar = Signal(int)  # "Find similar..." on a document: list its nearest documents
    groupsShown = Signal(int)  # how many groups the Groups tab shows (linked or strict), after each change
    filesDropped = Signal(list)  # files (not folders) dropped here: list the nearest documents of each
    notDuplicates = Signal(list)  # the user rules out these pairs (document index pairs): a pair, or a whole group
    keepOne = Signal(int)  # "Keep this one" on a group's document: it stays, the group's others are marked

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.result: ScanResult | None = None
        self.names: list[str] = []
        self.filter = FilterEdit()
        self.filter.setPlaceholderText("Filter pairs, groups and documents by name (Ctrl+F)")
        self.filter.setClearButtonEnabled(True)
        self.filter.setAccessibleName("Filter results")
        self.setAcceptDrops(True)  # a file dropped here lists its nearest documents (folders go on to the window)
        self.pairs_model = PairsModel(self)
        self.pairs = table(self.pairs_model)
        self.pairs.setAccessibleName("Pairs")
        self.pairs.setToolTip("Double-click a pair to read it side by side")
        self.groups_model = GroupsModel(self)
        self.groups = QTreeView()
        self.groups.setModel(self.groups_model)
        self.groups.setAccessibleName("Groups")
        self.groups.setUniformRowHeights(True)
        self.groups.setAlternatingRowColors(True)
        self.groups.setTextElideMode(Qt.TextElideMode.ElideRight)  # a group's title: the first names it lists
        size_group_columns(self.groups)
        self.groups.setToolTip("Enter or double-click opens a group in the Signatures view")
        self.group_mode = QComboBox()
        self.group_mode.setAccessibleName("Kind of groups")
        for i, (text, tip) in enumerate(GROUP_MODES):
            self.group_mode.addItem(text)
            self.group_mode.setItemData(i, tip, Qt.ItemDataRole.ToolTipRole)
        self.group_mode.setToolTip("Linked groups follow chains of similar documents; strict groups cut the chains")
        self.docs_model = DocumentsModel(self)
        self.documents = table(self.docs_model)
        self.documents.setAccessibleName("Documents")
        self.overlap = OverlapView()  # folder against folder, with two folders or more
        self.tabs = QTabWidget()
        for i, (view, (title, key)) in enumerate(
            zip((self.pairs, self.groups, self.documents, self.overlap), SUB_TABS)
        ):
            self.tabs.addTab(view, title)
            self.tabs.setTabToolTip(i, f"{title} ({key})")
            QShortcut(QKeySequence(key), self, lambda v=view: (self.tabs.setCurrentWidget(v), v.setFocus()))
        bar = QHBoxLayout()
        bar.addWidget(self.filter, 1)
        bar.addWidget(self.group_mode)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.empty = QLabel(visible=False)  # why there is no pair, when there is one to say (else a blank band)
        self.empty.setWordWrap(True)
        self.empty.setAccessibleName("Why no pair was found")
        self.empty.setContentsMargins(6, 4, 6, 4)
        lay.addLayout(bar)
        lay.addWidget(self.empty)
        lay.addWidget(self.tabs)
        self.group_mode.setVisible(False)
        self.tabs.currentChanged.connect(lambda i: self.group_mode.setVisible(self.tabs.widget(i) is self.groups))
        self.group_mode.currentIndexChanged.connect(self._group_mode)
        self.filter.textChanged.connect(self._filter)
        self._connect_selection()
        self.pairs.activated.connect(lambda _index: self.pairActivated.emit())
        self.overlap.pairPicked.connect(lambda pair: (self.docsSelected.emit(pair), self.pairActivated.emit()))
        self.groups.activated.connect(lambda index: self.groupActivated.emit(self.groups_model.group_of(index)))
        self._connect_menus()

    def _connect_menus(self) -> None:
        """Each table's row menu: the mouse's right button, and the Menu key or Shift+F10 at the current row."""
        for view in (self.pairs, self.documents, self.groups):
            view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            view.customContextMenuRequested.connect(lambda pos, v=view: self._menu(v, pos))
            for key in (Qt.Key.Key_Menu, "Shift+F10"):
                keys = QShortcut(QKeySequence(key), view, lambda v=view: self._menu_at_current(v))
                keys.setContext(Qt.ShortcutContext.WidgetShortcut)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self.result is None or not accept_files(event):
            event.ignore()  # no result to query, or folders: the window opens them

    def dropEvent(self, event: QDropEvent) -> None:
        if self.result is not None and (files := take_files(event)):
            self.filesDropped.emit(files)

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
        size_group_columns(self.groups)
        self._connect_selection()

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        self.result, self.names = result, names
        self.pairs_model.set_result(result, names)
        self.docs_model.set_result(result, names)
        self._show_groups()
        size_columns(self.pairs, PAIR_WIDTHS)
        for view, model in ((self.pairs, self.pairs_model), (self.documents, self.docs_model)):
            paint_names(view, [i for i, c in enumerate(model.columns) if c.name])
        paint_names(self.groups, [0, 3])
        self.documents.setColumnHidden(5, not (result and result.skipped))  # no skipped file: no reason column
        size_columns(self.documents, DOC_WIDTHS)
        several = result is not None and len(result.roots) > 1  # several folders: which one each document is from
        self.overlap.set_result(result, names)
        self.tabs.setTabVisible(3, several)
        self.documents.setColumnHidden(6, not several)
        self.pairs.setColumnHidden(5, not several)
        self.pairs.sortByColumn(2, Qt.SortOrder.DescendingOrder)
        why = explain_empty(result, ui="gui") if result is not None else ""
        self.empty.setText(f"No pairs: {why}." if why else "")
        self.empty.setVisible(bool(why))
        self._count_tabs()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Stop the folders' comparison (the tables page through the result in the GUI thread); True if none runs."""
        return self.overlap.shutdown(timeout_ms)

    def _show_groups(self) -> None:
        self.groups_model.set_result(self.result, self.names, strict=self.group_mode.currentIndex() == 1)
        self.groups_model.set_filter(self.filter.text())
        self._expand_groups()
        self.groupsShown.emit(len(self.groups_model.groups))

    def _expand_groups(self) -> None:
        """Open every group when there are few (the model offers its rows a few hundred at a time)."""
        if self.groups_model.n_shown() <= 200:
            self.groups.expandAll()
        self._count_tabs()

    def _group_mode(self) -> None:
        self._show_groups()

    def _count_tabs(self) -> None:
        """'Pairs (5,921)', or 'Pairs (12 of 5,921)' while a filter hides some."""
        r = self.result
        n_pairs, n_docs, n_skip = (len(r.pairs), len(r.docs), len(r.skipped)) if r is not None else (0, 0, 0)
        shown = self.pairs_model.rowCount()
        self.tabs.setTabText(0, f"Pairs ({shown:,} of {n_pairs:,})" if shown < n_pairs else f"Pairs ({n_pairs:,})")
        shown, n_groups = self.groups_model.n_shown(), len(self.groups_model.groups)
        self.tabs.setTabText(1, f"Groups ({shown:,} of {n_groups:,})" if shown < n_groups else f"Groups ({n_groups:,})")
        shown = self.docs_model.rowCount()
        total = n_docs + n_skip
        docs = f"{shown:,} of {total:,}" if shown < total else f"{n_docs:,} + {n_skip:,} skipped"
        self.tabs.setTabText(2, f"Documents ({docs})")

    def _filter(self, text: str) -> None:
        self.pairs_model.set_filter(text)
        self.docs_model.set_filter(text)
        self.groups_model.set_filter(text)
        self._expand_groups()

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
        r = self.result
        if r is None:
            return []
        if docs := self.docs_at(view, pos):
            return [r.docs.paths[i] for i in docs]
        index = view.indexAt(pos)
        if view is not self.documents or not index.isValid():
            return []
        return [r.skipped[self.docs_model.data_row(index.row()) - len(r.docs)].path]

    def context_menu(self, view: QAbstractItemView, pos: QPoint) -> QMenu | None:
        """Open each file of the row under ``pos`` in the system's default application, or show its folder."""
        files = self.files_at(view, pos)
        if not files:
            return None
        menu = QMenu(self)
        for path in files[:8]:
            add_file_entries(menu, path)
        if view is self.pairs:
            menu.addSeparator()
            menu.addAction("Read side by side", self.pairActivated.emit)
        docs = self.docs_at(view, pos)
        if docs:
            menu.addSeparator()
        for d in docs[:8]:
            path = self.result.docs.paths[d]
            name = self.names[d] if parse_row_ref(path) is not None else os.path.basename(path)  # a row: its id
            menu.addAction(f"Find similar to {name}…", lambda d=d: self.findSimilar.emit(d))
        if view is self.groups and len(docs) == 1:
            menu.addAction("Keep this one (K): mark the others of its group", lambda d=docs[0]: self.keepOne.emit(d))
        if ruled_out := self.pairs_among(docs):
            menu.addSeparator()
            what = "Not duplicates" if view is self.pairs else f"Not duplicates: the group's {len(ruled_out):,} pairs"
            menu.addAction(what, lambda: self.notDuplicates.emit(ruled_out))
        return menu

    def pairs_among(self, docs: list[int]) -> list[tuple[int, int]]:
        """The reported pairs whose two documents are both among ``docs`` (a pair row: itself; a group: its pairs)."""
        if self.result is None or len(docs) < 2:
            return []
        p, inside = self.result.pairs, np.isin(self.result.pairs.left, docs) & np.isin(self.result.pairs.right, docs)
        return [(int(a), int(b)) for a, b in zip(p.left[inside], p.right[inside])]

    def docs_at(self, view: QAbstractItemView, pos: QPoint) -> list[int]:
        """The documents (indices, not skipped files) of the row under ``pos``."""
        index = view.indexAt(pos)
        r = self.result
        if not index.isValid() or r is None:
            return []
        if view is self.pairs:
            return list(self.pairs_model.pair_at(index.row(), r))
        if view is self.groups:
            return [int(i) for i in self.groups_model.members(index)]
        i = self.docs_model.data_row(index.row())
        return [i] if i < len(r.docs) else []

    def _menu(self, view: QAbstractItemView, pos: QPoint, at: QPoint | None = None) -> None:
        """The row menu of the row under ``pos`` (viewport coordinates), shown at ``at`` (else at ``pos``)."""
        menu = self.context_menu(view, pos)
        if menu is not None:
            menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            menu.popup(view.viewport().mapToGlobal(at if at is not None else pos))

    def _menu_at_current(self, view: QAbstractItemView) -> None:
        """The row menu of the current row, shown under the row's first cell (scrolled into view first)."""
        index = view.currentIndex()
        if not index.isValid():
            return
        view.scrollTo(index)
        cell = view.visualRect(index.siblingAtColumn(0))
        self._menu(view, cell.center(), cell.bottomLeft())

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
