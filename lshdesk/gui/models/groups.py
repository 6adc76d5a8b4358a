"""The Groups tree: linked or strict groups (top rows) and their documents, each with its closest partner in the group."""

from __future__ import annotations

import os
import time

import numpy as np
from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt

from lshdesk.core.grouping import closest_in_group, lowest_in_groups, strict_groups
from lshdesk.core.humanize import human_size
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.models.arraymodel import _RIGHT, _Index

_GROUP = 0  # internal id of a group row; a member row's id is its group's number + 1
FETCH_ROWS = 256  # group rows handed to the view at a time (``fetchMore``), more as it scrolls down
_HEADERS = ("Group / document", "Documents", "Similarity", "Closest to", "Size", "Modified")
_TIPS = (
    "",
    "How many documents the group holds",
    "A group: its least similar two documents (low means a chain A~B~C where A and C differ).\n"
    "A document: its similarity to the closest other document of its group",
    "The document of the group this one is most similar to",
    "Size of the file",
    "The day the file was last changed, as the scan saw it",
)


class GroupsModel(QAbstractItemModel):
    """Groups (top rows) and their documents (children), read from the result's arrays only when shown.

    ``strict`` False: documents linked by verified pairs (chains included). True: groups in which every two documents
    form a verified pair, so every pair is at or above the threshold. The group rows are offered ``FETCH_ROWS`` at a
    time (``canFetchMore`` / ``fetchMore``): a tree view lays out every top row it is told of, asking the model about
    each in Python (~25 us a row), so showing 100,000 groups at once would stall the window for seconds.
    """

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.groups: list[np.ndarray] = []
        self.low = np.zeros(0)
        self.closest = np.zeros(0)
        self.partner = np.zeros(0, dtype=np.int64)
        self.names: list[str] = []
        self.paths: list[str] = []
        self.sizes = np.zeros(0, dtype=np.int64)
        self.strict = False
        self._result: ScanResult | None = None
        self._dates: dict[int, str] = {}
        self.shown = 0  # group rows the views know of (the first ``shown`` groups)

    def set_result(self, result: ScanResult | None, names: list[str], strict: bool | None = None) -> None:
        self.beginResetModel()
        self._result, self.names, self._dates = result, names, {}
        self.strict = self.strict if strict is None else strict
        if result is None:
            self.groups, self.low, self.paths, self.sizes = [], np.zeros(0), [], np.zeros(0, dtype=np.int64)
            self.closest, self.partner = np.zeros(0), np.zeros(0, dtype=np.int64)
        else:
            n = len(result.docs)
            self.paths, self.sizes = result.docs.paths, result.docs.size
            if self.strict:
                self.groups = strict_groups(result.pairs)
                self.low = lowest_in_groups(n, self.groups, result.pairs)
            else:
                self.groups = list(result.groups)
                self.low = np.asarray(result.group_min, dtype=np.float64)
            self.closest, self.partner = closest_in_group(n, self.groups, result.pairs)
        self.shown = min(len(self.groups), FETCH_ROWS)
        self.endResetModel()

    def canFetchMore(self, parent: _Index = QModelIndex()) -> bool:
        return not parent.isValid() and self.shown < len(self.groups)

    def fetchMore(self, parent: _Index = QModelIndex()) -> None:
        if self.canFetchMore(parent):
            more = min(len(self.groups), self.shown + FETCH_ROWS)
            self.beginInsertRows(QModelIndex(), self.shown, more - 1)
            self.shown = more
            self.endInsertRows()

    def set_strict(self, strict: bool) -> None:
        """Show strict groups (every pair verified) or linked groups (chains included)."""
        if strict != self.strict:
            self.set_result(self._result, self.names, strict)

    def members(self, index: _Index) -> tuple[int, ...]:
        """The documents of a group row, or the one document of a member row."""
        if not index.isValid():
            return ()
        if index.internalId() == _GROUP:
            return tuple(self.groups[index.row()].tolist())
        return (int(self.groups[index.internalId() - 1][index.row()]),)

    def group_of(self, index: _Index) -> tuple[int, ...]:
        """The documents of the group a row belongs to."""
        if not index.isValid():
            return ()
        g = index.row() if index.internalId() == _GROUP else index.internalId() - 1
        return tuple(self.groups[g].tolist())

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:
        if not (0 <= column < len(_HEADERS)):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, _GROUP) if 0 <= row < self.shown else QModelIndex()
        if parent.internalId() == _GROUP and 0 <= row < len(self.groups[parent.row()]):
            return self.createIndex(row, column, parent.row() + 1)
        return QModelIndex()

    def parent(self, index: _Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == _GROUP:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, _GROUP)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        if not parent.isValid():
            return self.shown
        if parent.internalId() == _GROUP and parent.column() == 0:
            return len(self.groups[parent.row()])
        return 0

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return len(_HEADERS)

    def hasChildren(self, parent: _Index = QModelIndex()) -> bool:
        return self.rowCount(parent) > 0

    def _date(self, doc: int) -> str:
        """The day the file last changed: as the scan saw it (a session from before dates asks the disk)."""
        if doc not in self._dates:
            mtimes = self._result.docs.mtime if self._result is not None else None
            try:
                seconds = int(mtimes[doc]) / 1e9 if mtimes is not None else os.stat(self.paths[doc]).st_mtime
                self._dates[doc] = time.strftime("%Y-%m-%d", time.localtime(seconds))
            except (OSError, ValueError, OverflowError, IndexError):
                self._dates[doc] = ""  # the file moved or went away since the scan
        return self._dates[doc]

    def _member_text(self, doc: int, col: int) -> str:
        if col == 0:
            return self.names[doc]
        if col == 2:
            return "" if self.partner[doc] < 0 else f"{self.closest[doc]:.3f}"
        if col == 3:
            return "" if self.partner[doc] < 0 else self.names[int(self.partner[doc])]
        if col == 4:
            return human_size(int(self.sizes[doc]))
        return self._date(doc) if col == 5 else ""

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        col, row = index.column(), index.row()
        if index.internalId() == _GROUP:
            members = self.groups[row]
            if role == Qt.ItemDataRole.DisplayRole:
                first = f"Group {row + 1}: {self.names[int(members[0])]} and {len(members) - 1} more"
                return (first, str(len(members)), f"{self.low[row]:.3f}", "", "", "")[col]
            if role == Qt.ItemDataRole.ToolTipRole and col in (1, 2):
                return _TIPS[col].split("\n")[0]
        else:
            doc = int(self.groups[index.internalId() - 1][row])
            if role == Qt.ItemDataRole.DisplayRole:
                return self._member_text(doc, col)
            if role == Qt.ItemDataRole.ToolTipRole and col in (0, 3):
                other = doc if col == 0 else int(self.partner[doc])
                return self.paths[other] if other >= 0 else None
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (1, 2, 4):
            return _RIGHT
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(_HEADERS):
            if role == Qt.ItemDataRole.DisplayRole:
                return _HEADERS[section]
            if role == Qt.ItemDataRole.ToolTipRole and _TIPS[section]:
                return _TIPS[section]
            if role == Qt.ItemDataRole.TextAlignmentRole and section in (1, 2, 4):
                return _RIGHT
        return None
