"""The models of a scan result: the Pairs and Documents tables and the Groups tree, all over the result's arrays."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt

from lshdesk.core.corpus.listing import Skipped
from lshdesk.core.pathnames import display
from lshdesk.core.persistence import export
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.models.arraymodel import _RIGHT, ArrayTableModel, Column, _Index


def _sim(v: object) -> str:
    return f"{float(v):.3f}"


def _size(v: object) -> str:
    n = int(v)
    return f"{n / 1024:.1f} KB" if n >= 1024 else f"{n} B"


def _dash(fmt):
    return lambda v: "" if int(v) < 0 else fmt(v)


class PairsModel(ArrayTableModel):
    """One row per verified pair: documents A and B, similarity, estimate, bands collided."""

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        if result is None:
            self.set_columns([], [])
            return
        p = result.pairs
        self.set_columns(
            [
                Column("Document A", names, index=p.left),
                Column("Document B", names, index=p.right),
                Column("Similarity", p.jaccard, _sim, "Exact Jaccard similarity of the two shingle sets", True),
                Column("Estimate", p.estimate, _sim, "Matching signature slots / k: what MinHash estimated", True),
                Column("Bands", p.bands, str, "How many bands put the pair in one bucket", True),
            ]
        )

    def pair_at(self, row: int, result: ScanResult) -> tuple[int, int]:
        i = self.data_row(row)
        return int(result.pairs.left[i]), int(result.pairs.right[i])


class DocumentsModel(ArrayTableModel):
    """Every document with its size, tokens and shingles, then every skipped file with the reason."""

    _n_docs = 0

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        if result is None:
            self._n_docs = 0
            self.set_columns([], [])
            return
        skipped: list[Skipped] = result.skipped
        n, m = len(names), len(skipped)
        self._n_docs = n
        status = ["document"] * n + ["skipped"] * m
        path = list(names) + [display(export.skipped_name(result, s.path)) for s in skipped]  # named as documents are
        note = [""] * n + [display(s.reason) for s in skipped]
        minus = np.full(m, -1, dtype=np.int64)
        self.set_columns(
            [
                Column("File", path),
                Column("Status", status, tip="document: read and compared; skipped: not used (see the reason)"),
                Column("Size", np.concatenate([result.docs.size, minus]), _dash(_size), "Size of the file", True),
                Column(
                    "Tokens", np.concatenate([result.docs.n_tokens, minus]), _dash(str), "Words found in the text", True
                ),
                Column(
                    "Shingles",
                    np.concatenate([result.shingles.counts(), minus]),
                    _dash(str),
                    "Distinct shingles: the size of the document's set",
                    True,
                ),
                Column("Reason skipped", note),
            ]
        )

    def doc_at(self, row: int) -> int | None:
        """The document index at a view row, or None for a skipped file."""
        i = self.data_row(row)
        return i if i < self._n_docs else None


_GROUP = 0  # internal id of a group row; a member row's id is its group's number + 1
_HEADERS = ("Group / document", "Documents", "Lowest similarity")
_LOW_TIP = "The least similar two documents of the group: low means a chain A~B~C where A and C differ"


class GroupsModel(QAbstractItemModel):
    """Groups (top rows) and their documents (children), read from the result's arrays only when shown."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.groups: list[np.ndarray] = []
        self.low = np.zeros(0)
        self.names: list[str] = []
        self.paths: list[str] = []

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        self.beginResetModel()
        self.groups = list(result.groups) if result is not None else []
        self.low = np.asarray(result.group_min, dtype=np.float64) if result is not None else np.zeros(0)
        self.names, self.paths = (names, result.docs.paths) if result is not None else ([], [])
        self.endResetModel()

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
            return self.createIndex(row, column, _GROUP) if 0 <= row < len(self.groups) else QModelIndex()
        if parent.internalId() == _GROUP and 0 <= row < len(self.groups[parent.row()]):
            return self.createIndex(row, column, parent.row() + 1)
        return QModelIndex()

    def parent(self, index: _Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == _GROUP:
            return QModelIndex()
        return self.createIndex(index.internalId() - 1, 0, _GROUP)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        if not parent.isValid():
            return len(self.groups)
        if parent.internalId() == _GROUP and parent.column() == 0:
            return len(self.groups[parent.row()])
        return 0

    def columnCount(self, parent: _Index = QModelIndex()) -> int:
        return len(_HEADERS)

    def hasChildren(self, parent: _Index = QModelIndex()) -> bool:
        return self.rowCount(parent) > 0

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        col, row = index.column(), index.row()
        if index.internalId() == _GROUP:
            members = self.groups[row]
            if role == Qt.ItemDataRole.DisplayRole:
                return (
                    f"Group {row + 1}: {self.names[int(members[0])]} and {len(members) - 1} more",
                    str(len(members)),
                    f"{self.low[row]:.3f}",
                )[col]
            if role == Qt.ItemDataRole.ToolTipRole and col == 2:
                return _LOW_TIP
        else:
            doc = int(self.groups[index.internalId() - 1][row])
            if role == Qt.ItemDataRole.DisplayRole:
                return self.names[doc] if col == 0 else ""
            if role == Qt.ItemDataRole.ToolTipRole and col == 0:
                return self.paths[doc]
        if role == Qt.ItemDataRole.TextAlignmentRole and col > 0:
            return _RIGHT
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(_HEADERS):
            if role == Qt.ItemDataRole.DisplayRole:
                return _HEADERS[section]
            if role == Qt.ItemDataRole.ToolTipRole and section == 2:
                return _LOW_TIP
            if role == Qt.ItemDataRole.TextAlignmentRole and section > 0:
                return _RIGHT
        return None
