"""Side by side: two documents, aligned, with the passages they share highlighted in both, or the words that differ."""

from __future__ import annotations

from html import escape

import numpy as np
from PySide6.QtCore import QProcess, QSettings, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QLabel, QPushButton, QToolButton, QVBoxLayout, QWidget

from lshdesk.core.alignment import map_position
from lshdesk.core.clustering import exact_jaccard
from lshdesk.core.corpus.datasets import parse_row_ref
from lshdesk.core.differences import Differences, differences
from lshdesk.core.minhash import estimate
from lshdesk.core.passages import Comparison, compare_files
from lshdesk.core.query.excerpt import excerpt_place
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.core.scan.progress import Progress
from lshdesk.gui.learn.flow import FlowLayout
from lshdesk.gui.settings_store import diff_tool
from lshdesk.gui.theme import AMBER_BG, ROSE_BG, SHARED_BG, TEAL_BG, Tone, keep_style, span, text_on
from lshdesk.gui.widgets.text_pane import TextPane
from lshdesk.gui.workers import WorkerSlot
from lshdesk.system import difftool

# What differs: words only in A (deleted), only in B (inserted), replaced (changed); one colour each, in both texts
DIFF_TONES: dict[str, Tone] = {"deleted": ROSE_BG, "inserted": TEAL_BG, "changed": AMBER_BG}


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


def _diff_job(texts: tuple[str, str]):
    def job(cancel):
        yield Progress("comparing", 0, 1)
        return differences(texts[0], texts[1], cancel)

    return job


def _diff_marks(d: Differences) -> tuple[list, list]:
    """Each text's marks for what differs: a change's words in its colour, the place of words only in the other."""
    return (
        [(c.a[0], c.a[1], DIFF_TONES[c.kind]) for c in d.changes],
        [(c.b[0], c.b[1], DIFF_TONES[c.kind]) for c in d.changes],
    )


class SideBySide(QWidget):
    """Shows the selected pair, aligned by the passages the texts share; with nothing selected it says how to pick one.

    Two ways to read a pair: its shared passages highlighted, or what differs (the words deleted, inserted and changed
    from A to B). Scrolling one text brings the other's copy of the same place level with it; F3 / Shift+F3 (or the
    buttons) go to the next / previous passage or difference; Ctrl+D switches between the two.
    """

    shown = Signal()  # both texts and their highlights are on screen

    def __init__(self, settings: QSettings | None = None, parent=None) -> None:
        super().__init__(parent)
        self.settings = settings if settings is not None else QSettings()
        self._build()
        self._lay_out()
        self._syncing = False
        self.reader = WorkerSlot(self)
        self.differ = WorkerSlot(self)
        self._figures = ""
        self._container: tuple[int, str] | None = None  # containment scans: the container's side and name
        self.comparison: Comparison | None = None
        self.diff: Differences | None = None  # what differs, once computed for the pair shown
        self.passage = -1  # the passage (or difference) of A last gone to
        self._enable_nav()
        self._wire()

    def _build(self) -> None:
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
        self.shared_mode, self.diff_mode = QToolButton(), QToolButton()
        self.modes = QButtonGroup(self)
        for button, text, tip in (
            (self.shared_mode, "Shared passages", "Highlight the passages both texts hold (Ctrl+D switches)"),
            (self.diff_mode, "Differences", "Highlight the words deleted, inserted and changed from A to B (Ctrl+D)"),
        ):
            button.setText(text)
            button.setToolTip(tip)
            button.setCheckable(True)
            button.setAccessibleName(f"Show {text.lower()}")
            self.modes.addButton(button)
        self.shared_mode.setChecked(True)
        self.prev_button = QPushButton("Previous passage")
        self.next_button = QPushButton("Next passage")
        self.where = QLabel()
        self.tool_button = QPushButton("Open in diff tool")
        self.legend = QLabel()  # what the colours mean, in Differences
        self.legend.setWordWrap(True)
        self.legend.hide()
        self.excerpt = QLabel()  # containment pairs: which lines of the container hold the excerpt
        self.excerpt.setToolTip("The stretch of the container that the shared passages cover, and its share of it")
        self.excerpt.hide()
        self.a, self.b = TextPane("A"), TextPane("B")

    def _lay_out(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.figures, 1)
        top.addWidget(self.badge)
        modes = FlowLayout()  # wraps on a narrow window rather than widening it
        modes.addWidgets(self.shared_mode, self.diff_mode, self.where, self.prev_button, self.next_button)
        modes.addWidget(self.tool_button)
        panes = QHBoxLayout()
        panes.addWidget(self.a)
        panes.addWidget(self.b)
        lay = QVBoxLayout(self)
        lay.addLayout(top)
        lay.addLayout(modes)
        lay.addWidget(self.legend)
        lay.addWidget(self.excerpt)
        lay.addWidget(self.note)
        lay.addLayout(panes, 1)

    def _wire(self) -> None:
        self.a.text.verticalScrollBar().valueChanged.connect(lambda v: self._sync(self.a, self.b))
        self.b.text.verticalScrollBar().valueChanged.connect(lambda v: self._sync(self.b, self.a))
        self.next_button.clicked.connect(lambda: self.go_passage(+1))
        self.prev_button.clicked.connect(lambda: self.go_passage(-1))
        self.diff_mode.toggled.connect(lambda _on: self._mode_changed())
        self.tool_button.clicked.connect(self.open_in_diff_tool)
        context = Qt.ShortcutContext.WidgetWithChildrenShortcut
        QShortcut(QKeySequence("F3"), self, lambda: self.go_passage(+1), context=context)
        QShortcut(QKeySequence("Shift+F3"), self, lambda: self.go_passage(-1), context=context)
        QShortcut(QKeySequence("Ctrl+D"), self, self._switch_mode, context=context)

    @property
    def showing_differences(self) -> bool:
        return self.diff_mode.isChecked()

    def _switch_mode(self) -> None:
        (self.shared_mode if self.showing_differences else self.diff_mode).setChecked(True)

    def _places(self) -> list[int]:
        """Where in A the passages (or differences) of the current mode start, in order."""
        if self.showing_differences:
            return [c.a[0] for c in self.diff.changes] if self.diff is not None else []
        return [s for s, _ in self.comparison.spans[0]] if self.comparison is not None else []

    def matching(self, pos: int, src: TextPane) -> int:
        """Where a position of ``src``'s text falls in the other text (by the anchors, else in proportion)."""
        none = np.zeros(0, np.int64)
        found = self.diff if self.showing_differences else self.comparison
        anchors_a, anchors_b = found.anchors if found is not None else (none, none)
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
        """Go to the next (+1) or previous (-1) passage (or difference) of A, its place in B beside it."""
        places = self._places()
        if not places:
            return
        self.passage = min(max(self.passage + step, 0), len(places) - 1)
        self._syncing = True
        if self.showing_differences and self.diff is not None:
            change = self.diff.changes[self.passage]
            self.a.scroll_to(change.a[0])
            self.b.scroll_to(change.b[0])
        else:
            self.a.scroll_to(places[self.passage])
            self.b.scroll_to(self.matching(places[self.passage], self.a))
        self._syncing = False
        self._enable_nav()

    def _enable_nav(self) -> None:
        n, diff = len(self._places()), self.showing_differences
        what = "difference" if diff else "passage"
        self.prev_button.setText(f"Previous {what}")
        self.next_button.setText(f"Next {what}")
        self.prev_button.setToolTip(f"Go to the previous {what} (Shift+F3)")
        self.next_button.setToolTip(f"Go to the next {what} (F3)")
        self.prev_button.setEnabled(n > 0 and self.passage > 0)
        self.next_button.setEnabled(n > 0 and self.passage < n - 1)
        if n and self.passage >= 0:
            self.where.setText(f"{what} {self.passage + 1} of {n:,}")
        else:
            self.where.setText(f"{n:,} {'difference' if diff else 'shared passage'}{'s' * (n != 1)}" if n else "")
        self._enable_tool()

    def _enable_tool(self) -> None:
        template = diff_tool(self.settings)
        argv = difftool.command(template, self.a.path, self.b.path) if self.a.path and self.b.path else []
        rows = any(parse_row_ref(p) is not None for p in (self.a.path, self.b.path))  # a dataset's rows: no files
        local = not rows and all(p and "://" not in p for p in (self.a.path, self.b.path))
        self.tool_button.setEnabled(bool(argv) and local)
        if not (self.a.path and self.b.path):
            tip = "Open the two files in an external diff tool"
        elif rows:
            tip = "A diff tool opens files, and these are rows of a dataset file"
        elif not local:
            tip = "A diff tool opens local files only"
        elif not argv:
            tip = (
                f"No diff tool found ({', '.join(difftool.KNOWN[:3])}, ...): install one, or name yours in Settings"
                if not template.strip()
                else f"The diff tool in Settings cannot be run: {template}"
            )
        else:
            tip = "Open the two files in " + argv[0]
        self.tool_button.setToolTip(tip)

    def open_in_diff_tool(self) -> bool:
        """Run the diff tool on the two files, detached (it outlives lshdesk); False if it could not be started."""
        template = diff_tool(self.settings)
        argv = difftool.command(template, self.a.path, self.b.path)
        return bool(argv) and QProcess.startDetached(argv[0], argv[1:])[0]

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
        self.differ.cancel()
        self.comparison, self.diff, self.passage = None, None, -1
        self._container = _container(result, names, left, right)
        self.excerpt.hide()
        self.badge.hide()
        note = unreported(result, left, right, jac)
        self.note.setText(note)
        self.note.setVisible(bool(note))
        for pane, i in ((self.a, left), (self.b, right)):
            pane.show_name(names[i], result.docs.paths[i])
            pane.clear_text()
        self._enable_nav()
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
        tail = c.note or f"{c.n_shared:,} shared shingles highlighted"
        place = excerpt_place(*_side(c, self._container[0])) if self._container is not None else None
        if place is not None and self._container is not None:
            self.excerpt.setText(f"The excerpt is <b>{place.describe(self._container[1])}</b>")
        self.excerpt.setVisible(place is not None)
        self.figures.setText(f"{self._figures} &nbsp; {tail}")
        self._mode_changed()
        self.shown.emit()

    def _mode_changed(self) -> None:
        """Mark what the mode shows; in Differences, compute them first (off the GUI thread) if not done yet."""
        self.passage = -1
        c, diff = self.comparison, self.showing_differences
        self.legend.setVisible(diff)
        if c is None:
            self._enable_nav()
            return
        if not diff:
            self.a.set_marks([(s, e, SHARED_BG) for s, e in c.spans[0]])
            self.b.set_marks([(s, e, SHARED_BG) for s, e in c.spans[1]])
        elif self.diff is None:
            self.legend.setText("finding what differs…")
            self.differ.start(_diff_job(c.texts), self._differences_found, on_failed=self._differences_failed)
        else:
            marks_a, marks_b = _diff_marks(self.diff)
            self.a.set_marks(marks_a)
            self.b.set_marks(marks_b)
            shown = " ".join(span(f"&nbsp;{k}&nbsp;", tone) for k, tone in DIFF_TONES.items())
            self.legend.setText(f"{shown} &nbsp; {escape(self.diff.summary())}")
        self._enable_nav()

    def _differences_found(self, d: Differences) -> None:
        self.diff = d
        self._mode_changed()

    def _differences_failed(self, message: str, _details: str) -> None:
        self.legend.setText(f"cannot find what differs: {escape(message)}")

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Stop showing any pair and wait for the reading threads; True if none is left running."""
        stopped = [slot.shutdown(timeout_ms) for slot in (self.reader, self.differ)]  # both, even if one is stuck
        return all(stopped)

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        """A new result: no pair is shown until one is selected."""
        self.clear()

    def clear(self) -> None:
        self.reader.cancel()  # a pair still being read is not shown
        self.differ.cancel()
        self._figures = ""
        self.comparison, self.diff, self.passage = None, None, -1
        self.figures.setText(_PICK)
        self.excerpt.hide()
        self.badge.hide()
        self.note.hide()
        self.legend.hide()
        for p in (self.a, self.b):
            p.clear_text()
            p.title.clear()
            p.path = ""
        self._enable_nav()
