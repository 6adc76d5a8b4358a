"""The S-curve view's background work: one thread builds the exact reference, explore requests run one at a time.

Requests are debounced (a slider drag sends one request when it pauses), numbered, and only the newest one's answer
is passed on: an older thread still running is told to cancel, and the newest request starts when it ends.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QObject, QTimer, Signal

from lshdesk.core.explore.exact import ExactReference, build_reference
from lshdesk.core.explore.tune import Goal, explore_request
from lshdesk.core.params import Banding
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.gui.workers import GeneratorThread

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
        self._rid = 0  # the newest explore request
        self._ref_rid = 0
        self._tune_next = False
        self._busy: GeneratorThread | None = None
        self._threads: list[GeneratorThread] = []
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._timer.timeout.connect(self._launch)

    def idle(self) -> bool:
        """True when no explore request is waiting or running."""
        return self._busy is None and not self._timer.isActive()

    def reset(self, result: ScanResult | None, schemes: list[Banding]) -> None:
        """Drop all work; for a new result, start its exact reference (``schemes``: the loosest gives the pool)."""
        self.cancel_all()
        self.result, self.ref = result, None
        self.is_ref = np.isin(result.docs.root, np.asarray(result.reference)) if result and result.reference else None
        if result is None:
            return
        self._ref_rid += 1
        is_ref = self.is_ref
        th = GeneratorThread(
            self._ref_rid,
            lambda cancel: build_reference(result.signatures, result.shingles, schemes, is_ref, cancel),
            self,
        )
        th.progress.connect(self._ref_progress)
        th.succeeded.connect(self._ref_done)
        self._start(th)

    def request(self, tune: bool = False, now: bool = False) -> None:
        """Ask for new figures (after auto-tune if ``tune``); debounced unless ``now``; older answers are dropped."""
        if self.result is None:
            return
        self._rid += 1
        self._tune_next = tune
        if now:
            self._timer.stop()
            self._launch()
        else:
            self._timer.start()

    def cancel_all(self) -> None:
        self._timer.stop()
        self._rid += 1
        self._ref_rid += 1
        for th in self._threads:
            th.cancel()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel all work and wait for the threads; True if none is left running."""
        self.cancel_all()
        ok = all([th.wait(timeout_ms) for th in list(self._threads)])
        self._threads = [th for th in self._threads if th.isRunning()]
        return ok and not self._threads

    # --- inside -----------------------------------------------------------------------------------------------------------
    def _start(self, th: GeneratorThread) -> None:
        th.failed.connect(self._failed)
        th.finished.connect(self._finished)
        self._threads.append(th)
        th.start()

    def _launch(self) -> None:
        r = self.result
        if r is None:
            return
        if self._busy is not None:  # one at a time: the newest starts when this one ends
            self._busy.cancel()
            return
        banding, t, goal = self.snapshot(self._tune_next)
        ref, is_ref = self.ref, self.is_ref
        th = GeneratorThread(
            self._rid,
            lambda cancel: explore_request(r.signatures, r.shingles, ref, t, banding, goal, is_ref, cancel),
            self,
        )
        th.succeeded.connect(self._done)
        self._busy = th
        self._start(th)

    def _done(self, rid: int, answer) -> None:
        if rid == self._rid:  # else a newer request is on its way
            self.explored.emit(answer)

    def _ref_progress(self, rid: int, p) -> None:
        if rid == self._ref_rid:
            self.referenceProgress.emit(p)

    def _ref_done(self, rid: int, ref: ExactReference) -> None:
        if rid == self._ref_rid:
            self.ref = ref
            self.referenceReady.emit(ref)

    def _failed(self, rid: int, message: str, details: str) -> None:
        if rid in (self._rid, self._ref_rid):
            self.failed.emit(message)

    def _finished(self) -> None:
        th = self.sender()
        if not isinstance(th, GeneratorThread):
            return
        th.wait()  # it has emitted ``finished``: only its last instructions are left
        self._threads = [x for x in self._threads if x is not th]
        th.deleteLater()
        if th is self._busy:
            self._busy = None
            if th.request_id != self._rid and not self._timer.isActive():
                self._launch()  # a newer request waited for this one
