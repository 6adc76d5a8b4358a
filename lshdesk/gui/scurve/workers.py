"""The S-curve view's background work: one thread builds the exact reference, explore requests run one at a time.

A request starts at once when none runs (a debounce of 120 ms came first before: a slider step took 150-390 ms to
its figures on a 6,500-document result, 2 cores at load 10). Requests are numbered and only the newest one's answer
is passed on: an older thread still running is told to cancel, and the newest request starts when it ends, so a
burst of steps costs one re-band behind the last. The answer carries what the plot draws (``plot_pairs``: 15-40 ms
of joins over 200,000 known pairs, on the GUI thread before) and when it was asked for, so the view can say how long
the user waited. Once an answer is on screen (``warm_around``, from the view), a third thread scores the candidates of the schemes one slider step away
(``tune.warm``: most of a first visit's time is the exact Jaccard of its new candidates); any request stops it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QObject, Signal

from lshdesk.core.explore.exact import ExactReference, build_reference
from lshdesk.core.explore.figures import Figures
from lshdesk.core.explore.known import KnownJaccard, measured_candidates
from lshdesk.core.explore.tune import Goal, Tuning, explore_request, neighbours, warm
from lshdesk.core.params import Banding
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.plots.scurve_pairs import PlotPairs, plot_pairs
from lshdesk.gui.workers import WorkerSlot

# (tune?) -> scheme, threshold, goal, exact reference: what a request starting now computes (the explorer's state)
Snapshot = Callable[[bool], tuple[Banding, float, Goal | None, ExactReference | None]]


@dataclass(frozen=True)
class Answer:
    """One request's answer: the tuning (if asked), the figures, the pairs to draw, and when it was asked for."""

    tuning: Tuning | None
    figures: Figures
    drawn: PlotPairs
    asked: float  # time.perf_counter() of the change that asked for it


class ExploreWorkers(QObject):
    """Runs the view's work off the GUI thread; ``snapshot`` reads the state when a request starts."""

    explored = Signal(object)  # Answer of the newest request
    referenceReady = Signal(object)  # ExactReference
    referenceProgress = Signal(object)  # pipeline.Progress
    failed = Signal(str)

    def __init__(self, snapshot: Snapshot, max_points: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.snapshot = snapshot
        self.max_points = max_points  # pairs drawn at most
        self.result: ScanResult | None = None
        self.is_ref: np.ndarray | None = None
        self.known: KnownJaccard | None = None  # similarities computed for this result: a scheme seen again is quick
        self.reference = WorkerSlot(self)  # the exact reference of the result shown
        # the figures of the newest request: a short job the user waits for, at the GUI thread's priority (at nice 5
        # beside other busy processes it got a third of their share of a core: 90-140 ms a step where 25-50 alone)
        self.explore = WorkerSlot(self, nice=False)
        self.warm = WorkerSlot(self)  # the next steps' candidates, scored while the user looks
        self.warming = True
        self._pending = False  # a request waits for the running one to end
        self._tune_next = False
        self._asked = 0.0  # when the newest request was made
        self.explore.idle.connect(self._launch)  # a newer request waited for the one that just ended

    def idle(self) -> bool:
        """True when no explore request is waiting, running, or answered but not yet shown (a thread ends before
        the GUI thread takes its queued answer)."""
        return not (self._pending or self.explore.busy or self.explore.running)

    def reset(self, result: ScanResult | None, schemes: list[Banding]) -> None:
        """Drop all work; for a new result, start its exact reference (``schemes``: the loosest gives the pool)."""
        self.cancel_all()
        self.result = result
        self.known = KnownJaccard(result.shingles) if result is not None else None
        if result is not None and result.params.measure == "jaccard":
            self.known.seed(*measured_candidates(result))  # the scan's own scheme costs only its banding
        self.is_ref = np.isin(result.docs.root, np.asarray(result.reference)) if result and result.reference else None
        if result is None:
            return
        is_ref = self.is_ref
        self.reference.start(
            lambda cancel: build_reference(result.signatures, result.shingles, schemes, is_ref, cancel),
            self.referenceReady.emit,
            on_progress=self.referenceProgress.emit,
            on_failed=self._failed,
        )

    def request(self, tune: bool = False, asked: float | None = None) -> None:
        """Ask for new figures (after auto-tune if ``tune``): now, or when the running request ends; older answers
        are dropped. ``asked``: when the user made the change (``time.perf_counter()``; default now)."""
        if self.result is None:
            return
        self.warm.cancel()
        self.explore.cancel()
        self._pending, self._tune_next = True, tune
        self._asked = time.perf_counter() if asked is None else asked
        self._launch()

    def cancel_all(self) -> None:
        self._pending = False
        self.explore.cancel()
        self.warm.cancel()
        self.reference.cancel()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel all work and wait for the threads; True if none is left running."""
        self.cancel_all()
        return all([slot.shutdown(timeout_ms) for slot in (self.explore, self.warm, self.reference)])

    # --- inside -----------------------------------------------------------------------------------------------------------
    def _launch(self) -> None:
        r = self.result
        if r is None or not self._pending or self.explore.running:  # one at a time: the newest starts when it ends
            return
        self._pending = False
        banding, t, goal, ref = self.snapshot(self._tune_next)
        is_ref, known, asked, cap = self.is_ref, self.known, self._asked, self.max_points

        def job(cancel):
            tuning, figures = yield from explore_request(
                r.signatures, r.shingles, ref, t, banding, goal, is_ref, cancel, known
            )
            return Answer(tuning, figures, plot_pairs(figures, ref, figures.threshold, cap), asked)

        self.explore.start(job, self._answered, on_failed=self._failed)

    def warm_around(self, figures: Figures) -> None:
        """Score the candidates of the schemes one step from ``figures``' (the view calls it once they are seen:
        a warming thread beside the GUI thread's drawing of the answer slowed it down)."""
        r, known = self.result, self.known
        if self.warming and r is not None and known is not None and not (self._pending or self.explore.busy):
            schemes, is_ref = neighbours(figures.banding, r.signatures.shape[1]), self.is_ref
            self.warm.start(lambda cancel: warm(r.signatures, known, schemes, is_ref, cancel), lambda _n: None)

    def _answered(self, answer: Answer) -> None:
        self.explored.emit(answer)

    def _failed(self, message: str, _details: str) -> None:
        self.failed.emit(message)
