"""Waiting on helper threads so that Ctrl+C and Cancel are answered at once, never after stuck work finishes."""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, TypeVar

from lshdesk.core.errors import check_cancel

if TYPE_CHECKING:
    from concurrent.futures import Future

T = TypeVar("T")
POLL_SECONDS = 0.1


def wait_for(future: Future[T], cancel: threading.Event | None = None) -> T:
    """The future's result, waited for in short steps: the cancel flag and Ctrl+C are seen within ``POLL_SECONDS``."""
    while True:
        try:
            return future.result(timeout=POLL_SECONDS)
        except TimeoutError:  # concurrent.futures.TimeoutError is this one since Python 3.11
            check_cancel(cancel)


_yield_until = 0.0  # time.monotonic() until which background Python work steps back for the GUI thread
YIELD_STEP = 0.005  # seconds a background thread sleeps at a time while it steps back


def give_way(seconds: float) -> None:
    """Ask background threads that run Python between compiled calls (the scan's readers) to step back for the
    next ``seconds``: the GUI thread relayouts the window after a resize or a tab switch (tens of milliseconds of
    Qt calling back into Python), and with two readers holding the GIL in turns it waited two slices in three."""
    global _yield_until
    _yield_until = max(_yield_until, time.monotonic() + seconds)


def step_back() -> None:
    """Called by a background thread between two small pieces of work: sleeps while ``give_way`` asks it to."""
    while (left := _yield_until - time.monotonic()) > 0:
        time.sleep(min(left, YIELD_STEP))
