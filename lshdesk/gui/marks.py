"""Marking documents in the results: check boxes through proxies, Space to toggle, rules, none, invert, a summary."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QLabel

from lshdesk.core.actions import marks as core_marks
from lshdesk.core.errors import LshdeskError
from lshdesk.core.ignore import FileKey, file_key
from lshdesk.gui.models.mark_proxy import MarkProxy
from lshdesk.gui.models.names import short_name
from lshdesk.gui.state import AppState
from lshdesk.gui.widgets.progress_area import ProgressArea
from lshdesk.gui.widgets.results_view import ResultsView

MARK_TIP = (
    "Tick the files to act on (Space toggles the selected rows); K keeps one of a group and marks the others; the "
    "Mark menu marks by rule"
)


class MarkControls(QObject):
    """Puts Mark check boxes on the document cells of Pairs, Groups and Documents and keeps the marks summary."""

    def __init__(self, state: AppState, results: ResultsView, progress: ProgressArea, parent: QObject) -> None:
        super().__init__(parent)
        self.state, self.results, self.progress = state, results, progress
        self.proxies = {
            results.pairs: MarkProxy(results.pairs_model, state, self._pair_doc, self),
            results.groups: MarkProxy(results.groups_model, state, self._member_doc, self),
            results.documents: MarkProxy(results.docs_model, state, self._document_doc, self),
        }
        results.show_through(*self.proxies.values())
        for view in self.proxies:
            view.installEventFilter(self)
            view.setToolTip(MARK_TIP if not view.toolTip() else f"{view.toolTip()}. {MARK_TIP}")
        self.summary = QLabel()
        self.summary.setAccessibleName("Marked files")
        self.summary.setContentsMargins(16, 0, 4, 0)
        self.summary.setToolTip("How many files are marked and their total size: what the Mark menu's actions act on")
        self.kept_files: set[FileKey] = set()  # the documents kept, as files: the choice outlives a rescan
        state.resultChanged.connect(self._kept_again)
        results.keepOne.connect(self.keep_this_one)
        state.marksChanged.connect(self._show_summary)
        state.marksChanged.connect(lambda: [view.viewport().update() for view in self.proxies])
        self._show_summary()

    # --- which document a cell shows ------------------------------------------------------------------------------
    def _pair_doc(self, index: QModelIndex) -> int | None:
        r = self.state.result
        if r is None or index.column() not in (0, 1) or not index.isValid():
            return None
        i = self.results.pairs_model.data_row(index.row())
        return int((r.pairs.left if index.column() == 0 else r.pairs.right)[i])

    def _member_doc(self, index: QModelIndex) -> int | None:
        return self.results.groups_model.doc_at(index) if index.column() == 0 else None  # None on a group row

    def _document_doc(self, index: QModelIndex) -> int | None:
        return self.results.docs_model.doc_at(index.row()) if index.column() == 0 and index.isValid() else None

    # --- Space -----------------------------------------------------------------------------------------------------
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in (Qt.Key.Key_Space, Qt.Key.Key_K)
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
            and isinstance(obj, QAbstractItemView)
            and obj in self.proxies
        ):
            if event.key() == Qt.Key.Key_Space:
                self.toggle(obj)
            else:
                self._keep_current(obj)
            return True
        return super().eventFilter(obj, event)

    def toggle(self, view: QAbstractItemView) -> None:
        """Space: flip the mark of the current row's document and give every selected row's document that mark.

        In Pairs the document is the one under the cursor (A or B), or B when the cursor is on another column.
        """
        proxy = self.proxies[view]
        current = view.currentIndex()
        if not current.isValid():
            return
        column = current.column() if proxy.mark_doc(current) is not None else (1 if view is self.results.pairs else 0)
        rows = {(i.row(), i.parent()) for i in view.selectionModel().selectedIndexes()} | {
            (current.row(), current.parent())
        }
        shown = [proxy.mark_doc(proxy.index(r, column, p)) for r, p in rows]
        first = proxy.mark_doc(proxy.index(current.row(), column, current.parent()))
        docs = [d for d in shown if d is not None]
        if first is None or not docs:
            return
        marks = self.state.marks.copy()
        marks[docs] = not marks[first]
        self.state.set_marks(marks)

    # --- Keep this one -----------------------------------------------------------------------------------------
    def _keep_current(self, view: QAbstractItemView) -> None:
        """K: keep the current row's document (in Pairs: the one under the cursor, else A)."""
        proxy, current = self.proxies[view], view.currentIndex()
        doc = proxy.mark_doc(current) if current.isValid() else None
        if doc is None and current.isValid():
            doc = proxy.mark_doc(proxy.index(current.row(), 0, current.parent()))
        if doc is not None:
            self.keep_this_one(doc)

    def keep_this_one(self, doc: int) -> None:
        """Keep ``doc`` in its group (the groups on screen), overriding any rule there: the group's others marked."""
        r = self.state.result
        group = next((g for g in self.results.groups_model.groups if doc in g), None) if r is not None else None
        if r is None or group is None:
            self.progress.finish("That document is in no group: there is nothing to keep it over.")
            return
        members = np.asarray(group, dtype=np.int64)
        ref = core_marks.in_reference(r.docs.root, r.reference)
        kept, marks = core_marks.keep_one(self.state.marks, self.state.kept, members, doc, ref)
        self.kept_files -= {k for m in members.tolist() if (k := file_key(r, m)) is not None}
        if (key := file_key(r, doc)) is not None:
            self.kept_files.add(key)
        self.state.set_kept(kept, marks)
        n = int(marks[members].sum())
        self.progress.finish(
            f"Keeping {short_name(r.docs.paths[doc])}: the {n:,} other document{'s' * (n != 1)} of its group "
            "marked (a rule leaves this group as it is)."
        )

    def _kept_again(self) -> None:
        """After a rescan, the documents kept before are kept again if their files did not change."""
        r = self.state.result
        if r is None or not self.kept_files or r.docs.mtime is None:
            return
        kept = np.array([file_key(r, i) in self.kept_files for i in range(len(r.docs))], dtype=bool)
        if kept.any():
            self.state.set_kept(kept, self.state.marks)

    # --- the Mark menu ------------------------------------------------------------------------------------------
    def by_rule(self, rule: str) -> None:
        """Mark by a rule over the groups on screen (strict ones when strict groups are shown)."""
        r = self.state.result
        if r is None:
            return
        groups = self.results.groups_model.groups
        if not groups:
            self.progress.finish("No groups: nothing to mark by a rule.")
            return
        ref = core_marks.in_reference(r.docs.root, r.reference)
        try:
            marks = core_marks.mark_by_rule(
                groups,
                rule,
                paths=r.docs.paths,
                size=r.docs.size,
                mtime=r.docs.mtime,
                reference=ref,
                pairs=r.pairs,
                threshold=r.params.threshold,
                kept=self.state.kept,
            )
        except LshdeskError as e:
            self.progress.finish(f"Cannot mark: {e}")
            return
        self.state.set_marks(marks)
        spared = int(sum(ref[g].sum() for g in groups))
        note = f"; {spared:,} in a reference folder left unmarked" if spared and rule != "reference" else ""
        words, n, g = core_marks.RULES[rule].lower(), int(marks.sum()), len(groups)
        self.progress.finish(
            f"Marked {n:,} file{'s' if n != 1 else ''} in {g:,} group{'s' if g != 1 else ''} ({words}{note})."
        )

    def none(self) -> None:
        self.state.set_marks(np.zeros_like(self.state.marks))

    def invert(self) -> None:
        r = self.state.result
        if r is not None:
            ref = core_marks.in_reference(r.docs.root, r.reference)
            self.state.set_marks(core_marks.invert(self.state.marks, r.groups, ref))

    def _show_summary(self) -> None:
        r = self.state.result
        self.summary.setText(core_marks.summary(self.state.marks, r.docs.size) if r is not None else "")
