"""Side by side: two documents, the passages they share highlighted in both, scroll positions linked."""

from __future__ import annotations

import os

import numpy as np
from PySide6.QtCore import QPoint, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMenu, QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from lshdesk.core.clustering import exact_jaccard
from lshdesk.core.minhash import estimate
from lshdesk.core.passages import Comparison, compare_files
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.theme import SHARED_BG, text_on, watch_palette
from lshdesk.gui.workers import WorkerSlot

_PICK = "Select a pair in Results (double-click it) to read it here, its shared passages highlighted."


def _utf16(text: str, index: int) -> int:
    """Qt positions count UTF-16 code units; Python counts code points."""
    return index if text.isascii() else len(text[:index].encode("utf-16-le")) // 2


def shared_format() -> QTextCharFormat:
    """How a shared passage looks: a background for the palette in use and the ink that reads on it."""
    fmt = QTextCharFormat()
    bg = SHARED_BG.color()
    fmt.setBackground(bg)
    fmt.setForeground(text_on(bg))
    return fmt


class _Pane(QWidget):
    """One document: its name over its text, with a context menu to open the file or its folder."""

    def __init__(self, side: str, parent=None) -> None:
        super().__init__(parent)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text.setAccessibleName(f"Document {side}")
        self.title.setBuddy(self.text)
        self.path = ""
        self._text, self._spans = "", []
        watch_palette(self.text, self._highlight)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.title)
        lay.addWidget(self.text)
        self.text.setContextMenuPolicy(self.text.contextMenuPolicy().CustomContextMenu)
        self.text.customContextMenuRequested.connect(self._menu)

    def show_name(self, name: str, path: str) -> None:
        self.path = path
        self.title.setText(f"<b>{name}</b>")
        self.title.setToolTip(path)
        self.text.setAccessibleDescription(name)

    def show_text(self, text: str, spans: list[tuple[int, int]]) -> None:
        self.text.setPlainText(text)
        self._text, self._spans = text, spans
        self._highlight()

    def clear_text(self) -> None:
        self.text.clear()
        self._text, self._spans = "", []

    def _highlight(self) -> None:
        """Mark the shared passages (again when the palette changes: the colours follow it)."""
        text, fmt = self._text, shared_format()
        sels = []
        for s, e in self._spans:
            sel = QTextEdit.ExtraSelection()
            cur = QTextCursor(self.text.document())
            cur.setPosition(_utf16(text, s))
            cur.setPosition(_utf16(text, e), QTextCursor.MoveMode.KeepAnchor)
            sel.cursor, sel.format = cur, fmt
            sels.append(sel)
        self.text.setExtraSelections(sels)

    def _menu(self, pos: QPoint) -> None:
        menu = self.context_menu()
        menu.exec(self.text.mapToGlobal(pos))
        menu.deleteLater()

    def context_menu(self) -> QMenu:
        """Copy and Select all, then Open file and Show in folder (the system's default applications)."""
        menu = self.text.createStandardContextMenu()
        if self.path:
            menu.addSeparator()
            menu.addAction("Open file", lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(self.path)))
            menu.addAction(
                "Show in folder", lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(os.path.dirname(self.path)))
            )
        return menu


class SideBySide(QWidget):
    """Shows the selected pair; with nothing selected it says how to pick one."""

    shown = Signal()  # both texts and their highlights are on screen

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.figures = QLabel(_PICK)
        self.figures.setWordWrap(True)
        self.a, self.b = _Pane("A"), _Pane("B")
        panes = QHBoxLayout()
        panes.addWidget(self.a)
        panes.addWidget(self.b)
        lay = QVBoxLayout(self)
        lay.addWidget(self.figures)
        lay.addLayout(panes, 1)
        self._syncing = False
        self.reader = WorkerSlot(self)
        self._figures = ""
        self.a.text.verticalScrollBar().valueChanged.connect(lambda v: self._sync(self.a, self.b))
        self.b.text.verticalScrollBar().valueChanged.connect(lambda v: self._sync(self.b, self.a))

    def _sync(self, src: _Pane, dst: _Pane) -> None:
        if self._syncing:
            return
        self._syncing = True
        s, d = src.text.verticalScrollBar(), dst.text.verticalScrollBar()
        frac = s.value() / s.maximum() if s.maximum() else 0.0
        d.setValue(round(frac * d.maximum()))
        self._syncing = False

    def show_pair(self, result: ScanResult | None, names: list[str], left: int, right: int) -> None:
        """Show a pair's figures at once, then its texts when a worker has read them and found the passages."""
        if result is None:
            return
        spec = result.params.signature.shingle
        jac = float(exact_jaccard(result.shingles, np.array([left]), np.array([right]))[0])
        k = result.signatures.shape[1]
        est = estimate(result.signatures[left], result.signatures[right])
        self._figures = (
            f"Similarity <b>{jac:.3f}</b> (exact Jaccard of {spec} shingles) &nbsp; Estimate {est:.3f} "
            f"({round(est * k)} of {k} slots agree)"
        )
        self.figures.setText(self._figures + " &nbsp; reading…")
        for pane, i in ((self.a, left), (self.b, right)):
            pane.show_name(names[i], result.docs.paths[i])
            pane.clear_text()
        paths, cap = (result.docs.paths[left], result.docs.paths[right]), result.params.corpus.max_bytes
        self.reader.start(
            lambda cancel: compare_files(paths, cap, spec, cancel),
            self._show,
            on_failed=lambda message, _details: self.figures.setText(
                f"{self._figures} &nbsp; cannot show the texts: {message}"
            ),
        )

    def _show(self, c: Comparison) -> None:
        self.a.show_text(c.texts[0], c.spans[0])
        self.b.show_text(c.texts[1], c.spans[1])
        tail = c.note or f"{c.n_shared:,} shared shingles highlighted"
        self.figures.setText(f"{self._figures} &nbsp; {tail}")
        self.shown.emit()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Stop showing any pair and wait for the reading threads; True if none is left running."""
        return self.reader.shutdown(timeout_ms)

    def clear(self) -> None:
        self.reader.cancel()  # a pair still being read is not shown
        self._figures = ""
        self.figures.setText(_PICK)
        for p in (self.a, self.b):
            p.clear_text()
            p.title.clear()
            p.path = ""
