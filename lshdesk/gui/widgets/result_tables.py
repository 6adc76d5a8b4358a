"""The Results view's tables: a sortable whole-row table, column sizing, the filter box that Esc clears."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLineEdit, QStyle, QTableView, QTreeView

from lshdesk.core.arrays import unique
from lshdesk.gui.widgets.name_delegate import NameDelegate

# 0: the column stretches to share the width the others leave; -1: as wide as its content and title (up to
# REASON_MAX); ALL: as wide as its widest value (up to ALL_MAX); else at least that wide and as its title
ALL = -2
PAIR_WIDTHS = (0, 0, 60, 60, 50, ALL)  # the figures as narrow as their titles: at 1024 px the names get ~60 % more
DOC_WIDTHS = (0, -1, -1, -1, -1, -1, -1)
REASON_MAX = 180  # a longer reason is elided; its tooltip shows it whole
ALL_MAX = 420  # the Folders column of a pair ('old/docs (reference) ↔ new/docs'): cut at 160 px even at 1920
CONTENT_ROWS = 100  # rows read to size a column to its content (Qt reads 1,000 through the Python model: ~0.2 s)


class FilterEdit(QLineEdit):
    """The filter box: Esc clears it when it holds text (and otherwise cancels a scan, as everywhere)."""

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and self._clears(event):
            event.accept()  # the key comes here as a key press rather than triggering the window's Esc
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if self._clears(event):
            self.clear()
        else:
            super().keyPressEvent(event)

    def _clears(self, event) -> bool:
        return event.key() == Qt.Key.Key_Escape and bool(self.text())


def table(model) -> QTableView:
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
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # long texts keep both ends
    header = view.horizontalHeader()
    header.setStretchLastSection(False)
    header.setDefaultSectionSize(80)
    header.setResizeContentsPrecision(CONTENT_ROWS)  # columns fit the rows on top: a 100k-row result shows at once
    return view


def paint_names(view: QTableView | QTreeView, columns: list[int]) -> None:
    """Documents' names in ``columns`` painted file name first, then the folder; the other columns as Qt paints
    them (a Python delegate costs ~0.1 ms a cell: the figures need none)."""
    delegate = view.findChild(NameDelegate) or NameDelegate(view)
    for i in range(view.model().columnCount()):
        view.setItemDelegateForColumn(i, delegate if i in columns else None)  # type: ignore[arg-type]


def size_columns(view: QTableView, widths: tuple[int, ...]) -> None:
    header = view.horizontalHeader()
    for i, w in enumerate(widths[: header.count()]):
        header.setSectionResizeMode(i, QHeaderView.ResizeMode.Interactive if w else QHeaderView.ResizeMode.Stretch)
        if w > 0:
            view.setColumnWidth(i, max(w, header.sectionSizeHint(i)))  # never narrower than the title
        elif w == ALL:  # never more than a quarter of the table: at 1024 px the names keep the rest
            most = min(ALL_MAX, max(view.viewport().width() // 4, header.sectionSizeHint(i)))
            view.setColumnWidth(i, min(max(values_width(view, i), header.sectionSizeHint(i)), most))
        elif w < 0:
            view.setColumnWidth(i, min(max(content_width(view, i), header.sectionSizeHint(i)), REASON_MAX))


def content_width(view: QTableView, column: int) -> int:
    """The width of the column's widest text in its first ``CONTENT_ROWS`` rows, with the cell's margins.

    What ``resizeColumnToContents`` measures, from the display text alone: Qt's delegate asks the Python model
    for ~8 roles per cell (1,000 calls a column, 24 ms for the Documents table of a 100k-file result).
    """
    model = view.model()
    texts = (model.data(model.index(r, column)) for r in range(min(model.rowCount(), CONTENT_ROWS)))
    return _widest(view, texts)


def values_width(view: QTableView, column: int) -> int:
    """The width of the widest value a column's rows show (all rows: a column of few distinct values, as Folders)."""
    columns = getattr(view.model(), "columns", [])  # an ArrayTableModel's (or its Mark proxy's) columns
    col = columns[column] if 0 <= column < len(columns) else None
    if col is None:
        return 0
    used = unique(col.index).tolist() if col.index is not None else range(len(col.values))
    return _widest(view, (col.fmt(col.values[v]) for v in used))


def _widest(view: QTableView, texts) -> int:
    fm = view.fontMetrics()
    widest = max((fm.horizontalAdvance(str(t)) for t in texts if t is not None), default=0)
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    return widest + 2 * margin + 2 if widest else 0


def size_group_columns(view: QTreeView) -> None:
    gh = view.header()
    gh.setStretchLastSection(False)
    # the group titles take what the rest leave (at 1024 px they shared it with 'Closest to' and read 'changelog.De…')
    for i, w in ((0, 0), (1, 60), (2, 60), (3, 140), (4, 75), (5, 80)):
        gh.setSectionResizeMode(i, QHeaderView.ResizeMode.Interactive if w else QHeaderView.ResizeMode.Stretch)
        if w:
            gh.resizeSection(i, max(w, gh.sectionSizeHint(i)))
