"""Long work off the GUI thread: a QThread drives a core generator, forwards its progress and honours cancel."""

from __future__ import annotations

import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Generator

from PySide6.QtCore import QThread, Signal

from lshdesk.core.errors import LshdeskError, ScanCancelled

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

    def __init__(self, request_id: int, make: Callable[[threading.Event], Generator], parent=None) -> None:
        super().__init__(parent)
        self.request_id = request_id
        self._make = make
        self.cancel_event = threading.Event()

    def cancel(self) -> None:
        self.cancel_event.set()

    def run(self) -> None:
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


WORKER_NICENESS = 5  # Linux: the GUI thread gets ~3x the CPU share of a worker when the cores are busy


def _yield_cpu_to_the_gui() -> None:
    """Run this worker thread (and the threads it starts, which inherit it) below the GUI thread's priority.

    A scan's reading threads keep both cores busy; at equal priority the GUI thread waited its turn for a core as
    well as for the GIL. On Linux ``nice`` is per thread; Qt's ``setPriority`` has no effect there for normal
    threads, but is what works on Windows and macOS.
    """
    if sys.platform.startswith("linux"):
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), WORKER_NICENESS)
        except OSError:
            pass
    else:
        QThread.currentThread().setPriority(QThread.Priority.LowPriority)


_warmed = False


def warm_up() -> None:
    """Load the compiled kernels of a default scan, on this thread, once per process (app start-up, before the window).

    The first kernel loaded imports numba's helpers (and scipy, when installed), holding the GIL for tens of
    milliseconds at a time: left to the scan worker, the GUI stalled for up to a quarter of a second during the
    first scan. Other families' kernels load from numba's cache in ~10 ms each when first used.
    """
    global _warmed
    if _warmed:
        return
    _warmed = True
    import tempfile
    from pathlib import Path

    from lshdesk.core.params import ScanParams
    from lshdesk.core.scan.pipeline import run, scan

    with tempfile.TemporaryDirectory(prefix="lshdesk-warm-") as tmp:  # two tiny files through the real pipeline
        for i, text in enumerate(("Warm up the kernels before the first scan.", "Warm up the kernels before a scan.")):
            Path(tmp, f"{i}.txt").write_text(text, encoding="utf-8")
        run(scan([tmp], ScanParams(threshold=0.5)))
        from lshdesk.core.kernels.explore import warm

    warm()  # the S-curve explorer's kernels, so its first request does not pause the GUI
