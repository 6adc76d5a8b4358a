"""Long work off the GUI thread: a QThread drives a core generator, forwards its progress and honours cancel."""

from __future__ import annotations

import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Generator
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QThread, Signal
from PySide6.QtWidgets import QWidget

from lshdesk.core.errors import LshdeskError, ScanCancelled
from lshdesk.gui.errors import show_failure

PROGRESS_INTERVAL = 0.04  # seconds: at most ~25 progress reports a second reach the GUI (a new stage always does)


class GeneratorThread(QThread):
    """Runs ``make(cancel_event)`` (a generator yielding progress, returning a result) in its own thread.

    Every signal carries the request id, so the receiver can drop the answer of a request it no longer wants.
    Cancel is checked at every report; reports of one stage closer together than ``PROGRESS_INTERVAL`` are not
    forwarded, so a generator that reports often cannot flood the GUI thread.
    """

    progress = Signal(int, object)
    succeeded = Signal(int, object)
    failed = Signal(int, str, str)  # request id, one-line message, details
    cancelled = Signal(int)

    def __init__(
        self,
        request_id: int,
        make: Callable[[threading.Event], Generator[Any, Any, Any]],
        parent=None,
        nice: bool = True,
    ) -> None:
        super().__init__(parent)
        self.request_id = request_id
        self._make = make
        self.nice = nice  # below the GUI thread's priority (``_yield_cpu_to_the_gui``)
        self.cancel_event = threading.Event()

    def cancel(self) -> None:
        self.cancel_event.set()

    def run(self) -> None:
        if self.nice:
            _yield_cpu_to_the_gui()
        rid = self.request_id
        try:
            gen = self._make(self.cancel_event)
            last_stage, last_time = None, 0.0
            while True:
                try:
                    p = next(gen)
                except StopIteration as stop:
                    result = stop.value
                    break
                if self.cancel_event.is_set():
                    gen.close()
                    raise ScanCancelled("cancelled")
                stage, now = getattr(p, "stage", None), time.monotonic()
                if stage != last_stage or now - last_time >= PROGRESS_INTERVAL:
                    last_stage, last_time = stage, now
                    self.progress.emit(rid, p)
        except ScanCancelled:
            self.cancelled.emit(rid)
            return
        except LshdeskError as e:
            self.failed.emit(rid, str(e), "")
            return
        except Exception as e:  # shown to the user in one dialog, with the details
            self.failed.emit(rid, f"{type(e).__name__}: {e}", traceback.format_exc())
            return
        self.succeeded.emit(rid, result)


T = TypeVar("T")  # what a job's generator returns, handed to its ``on_done``
Failed = Callable[[str, str], None]  # one-line message, details (a traceback, or '' for an LshdeskError)


class WorkerSlot(QObject):
    """One kind of long job of one owner: at most one wanted request at a time, the newest wins.

    ``start`` numbers a request, tells the previous one (if still running) to cancel, and runs ``make`` in a
    ``GeneratorThread``; only the newest request's progress and answer reach its callbacks, on the GUI thread.
    ``cancel`` drops the wanted request. Finished threads are reaped here; ``shutdown`` cancels and waits for all.
    A request without ``on_failed`` shows its failure in the one error dialog (``gui.errors.show_failure``).
    """

    idle = Signal()  # no thread of this slot is running any more (the last one has been reaped)

    def __init__(self, parent: QObject | None = None, title: str = "Failed", nice: bool = True) -> None:
        super().__init__(parent)
        self.title = title  # the error dialog's title for requests without ``on_failed``
        self.nice = nice  # its threads run below the GUI thread's priority (not a short job the user waits for)
        self.request_id = 0  # the newest request; answers of any other are dropped
        self.current: GeneratorThread | None = None  # the thread of the wanted request, while it runs
        self._threads: list[GeneratorThread] = []  # every thread not yet reaped, cancelled ones included
        self._callbacks: tuple = (None, None, None, None)

    @property
    def busy(self) -> bool:
        """True while the wanted request has not answered."""
        return self.current is not None

    @property
    def running(self) -> bool:
        """True while any thread of this slot runs (a cancelled one may still be finishing its step)."""
        return any(th.isRunning() for th in self._threads)

    def start(
        self,
        make: Callable[[threading.Event], Generator[Any, Any, T]],
        on_done: Callable[[T], None],
        on_progress: Callable[[Any], None] | None = None,
        on_failed: Failed | None = None,
        on_cancelled: Callable[[], None] | None = None,
    ) -> int:
        """Run ``make(cancel_event)`` as the newest request (the previous one is cancelled); returns its id."""
        if self.current is not None:
            self.current.cancel()
        self.request_id += 1
        th = GeneratorThread(self.request_id, make, self, self.nice)
        th.progress.connect(self._progress)
        th.succeeded.connect(self._answer)
        th.failed.connect(self._failed)
        th.cancelled.connect(self._cancelled)
        th.finished.connect(self._reap)
        self._callbacks = (on_done, on_progress, on_failed, on_cancelled)
        self.current = th
        self._threads.append(th)
        th.start()
        return self.request_id

    def cancel(self) -> bool:
        """Drop the wanted request (its thread is told to stop); True if there was one."""
        th, self.current = self.current, None
        self.request_id += 1
        if th is None:
            return False
        th.cancel()
        return True

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel and wait for every thread of this slot; True if none is left running."""
        self.cancel()
        for th in self._threads:
            th.cancel()
        ok = all([th.wait(timeout_ms) for th in self._threads])
        self._threads = [th for th in self._threads if th.isRunning()]
        return ok and not self._threads

    def wait(self, timeout_ms: int = 5000) -> bool:
        """Wait for every thread of this slot without cancelling any; True if none is left running."""
        return all([th.wait(timeout_ms) for th in self._threads])

    # --- from the threads (GUI thread) -----------------------------------------------------------------------------
    def _wanted(self, rid: int) -> bool:
        return rid == self.request_id

    def _progress(self, rid: int, p: object) -> None:
        # the newest request's reports, while it runs: none may land after its answer and cover what that showed
        if self._wanted(rid) and self.current is not None and self._callbacks[1] is not None:
            self._callbacks[1](p)

    def _answer(self, rid: int, result: object) -> None:
        if self._wanted(rid):
            self.current = None
            self._callbacks[0](result)

    def _failed(self, rid: int, message: str, details: str) -> None:
        if not self._wanted(rid):
            return
        self.current = None
        if self._callbacks[2] is not None:
            self._callbacks[2](message, details)
        else:
            parent = self.parent()
            show_failure(parent if isinstance(parent, QWidget) else None, self.title, message, details)

    def _cancelled(self, rid: int) -> None:
        if self._wanted(rid):
            self.current = None
            if self._callbacks[3] is not None:
                self._callbacks[3]()

    def _reap(self) -> None:
        for th in [th for th in self._threads if th.isFinished() or th is self.sender()]:
            th.wait()  # 'finished' comes from the thread just before it ends: this returns at once
            self._threads.remove(th)
            th.deleteLater()
        if not self._threads:
            self.idle.emit()


WORKER_NICENESS = 5  # Linux, above the GUI thread's: it gets ~3x the CPU share of a worker when the cores are busy


def _yield_cpu_to_the_gui() -> None:
    """Run this worker thread (and the threads it starts, which inherit it) below the GUI thread's priority.

    A scan's reading threads keep both cores busy; at equal priority the GUI thread waited its turn for a core as
    well as for the GIL. On Linux ``nice`` is per thread; Qt's ``setPriority`` has no effect there for normal
    threads, but is what works on Windows and macOS.
    """
    if sys.platform.startswith("linux"):
        try:
            tid = threading.get_native_id()  # relative to the GUI thread's: `nice lshdesk` keeps the order
            os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + WORKER_NICENESS))
        except OSError:
            pass
    else:
        QThread.currentThread().setPriority(QThread.Priority.LowPriority)
