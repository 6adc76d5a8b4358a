"""The S-curve tab: the banding curve with the corpus's real pairs, live re-banding, auto-tune, missed pairs and
bucket sizes. The widgets show the explorer's state (``core.explore.state``) and forward the user's edits to it;
the work runs in ``ExploreWorkers``, newest request first."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer, Signal
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

from lshdesk.core.errors import ParamError
from lshdesk.core.explore.exact import ExactReference
from lshdesk.core.explore.figures import Figures
from lshdesk.core.explore.state import ExploreState
from lshdesk.core.explore.tune import Goal, Tuning
from lshdesk.core.params import Banding
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.core.scurve import presets
from lshdesk.gui.plots.scurve_pairs import plot_pairs
from lshdesk.gui.plots.scurve_plot import ScurvePlot
from lshdesk.gui.scurve.containment import ContainmentMode
from lshdesk.gui.scurve.fold import TablesFold
from lshdesk.gui.scurve.panels import FiguresPanel, TunePanel
from lshdesk.gui.scurve.plan import PlanLabel
from lshdesk.gui.scurve.scheme import SchemeControls
from lshdesk.gui.scurve.tables import ScurveTables
from lshdesk.gui.scurve.use_scheme import UseScheme
from lshdesk.gui.scurve.workers import Answer, ExploreWorkers
from lshdesk.gui.theme import ERROR, keep_style, muted

# pairs drawn at most: the rugs (~700 x 25 px each) are solid long before 5,000 points of 6-7 px; 20,000 took
# 55-75 ms to paint and 20-50 ms to set on every slider step (2 cores, load 10), 5,000 about a quarter of that
MAX_POINTS = 5_000
IDLE_TEXT = "Open a folder and scan it to see its S-curve."


class ScurveView(QWidget):
    """Shows a scan's S-curve; ``pairSelected`` carries the two document indices of a clicked pair."""

    pairSelected = Signal(int, int)
    schemeChosen = Signal(object, float)  # "Use b x r for the next scan": the Banding and the threshold

    def __init__(self, state: ExploreState | None = None, parent=None) -> None:
        super().__init__(parent)
        self.state = state if state is not None else ExploreState()  # the window's (AppState.explore), or its own
        self.result: ScanResult | None = None
        self.names: list[str] = []
        self.figures: Figures | None = None
        self.tuning: Tuning | None = None
        self._answering = False  # showing an answer's scheme: that change asks for nothing more
        self._edited_at: float | None = None  # time.perf_counter() of the user's edit not yet asked for
        self._unseen: Answer | None = None  # the answer shown but not yet painted
        self.workers = ExploreWorkers(self._snapshot, MAX_POINTS, self)
        self.plot = ScurvePlot()
        self.plot.setMinimumSize(360, 260)
        self.plot.setAccessibleName("S-curve plot")
        self.scheme = SchemeControls()
        self.tune_panel = TunePanel()
        self.figures_panel = FiguresPanel()
        self.plan = PlanLabel()  # a sampled dataset's whole, predicted
        self.figures_panel.layout().addRow(self.plan)
        self.use_scheme = UseScheme()
        self.tables = ScurveTables()
        self.source = QLabel(IDLE_TEXT)
        self.source.setWordWrap(True)
        keep_style(self.source, lambda: f"color:{muted().name()}")
        self.export_button = QPushButton("Export plot…")
        self.export_button.setToolTip("Save the plot as PNG or SVG")
        self.tables_button = QPushButton("Tables")
        self.tables_button.setAccessibleName("Show the missed pairs and buckets")
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
        bar.addWidget(self.tables_button, 0, Qt.AlignmentFlag.AlignTop)
        bar.addWidget(self.export_button, 0, Qt.AlignmentFlag.AlignTop)
        top_lay.addLayout(bar)
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(top)
        left.addWidget(self.tables)
        left.setStretchFactor(0, 3)
        left.setStretchFactor(1, 1)
        left.setSizes([520, 200])
        area = self.plot.plot_item.vb.height
        self.fold = TablesFold(left, self.plot, area, self.tables_button)  # on a short view the tables step aside
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
        st = self.state
        st.watch(self._state_changed)
        self.plot.painted.connect(self._painted)
        self.scheme.bandsEdited.connect(lambda b: self._edit(st.set_bands, b))
        self.scheme.rowsEdited.connect(lambda r: self._edit(st.set_rows, r))
        self.scheme.thresholdEdited.connect(lambda t: self._edit(lambda: st.update(threshold=t)))
        self.scheme.comparisonsEdited.connect(lambda names: st.update(comparisons=names))
        self.tune_panel.goalEdited.connect(lambda goal: st.update(goal=goal))
        self.tune_panel.followEdited.connect(lambda on: st.update(follow=on))
        self.plot.thresholdMoved.connect(lambda t: self._edit(lambda: st.update(threshold=round(t, 2))))
        self.plot.thresholdReleased.connect(self._threshold_released)
        self.plot.pairClicked.connect(self.pairSelected)
        self.tables.pairPicked.connect(self.pairSelected)
        self.use_scheme.useRequested.connect(self.schemeChosen)
        self.tune_panel.tuneRequested.connect(lambda: self.workers.request(tune=True))
        self.export_button.clicked.connect(self.choose_export)
        self.workers.explored.connect(self._explored)
        self.workers.referenceReady.connect(lambda ref: st.update(reference=ref))
        self.workers.referenceProgress.connect(self._reference_progress)
        self.workers.failed.connect(
            lambda message: self.source.setText(
                f"<span style='color:{ERROR.name()}'>Could not compute: {message}</span>"
            )
        )

    @property
    def ref(self) -> ExactReference | None:
        """Where the exact similarities come from, once computed."""
        return self.state.reference

    # --- what the window calls (gui.views.View) ---------------------------------------------------------------------
    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        """Show a new scan (or nothing): compute its exact similarities in a worker, then re-band."""
        self.result, self.names, self.figures, self.tuning = result, names, None, None
        self.plan.set_result(result)
        self.plot.set_names(names)
        self.tune_panel.reason.setText("")
        containment = result is not None and result.params.measure == "containment" and len(result.docs) >= 2
        self.containment.jaccard_controls((self.scheme, self.use_scheme, self.tune_panel), not containment)
        for w in (self.figures_panel, self.tables, self.tables_button):
            w.setVisible(not containment)  # figures of a Jaccard re-banding
        jaccard = not containment and result is not None and len(result.docs) >= 2
        self.workers.reset(None, [])
        self.state.show_result(result if jaccard else None)
        if containment:
            self._clear()
            self.containment.show_result(result)
            return
        self.containment.leave()
        if not jaccard:
            self._clear()
            return
        self._show_state(frozenset({"k"}))
        self.source.setText(f"Computing the exact similarity of the {len(result.docs):,} documents' pairs…")
        self.workers.reset(result, [self.state.banding] + [s for _, s in self.state.compared()])
        self.workers.request()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Stop the worker threads (window close, test teardown); True if none is left running."""
        return all([self.workers.shutdown(timeout_ms), self.containment.shutdown(timeout_ms)])

    # --- the state, shown; requests and answers -----------------------------------------------------------------
    def _state_changed(self, names: frozenset[str]) -> None:
        """Show what changed, and ask for the figures it changes (re-tuning when the threshold alone moved)."""
        if self.result is None or self.containment.active:
            return
        self._show_state(names)
        if names & {"banding", "threshold", "reference"} and not self._answering:
            alone = "threshold" in names and not names & {"banding", "reference"}  # a session's scheme is kept
            self.workers.request(tune=alone and self.state.follow, asked=self._edited_at)

    def _edit(self, change, *args) -> None:
        """Make the user's change to the state: the wait the figures' note shows starts now."""
        self._edited_at = time.perf_counter()
        try:
            change(*args)
        finally:
            self._edited_at = None

    def _show_state(self, names: frozenset[str]) -> None:
        st = self.state
        if "k" in names:
            self.scheme.set_k(st.k, presets(st.k))
            names = names | {"banding", "threshold", "comparisons", "goal", "follow"}
        if names & {"banding", "comparisons"}:
            self.scheme.set_banding(st.banding)
            self.scheme.set_comparisons(st.comparisons)
            self.plot.set_scheme(st.banding, st.compared())
        if names & {"threshold", "reference"}:
            self.scheme.set_threshold(st.threshold, st.floor)
            self.plot.threshold_bounds(st.floor)
            if not self.plot.line.moving:  # a dragged line follows the mouse, not the rounded threshold
                self.plot.set_threshold(st.threshold)
        if names & {"goal", "follow"}:
            self.tune_panel.set_goal(st.goal)
            self.tune_panel.set_follow(st.follow)

    def _snapshot(self, tune: bool) -> tuple[Banding, float, Goal | None, ExactReference | None]:
        """What a request starting now computes: the scheme, the threshold, the goal if it tunes, the reference."""
        st = self.state
        goal = st.goal if tune else None
        if goal is not None and goal.kind != "weights" and st.reference is None:
            self.tune_panel.reason.setText("Waiting for the exact similarities before tuning for this goal…")
            goal = None
        return st.banding, st.threshold, goal, st.reference

    def _reference_progress(self, p) -> None:
        """The reference's progress, until it is ready (a report queued behind the answer must not cover the figures)."""
        if p.total and self.ref is None:
            self.source.setText(f"Exact similarity: {p.stage}, {p.done:,} of {p.total:,}…")

    def _explored(self, answer: Answer) -> None:
        if answer.tuning is not None:
            self.tuning = answer.tuning
            self.tune_panel.reason.setText("\n".join(answer.tuning.reasons))
            self._answering = True
            try:
                self.state.update(banding=answer.tuning.banding)
            except ParamError:  # a tuning for another result's k: a newer result is shown
                return
            finally:
                self._answering = False
        self.figures = answer.figures
        self._show(answer)

    def _threshold_released(self, t: float) -> None:
        self.state.update(threshold=round(t, 2))
        self.plot.set_threshold(self.state.threshold)  # the line rests where the figures are computed

    # --- showing ------------------------------------------------------------------------------------------------------
    def _clear(self) -> None:
        self.figures = None
        self.plot.set_pairs(plot_pairs(None, None, 0.5))
        self.plot.set_bins(None)
        self.figures_panel.show_figures(None)
        self.use_scheme.show_figures(None, None)
        self.tables.clear()
        self.source.setText(IDLE_TEXT)

    def _show(self, answer: Answer) -> None:
        f, pairs, r = answer.figures, answer.drawn, self.result
        self.use_scheme.show_figures(f, (r.banding, r.params.threshold, len(r.pairs)) if r is not None else None)
        self.plot.set_pairs(pairs)
        self.plot.set_bins(f.bins)
        src = self.ref.describe() if self.ref is not None else "Computing the exact similarity of all pairs…"
        drawn, total = len(pairs.left), f.n_candidates + len(f.others)
        self.source.setText(src + (f" Drawn: {drawn:,} of {total:,} known pairs." if drawn < total else ""))
        self.tables.show_figures(f, self.names, self.ref is not None)
        self.plan.show_figures(f)
        self.figures_panel.show_figures(f)
        self._unseen = answer
        if not self.plot.isVisible():  # no paint to wait for
            self._seen(answer, time.perf_counter())

    def _painted(self, when: float) -> None:
        """The plot was painted: an answer shown before it is now seen (its note is set after this paint)."""
        answer = self._unseen
        if answer is not None:
            QTimer.singleShot(0, lambda: self._seen(answer, when))

    def _seen(self, answer: Answer, when: float) -> None:
        """``answer`` is on screen since ``when``: say how long the user waited since the edit, then score the next
        steps (unless a newer answer came meanwhile)."""
        if answer is not self._unseen:
            return
        self._unseen = None
        self.figures_panel.show_waited(answer.figures, when - answer.asked)
        self.workers.warm_around(answer.figures)

    def choose_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, "Export the S-curve", "scurve.png", "PNG image (*.png);;SVG (*.svg)"
        )
        if path:
            self.export_to(path)

    def export_to(self, path: str) -> None:
        """Save the plot with its legend (PNG or SVG, by the extension)."""
        self.plot.export(path)
