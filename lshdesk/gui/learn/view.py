"""The Learn view: a list of lessons and experiments on the left, one page each on the right."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHBoxLayout, QListWidget, QListWidgetItem, QStackedWidget, QWidget

from lshdesk.gui.learn.common import CorpusSource, TextsProvider
from lshdesk.gui.learn.experiment_base import ExperimentPage
from lshdesk.gui.learn.experiment_pages import BandingPage, ErrorPage
from lshdesk.gui.learn.lesson_banding import BandingLesson
from lshdesk.gui.learn.lesson_scurve import SCurveLesson
from lshdesk.gui.learn.lesson_sets import SetsLesson
from lshdesk.gui.learn.lesson_signatures import SignaturesLesson
from lshdesk.gui.learn.lesson_step import StepLesson


class _PageList(QListWidget):
    """The list of pages: the arrow keys, Home and End skip the two headings (which cannot be chosen)."""

    def moveCursor(self, action, modifiers):
        index = super().moveCursor(action, modifiers)
        if action == QAbstractItemView.CursorAction.MoveHome:
            rows = range(self.count())
        elif action == QAbstractItemView.CursorAction.MoveEnd:
            rows = range(self.count() - 1, -1, -1)
        else:
            return index
        row = next((r for r in rows if self.item(r).flags() & Qt.ItemFlag.ItemIsEnabled), self.currentRow())
        return self.model().index(row, 0)


class LearnView(QWidget):
    """Lessons 1 to 5 and the two experiments; works offline with no files loaded."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source = CorpusSource(self)
        self.sets = SetsLesson()
        self.signatures = SignaturesLesson(self.source)
        self.banding = BandingLesson(self.source)
        self.scurve = SCurveLesson(self.source)
        self.step = StepLesson()
        self.error = ErrorPage(self.source)
        self.sweep = BandingPage(self.source)
        self.pages = [self.sets, self.signatures, self.banding, self.scurve, self.step, self.error, self.sweep]
        self.list = _PageList()
        self.list.setAccessibleName("Lessons")
        self.list.setFixedWidth(205)
        self.list.setStyleSheet("QListWidget::item { padding: 5px 4px; }")
        self.stack = QStackedWidget()
        titles = [
            ("Lessons", None),
            ("1  Sets and Jaccard", self.sets),
            ("2  Signatures and the estimate", self.signatures),
            ("3  Banding", self.banding),
            ("4  The S-curve", self.scurve),
            ("5  Step through a signature", self.step),
            ("Experiments", None),
            ("Error versus k", self.error),
            ("Recall and false positives", self.sweep),
        ]
        for title, page in titles:
            item = QListWidgetItem(title)
            if page is None:
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            else:
                item.setData(Qt.ItemDataRole.UserRole, self.stack.addWidget(page))
            self.list.addItem(item)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.list)
        lay.addWidget(self.stack, 1)
        self.list.currentItemChanged.connect(self._show)
        self.list.setCurrentRow(1)

    def _show(self, item: QListWidgetItem | None) -> None:
        if item is not None and item.data(Qt.ItemDataRole.UserRole) is not None:
            self.stack.setCurrentIndex(int(item.data(Qt.ItemDataRole.UserRole)))

    def show_page(self, page: QWidget) -> None:
        """Open one lesson or experiment page."""
        for row in range(self.list.count()):
            if self.list.item(row).data(Qt.ItemDataRole.UserRole) == self.stack.indexOf(page):
                self.list.setCurrentRow(row)
                return

    def set_corpus(self, texts_provider: TextsProvider | None) -> None:
        """(name, text) of the loaded corpus's documents, called lazily when 'use my files' is switched on; None = no corpus."""
        self.source.set_provider(texts_provider)

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel the experiments and wait for their threads; True if none is left running."""
        return all([p.shutdown(timeout_ms) for p in self.pages if isinstance(p, ExperimentPage)])
