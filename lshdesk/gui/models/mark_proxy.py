"""A Mark check box on the document cells of any results model, read from and written to the state's marks."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QIdentityProxyModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from lshdesk.gui.state import AppState

_Index = QModelIndex | QPersistentModelIndex
DocOf = Callable[[QModelIndex], "int | None"]  # a source cell -> the document it shows (None: no check box there)
CHECK = Qt.ItemDataRole.CheckStateRole


def is_checked(value: object) -> bool:
    """A check state as Qt hands it over (an enum or its integer)."""
    return getattr(value, "value", value) == Qt.CheckState.Checked.value


class MarkProxy(QIdentityProxyModel):
    """The source model unchanged, plus a check box on every cell ``doc_of`` names a document for.

    Ticking a box marks that document in the state; a change of the marks repaints the boxes. Sorting and
    filtering are the source's (an identity proxy keeps its rows), so the views' row numbers stay the source's,
    and the source's own methods (``pair_at``, ``members``, ``set_filter``...) are reached through the proxy.
    """

    def __init__(self, source, state: AppState, doc_of: DocOf, parent=None) -> None:
        super().__init__(parent)
        self.setSourceModel(source)
        self._state, self._doc_of = state, doc_of
        state.marksChanged.connect(self.repaint_marks)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.sourceModel(), name)

    def mark_doc(self, index: _Index) -> int | None:
        """The document a proxy cell shows a check box for, or None."""
        if not index.isValid():
            return None
        doc = self._doc_of(self.mapToSource(index))
        return doc if doc is not None and 0 <= doc < len(self._state.marks) else None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if role == CHECK:
            doc = self.mark_doc(index)
            if doc is None:
                return None
            return Qt.CheckState.Checked if self._state.marks[doc] else Qt.CheckState.Unchecked
        if role == Qt.ItemDataRole.FontRole and (doc := self.mark_doc(index)) is not None and self._state.kept[doc]:
            font = QFont(super().data(index, role) or QFont())
            font.setBold(True)  # the document the user keeps in its group
            return font
        return super().data(index, role)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        if self.mark_doc(index) is not None:
            flags |= Qt.ItemFlag.ItemIsUserCheckable
        return flags

    def setData(self, index: _Index, value, role: int = Qt.ItemDataRole.EditRole) -> bool:
        doc = self.mark_doc(index)
        if role != CHECK or doc is None:
            return super().setData(index, value, role)
        marks = self._state.marks.copy()
        marks[doc] = is_checked(value)
        self._state.set_marks(marks)
        return True

    def repaint_marks(self) -> None:
        """Tell the views the top rows' check boxes changed (one signal; the rows below a group are repainted by
        their view, ``MarkControls`` updates it: a signal per group would cost seconds at 100,000 groups)."""
        rows, cols = self.rowCount(), self.columnCount()
        if rows and cols:
            self.dataChanged.emit(self.index(0, 0), self.index(rows - 1, cols - 1), [CHECK])
