"""Shared parts of the Learn pages: the page frame, the 'use my files' source, the plot, and rich-text helpers."""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QFrame,
    QLabel,
    QLayout,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.errors import LshdeskError
from lshdesk.core.teaching import facts
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.figures import percent_text, to_fixed
from lshdesk.gui.learn.corpus_source import CorpusSource
from lshdesk.gui.theme import (
    ACCENT,
    ERROR,
    app_palette,
    blend,
    keep_color,
    keep_style,
    watch_palette,
)

MAX_LESSON_DOCS = 120  # documents of the user's corpus used by lessons 3 and 4 (pairs grow as n^2)


def esc(text: str) -> str:
    return html.escape(text, quote=False)


def short(name: str, n: int = 48) -> str:
    """A document name shortened in the middle to n characters."""
    return name if len(name) <= n else name[: n // 2 - 1] + "…" + name[-(n - n // 2) :]


class LessonPage(QScrollArea):
    """A page: a title, a short text, then the page's widgets in ``self.body`` (scrolls if the window is small)."""

    def __init__(self, title: str, intro_html: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the page's controls, scrolled into view
        inner = QWidget()
        self.body = QVBoxLayout(inner)
        self.body.setContentsMargins(16, 10, 16, 10)
        self.body.setSpacing(8)
        self.plain_title = title
        self.title = QLabel(f"<h2 style='margin:0'>{esc(title)}</h2>")
        self.title.setAccessibleName(title)
        self.title.setWordWrap(True)  # a long title wraps at a large font rather than widening the page
        keep_color(self.title, ACCENT)
        self.intro = rich_label(intro_html)
        self.body.addWidget(self.title)
        self.body.addWidget(self.intro)
        self.setWidget(inner)
        self.use_files: QCheckBox | None = None
        watch_palette(self, self.restyle)

    def number(self, n: int) -> None:
        """Title the page as lesson n (the Learn view numbers the lessons in its order)."""
        name = self.plain_title
        self.title.setText(f"<h2 style='margin:0'>{n} · {esc(name)}</h2>")
        self.title.setAccessibleName(f"{n} · {name}")

    def restyle(self) -> None:
        """The palette changed (light / dark): pages whose HTML carries colours show it again."""

    # --- stepping: every lesson steps through its story (Left / Right / Home, sent by the Learn view) --------------
    story_values: tuple[float, ...] = ()  # a page whose story is one control's values: those values ...
    story_box = ""  # ... and the control's attribute name (the default steps below walk them)

    def step_back(self) -> None:
        """One step back (Left)."""
        if self.story_values:
            story_step(getattr(self, self.story_box), self.story_values, -1)

    def step_forward(self) -> None:
        """One step forward (Right)."""
        if self.story_values:
            story_step(getattr(self, self.story_box), self.story_values, +1)

    def step_home(self) -> None:
        """Back to the first step (Home)."""
        if self.story_values:
            story_step(getattr(self, self.story_box), self.story_values, 0)

    def reset(self) -> None:
        """Back to the lesson's defaults."""

    def parameters(self) -> dict[str, str]:
        """What the page shows now, by name (for its handout)."""
        return {}

    # --- presentation: the figure and its story on screen, the reading (intro, notes, exercises) folded away -------
    figure: QWidget | None = None  # what must stay on screen in presentation mode (a plot, a table, a grid)
    presenting = False

    def reading(self) -> list[QWidget]:
        """The widgets a projector does without (the intro; a page adds its notes and exercises)."""
        return [self.intro, *(w for w in (getattr(self, "exercises", None),) if w is not None)]

    def show_figure(self) -> None:
        """Scroll so that the whole figure is on screen (its top when it is taller than the page). Not
        ensureWidgetVisible: it asks a plot (a graphics view) for its input cursor and finds nothing to scroll to."""
        inner = self.widget()
        if self.figure is None or inner is None:
            return
        top = self.figure.mapTo(inner, self.figure.rect().topLeft()).y()
        bar, seen = self.verticalScrollBar(), self.viewport().height()
        if top < bar.value() or self.figure.height() > seen:
            bar.setValue(top)
        elif top + self.figure.height() > bar.value() + seen:
            bar.setValue(top + self.figure.height() - seen)

    def present(self, on: bool) -> None:
        """Presentation mode on or off for this page: the reading parts hidden on, shown again off."""
        self.presenting = on
        for w in self.reading():
            w.setVisible(not on)

    def add_reset(self, layout: QLayout) -> QPushButton:
        """A 'Reset' button (back to the lesson's defaults) at the end of ``layout``."""
        button = QPushButton("Reset")
        button.setToolTip("Back to this lesson's defaults")
        button.clicked.connect(self.reset)
        layout.addWidget(button)
        self.reset_button = button
        return button

    def add_use_files(self, source: CorpusSource, on_toggle: Callable[[bool], None]) -> QCheckBox:
        """A 'Use my files' switch, enabled when a corpus is loaded. Ticked, it says 'Reading your files…' while a
        worker reads them, then shows them (``on_toggle(True)``); it unticks itself (with the reason) on failure.
        Unticking it, or another corpus arriving, stops a reading this page waits for."""
        box = QCheckBox("Use my files (the loaded corpus) instead of the built-in examples")
        note = QLabel()
        keep_color(note, ERROR)
        note.hide()
        self.reading_note = QLabel("Reading your files…")
        self.reading_note.setAccessibleName("Reading your files")
        self.reading_note.hide()

        def arrived() -> None:
            self.reading_note.hide()
            if not box.isChecked():
                return
            try:
                on_toggle(True)
            except LshdeskError as e:
                note.setText(str(e))
                note.show()
                box.blockSignals(True)
                box.setChecked(False)
                box.blockSignals(False)
                on_toggle(False)

        def toggled(on: bool) -> None:
            note.hide()
            if on:
                self.reading_note.setVisible(not source.request(self, arrived))
            else:
                source.release(self)
                self.reading_note.hide()
                on_toggle(False)

        def refresh() -> None:
            box.setEnabled(source.available)
            box.setToolTip(
                "This page's sets, tables and plot from the first documents of the folders you scanned"
                if source.available
                else "Open a folder and scan it to use your own documents here."
            )
            if box.isChecked():
                if source.available:
                    toggled(True)  # another corpus: read it and show it
                else:
                    box.setChecked(False)

        source.changed.connect(refresh)
        box.toggled.connect(toggled)
        refresh()
        self.body.insertWidget(2, box)
        self.body.insertWidget(3, note)
        self.body.insertWidget(4, self.reading_note)
        self.use_files = box
        return box


CUTOFF_LABEL = "similar when J ≥ cut-off t ="  # one word for the user's t on every page: the cut-off


def cutoff_box() -> QDoubleSpinBox:
    """The similarity cut-off t: pairs with exact Jaccard at or above it are similar (``lessons.is_similar``)."""
    box = QDoubleSpinBox()
    box.setRange(0.05, 1.0)
    box.setSingleStep(0.05)
    box.setValue(t.SIMILAR_CUTOFF)
    box.setAccessibleName("Similarity cut-off t")
    box.setToolTip(
        "The cut-off: pairs whose exact Jaccard is at least t count as similar; candidates below t are false positives"
    )
    return box


def sentences_note(on_sweep_page: bool = False) -> str:
    """What holds of lshdesk's eight sentences, beside what the entry wrote of its own (computed, not typed in); on
    the 'Recall and false positives' page itself it points to the table above, not to the page."""
    f = facts.sentence_facts()
    jac = t.jaccard_matrix(t.SENTENCES)
    related = ", ".join(f"{a}–{b} at {to_fixed(jac[a, b], 2)}" for a, b in t.SIMILAR_PAIRS)
    a, b = f.max_pair
    return (
        f"Near-duplicate pairs: {related}; every other pair is at {to_fixed(f.max_unrelated, 2)} or below "
        f"({a}–{b}). The entry wrote “0.16 or below” of its own sentences and measured a "
        f"{percent_text(f.entry_balanced_fpr)} false-positive rate for balanced 4 × 4, more than its own S-curve "
        f"allows at J ≤ 0.16 (at most {percent_text(f.entry_bound, 2)}); on these "
        "sentences lshdesk measures far fewer "
        + ("(the table above)." if on_sweep_page else "(the experiment 'Recall and false positives' shows how many).")
    )


def rich_label(text: str, selectable: bool = False) -> QLabel:
    """A word-wrapped rich-text label."""
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    if selectable:
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def buddy(text: str, widget: QWidget) -> QLabel:
    """A label naming ``widget`` (screen readers read it as the widget's name)."""
    label = QLabel(text)
    label.setBuddy(widget)
    return label


def formula_box(text: str) -> QLabel:
    """A formula or key fact, set off from the text in a light box."""
    label = rich_label(text)
    keep_style(label, _box_css)
    return label


def _box_css() -> str:
    """A box tinted towards the palette's highlight: pale blue on a light palette, blue-grey on a dark one."""
    p = app_palette()
    base, hl = p.color(QPalette.ColorRole.Base), p.color(QPalette.ColorRole.Highlight)
    return (
        f"QLabel {{ background:{blend(base, hl, 0.07).name()}; color:{p.color(QPalette.ColorRole.Text).name()}; "
        f"border:1px solid {blend(base, hl, 0.35).name()}; border-radius:6px; padding:6px 10px; }}"
    )


def lesson_grid(min_height: int = 220):
    """A SignatureGrid for a lesson page: the page shows its own figures, so the grid's side panel starts folded
    away (its handle stays at the right edge; drag it to see the per-pair figures)."""
    from lshdesk.gui.signatures.grid import SignatureGrid

    grid = SignatureGrid()
    grid.figures_folded = True
    grid.setMinimumHeight(min_height)
    splitter = getattr(grid, "splitter", None)
    if splitter is not None and splitter.count() == 2:
        splitter.setCollapsible(1, True)
        splitter.setSizes([10_000, 0])
    return grid


def story_step(box: QSpinBox | QDoubleSpinBox, values: tuple[float, ...], step: int) -> None:
    """A page's story told by one control: ``box`` to the next (+1) or previous (-1) of ``values`` from where it is,
    or to the first (0). Past either end it stays."""
    if step == 0:
        box.setValue(values[0])  # type: ignore[arg-type]
        return
    v = box.value()
    beyond = [x for x in values if (x > v + 1e-9 if step > 0 else x < v - 1e-9)]
    if beyond:
        box.setValue(beyond[0] if step > 0 else beyond[-1])  # type: ignore[arg-type]
