"""The S-curve view's background work: one thread builds the exact reference, explore requests run one at a time.

Requests are debounced (a slider drag sends one request when it pauses), numbered, and only the newest one's answer
is passed on: an older thread still running is told to cancel, and the newest request starts when it ends.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from lshdesk.core.explore.exact import ExactReference, build_reference
from lshdesk.core.explore.known import KnownJaccard, measured_candidates
from lshdesk.core.explore.tune import Goal, explore_request
from lshdesk.core.params import Banding
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.workers import WorkerSlot

DEBOUNCE_MS = 120

Snapshot = Callable[[bool], tuple[Banding, float, Goal | None]]  # (tune?) -> scheme, threshold, goal


class ExploreWorkers(QObject):
    """Runs the view's work off the GUI thread; ``snapshot`` reads the controls when a request starts."""

    explored = Signal(object)  # (Tuning | None, Figures) of the newest request
    referenceReady = Signal(object)  # ExactReference
    referenceProgress = Signal(object)  # pipeline.Progress
    failed = Signal(str)

    def __init__(self, snapshot: Snapshot, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.snapshot = snapshot
        self.result: ScanResult | None = None
        self.ref: ExactReference | None = None
        self.is_ref: np.ndarray | None = None
        self.known: KnownJaccard | None = None  # similarities computed for this result: a scheme seen again is quick
        self.reference = WorkerSlot(self)  # the exact reference of the result shown
        self.explore = WorkerSlot(self)  # the figures of the newest request
        self._pending = False  # a request waits for its debounce or for the running one to end
        self._tune_next = False
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._timer.timeout.connect(self._launch)
        self.explore.idle.connect(self._explore_idle)

    def idle(self) -> bool:
        """True when no explore request is waiting, running, or answered but not yet shown (a thread ends before
        the GUI thread takes its queued answer)."""
        return not (self._pending or self._timer.isActive() or self.explore.busy or self.explore.running)

    def reset(self, result: ScanResult | None, schemes: list[Banding]) -> None:
        """Drop all work; for a new result, start its exact reference (``schemes``: the loosest gives the pool)."""
        self.cancel_all()
        self.result, self.ref = result, None
        self.known = KnownJaccard(result.shingles) if result is not None else None
        if result is not None and result.params.measure == "jaccard":
            self.known.seed(*measured_candidates(result))  # the scan's own scheme costs only its banding
        self.is_ref = np.isin(result.docs.root, np.asarray(result.reference)) if result and result.reference else None
        if result is None:
            return
        is_ref = self.is_ref
        self.reference.start(
            lambda cancel: build_reference(result.signatures, result.shingles, schemes, is_ref, cancel),
            self._ref_done,
            on_progress=self.referenceProgress.emit,
            on_failed=self._failed,
        )

    def request(self, tune: bool = False, now: bool = False) -> None:
        """Ask for new figures (after auto-tune if ``tune``); debounced unless ``now``; older answers are dropped."""
        if self.result is None:
            return
        self.explore.cancel()
        self._pending, self._tune_next = True, tune
        if now:
            self._timer.stop()
            self._launch()
        else:
            self._timer.start()

    def cancel_all(self) -> None:
        self._timer.stop()
        self._pending = False
        self.explore.cancel()
        self.reference.cancel()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel all work and wait for the threads; True if none is left running."""
        self.cancel_all()
        return all([slot.shutdown(timeout_ms) for slot in (self.explore, self.reference)])

    # --- inside -----------------------------------------------------------------------------------------------------------
    def _launch(self) -> None:
        r = self.result
        if r is None or not self._pending or self.explore.running:  # one at a time: the newest starts when it ends
            return
        self._pending = False
        banding, t, goal = self.snapshot(self._tune_next)
        ref, is_ref, known = self.ref, self.is_ref, self.known
        self.explore.start(
            lambda cancel: explore_request(r.signatures, r.shingles, ref, t, banding, goal, is_ref, cancel, known),
            self.explored.emit,
            on_failed=self._failed,
        )

    def _explore_idle(self) -> None:
        if not self._timer.isActive():
            self._launch()  # a newer request waited for the one that just ended

    def _ref_done(self, ref: ExactReference) -> None:
        self.ref = ref
        self.referenceReady.emit(ref)

    def _failed(self, message: str, _details: str) -> None:
        self.failed.emit(message)
