"""Side by side: two documents, the passages they share highlighted in both, aligned by those passages."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from lshdesk.core.alignment import map_position
from lshdesk.core.clustering import exact_jaccard
from lshdesk.core.minhash import estimate
from lshdesk.core.passages import Comparison, compare_files
from lshdesk.core.query.excerpt import excerpt_place
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.theme import SHARED_BG, keep_style, text_on
from lshdesk.gui.widgets.text_pane import TextPane
from lshdesk.gui.workers import WorkerSlot


def unreported(result: ScanResult, left: int, right: int, jac: float) -> str:
    """Why a pair shown is not among the scan's pairs (a missed pair, or one below the threshold); '' if it is."""
    p, t, scheme = result.pairs, result.params.threshold, result.banding
    if np.any(((p.left == left) & (p.right == right)) | ((p.left == right) & (p.right == left))):
        return ""
    if jac >= t - 1e-12:
        return (
            f"The current scheme ({scheme.bands} x {scheme.rows}) does not report this pair: its similarity reaches "
            f"the threshold {t:g}, but no band put the two in one bucket (a missed pair, see the S-curve)."
        )
    return f"This scan does not report this pair: its similarity is below the threshold {t:g}."


def _container(result: ScanResult, names: list[str], left: int, right: int) -> tuple[int, str] | None:
    """In a containment scan, the side (0: left, 1: right) and name of the pair's container (the larger set)."""
    if result.params.measure != "containment":
        return None
    counts = result.shingles.counts()
    side = 1 if counts[right] >= counts[left] else 0
    return side, names[(left, right)[side]]


def _side(c: Comparison, side: int) -> tuple[str, list[tuple[int, int]]]:
    return c.texts[side], c.spans[side]


_PICK = "Select a pair in Results (double-click it) to read it here, its shared passages highlighted."


class SideBySide(QWidget):
    """Shows the selected pair, aligned by the passages the texts share; with nothing selected it says how to pick one.

    Scrolling one text brings the other's copy of the same passage level with it; F3 / Shift+F3 (or the buttons) go
    to the next / previous shared passage.
    """

    shown = Signal()  # both texts and their highlights are on screen

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.figures = QLabel(_PICK)
        self.figures.setWordWrap(True)
        self.badge = QLabel("Identical texts")
        self.badge.setToolTip("The two documents' texts are exact copies")
        keep_style(
            self.badge,
            lambda: (
                f"background:{SHARED_BG.name()};color:{text_on(SHARED_BG.color()).name()};"
                "border-radius:4px;padding:1px 6px;font-weight:bold"
            ),
        )
        self.badge.hide()
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.hide()
        self.prev_button = QPushButton("Previous passage")
        self.next_button = QPushButton("Next passage")
        self.prev_button.setToolTip("Go to the previous shared passage (Shift+F3)")
        self.next_button.setToolTip("Go to the next shared passage (F3)")
        self.where = QLabel()
        self.excerpt = QLabel()  # containment pairs: which lines of the container hold the excerpt
        self.excerpt.setToolTip("The stretch of the container that the shared passages cover, and its share of it")
        self.excerpt.hide()
        self.a, self.b = TextPane("A"), TextPane("B")
        top = QHBoxLayout()
        top.addWidget(self.figures, 1)
        top.addWidget(self.badge)
        for w in (self.where, self.prev_button, self.next_button):
            top.addWidget(w)
        panes = QHBoxLayout()
        panes.addWidget(self.a)
        panes.addWidget(self.b)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addWidget(self.excerpt)
        lay.addWidget(self.note)
        lay.addLayout(panes, 1)
        self._syncing = False
        self.reader = WorkerSlot(self)
        self._figures = ""
        self._container: tuple[int, str] | None = None  # containment scans: the container's side and name
        self.comparison: Comparison | None = None
        self.passage = -1  # the shared passage of A last gone to
        self._enable_nav()
        self.a.text.verticalScrollBar().valueChanged.connect(lambda v: self._sync(self.a, self.b))
        self.b.text.verticalScrollBar().valueChanged.connect(lambda v: self._sync(self.b, self.a))
        self.next_button.clicked.connect(lambda: self.go_passage(+1))
        self.prev_button.clicked.connect(lambda: self.go_passage(-1))
        context = Qt.ShortcutContext.WidgetWithChildrenShortcut
        QShortcut(QKeySequence("F3"), self, lambda: self.go_passage(+1), context=context)
        QShortcut(QKeySequence("Shift+F3"), self, lambda: self.go_passage(-1), context=context)

    def matching(self, pos: int, src: TextPane) -> int:
        """Where a position of ``src``'s text falls in the other text (by the shared passages, else in proportion)."""
        c = self.comparison
        none = np.zeros(0, np.int64)
        anchors_a, anchors_b = c.anchors if c is not None else (none, none)
        dst = self.b if src is self.a else self.a
        source, target = (anchors_a, anchors_b) if src is self.a else (anchors_b, anchors_a)
        return map_position(pos, source, target, src.length(), dst.length())

    def _sync(self, src: TextPane, dst: TextPane) -> None:
        """Scroll ``dst`` so that its copy of what is at the top of ``src`` is at its top too."""
        if self._syncing:
            return
        self._syncing = True
        if src.text.verticalScrollBar().value() == 0:
            dst.text.verticalScrollBar().setValue(0)
        else:
            dst.scroll_to(self.matching(src.top_position(), src))
        self._syncing = False

    def go_passage(self, step: int) -> None:
        """Go to the next (+1) or previous (-1) shared passage of A, its copy in B beside it."""
        spans = self.comparison.spans[0] if self.comparison is not None else []
        if not spans:
            return
        self.passage = min(max(self.passage + step, 0), len(spans) - 1)
        start = spans[self.passage][0]
        self._syncing = True
        self.a.scroll_to(start)
        self.b.scroll_to(self.matching(start, self.a))
        self._syncing = False
        self._enable_nav()

    def _enable_nav(self) -> None:
        n = len(self.comparison.spans[0]) if self.comparison is not None else 0
        self.prev_button.setEnabled(n > 0 and self.passage > 0)
        self.next_button.setEnabled(n > 0 and self.passage < n - 1)
        self.where.setText(
            f"passage {self.passage + 1} of {n}" if n and self.passage >= 0 else f"{n} shared passages" if n else ""
        )

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
        self.comparison, self.passage = None, -1
        self._container = _container(result, names, left, right)
        self.excerpt.hide()
        self.badge.hide()
        self._enable_nav()
        note = unreported(result, left, right, jac)
        self.note.setText(note)
        self.note.setVisible(bool(note))
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
        self.comparison, self.passage = c, -1
        self.a.show_text(c.texts[0], c.spans[0])
        self.b.show_text(c.texts[1], c.spans[1])
        self.badge.setVisible(c.identical)
        self._enable_nav()
        tail = c.note or f"{c.n_shared:,} shared shingles highlighted"
        place = excerpt_place(*_side(c, self._container[0])) if self._container is not None else None
        if place is not None and self._container is not None:
            self.excerpt.setText(f"The excerpt is <b>{place.describe(self._container[1])}</b>")
        self.excerpt.setVisible(place is not None)
        self.figures.setText(f"{self._figures} &nbsp; {tail}")
        self.shown.emit()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Stop showing any pair and wait for the reading threads; True if none is left running."""
        return self.reader.shutdown(timeout_ms)

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        """A new result: no pair is shown until one is selected."""
        self.clear()

    def clear(self) -> None:
        self.reader.cancel()  # a pair still being read is not shown
        self._figures = ""
        self.comparison, self.passage = None, -1
        self.figures.setText(_PICK)
        self.excerpt.hide()
        self.badge.hide()
        self.note.hide()
        self._enable_nav()
        for p in (self.a, self.b):
            p.clear_text()
            p.title.clear()
            p.path = ""
