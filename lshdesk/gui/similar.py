"""Find similar: a document picked in the Results view gets its nearest documents listed in a window of their own."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QWidget

from lshdesk.core.persistence import export
from lshdesk.core.query.nearest import nearest
from lshdesk.gui.state import AppState
from lshdesk.gui.widgets.results_view import ResultsView
from lshdesk.gui.widgets.similar_view import SimilarDialog

TOP = 20  # nearest documents by each measure (the window lists their union)


class SimilarFinder(QObject):
    """Answers the Results view's ``findSimilar``; a row chosen in the window selects that pair (side by side).

    The ranking runs on the GUI thread: one pass over the signatures and exact scores of a pool of documents take
    ~3-50 ms at 100k documents (tests/benchmarks/query.py), less than a worker's start.
    """

    def __init__(self, state: AppState, results: ResultsView, parent: QWidget) -> None:
        super().__init__(parent)
        self.state, self.results, self.window = state, results, parent
        self.dialog: SimilarDialog | None = None
        results.findSimilar.connect(self.find)
        state.resultChanged.connect(lambda _r: self.dialog.close() if self.dialog is not None else None)

    def find(self, doc: int) -> None:
        r = self.state.result
        if r is None or not 0 <= doc < len(r.docs):
            return
        names = export.display_paths(r)
        near = nearest(r.signatures, r.shingles, doc, TOP)
        if self.dialog is None:
            self.dialog = SimilarDialog(self.window)
            self.dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            self.dialog.destroyed.connect(self._forget)
            self.dialog.pairChosen.connect(self._chosen)
        self.dialog.show_nearest(doc, names[doc], near, names)
        self.dialog.show()
        self.dialog.activateWindow()

    def _forget(self) -> None:
        self.dialog = None

    def _chosen(self, a: int, b: int) -> None:
        self.state.select((a, b))
        self.results.pairActivated.emit()
