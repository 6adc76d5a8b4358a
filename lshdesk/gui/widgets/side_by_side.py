"""Side by side: two documents, the passages they share highlighted in both, scroll positions linked."""

from __future__ import annotations

import os

from PySide6.QtCore import QUrl
from PySide6.QtGui import QColor, QDesktopServices, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMenu, QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from lshdesk.core.corpus import NotText, read_text
from lshdesk.core.minhash import estimate
from lshdesk.core.passages import shared_passages
from lshdesk.core.pipeline import ScanResult
from lshdesk.core.clustering import exact_jaccard

import numpy as np

SHARED = QColor(255, 224, 130)


class _Pane(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.path = ""
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.title)
        lay.addWidget(self.text)
        self.text.setContextMenuPolicy(self.text.contextMenuPolicy().CustomContextMenu)
        self.text.customContextMenuRequested.connect(self._menu)

    def show_text(self, name: str, path: str, text: str, spans: list[tuple[int, int]]) -> None:
        self.path = path
        self.title.setText(f"<b>{name}</b>")
        self.title.setToolTip(path)
        self.text.setPlainText(text)
        fmt = QTextCharFormat()
        fmt.setBackground(SHARED)
        sels = []
        for s, e in spans:
            sel = QTextEdit.ExtraSelection()
            cur = QTextCursor(self.text.document())
            cur.setPosition(_utf16(text, s))
            cur.setPosition(_utf16(text, e), QTextCursor.MoveMode.KeepAnchor)
            sel.cursor, sel.format = cur, fmt
            sels.append(sel)
        self.text.setExtraSelections(sels)

    def _menu(self, pos) -> None:
        menu = self.text.createStandardContextMenu()
        if self.path:
            menu.addSeparator()
            menu.addAction("Open file", lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(self.path)))
            menu.addAction("Show in folder", lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(os.path.dirname(self.path))))
        menu.exec(self.text.mapToGlobal(pos))


def _utf16(text: str, index: int) -> int:
    """Qt positions count UTF-16 code units; Python counts code points."""
    return index if text.isascii() else len(text[:index].encode("utf-16-le")) // 2


class SideBySide(QWidget):
    """Shows the selected pair; with nothing selected it says how to pick one."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.figures = QLabel("Select a pair in Results to read it here, its shared passages highlighted.")
        self.figures.setWordWrap(True)
        self.a, self.b = _Pane(), _Pane()
        panes = QHBoxLayout()
        panes.addWidget(self.a)
        panes.addWidget(self.b)
        lay = QVBoxLayout(self)
        lay.addWidget(self.figures)
        lay.addLayout(panes, 1)
        self._syncing = False
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
        if result is None:
            return
        texts = []
        for i in (left, right):
            try:
                texts.append(read_text(result.docs.paths[i], result.params.corpus.max_bytes))
            except NotText as e:
                texts.append(f"[cannot show this file: {e}]")
        spec = result.params.signature.shingle
        spans_a, spans_b, n_shared = shared_passages(texts[0], texts[1], spec)
        jac = float(exact_jaccard(result.shingles, np.array([left]), np.array([right]))[0])
        est = estimate(result.signatures[left], result.signatures[right])
        self.figures.setText(
            f"Similarity <b>{jac:.3f}</b> (exact Jaccard of {spec} shingles) &nbsp; Estimate {est:.3f} "
            f"({round(est * result.signatures.shape[1])} of {result.signatures.shape[1]} slots agree) &nbsp; "
            f"{n_shared} shared shingles highlighted"
        )
        self.a.show_text(names[left], result.docs.paths[left], texts[0], spans_a)
        self.b.show_text(names[right], result.docs.paths[right], texts[1], spans_b)

    def clear(self) -> None:
        self.figures.setText("Select a pair in Results to read it here, its shared passages highlighted.")
        for p in (self.a, self.b):
            p.text.clear()
            p.title.clear()
            p.path = ""
