"""The Groups tree: linked or strict groups (top rows) and their documents, each with its closest partner in the group."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt

from lshdesk.core.grouping import closest_in_group, lowest_in_groups, strict_groups
from lshdesk.core.humanize import human_size
from lshdesk.core.pathnames import display
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.models.arraymodel import _RIGHT, _Index
from lshdesk.gui.models.names import NAME_ROLE, group_title, split_name, spoken

_GROUP = 0  # internal id of a group row; a member row's id is its group's number + 1 (not its row: see the filter)
_D, _TIP, _ALIGN = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.TextAlignmentRole
_SAY, _SAY_MORE = Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.AccessibleDescriptionRole
_ROLES = frozenset((_D, _TIP, _ALIGN, NAME_ROLE, _SAY, _SAY_MORE))
TIP_NAMES = 20  # a group row's tooltip lists this many paths at most
FETCH_ROWS = 256  # group rows handed to the view at a time (``fetchMore``), more as it scrolls down
_HEADERS = ("Group / document", "Documents", "Similarity", "Closest to", "Size", "Modified")
_TIPS = (
    "A group: its documents' file names, then where their folders differ. A document: its file name, then its folder",
    "How many documents the group holds",
    "A group: its least similar two documents (low means a chain A~B~C where A and C differ).\n"
    "A document: its similarity to the closest other document of its group",
    "The document of the group this one is most similar to",
    "Size of the file",
    "The day the file was last changed, as the scan saw it",
)


@dataclass(frozen=True)
class _Kind:
    """The groups of one kind (linked or strict) of a result, with what the tree shows of them."""

    groups: list[np.ndarray]
    low: np.ndarray  # each group's lowest similarity
    closest: np.ndarray  # each document's similarity to its closest partner in its group (nan: none)
    partner: np.ndarray  # that partner (-1: none)
    members: np.ndarray  # the groups' documents end to end, and where each group starts (for the filter)
    starts: np.ndarray


def _kind(result: ScanResult, strict: bool) -> _Kind:
    n = len(result.docs)
    if strict:
        groups = strict_groups(result.pairs)
        low = lowest_in_groups(n, groups, result.pairs)
    else:
        groups, low = list(result.groups), np.asarray(result.group_min, dtype=np.float64)
    closest, partner = closest_in_group(n, groups, result.pairs)
    sizes = np.array([len(g) for g in groups], dtype=np.int64)
    members = np.concatenate(groups) if groups else np.zeros(0, dtype=np.int64)
    return _Kind(groups, low, closest, partner, members, np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64))


class GroupsModel(QAbstractItemModel):
    """Groups (top rows) and their documents (children), read from the result's arrays only when shown.

    ``strict`` False: documents linked by verified pairs (chains included). True: groups in which every two documents
    form a verified pair, so every pair is at or above the threshold. Each kind is worked out once per result, so
    switching back and forth only swaps arrays. The filter keeps the groups in which every word is found in some
    member's name (as the Pairs table keeps a pair when each word is in one of its two names); ``order`` maps the
    rows shown to group numbers. The group rows are offered ``FETCH_ROWS`` at a time (``canFetchMore`` /
    ``fetchMore``): a tree view lays out every top row it is told of, asking the model about each in Python
    (~25 us a row), so showing 100,000 groups at once would stall the window for seconds.
    """

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.names: list[str] = []
        self.paths: Sequence[str] = []
        self.sizes = np.zeros(0, dtype=np.int64)
        self.strict = False
        self._result: ScanResult | None = None
        self._kinds: dict[bool, _Kind] = {}
        self._kind = _kind_of_nothing()
        self.order = np.zeros(0, dtype=np.int64)  # the groups shown, in the order shown
        self._row_of = np.zeros(0, dtype=np.int64)  # each group's row (-1: filtered out)
        self._filter = ""
        self._lower: list[str] | None = None  # the names in lower case, made when a filter is first typed
        self._dates: dict[int, str] = {}
        self._titles: dict[int, str] = {}
        self.shown = 0  # group rows the views know of (the first ``shown`` of ``order``)

    # the groups of the kind shown (all of them: the filter hides rows, not groups)
    groups = property(lambda self: self._kind.groups)
    low = property(lambda self: self._kind.low)
    closest = property(lambda self: self._kind.closest)
    partner = property(lambda self: self._kind.partner)

    def set_result(self, result: ScanResult | None, names: list[str], strict: bool | None = None) -> None:
        self.beginResetModel()
        if result is not self._result or names is not self.names:
            self._result, self.names, self._kinds, self._lower, self._dates = result, names, {}, None, {}
            self.paths = result.docs.paths if result is not None else []
            self.sizes = result.docs.size if result is not None else np.zeros(0, dtype=np.int64)
        self.strict = self.strict if strict is None else strict
        if result is None:
            self._kind = _kind_of_nothing()
        else:
            if self.strict not in self._kinds:
                self._kinds[self.strict] = _kind(result, self.strict)
            self._kind = self._kinds[self.strict]
        self._titles = {}
        self._apply_filter()
        self.endResetModel()

    def set_strict(self, strict: bool) -> None:
        """Show strict groups (every pair verified) or linked groups (chains included)."""
        if strict != self.strict:
            self.set_result(self._result, self.names, strict)

    def set_filter(self, text: str) -> None:
        """Show the groups in which each word of ``text`` is in some member's name (case-insensitive)."""
        text = " ".join(text.lower().split())
        if text != self._filter:
            self.beginResetModel()
            self._filter = text
            self._apply_filter()
            self.endResetModel()

    def _apply_filter(self) -> None:
        k, n = self._kind, len(self._kind.groups)
        keep = np.ones(n, dtype=bool)
        if self._filter and n:
            if self._lower is None:
                self._lower = [x.lower() for x in self.names]
            for term in self._filter.split():
                hit = np.fromiter((term in x for x in self._lower), dtype=bool, count=len(self._lower))
                keep &= np.logical_or.reduceat(hit[k.members], k.starts)
        self.order = np.flatnonzero(keep).astype(np.int64)
        self._row_of = np.full(n, -1, dtype=np.int64)
        self._row_of[self.order] = np.arange(len(self.order))
        self.shown = min(len(self.order), FETCH_ROWS)

    def n_shown(self) -> int:
        """How many groups pass the filter (the rows offered so far may be fewer)."""
        return len(self.order)

    def canFetchMore(self, parent: _Index = QModelIndex()) -> bool:
        return not parent.isValid() and self.shown < len(self.order)

    def fetchMore(self, parent: _Index = QModelIndex()) -> None:
        if self.canFetchMore(parent):
            more = min(len(self.order), self.shown + FETCH_ROWS)
            self.beginInsertRows(QModelIndex(), self.shown, more - 1)
            self.shown = more
            self.endInsertRows()

    def _group(self, index: _Index) -> int:
        """The group number of a valid row (a group row or one of its members)."""
        i = index.internalId()
        return int(self.order[index.row()]) if i == _GROUP else i - 1

    def doc_at(self, index: _Index) -> int | None:
        """The document of a member row, None for a group row (no Python index objects made: Qt asks per cell)."""
        if not index.isValid() or index.internalId() == _GROUP:
            return None
        return int(self._kind.groups[index.internalId() - 1][index.row()])

    def members(self, index: _Index) -> tuple[int, ...]:
        """The documents of a group row, or the one document of a member row."""
        if not index.isValid():
            return ()
        doc = self.doc_at(index)
        return tuple(self._kind.groups[self._group(index)].tolist()) if doc is None else (doc,)

    def group_of(self, index: _Index) -> tuple[int, ...]:
        """The documents of the group a row belongs to."""
        return tuple(self._kind.groups[self._group(index)].tolist()) if index.isValid() else ()

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:
        if not (0 <= column < len(_HEADERS)):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, _GROUP) if 0 <= row < self.shown else QModelIndex()
        if parent.internalId() == _GROUP and 0 <= parent.row() < self.shown:
            g = int(self.order[parent.row()])
            if 0 <= row < len(self._kind.groups[g]):
                return self.createIndex(row, column, g + 1)
        return QModelIndex()

    def parent(self, index: _Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid() or index.internalId() == _GROUP:
            return QModelIndex()
        return self.createIndex(int(self._row_of[index.internalId() - 1]), 0, _GROUP)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:
        if not parent.isValid():
            return self.shown
        if parent.internalId() == _GROUP and parent.column() == 0 and 0 <= parent.row() < self.shown:
            return len(self._kind.groups[int(self.order[parent.row()])])
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

    def title(self, g: int) -> str:
        """A group's title: what its names share and where they differ (``names.group_title``)."""
        if g not in self._titles:
            self._titles[g] = group_title([self.names[d] for d in self._kind.groups[g].tolist()])
        return self._titles[g]

    def _member_text(self, doc: int, col: int) -> str:
        partner = int(self._kind.partner[doc])
        if col == 0:
            return self.names[doc]
        if col == 2:
            return "" if partner < 0 else f"{self._kind.closest[doc]:.3f}"
        if col == 3:
            return "" if partner < 0 else self.names[partner]
        if col == 4:
            return human_size(int(self.sizes[doc]))
        return self._date(doc) if col == 5 else ""

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if role not in _ROLES or not index.isValid():
            return None
        col = index.column()
        if role == _ALIGN:
            return _RIGHT if col in (1, 2, 4) else None
        if role == _SAY_MORE:
            return _TIPS[col].split("\n")[0] or None
        doc = self.doc_at(index)
        if doc is None:
            return self._group_data(self._group(index), col, role)
        if role == _D:
            return self._member_text(doc, col)
        partner = int(self._kind.partner[doc])
        shows = doc if col == 0 else partner if col == 3 else -1  # the document a name cell shows
        if role == NAME_ROLE:
            return split_name(self.names[shows]) if shows >= 0 else None
        if role == _TIP:
            return display(self.paths[shows]) if shows >= 0 else None
        if role == _SAY:  # the cell, then the document and its closest partner (a reader moving down hears the row)
            near = f", {self._kind.closest[doc]:.3f} similar to {spoken(self.names[partner])}" if partner >= 0 else ""
            row = f"Document {spoken(self.names[doc])}{near}"
            text = spoken(self._member_text(doc, col)) if col == 3 else self._member_text(doc, col)
            return row if col in (0, 1) else f"{_HEADERS[col]} {text or 'none'}. {row}"
        return None

    def _group_data(self, g: int, col: int, role: int):
        members = self._kind.groups[g]
        if role == _D:
            return (self.title(g), str(len(members)), f"{self._kind.low[g]:.3f}", "", "", "")[col]
        if role == _TIP:
            if col in (1, 2):
                return _TIPS[col].split("\n")[0]
            if col == 0:
                paths = [display(self.paths[d]) for d in members[:TIP_NAMES].tolist()]
                more = len(members) - TIP_NAMES
                return "\n".join(paths + ([f"… and {more} more"] if more > 0 else []))
            return None
        if role == _SAY:
            return (
                f"Group {int(self._row_of[g]) + 1} of {len(self.order)}, {len(members)} documents, lowest similarity "
                f"{self._kind.low[g]:.3f}: {self.title(g)}"
            )
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(_HEADERS):
            if role == Qt.ItemDataRole.DisplayRole:
                return _HEADERS[section]
            if role in (Qt.ItemDataRole.ToolTipRole, _SAY_MORE) and _TIPS[section]:
                return _TIPS[section]
            if role == Qt.ItemDataRole.TextAlignmentRole and section in (1, 2, 4):
                return _RIGHT
        return None


def _kind_of_nothing() -> _Kind:
    empty = np.zeros(0, dtype=np.int64)
    return _Kind([], np.zeros(0), np.zeros(0), empty, empty, empty)
