"""A read-only table model over columns of arrays, sorted and filtered with numpy (fast at 100,000s of rows)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

_Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class Column:
    """A column: header, values (array or list), how to show one value, and a tooltip for the header."""

    title: str
    values: Sequence
    fmt: Callable[[object], str] = str
    tip: str = ""
    numeric: bool = False


class ArrayTableModel(QAbstractTableModel):
    """Rows are positions in ``self.rows`` (a permutation / subset of the data), so sort and filter are array ops."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.columns: list[Column] = []
        self.rows = np.zeros(0, dtype=np.int64)
        self._search: list[str] = []  # lower-cased text each data row is matched against
        self._filter = ""
        self._sort: tuple[int, Qt.SortOrder] | None = None

    def set_columns(self, columns: list[Column], search: list[str]) -> None:
        self.beginResetModel()
        self.columns = columns
        self._search = search
        self._apply()
        self.endResetModel()

    def n_data_rows(self) -> int:
        return len(self._search)

    def data_row(self, row: int) -> int:
        """The data index shown at a view row."""
        return int(self.rows[row])

    def view_row(self, data_row: int) -> int:
        """The view row showing a data index, or -1 when it is filtered out."""
        hits = np.flatnonzero(self.rows == data_row)
        return int(hits[0]) if len(hits) else -1

    def set_filter(self, text: str) -> None:
        self.beginResetModel()
        self._filter = text.strip().lower()
        self._apply()
        self.endResetModel()

    def _apply(self) -> None:
        n = len(self._search)
        if self._filter:
            terms = self._filter.split()
            rows = np.fromiter((i for i, s in enumerate(self._search) if all(t in s for t in terms)), dtype=np.int64)
        else:
            rows = np.arange(n, dtype=np.int64)
        if self._sort is not None and self.columns:
            col, order = self._sort
            values = self.columns[col].values
            keys = np.asarray(values)[rows] if self.columns[col].numeric else np.array([str(values[i]).lower() for i in rows])
            idx = np.argsort(keys, kind="stable")
            if order == Qt.SortOrder.DescendingOrder:
                idx = idx[::-1]
            rows = rows[idx]
        self.rows = rows

    # Qt's model interface
    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not (0 <= index.row() < len(self.rows)) or not (0 <= index.column() < len(self.columns)):
            return None
        col = self.columns[index.column()]
        value = col.values[int(self.rows[index.row()])]
        if role == Qt.ItemDataRole.DisplayRole:
            return col.fmt(value)
        if role == Qt.ItemDataRole.ToolTipRole and not col.numeric:
            return str(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and col.numeric:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.UserRole:
            return int(self.rows[index.row()])
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or not (0 <= section < len(self.columns)):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section].title
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.columns[section].tip or None
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not (0 <= column < len(self.columns)):
            return
        self.layoutAboutToBeChanged.emit()
        self._sort = (column, order)
        self._apply()
        self.layoutChanged.emit()
