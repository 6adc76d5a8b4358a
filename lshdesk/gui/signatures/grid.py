"""The signature grid: documents x slots, agreeing slots highlighted, bands marked, per-pair figures beside it."""

from __future__ import annotations

import re

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.compare import PairFigures, pair_figures
from lshdesk.core.humanize import plural, scheme_text
from lshdesk.core.params import Banding
from lshdesk.core.persistence.atomic import write_atomic
from lshdesk.gui.accessible import describe
from lshdesk.gui.file_actions import write_text
from lshdesk.gui.signatures.export import signatures_csv, table_text
from lshdesk.gui.signatures.figures_html import KEY_ROWS, names_html, pairs_html, spans
from lshdesk.gui.signatures.model import COMPACT_DIGITS, SignaturesModel, row_letter
from lshdesk.gui.signatures.paint import BandHeader, Overview, SlotDelegate, legend_html
from lshdesk.gui.signatures.wrapped import MAX_WRAPPED_K, WrappedSignatures
from lshdesk.gui.theme import watch_palette


class _GridView(QTableView):
    """A table view whose Ctrl+C copies the whole selection (Qt's default copies only the current cell)."""

    def __init__(self, copy, resized, parent=None) -> None:
        super().__init__(parent)
        self._copy, self._resized = copy, resized

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._resized()

    def keyPressEvent(self, event) -> None:
        if event.matches(QKeySequence.StandardKey.Copy):
            self._copy()
            event.accept()
            return
        super().keyPressEvent(event)


class _Room(QScrollArea):
    """A vertical scroll area that tells the wrapped signature how much room it has."""

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        wrapped = self.widget()
        if isinstance(wrapped, WrappedSignatures):
            wrapped.set_room(self.viewport().size())


NARROW = 900  # below this width the pair figures go under the grid: beside it at 1024 x 640 they left the grid
# ~390 px, too little for 128 slots with their values on the screen's height (band 15 of 16 x 8 was scrolled away)
FIGURES_BELOW = 110  # their height there: the pair, its slots, estimate and similarity (the rest scrolls)


class SignatureGrid(QWidget):
    """Shows signatures (rows = documents) with agreement, bands and per-pair figures; copy and CSV export."""

    figures_folded = False  # a lesson's grid folds its figures away (the page shows its own) and never stacks them

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        narrow = self.width() < NARROW and not self.figures_folded
        split = getattr(self, "splitter", None)  # built by __init__
        if split is not None and (split.orientation() == Qt.Orientation.Vertical) != narrow:
            split.setOrientation(Qt.Orientation.Vertical if narrow else Qt.Orientation.Horizontal)
            whole = self.height() if narrow else self.width()
            split.setSizes([whole - FIGURES_BELOW, FIGURES_BELOW] if narrow else [whole - 300, 300])

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.model = SignaturesModel(self)
        self.jaccard: dict[tuple[int, int], float] = {}
        self.figures: PairFigures | None = None
        self._build_controls()
        self._build_table()
        self._lay_out()
        self._connect()
        self._describe_grid("No signatures to show.")
        watch_palette(self, self._restyle)
        self._sizes()

    def _build_controls(self) -> None:
        """The bar's summary and switches, the wrapped signature, the legend and the pairs' panel."""
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.wrap = QCheckBox("Wrap")
        self.wrap.setToolTip(
            f"Wrap the signature into lines of bands so that every slot is on screen (k up to {MAX_WRAPPED_K});"
            " off: one line per document, scrolled sideways, with the overview strip"
        )
        self.wrap.setChecked(True)
        self.full = QCheckBox("Full values")
        self.full.setToolTip(
            f"Show every digit; off shows '…' and each value's last {COMPACT_DIGITS} digits (hover for all)"
        )
        self.copy_button = QPushButton("Copy")
        self.copy_button.setToolTip("Copy the selection (or the whole grid) as tab-separated text (Ctrl+C)")
        self.export_button = QPushButton("Export CSV…")
        self.export_button.setToolTip("Save the grid as a CSV file: one row per document, one column per slot")
        self.wrapped = WrappedSignatures(self.model)
        self.wrapped_area = _Room()
        self.wrapped_area.setWidget(self.wrapped)
        self.wrapped_area.setWidgetResizable(True)
        self.wrapped_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.wrapped_area.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab reaches the signature itself
        self.legend = QLabel(legend_html())
        self.legend.setWordWrap(True)
        self.panel = QTextBrowser()
        describe(
            self.panel,
            "For each pair of rows: how many slots agree, the estimate of the similarity with its interval, the "
            "exact Jaccard and the bands in which the pair shares a bucket",
            "Pair figures",
        )
        self.panel.setMinimumWidth(240)

    def _build_table(self) -> None:
        """The one-line grid (band header, one slot a cell, Copy and Export in its menu) and its overview strip."""
        self.table = _GridView(self.copy_to_clipboard, self._fit_height)
        self.table.setHorizontalHeader(BandHeader(self.table))
        self.table.setModel(self.model)
        self.table.setItemDelegate(SlotDelegate(self.table))
        self.table.setAccessibleName("Signature grid")
        self.table.setTabKeyNavigation(False)  # Tab leaves the table; the arrow keys move between cells
        self.table.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setWordWrap(False)
        for header in (self.table.horizontalHeader(), self.table.verticalHeader()):
            header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.copy_action = QAction("Copy", self.table)
        self.copy_action.setShortcut(QKeySequence.StandardKey.Copy)
        self.copy_action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.export_action = QAction("Export CSV…", self.table)
        self.table.addActions([self.copy_action, self.export_action])
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.overview = Overview(self.model, self.table)

    def _lay_out(self) -> None:
        """The bar above; the grid (one line, or wrapped) and the legend on the left, the pairs' figures right."""
        bar = QHBoxLayout()
        bar.addWidget(self.summary, 1)
        for w in (self.wrap, self.full, self.copy_button, self.export_button):
            bar.addWidget(w)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        self.one_line = one_line = QWidget()
        ov = QVBoxLayout(one_line)
        ov.setContentsMargins(0, 0, 0, 0)
        ov.addWidget(self.overview)
        ov.addWidget(self.table, 1)
        ov.addStretch(0)
        self.pages = QStackedWidget()
        self.pages.addWidget(one_line)
        self.pages.addWidget(self.wrapped_area)
        lv.addWidget(self.pages, 1)
        lv.addWidget(self.legend)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addWidget(QLabel("<b>Pairs</b>"))
        rv.addWidget(self.panel, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setSizes([900, 300])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(bar)
        lay.addWidget(self.splitter, 1)

    def _connect(self) -> None:
        self.full.toggled.connect(self._set_full)
        self.wrap.toggled.connect(self._show_page)
        self.copy_button.clicked.connect(self.copy_to_clipboard)
        self.export_button.clicked.connect(self.choose_export)
        self.copy_action.triggered.connect(self.copy_to_clipboard)
        self.export_action.triggered.connect(self.choose_export)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        # band labels centre on the visible part of their band, so a scroll repaints the whole header strip
        self.table.horizontalScrollBar().valueChanged.connect(self.table.horizontalHeader().viewport().update)

    # --- data ---------------------------------------------------------------------------------------------------------
    def set_data(
        self,
        signatures: np.ndarray,
        names: list[str],
        banding: Banding | None = None,
        jaccard: dict[tuple[int, int], float] | None = None,
    ) -> None:
        """Show these signatures, one row per document; ``jaccard`` maps row pairs (i, j) to exact similarity."""
        self.model.set_data(signatures, names, banding)
        self.jaccard = dict(jaccard or {})
        self.figures = pair_figures(signatures, banding)
        self.legend.setText(legend_html(banding is not None))
        self._sizes()
        self._refresh()
        self.overview.update()
        self._show_page()

    def wrapped_shown(self) -> bool:
        return self.pages.currentWidget() is self.wrapped_area

    def _show_page(self) -> None:
        """Lines of bands for k up to MAX_WRAPPED_K (unless the user turned them off), else the one-line grid."""
        fits = self.model.k <= MAX_WRAPPED_K
        self.wrap.setEnabled(fits)
        self.pages.setCurrentWidget(self.wrapped_area if fits and self.wrap.isChecked() else self.one_line)

    def _restyle(self) -> None:
        """The palette changed (light / dark): the legend and the side panel carry colours in their HTML."""
        self.legend.setText(legend_html(self.model.banding is not None))
        self._refresh()

    def _set_full(self, full: bool) -> None:
        self.model.set_full(full)
        self._sizes()

    def _sizes(self) -> None:
        fm = self.table.fontMetrics()
        sigs = self.model.sigs
        real = sigs[sigs != np.iinfo(sigs.dtype).max] if sigs.size else sigs  # the article family's empty-set stand-in
        digits = max(len(str(int(real.max()))) if real.size else 1, 2) if self.full.isChecked() else COMPACT_DIGITS
        cut = "" if self.full.isChecked() else "…"
        width = max(fm.horizontalAdvance(cut + "8" * digits), fm.horizontalAdvance(str(max(self.model.k - 1, 0)))) + 12
        self.table.horizontalHeader().setDefaultSectionSize(width)
        self.table.verticalHeader().setDefaultSectionSize(fm.height() + 10)
        self._fit_height()

    def _fit_height(self) -> None:
        """No taller than its rows (plus a scroll bar when the slots do not fit), so the legend sits just below."""
        t = self.table
        frame = 2 * t.frameWidth()
        wide = t.verticalHeader().sizeHint().width() + t.horizontalHeader().length() + frame > t.width()
        height = (
            t.horizontalHeader().sizeHint().height()
            + self.model.rowCount() * t.verticalHeader().defaultSectionSize()
            + (t.horizontalScrollBar().sizeHint().height() if wide else 0)
            + frame
        )
        if height != t.maximumHeight():
            t.setMaximumHeight(height)

    def _selection_changed(self) -> None:
        rows: set[int] = set()
        for rng in self.table.selectionModel().selection():  # type: ignore[attr-defined]  # iterable; not to the stub
            rows.update(range(rng.top(), rng.bottom() + 1))
        self.model.set_compared(tuple(rows) if len(rows) >= 2 else None)
        self._refresh()
        self.table.horizontalHeader().viewport().update()
        self.overview.update()

    def _refresh(self) -> None:
        m = self.model
        n, k = m.rowCount(), m.k
        if not n:
            self.summary.setText("No signatures to show.")
            self._describe_grid("No signatures to show.")
            self.panel.clear()
            return
        compared = m.compared
        who = (
            "both documents"
            if len(compared) == 2 and n == 2
            else (
                f"all {n:,} documents" if len(compared) == n else "rows " + ", ".join(row_letter(i) for i in compared)
            )
        )
        scheme = scheme_text(m.banding.bands, m.banding.rows) if m.banding is not None else "no banding"
        agree = len(m.agreeing_slots())
        text = f"{plural(n, 'document')} · k = {k} · {scheme} · <b>{agree} of {k}</b> slots agree in {who}"
        if m.banding is not None:
            hit = m.collided_bands().tolist()
            some = np.flatnonzero(m.shared_bucket_bands() & ~np.isin(np.arange(m.banding.bands), hit)).tolist()
            if hit:
                shown = spans(hit, 8) or f"{len(hit)} bands"
                text += (
                    f" · bands that agree in {who}: <b>{shown}</b> ({len(hit)} of {m.banding.bands}: a shared bucket)"
                )
            else:
                text += f" · no band agrees in {who}"
            if some:
                shown = spans(some, 8)
                text += (
                    f" · some of them share a bucket in band{'s' if len(some) > 1 else ''} {shown}"
                    if shown
                    else (f" · some of them share a bucket in {len(some)} bands")
                )
        self.summary.setText(text)
        self._describe_grid(text)
        if self.figures is not None:
            key = names_html(m.names) if n <= KEY_ROWS else ""
            names = None if n <= KEY_ROWS else m.names
            self.panel.setHtml(key + pairs_html(self.figures, self.jaccard, m.banding, compared, names))

    def _describe_grid(self, summary: str) -> None:
        """The grid and its wrapped lines say what they show: a row per document, a cell per slot, and the summary."""
        said = "The signatures, a row per document and a cell per slot, agreeing slots marked: "
        said += re.sub(r"<[^>]+>", "", summary)
        describe(self.table, said)
        describe(self.wrapped, said.replace("a cell per slot", "a cell per slot in lines of bands"))

    # --- copy and export --------------------------------------------------------------------------------------------
    def _selected_cells(self) -> tuple[list[int], list[int]]:
        rows: set[int] = set()
        cols: set[int] = set()
        for rng in self.table.selectionModel().selection():  # type: ignore[attr-defined]  # iterable; not to the stub
            rows.update(range(rng.top(), rng.bottom() + 1))
            cols.update(range(rng.left(), rng.right() + 1))
        if not rows:
            return list(range(self.model.rowCount())), list(range(self.model.k))
        return sorted(rows), sorted(cols)

    def table_text(self, rows: list[int] | None = None, cols: list[int] | None = None) -> str:
        """Tab-separated: one line per document, its name then its full slot values."""
        return table_text(self.model.sigs, self.model.names, rows, cols)

    def copy_to_clipboard(self) -> None:
        """Copy the selected cells (or, with nothing selected, the whole grid) as tab-separated text."""
        QGuiApplication.clipboard().setText(self.table_text(*self._selected_cells()))

    def export_csv(self, path: str) -> None:
        """Write the whole grid as CSV (see ``export.signatures_csv``), atomically; OSError if it cannot be written."""
        write_atomic(path, signatures_csv(self.model.sigs, self.model.names))

    def choose_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export signatures", "signatures.csv", "CSV (*.csv)")
        if path:
            write_text(self, path, signatures_csv(self.model.sigs, self.model.names))  # says why if it cannot
