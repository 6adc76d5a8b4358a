"""Find similar: a document picked in the Results view gets its nearest documents listed in a window of their own."""

from __future__ import annotations

import threading
from collections.abc import Generator

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QWidget

from lshdesk.core.persistence import export
from lshdesk.core.query.nearest import Nearest, nearest
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.state import AppState
from lshdesk.gui.widgets.results_view import ResultsView
from lshdesk.gui.widgets.similar_view import SimilarDialog
from lshdesk.gui.workers import WorkerSlot

TOP = 20  # nearest documents by each measure (the window lists their union)


def _nearest_job(result: ScanResult, doc: int):
    """A worker's job: the nearest documents of ``doc`` (one step: a pass over the signatures, exact scores)."""

    def make(cancel: threading.Event) -> Generator[None, None, Nearest]:
        yield None  # started: a cancel before the work is seen here
        return nearest(result.signatures, result.shingles, doc, TOP)

    return make


class SimilarFinder(QObject):
    """Answers the Results view's ``findSimilar`` in a worker (~3-50 ms at 100k documents, more on a busy machine:
    tests/benchmarks/query.py), the newest request winning; a row chosen in the window selects that pair."""

    def __init__(self, state: AppState, results: ResultsView, parent: QWidget) -> None:
        super().__init__(parent)
        self.state, self.results, self.window = state, results, parent
        self.dialog: SimilarDialog | None = None
        self.slot = WorkerSlot(self, "Find similar failed")
        results.findSimilar.connect(self.find)
        state.resultChanged.connect(self._result_changed)

    def find(self, doc: int) -> None:
        r = self.state.result
        if r is None or not 0 <= doc < len(r.docs):
            return
        self.slot.start(_nearest_job(r, doc), lambda near: self._show(r, doc, near))

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        return self.slot.shutdown(timeout_ms)

    def _show(self, r: ScanResult, doc: int, near: Nearest) -> None:
        if r is not self.state.result:
            return  # the result changed meanwhile
        names = export.display_paths(r)
        if self.dialog is None:
            self.dialog = SimilarDialog(self.window)
            self.dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            self.dialog.destroyed.connect(self._forget)
            self.dialog.pairChosen.connect(self._chosen)
        self.dialog.show_nearest(doc, names[doc], near, names)
        self.dialog.show()
        self.dialog.activateWindow()

    def _result_changed(self) -> None:
        self.slot.cancel()
        if self.dialog is not None:
            self.dialog.close()

    def _forget(self) -> None:
        self.dialog = None

    def _chosen(self, a: int, b: int) -> None:
        self.state.select((a, b))
        self.results.pairActivated.emit()
