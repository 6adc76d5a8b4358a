"""The S-curve tab: the banding curve with the corpus's real pairs, live re-banding, auto-tune, missed pairs and
bucket sizes. The widget shows and forwards; the work runs in ``ExploreWorkers``, newest request first."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from lshdesk.core.explore.exact import STORE_FLOOR, ExactReference
from lshdesk.core.explore.figures import Figures
from lshdesk.core.explore.tune import Goal, Tuning
from lshdesk.core.params import Banding
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.core.scurve import presets
from lshdesk.gui.plots.scurve_pairs import plot_pairs
from lshdesk.gui.plots.scurve_plot import ScurvePlot
from lshdesk.gui.scurve.containment import ContainmentMode
from lshdesk.gui.scurve.panels import FiguresPanel, TunePanel
from lshdesk.gui.scurve.scheme import SchemeControls
from lshdesk.gui.scurve.tables import ScurveTables
from lshdesk.gui.scurve.use_scheme import UseScheme
from lshdesk.gui.scurve.workers import ExploreWorkers
from lshdesk.gui.theme import ERROR, keep_style, muted

MAX_POINTS = 20_000
IDLE_TEXT = "Open a folder and scan it to see its S-curve."


class ScurveView(QWidget):
    """Shows a scan's S-curve; ``pairSelected`` carries the two document indices of a clicked pair."""

    pairSelected = Signal(int, int)
    schemeChosen = Signal(object, float)  # "Use b x r for the next scan": the Banding and the threshold

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.result: ScanResult | None = None
        self.names: list[str] = []
        self.figures: Figures | None = None
        self.tuning: Tuning | None = None
        self.workers = ExploreWorkers(self._snapshot, self)
        self.plot = ScurvePlot()
        self.plot.setMinimumSize(360, 260)
        self.plot.setAccessibleName("S-curve plot")
        self.scheme = SchemeControls()
        self.tune_panel = TunePanel()
        self.figures_panel = FiguresPanel()
        self.use_scheme = UseScheme()
        self.tables = ScurveTables()
        self.source = QLabel(IDLE_TEXT)
        self.source.setWordWrap(True)
        keep_style(self.source, lambda: f"color:{muted().name()}")
        self.export_button = QPushButton("Export plot…")
        self.export_button.setToolTip("Save the plot as PNG or SVG")
        self.containment = ContainmentMode(self, MAX_POINTS)  # a containment scan's curves, in place of P(J)
        self._lay_out()
        self._connect()

    def _lay_out(self) -> None:
        top = QWidget()
        top_lay = QVBoxLayout(top)
        top_lay.setContentsMargins(0, 0, 0, 0)
        top_lay.addWidget(self.plot, 1)
        bar = QHBoxLayout()
        bar.addWidget(self.source, 1)
        bar.addWidget(self.export_button, 0, Qt.AlignmentFlag.AlignTop)
        top_lay.addLayout(bar)
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(top)
        left.addWidget(self.tables)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 1)
        left.setSizes([520, 200])
        side = QWidget()
        side_lay = QVBoxLayout(side)
        side_lay.setContentsMargins(0, 0, 4, 0)
        for w in (self.containment.panel, self.scheme, self.use_scheme, self.figures_panel, self.tune_panel):
            side_lay.addWidget(w)
        side_lay.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(side)
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setMinimumWidth(side.minimumSizeHint().width() + scroll.verticalScrollBar().sizeHint().width())
        scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # Tab goes to the controls inside
        scroll.setMaximumWidth(360)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(scroll)
        split.setStretchFactor(0, 1)
        outer = QScrollArea()  # on a small screen the view scrolls rather than forcing the window wider
        outer.setWidgetResizable(True)
        outer.setFrameShape(QScrollArea.Shape.NoFrame)
        outer.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        outer.setWidget(split)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(outer)

    def _connect(self) -> None:
        self.scheme.schemeChanged.connect(self._scheme_edited)
        self.scheme.thresholdChanged.connect(self._threshold_edited)
        self.scheme.comparisonsChanged.connect(self._draw_curves)
        self.plot.thresholdMoved.connect(self._threshold_dragged)
        self.plot.thresholdReleased.connect(self._threshold_released)
        self.plot.pairClicked.connect(self.pairSelected)
        self.tables.pairPicked.connect(self.pairSelected)
        self.use_scheme.useRequested.connect(self.schemeChosen)
        self.tune_panel.tuneRequested.connect(lambda: self.workers.request(tune=True, now=True))
        self.export_button.clicked.connect(self.choose_export)
        self.workers.explored.connect(self._explored)
        self.workers.referenceReady.connect(self._reference_ready)
        self.workers.referenceProgress.connect(self._reference_progress)
        self.workers.failed.connect(
            lambda message: self.source.setText(
                f"<span style='color:{ERROR.name()}'>Could not compute: {message}</span>"
            )
        )

    @property
    def ref(self) -> ExactReference | None:
        """Where the exact similarities come from, once computed."""
        return self.workers.ref

    # --- what the window calls (gui.views.View) ---------------------------------------------------------------------
    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        """Show a new scan (or nothing): compute its exact similarities in a worker, then re-band."""
        self.result, self.names, self.figures, self.tuning = result, names, None, None
        self.plot.set_names(names)
        self.tune_panel.reason.setText("")
        containment = result is not None and result.params.measure == "containment" and len(result.docs) >= 2
        self.containment.jaccard_controls((self.scheme, self.use_scheme, self.tune_panel), not containment)
        for w in (self.figures_panel, self.tables):
            w.setVisible(not containment)  # figures of a Jaccard re-banding
        if containment:
            self.workers.reset(None, [])
            self._clear()
            self.containment.show_result(result)
            return
        self.containment.leave()
        if result is None or len(result.docs) < 2:
            self.workers.reset(None, [])
            self._clear()
            return
        k = result.signatures.shape[1]
        self.scheme.set_k(k, presets(k))
        self.scheme.set_banding(result.banding)
        p = result.params
        self.tune_panel.fp_weight.setValue(p.fp_weight / (p.fp_weight + p.fn_weight))  # the scan's own weighting
        t = max(STORE_FLOOR, p.threshold)
        self.scheme.set_threshold(t)
        self.plot.set_threshold(t)
        self._draw_curves()
        self.source.setText(f"Computing the exact similarity of the {len(result.docs):,} documents' pairs…")
        self.workers.reset(result, [self.scheme.banding()] + [s for _, s in self.scheme.comparisons()])
        self.workers.request(tune=False, now=True)

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Stop the worker threads (window close, test teardown); True if none is left running."""
        return all([self.workers.shutdown(timeout_ms), self.containment.shutdown(timeout_ms)])

    # --- requests and answers ---------------------------------------------------------------------------------------------
    def _snapshot(self, tune: bool) -> tuple[Banding, float, Goal | None]:
        """What a request starting now computes: the scheme, the threshold, and the goal if it tunes."""
        goal = self.tune_panel.goal() if tune else None
        if goal is not None and goal.kind != "weights" and self.ref is None:
            self.tune_panel.reason.setText("Waiting for the exact similarities before tuning for this goal…")
            goal = None
        return self.scheme.banding(), self.scheme.threshold.value(), goal

    def _reference_progress(self, p) -> None:
        """The reference's progress, until it is ready (a report queued behind the answer must not cover the figures)."""
        if p.total and self.ref is None:
            self.source.setText(f"Exact similarity: {p.stage}, {p.done:,} of {p.total:,}…")

    def _reference_ready(self, ref: ExactReference) -> None:
        self.scheme.threshold.setMinimum(max(ref.floor, 0.01))
        self.plot.threshold_bounds(max(ref.floor, 0.01))
        self.workers.request(tune=False, now=True)

    def _explored(self, answer: tuple[Tuning | None, Figures]) -> None:
        tuning, figs = answer
        if tuning is not None:
            self.tuning = tuning
            self.scheme.set_banding(tuning.banding)
            self.tune_panel.reason.setText("\n".join(tuning.reasons))
            self._draw_curves()
        self.figures = figs
        self._show(figs)

    def _scheme_edited(self, banding: Banding) -> None:
        self._draw_curves()
        self.workers.request(tune=False)

    def _threshold_edited(self, t: float) -> None:
        self.plot.set_threshold(t)
        self.workers.request(tune=self.tune_panel.follow.isChecked())

    def _threshold_dragged(self, t: float) -> None:
        self.scheme.set_threshold(round(t, 2))
        self.workers.request(tune=self.tune_panel.follow.isChecked())

    def _threshold_released(self, t: float) -> None:
        self.plot.set_threshold(round(t, 2))  # the line rests where the figures are computed
        self._threshold_dragged(t)

    # --- showing ------------------------------------------------------------------------------------------------------
    def _clear(self) -> None:
        self.plot.set_pairs(plot_pairs(None, None, 0.5))
        self.plot.set_bins(None)
        self.figures_panel.show_figures(None)
        self.use_scheme.show_figures(None, None)
        self.tables.clear()
        self.source.setText(IDLE_TEXT)

    def _draw_curves(self) -> None:
        self.plot.set_scheme(self.scheme.banding(), self.scheme.comparisons())

    def _show(self, f: Figures) -> None:
        self.figures_panel.show_figures(f)
        r = self.result
        self.use_scheme.show_figures(f, (r.banding, r.params.threshold, len(r.pairs)) if r is not None else None)
        pairs = plot_pairs(f, self.ref, f.threshold, MAX_POINTS)
        self.plot.set_pairs(pairs)
        self.plot.set_bins(f.bins)
        src = self.ref.describe() if self.ref is not None else "Computing the exact similarity of all pairs…"
        drawn, total = len(pairs.left), f.n_candidates + len(f.others)
        self.source.setText(src + (f" Drawn: {drawn:,} of {total:,} known pairs." if drawn < total else ""))
        self.tables.show_figures(f, self.names, self.ref is not None)

    def choose_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Export the S-curve", "scurve.png", "PNG image (*.png);;SVG (*.svg)"
        )
        if path:
            self.export_to(path)

    def export_to(self, path: str) -> None:
        """Save the plot with its legend (PNG or SVG, by the extension)."""
        self.plot.export(path)
