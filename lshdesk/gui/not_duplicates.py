"""Not duplicates, remembered: the pairs the user rules out leave the results, now and in every later scan of the same
folders (one list per folder set, ``core.ignore``), until either file changes."""

from __future__ import annotations

import os
from dataclasses import dataclass

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from lshdesk.core.ignore import IgnoreList, IgnoreListError, Pair, default_path, load
from lshdesk.core.persistence.atomic import OutputError
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.dialogs.not_duplicates import NotDuplicatesDialog
from lshdesk.gui.state import AppState
from lshdesk.gui.widgets.progress_area import ProgressArea


@dataclass(frozen=True)
class Filtered:
    """A scan's result and what its folders' list makes of it (``NotDuplicates.prepare``)."""

    full: ScanResult  # as scanned
    shown: ScanResult  # without the pairs on the list
    ignored: IgnoreList  # the list read
    problem: str  # what went wrong reading it, to say ('' if nothing)


class NotDuplicates(QObject):
    """Applies the folder set's list to each scan's result (``filter``), adds pairs to it and forgets them."""

    def __init__(self, state: AppState, progress: ProgressArea, parent: QWidget, data_dir: str | None = None) -> None:
        super().__init__(parent)
        self.state, self.progress, self.window, self.data_dir = state, progress, parent, data_dir
        self.ignored = IgnoreList()
        self.full: ScanResult | None = None  # the last scan's result before the list was applied
        self.shown: ScanResult | None = None  # what the list made of it (the state's result, unless replaced since)
        self.dialog: NotDuplicatesDialog | None = None

    def _read_list(self, roots: tuple[str, ...]) -> tuple[IgnoreList, str]:
        """The folder set's list, and what went wrong reading it ('' if nothing): a damaged one is set aside
        (renamed, never deleted) and a new one started. Touches no widget: the scan's worker calls it."""
        path = default_path(roots, self.data_dir)
        try:
            return load(path, missing_ok=True), ""
        except IgnoreListError as e:
            problem = f"The list of pairs marked not duplicates could not be read ({e})"
        aside = f"{path}.damaged"
        try:
            os.replace(path, aside)
        except OSError as err:
            return IgnoreList(), f"{problem} nor set aside ({err.strerror}): new marks are not kept."
        return IgnoreList(path=path), f"{problem}; it was set aside as {aside}."

    def _list_for(self, roots: tuple[str, ...]) -> IgnoreList:
        """The folder set's list (``_read_list``), what went wrong said in the progress area."""
        ignored, problem = self._read_list(roots)
        if problem:
            self.progress.finish(problem)
        return ignored

    def prepare(self, result: ScanResult) -> Filtered:
        """A scan's result without the pairs on its folders' list, worked out in the scan's worker (reading the list
        and leaving its pairs out take a while on a large result); ``take`` shows it on the GUI thread."""
        ignored, problem = self._read_list(result.roots)
        shown, _ = ignored.apply(result)
        return Filtered(result, shown, ignored, problem)

    def take(self, f: Filtered) -> ScanResult:
        """Adopt what ``prepare`` worked out (GUI thread): the list, the full and the shown result; say any problem."""
        self.ignored, self.full, self.shown = f.ignored, f.full, f.shown
        if f.problem:
            self.progress.finish(f.problem)
        return f.shown

    def filter(self, result: ScanResult) -> ScanResult:
        """``prepare`` and ``take`` at once, on the calling thread."""
        return self.take(self.prepare(result))

    def mark(self, pairs: list[tuple[int, int]]) -> None:
        """The user says these pairs of the shown result are not duplicates: they leave the results and are kept."""
        r = self.state.result
        if r is None or not pairs:
            return
        if r is not self.shown:  # a session, or a result pruned after a move: its own folders' list
            self.ignored, self.full = self._list_for(r.roots), r
        added = self.ignored.add(r, pairs)
        if not added:
            self.progress.finish("These files have no modification time (a session saved by an older lshdesk): rescan.")
            return
        what = f"{added:,} pair{'s' * (added != 1)} marked not duplicates"
        if not self._save():
            return
        self._show(r)
        self.progress.finish(
            f"{what}: left out of these folders' results until a file changes (Edit > Not duplicates…)."
        )

    def forget(self, pairs: list[Pair]) -> None:
        self.ignored.forget(pairs)
        if not self._save():
            return
        n = len(pairs)
        if self.state.result is not None and self.state.result is self.shown:
            self._show(self.full)
            self.progress.finish(f"{n:,} pair{'s' * (n != 1)} forgotten: back in the results.")
        else:
            self.progress.finish(f"{n:,} pair{'s' * (n != 1)} forgotten: back at the next scan.")
        if self.dialog is not None:
            self.dialog.refresh()

    def _save(self) -> bool:
        if not self.ignored.path:
            self.progress.finish("The list of pairs marked not duplicates cannot be kept (see the message before).")
            return False
        try:
            self.ignored.save()
        except (OutputError, OSError) as e:
            self.progress.finish(f"Not kept: {e}")
            return False
        return True

    def _show(self, base: ScanResult | None) -> None:
        """Show ``base`` without the listed pairs, the marks as they were (the documents do not change)."""
        if base is None:
            return
        marks = self.state.marks.copy()
        self.shown, _ = self.ignored.apply(base)
        self.full = base
        self.state.set_result(self.shown)
        if len(marks) == len(self.shown.docs):
            self.state.set_marks(marks)

    def show_dialog(self) -> NotDuplicatesDialog:
        """Edit > Not duplicates…: the list of the shown folders, to forget pairs or export it."""
        r = self.state.result
        if r is not None and r is not self.shown:
            self.ignored, self.full = self._list_for(r.roots), r
        if self.dialog is None:
            self.dialog = NotDuplicatesDialog(self.window, self.ignored)
            self.dialog.forget.connect(self.forget)
        self.dialog.ignored = self.ignored
        self.dialog.refresh()
        self.dialog.show()
        return self.dialog
