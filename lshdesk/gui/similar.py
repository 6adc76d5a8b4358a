"""Find similar: a document picked in the Results view gets its nearest documents listed in a window of their own."""

from __future__ import annotations

import os
import threading
from collections.abc import Generator

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QWidget

from lshdesk.core.persistence import export
from lshdesk.core.query.corpus import sign_files
from lshdesk.core.query.nearest import Nearest, nearest, nearest_to
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


def _file_job(result: ScanResult, path: str):
    """A worker's job: read and sign a file with the result's parameters, then (its document if the file is in the
    corpus, else -1; its nearest documents, that document left out)."""

    def make(cancel: threading.Event) -> Generator[None, None, tuple[int, Nearest]]:
        yield None
        batch, sigs = sign_files([path], result.params)
        doc = _doc_of(result, path)
        exclude = [doc] if doc >= 0 else []
        return doc, nearest_to(result.signatures, result.shingles, sigs[0], batch.doc(0), TOP, exclude)

    return make


def _doc_of(result: ScanResult, path: str) -> int:
    """The corpus document that is file ``path`` (the same real path), or -1."""
    real = os.path.realpath(path)
    return next((i for i, p in enumerate(result.docs.paths) if os.path.realpath(p) == real), -1)


class SimilarFinder(QObject):
    """Answers the Results view's ``findSimilar`` in a worker (~3-50 ms at 100k documents, more on a busy machine:
    tests/benchmarks/query.py), the newest request winning; a row chosen in the window selects that pair."""

    def __init__(self, state: AppState, results: ResultsView, parent: QWidget) -> None:
        super().__init__(parent)
        self.state, self.results, self.window = state, results, parent
        self.dialog: SimilarDialog | None = None
        self.slot = WorkerSlot(self, "Find similar failed")
        results.findSimilar.connect(self.find)
        results.filesDropped.connect(lambda files: self.find_file(files[0]))
        state.resultChanged.connect(self._result_changed)

    def find(self, doc: int) -> None:
        r = self.state.result
        if r is None or not 0 <= doc < len(r.docs):
            return
        self.slot.start(_nearest_job(r, doc), lambda near: self._show(r, doc, near))

    def find_file(self, path: str) -> None:
        """List the nearest documents of a file (dropped on the Results view), read and signed as the scan did."""
        r = self.state.result
        if r is None:
            return
        name = os.path.basename(path)
        self.slot.start(_file_job(r, path), lambda answer: self._show(r, answer[0], answer[1], name))

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        return self.slot.shutdown(timeout_ms)

    def _show(self, r: ScanResult, doc: int, near: Nearest, name: str | None = None) -> None:
        if r is not self.state.result:
            return  # the result changed meanwhile
        names = export.display_paths(r)
        if self.dialog is None:
            self.dialog = SimilarDialog(self.window)
            self.dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            self.dialog.destroyed.connect(self._forget)
            self.dialog.pairChosen.connect(self._chosen)
            self.dialog.documentChosen.connect(lambda doc: self.state.select((doc,)))
        self.dialog.show_nearest(doc, names[doc] if name is None else name, near, names)
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
