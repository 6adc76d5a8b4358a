"""Long work off the GUI thread: a QThread drives a core generator, forwards its progress and honours cancel."""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable, Generator

from PySide6.QtCore import QThread, Signal

from lshdesk.core.errors import LshdeskError, ScanCancelled


class GeneratorThread(QThread):
    """Runs ``make(cancel_event)`` (a generator yielding progress, returning a result) in its own thread.

    Every signal carries the request id, so the receiver can drop the answer of a request it no longer wants.
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
        rid = self.request_id
        try:
            gen = self._make(self.cancel_event)
            while True:
                try:
                    p = next(gen)
                except StopIteration as stop:
                    result = stop.value
                    break
                if self.cancel_event.is_set():
                    gen.close()
                    raise ScanCancelled("cancelled")
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
