"""Waiting on helper threads so that Ctrl+C and Cancel are answered at once, never after stuck work finishes."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TypeVar

from lshdesk.core.errors import check_cancel

T = TypeVar("T")
POLL_SECONDS = 0.1


def wait_for(future: Future[T], cancel: threading.Event | None = None) -> T:
    """The future's result, waited for in short steps: the cancel flag and Ctrl+C are seen within ``POLL_SECONDS``."""
    while True:
        try:
            return future.result(timeout=POLL_SECONDS)
        except FutureTimeout:
            check_cancel(cancel)
