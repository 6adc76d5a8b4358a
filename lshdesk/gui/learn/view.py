"""The Learn view: a list of lessons and experiments on the left, one page each on the right; presentation mode."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from lshdesk.gui.learn.corpus_source import CorpusSource, TextsProvider
from lshdesk.gui.learn.experiment_base import ExperimentPage
from lshdesk.gui.learn.experiment_pages import BandingPage, ErrorPage
from lshdesk.gui.learn.lesson_banding import BandingLesson
from lshdesk.gui.learn.lesson_bbit import BbitLesson
from lshdesk.gui.learn.lesson_choosing import ChoosingLesson
from lshdesk.gui.learn.lesson_matrix import MatrixLesson
from lshdesk.gui.learn.lesson_scale import ScaleLesson
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


ZOOMS = (0.8, 0.9, 1.0, 1.15, 1.3, 1.5, 1.75, 2.0, 2.5)  # Ctrl+- / Ctrl+= steps through these
PRESENTATION_PT = 14.0  # presentation mode zooms the text to at least this size (a projector at the back of a room)

TITLES = [  # (title, the page's attribute); None: a heading
    ("Lessons", None),
    ("1  Sets and Jaccard", "sets"),
    ("2  Signatures and the estimate", "signatures"),
    ("3  Banding", "banding"),
    ("4  The S-curve", "scurve"),
    ("5  Step through a signature", "step"),
    ("From the textbook (MMDS ch. 3)", None),
    ("The signature matrix, row by row", "matrix"),
    ("Why not compare every pair?", "scale"),
    ("Choosing k, b and r", "choosing"),
    ("b-bit MinHash (advanced)", "bbit"),
    ("Experiments", None),
    ("Error versus k", "error"),
    ("Recall and false positives", "sweep"),
]


class LearnView(QWidget):
    """Lessons 1 to 5 and the two experiments; works offline with no files loaded. Presentation mode (F11): full
    screen, everything in the lesson zoomed (Ctrl+= / Ctrl+- / Ctrl+0), the lesson list included."""

    presentation_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.zoom = 1.0
        self.presenting = False
        self._base_pt = self.font().pointSizeF()
        self._window_state = Qt.WindowState.WindowNoState
        self.source = CorpusSource(self)
        self.list = _PageList()
        self.list.setAccessibleName("Lessons")
        self.list.setStyleSheet("QListWidget::item { padding: 5px 4px; }")
        self.stack = QStackedWidget()
        for title, page in TITLES:
            item = QListWidgetItem(title)
            if page is None:
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            else:
                item.setData(Qt.ItemDataRole.UserRole, page)
            self.list.addItem(item)
        self._actions()
        self.side = QWidget()
        side = QVBoxLayout(self.side)
        side.setContentsMargins(0, 0, 0, 0)
        side.addWidget(self.list, 1)
        zoom = QHBoxLayout()
        zoom.setContentsMargins(0, 0, 0, 0)
        zoom.setSpacing(2)
        for action in (self.zoom_out_action, self.zoom_in_action, self.presentation_action):
            button = QPushButton(action.iconText())
            button.setToolTip(action.toolTip())
            button.setCheckable(action.isCheckable())
            button.clicked.connect(action.trigger)
            action.toggled.connect(button.setChecked)
            zoom.addWidget(button, 1 if action is self.presentation_action else 0)
        side.addLayout(zoom)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.side)
        lay.addWidget(self.stack, 1)
        self.list.currentItemChanged.connect(self._show)
        self._build_pages()
        self.list.setCurrentRow(1)
        self._fit_list()

    def _build_pages(self) -> None:
        """Make the lesson and experiment pages, one on the stack each."""
        self.sets = SetsLesson()
        self.signatures = SignaturesLesson(self.source)
        self.banding = BandingLesson(self.source)
        self.scurve = SCurveLesson(self.source)
        self.step = StepLesson()
        self.matrix = MatrixLesson()
        self.scale = ScaleLesson(self.source)
        self.choosing = ChoosingLesson()
        self.bbit = BbitLesson(self.source)
        self.error = ErrorPage(self.source)
        self.sweep = BandingPage(self.source)
        self.pages = [self.sets, self.signatures, self.banding, self.scurve, self.step, self.matrix, self.scale]
        self.pages += [self.choosing, self.bbit, self.error, self.sweep]
        for page in self.pages:
            self.stack.addWidget(page)

    # --- presentation mode ----------------------------------------------------------------------------------------
    def _actions(self) -> None:
        def action(text: str, short: str, keys: list[str], tip: str) -> QAction:
            a = QAction(text, self)
            a.setIconText(short)
            a.setShortcuts([QKeySequence(k) for k in keys])
            a.setToolTip(tip)
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.addAction(a)
            return a

        self.presentation_action = action(
            "&Presentation mode", "Present", ["F11"], "Full screen with the lesson zoomed for a projector (F11)"
        )
        self.presentation_action.setCheckable(True)
        self.presentation_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.zoom_in_action = action("Zoom &in", "A+", ["Ctrl+=", "Ctrl++"], "Larger text, tables and plots (Ctrl+=)")
        self.zoom_out_action = action("Zoom &out", "A−", ["Ctrl+-"], "Smaller text, tables and plots (Ctrl+-)")
        self.zoom_reset_action = action("&Actual size", "A", ["Ctrl+0"], "Back to the normal size (Ctrl+0)")
        self.presentation_action.toggled.connect(self.set_presentation)
        self.zoom_in_action.triggered.connect(lambda: self.set_zoom(self._next_zoom(+1)))
        self.zoom_out_action.triggered.connect(lambda: self.set_zoom(self._next_zoom(-1)))
        self.zoom_reset_action.triggered.connect(
            lambda: self.set_zoom(self._presentation_zoom() if self.presenting else 1.0)
        )

    def _next_zoom(self, step: int) -> float:
        later = [z for z in ZOOMS if (z > self.zoom + 1e-9 if step > 0 else z < self.zoom - 1e-9)]
        return (min(later) if step > 0 else max(later)) if later else self.zoom

    def set_zoom(self, zoom: float) -> None:
        """Scale everything in the view (text, tables, plots with their axes and legends, the lesson list)."""
        self.zoom = zoom
        font = QFont(self.font())
        font.setPointSizeF(self._base_pt * zoom)
        self.setFont(font)
        for w in self.findChildren(QWidget):  # a widget with a style sheet does not take its parent's font
            if w.styleSheet():
                w.setFont(font)
        self._fit_list()

    def set_presentation(self, on: bool) -> None:
        """Full screen on the Learn view, zoomed for a projector; off restores the window and the size."""
        if on == self.presenting:
            return
        self.presenting = on
        self.presentation_action.setChecked(on)
        window = self.window()
        if on:
            for tabs in self._ancestors(QTabWidget):
                tabs.setCurrentIndex(
                    next(i for i in range(tabs.count()) if tabs.widget(i).isAncestorOf(self) or tabs.widget(i) is self)
                )
            self._window_state = window.windowState()
            if window is not self:
                window.setWindowState(self._window_state | Qt.WindowState.WindowFullScreen)
        elif window is not self:
            window.setWindowState(self._window_state)
        self.set_zoom(max(self.zoom, self._presentation_zoom()) if on else 1.0)
        self.presentation_changed.emit(on)

    def _presentation_zoom(self) -> float:
        return max(1.0, PRESENTATION_PT / self._base_pt) if self._base_pt > 0 else 1.0

    def _ancestors(self, kind: type) -> list:
        out, w = [], self.parentWidget()
        while w is not None:
            if isinstance(w, kind):
                out.append(w)
            w = w.parentWidget()
        return out

    def _fit_list(self) -> None:
        """The lesson list as wide as its longest title in the current font (no clipped titles at any size)."""
        fm = self.list.fontMetrics()
        widest = max(fm.horizontalAdvance(self.list.item(r).text()) for r in range(self.list.count()))
        buttons = self.side.layout().itemAt(1).layout().minimumSize().width()
        self.side.setFixedWidth(max(widest + 2 * fm.averageCharWidth() + 24, buttons))

    def _show(self, item: QListWidgetItem | None) -> None:
        if item is not None and item.data(Qt.ItemDataRole.UserRole) is not None:
            self.stack.setCurrentWidget(getattr(self, item.data(Qt.ItemDataRole.UserRole)))

    def show_page(self, page: QWidget) -> None:
        """Open one lesson or experiment page."""
        for row in range(self.list.count()):
            if getattr(self, self.list.item(row).data(Qt.ItemDataRole.UserRole) or "-", None) is page:
                self.list.setCurrentRow(row)
                return

    def set_corpus(self, texts_provider: TextsProvider | None) -> None:
        """(name, text) of the loaded corpus's documents, read on a worker when 'use my files' is first switched on;
        None = no corpus."""
        self.source.set_provider(texts_provider)

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel the experiments and the reading of the user's files, wait for their threads; True if none is left."""
        pages = [p for p in self.pages if isinstance(p, ExperimentPage)]
        return all([p.shutdown(timeout_ms) for p in pages] + [self.source.shutdown(timeout_ms)])
