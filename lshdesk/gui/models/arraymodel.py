"""A read-only table model over columns of arrays, sorted and filtered with numpy (fast at 100,000s of rows)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from lshdesk.core.pathnames import display
from lshdesk.gui.models.names import NAME_ROLE, file_first_keys, split_name, spoken

_Index = QModelIndex | QPersistentModelIndex
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_D, _TIP, _ALIGN, _USER = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.TextAlignmentRole,
    Qt.ItemDataRole.UserRole,
)
_SAY, _SAY_MORE = Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.AccessibleDescriptionRole
_ROLES = frozenset((_D, _TIP, _ALIGN, _USER, NAME_ROLE, _SAY, _SAY_MORE))  # the roles answered; Qt asks ~12 a cell


@dataclass(frozen=True)
class Column:
    """A column: header, values (array or list), how to show one value, and a tooltip for the header.

    With ``index``, row i shows ``values[index[i]]``: a pair's document names are the documents' names looked up
    by the pair's document numbers, so 500,000 pairs need no list of 1,000,000 strings, and sorting and filtering
    work on the (fewer) names, then spread to the rows with numpy. A ``name`` column holds documents' names: it is
    painted file name first (``NAME_ROLE``) and sorted so; ``hover`` is each value's tooltip (a document's path,
    shown as ``pathnames.display`` writes it).
    """

    title: str
    values: Sequence[Any] | np.ndarray
    fmt: Callable[[Any], str] = str
    tip: str = ""
    numeric: bool = False
    index: np.ndarray | None = None
    name: bool = False
    hover: Sequence[str] | None = None

    def __len__(self) -> int:
        return len(self.index) if self.index is not None else len(self.values)

    def at(self, row: int) -> int:
        """The position in ``values`` of data row ``row``."""
        return int(self.index[row]) if self.index is not None else row


class ArrayTableModel(QAbstractTableModel):
    """Rows are positions in ``self.rows`` (a permutation / subset of the data), so sort and filter are array ops.

    The filter matches each word against the text columns (or, if ``search`` is given, against those lower-case
    strings, one per data row, or what a function returns; it is called only when a filter is first typed).
    """

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.columns: list[Column] = []
        self.rows = np.zeros(0, dtype=np.int64)
        self._n = 0
        self._search: Sequence[str] | Callable[[], Sequence[str]] | None = None
        self._keys: dict[int, np.ndarray] = {}  # sort keys, made on a column's first sort
        self._lower: dict[int, list[str]] = {}  # lower-case text of a text column's values, made on first use
        self._filter = ""
        self._sort: tuple[int, Qt.SortOrder] | None = None
        self._describe: Callable[[int], str] = str

    def set_columns(
        self,
        columns: list[Column],
        search: Sequence[str] | Callable[[], Sequence[str]] | None = None,
        describe: Callable[[int], str] = str,
    ) -> None:
        """Show new data: every column has as many rows as the first. ``describe(data_row)`` says what a row is, for
        screen readers (every cell of it says it after its own value: a reader moving down a column hears the row)."""
        self.beginResetModel()
        self.columns = columns
        self._n = len(columns[0]) if columns else 0
        self._search = search
        self._describe = describe
        self._keys, self._lower = {}, {}
        self._apply()
        self.endResetModel()

    def n_data_rows(self) -> int:
        return self._n

    def data_row(self, row: int) -> int:
        """The data index shown at a view row."""
        return int(self.rows[row])

    def view_row(self, data_row: int) -> int:
        """The view row showing a data index, or -1 when it is filtered out."""
        hits = np.flatnonzero(self.rows == data_row)
        return int(hits[0]) if len(hits) else -1

    def set_filter(self, text: str) -> None:
        """Keep the rows whose search text contains every word of ``text`` (case-insensitive)."""
        text = text.strip().lower()
        if text == self._filter:
            return
        self.beginResetModel()
        self._filter = text
        self._apply()
        self.endResetModel()

    def _lowered(self, col: int) -> list[str]:
        if col not in self._lower:
            self._lower[col] = [str(v).lower() for v in self.columns[col].values]
        return self._lower[col]

    def _sort_keys(self, col: int) -> np.ndarray:
        if col not in self._keys:
            c = self.columns[col]
            if c.numeric:
                keys = np.asarray(c.values)
            else:  # the rank of each value among the column's values, alphabetically (names: as they are shown)
                text = file_first_keys([str(v) for v in c.values]) if c.name else self._lowered(col)
                order = np.argsort(np.array(text), kind="stable")
                keys = np.empty(len(order), dtype=np.int64)
                keys[order] = np.arange(len(order))
            self._keys[col] = keys[c.index] if c.index is not None else keys
        return self._keys[col]

    def _hits(self, term: str) -> np.ndarray:
        """Which data rows contain ``term`` in their search text or in one of their text columns."""
        if self._search is not None:
            if callable(self._search):
                self._search = self._search()
            return np.fromiter((term in s for s in self._search), dtype=bool, count=self._n)
        hits = np.zeros(self._n, dtype=bool)
        for col, c in enumerate(self.columns):
            if not c.numeric:
                lowered = self._lowered(col)
                hit = np.fromiter((term in s for s in lowered), dtype=bool, count=len(lowered))
                hits |= hit[c.index] if c.index is not None else hit
        return hits

    def _apply(self) -> None:
        if self._filter and self.columns:
            keep = np.ones(self._n, dtype=bool)
            for term in self._filter.split():
                keep &= self._hits(term)
            rows = np.flatnonzero(keep).astype(np.int64)
        else:
            rows = np.arange(self._n, dtype=np.int64)
        if self._sort is not None and self.columns and len(rows):
            col, order = self._sort
            idx = np.argsort(self._sort_keys(col)[rows], kind="stable")
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
        if (
            role not in _ROLES
            or not (0 <= index.row() < len(self.rows))
            or not (0 <= index.column() < len(self.columns))
        ):
            return None  # an invalid index has row -1
        col = self.columns[index.column()]
        row = int(self.rows[index.row()])
        if role == _ALIGN:
            return _RIGHT if col.numeric else None
        if role == _USER:
            return row
        if role == _SAY_MORE:
            return col.tip or None
        at = col.at(row)
        value = col.values[at]
        if role == _D:
            return col.fmt(value)
        if role == NAME_ROLE:
            return split_name(str(value)) if col.name else None
        if role == _SAY:
            said = spoken(str(value)) if col.name else col.fmt(value)
            return f"{col.title} {said or 'none'}. {self._describe(row)}"
        if col.hover is not None:
            return display(col.hover[at])
        return None if col.numeric else str(value) or None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation != Qt.Orientation.Horizontal or not (0 <= section < len(self.columns)):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns[section].title
        if role in (Qt.ItemDataRole.ToolTipRole, _SAY_MORE):
            return self.columns[section].tip or None
        if role == Qt.ItemDataRole.TextAlignmentRole and self.columns[section].numeric:
            return _RIGHT
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not (0 <= column < len(self.columns)):
            return
        self.layoutAboutToBeChanged.emit()
        old_rows = self.rows
        self._sort = (column, order)
        self._apply()
        persistent = self.persistentIndexList()  # the views' selection and current row follow their data
        if persistent:
            where = np.full(self._n, -1, dtype=np.int64)
            where[self.rows] = np.arange(len(self.rows))
            moved = [self.index(int(where[old_rows[p.row()]]), p.column()) for p in persistent]
            self.changePersistentIndexList(persistent, moved)
        self.layoutChanged.emit()
