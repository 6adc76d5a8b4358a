"""The Learn view: a list of lessons and experiments on the left, one page each on the right; presentation mode."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractSlider,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.errors import LshdeskError
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.learn.common import LessonPage
from lshdesk.gui.learn.contents import SECTIONS, PageList, PageMaker
from lshdesk.gui.learn.corpus_source import CorpusSource, TextsProvider, files_provider
from lshdesk.gui.learn.experiment_base import ExperimentPage
from lshdesk.gui.learn.handout import export_handout
from lshdesk.gui.learn.presenting import PRESENT_STEPS, Chrome, KeepKeys, pixel_size, presentation_zoom

ZOOMS = (0.8, 0.9, 1.0, 1.15, 1.3, 1.5, 1.75, 2.0, 2.5)  # Ctrl+- / Ctrl+= steps through these (out of presentation)


class LearnView(QWidget):
    """The lessons and the experiments; works offline with no files loaded. Left / Right / Home step the lesson shown,
    wherever the focus is in the view; Ctrl+Page Down / Up go to the next or previous page. Presentation mode (F11):
    full screen, the lesson alone (no menu, toolbar, banner, tabs, status bar or lesson list), text at 3.5 % of the
    screen's height; Esc or F11 leaves it."""

    presentation_changed = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.zoom = 1.0
        self.presenting = False
        self._base_pt = self.font().pointSizeF()
        self._base_px = pixel_size(self)
        self._present_zoom = 1.0
        self._window_state = Qt.WindowState.WindowNoState
        self._chrome = Chrome()
        self._keep_keys = KeepKeys(self)
        self.source = CorpusSource(self)
        self.list = PageList()
        self.list.setAccessibleName("Lessons")
        self.list.setAccessibleDescription("The lessons, the textbook's pages and the experiments: choose one to show")
        self.list.setStyleSheet("QListWidget::item { padding: 5px 4px; }")
        self.stack = QStackedWidget()
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
            button.setAccessibleName(action.text().replace("&", ""))  # "Zoom out", not "A−"
            button.setCheckable(action.isCheckable())
            button.clicked.connect(action.trigger)
            action.toggled.connect(button.setChecked)
            zoom.addWidget(button, 1 if action is self.presentation_action else 0)
        side.addLayout(zoom)
        handout = QPushButton("Handout…")
        handout.setToolTip(self.handout_action.toolTip())
        handout.clicked.connect(self.handout_action.trigger)
        side.addWidget(handout)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.side)
        lay.addWidget(self.stack, 1)
        self._makers: dict[str, tuple[PageMaker, int]] = {}  # page name -> (how to make it, its lesson number or 0)
        self.built: list[LessonPage] = []  # the pages made so far, in the order they were made
        self._build_pages()
        self._step_keys()
        self.list.currentItemChanged.connect(self._show)
        self.list.setCurrentRow(1)
        self._fit_list()

    def _build_pages(self) -> None:
        """The list (a heading per section, the lessons numbered on across sections); each page is made when it is
        first shown or asked for (``page``): making all 13 at once was ~0.45 s of the window's first paint."""
        n = 0
        for heading, entries, numbered in SECTIONS:
            item = QListWidgetItem(heading)
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            font = item.font()
            font.setBold(True)
            item.setFont(font)
            self.list.addItem(item)
            for title, name, make in entries:
                if numbered:
                    n += 1
                self._makers[name] = (make, n if numbered else 0)
                item = QListWidgetItem(f"{n}  {title}" if numbered else title)
                item.setData(Qt.ItemDataRole.UserRole, name)
                self.list.addItem(item)

    def page(self, name: str) -> LessonPage:
        """The page of that name (as in ``SECTIONS``), made now if it was not yet, in the view's zoom and mode."""
        made = self.__dict__.get(name)
        if made is not None:
            return made
        make, number = self._makers[name]
        page = make(self.source)
        if number:
            page.number(number)
        for kind in (QAbstractSlider, QComboBox):
            for control in page.findChildren(kind):
                control.installEventFilter(self._keep_keys)  # a slider keeps its arrows
        setattr(self, name, page)
        self.built.append(page)
        self.stack.addWidget(page)
        if self.presenting:
            page.present(True)
        if self.zoom != 1.0:
            self._scale(page, self.font())
        return page

    def __getattr__(self, name: str) -> LessonPage:
        """``view.scurve`` and the like: the page, made at first use (``page``)."""
        if name in self.__dict__.get("_makers", ()):
            return self.page(name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def pages(self) -> list[LessonPage]:
        """Every page in the list's order, each made now if it was not yet."""
        return [self.page(name) for name in self._makers]

    def current_page(self) -> LessonPage:
        return self.stack.currentWidget()

    def _step_keys(self) -> None:
        """Left / Right / Home on the lesson shown, from anywhere in the view (the lesson list, a button, the page);
        text fields, spin boxes, sliders and drop-down lists keep them. Ctrl+Page Down / Up turn the page."""
        keys: dict[str, Callable[[], None]] = {
            "Left": lambda: self.current_page().step_back(),
            "Right": lambda: self.current_page().step_forward(),
            "Home": lambda: self.current_page().step_home(),
            "Ctrl+PgDown": lambda: self._turn(+1),
            "Ctrl+PgUp": lambda: self._turn(-1),
        }
        for key, slot in keys.items():
            shortcut = QShortcut(QKeySequence(key), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        self.leave_shortcut = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        self.leave_shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
        self.leave_shortcut.setEnabled(False)
        self.leave_shortcut.activated.connect(lambda: self.set_presentation(False))

    def _turn(self, step: int) -> None:
        rows = [r for r in range(self.list.count()) if self.list.item(r).flags() & Qt.ItemFlag.ItemIsEnabled]
        at = rows.index(self.list.currentRow()) if self.list.currentRow() in rows else 0
        self.list.setCurrentRow(rows[max(0, min(len(rows) - 1, at + step))])

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
            "&Presentation mode", "Present", ["F11"], "The lesson alone, full screen, large for a projector (F11, Esc)"
        )
        self.presentation_action.setCheckable(True)
        self.presentation_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.zoom_in_action = action("Zoom &in", "A+", ["Ctrl+=", "Ctrl++"], "Larger text, tables and plots (Ctrl+=)")
        self.zoom_out_action = action("Zoom &out", "A−", ["Ctrl+-"], "Smaller text, tables and plots (Ctrl+-)")
        self.zoom_reset_action = action("&Actual size", "A", ["Ctrl+0"], "Back to the normal size (Ctrl+0)")
        self.handout_action = action(
            "&Handout…",
            "Handout…",
            [],  # (Ctrl+P shows the corpus panel)
            "This page as one printable page, HTML or PDF, its answers on a page of their own",
        )
        self.handout_action.triggered.connect(self.choose_handout)
        self.presentation_action.toggled.connect(self.set_presentation)
        self.zoom_in_action.triggered.connect(lambda: self.set_zoom(self._next_zoom(+1)))
        self.zoom_out_action.triggered.connect(lambda: self.set_zoom(self._next_zoom(-1)))
        self.zoom_reset_action.triggered.connect(lambda: self.set_zoom(self._present_zoom if self.presenting else 1.0))

    def choose_handout(self) -> None:
        """Ask where to save the page's handout (HTML or PDF) and write it; a failure is shown in a message box."""
        page = self.current_page()
        name = page.plain_title.lower().replace(" ", "_").replace("'", "")
        path, chosen = QFileDialog.getSaveFileName(
            self, "Save the page's handout", f"{name}.html", "HTML page (*.html);;PDF document (*.pdf)"
        )
        if not path:
            return
        if not path.lower().endswith((".html", ".pdf")):
            path += ".pdf" if "pdf" in chosen else ".html"
        try:
            export_handout(page, path)
        except (OSError, LshdeskError) as e:
            QMessageBox.warning(self, "Handout not saved", f"{path}: {e}")

    def zoom_steps(self) -> tuple[float, ...]:
        """The zooms Ctrl+- / Ctrl+= step through: around the presentation zoom while presenting."""
        return tuple(self._present_zoom * z for z in PRESENT_STEPS) if self.presenting else ZOOMS

    def _next_zoom(self, step: int) -> float:
        steps = self.zoom_steps()
        later = [z for z in steps if (z > self.zoom + 1e-9 if step > 0 else z < self.zoom - 1e-9)]
        return (min(later) if step > 0 else max(later)) if later else self.zoom

    def set_zoom(self, zoom: float) -> None:
        """Scale everything in the view (text, tables, plots with their axes and legends, the lesson list)."""
        self.zoom = zoom
        font = QFont(self.font())
        font.setPointSizeF(self._base_pt * zoom)
        self.setFont(font)
        self._scale(self, font)
        self._fit_list()
        self._keep_figure_in_view()

    @staticmethod
    def _scale(widget: QWidget, font: QFont) -> None:
        """The font for the widgets below ``widget`` with a style sheet: they do not take their parent's."""
        for w in widget.findChildren(QWidget):
            if w.styleSheet():
                w.setFont(font)

    def set_presentation(self, on: bool) -> None:
        """The lesson alone, full screen, its text at 3.5 % of the screen's height; off restores all of it."""
        if on == self.presenting:
            return
        self.presenting = on
        self.presentation_action.setChecked(on)
        self.leave_shortcut.setEnabled(on)
        window = self.window()
        if on:
            for tabs in self._ancestors(QTabWidget):
                tabs.setCurrentIndex(
                    next(i for i in range(tabs.count()) if tabs.widget(i).isAncestorOf(self) or tabs.widget(i) is self)
                )
            self._window_state = window.windowState()
            if window is not self:
                window.setWindowState(self._window_state | Qt.WindowState.WindowFullScreen)
            self._chrome.fold(self)
            self._present_zoom = presentation_zoom(self._base_px, self.screen_height())
        else:
            self._chrome.unfold()
            if window is not self:
                window.setWindowState(self._window_state)
        self.side.setVisible(not on)
        for page in self.built:  # (a page made later is made presenting)
            page.present(on)
        self.set_zoom(self._present_zoom if on else 1.0)
        if on:
            self.current_page().setFocus(Qt.FocusReason.OtherFocusReason)  # the keys act on the lesson at once
        self.presentation_changed.emit(on)

    def screen_height(self) -> int:
        """The height of the screen the window is on (what presentation text is sized against)."""
        screen = self.window().screen() or self.screen()
        return screen.geometry().height() if screen is not None else 0

    def _keep_figure_in_view(self) -> None:
        """In presentation, scroll the page so that its figure is on screen (after the layout has settled)."""
        page = self.current_page()
        if self.presenting and page.figure is not None:
            QTimer.singleShot(100, page.show_figure)

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
            self.stack.setCurrentWidget(self.page(item.data(Qt.ItemDataRole.UserRole)))
            if self.presenting:
                self.current_page().setFocus(Qt.FocusReason.OtherFocusReason)
                self._keep_figure_in_view()

    def show_page(self, page: QWidget) -> None:
        """Open one lesson or experiment page."""
        for row in range(self.list.count()):
            name = self.list.item(row).data(Qt.ItemDataRole.UserRole)
            if name is not None and self.__dict__.get(name) is page:
                self.list.setCurrentRow(row)
                return

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        """The lessons' 'use my files' reads the result's documents when asked, on a worker (two at least)."""
        if result is None or len(result.docs) < 2:
            self.set_corpus(None)
        else:
            self.set_corpus(files_provider(names, result.docs.paths, result.params.corpus.max_bytes))

    def set_corpus(self, texts_provider: TextsProvider | None) -> None:
        """(name, text) of the loaded corpus's documents, read on a worker when 'use my files' is first switched on;
        None = no corpus."""
        self.source.set_provider(texts_provider)

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel the experiments and the reading of the user's files, wait for their threads; True if none is left."""
        pages = [p for p in self.built if isinstance(p, ExperimentPage)]
        return all([p.shutdown(timeout_ms) for p in pages] + [self.source.shutdown(timeout_ms)])
