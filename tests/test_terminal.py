"""The command line's terminal: work off the main thread, Ctrl+C turned into a cancel, errors handed back."""

from __future__ import annotations

import os
import signal
import threading
import time

import numpy as np
import pytest

from lshdesk.terminal import GRACE_SECONDS, off_main

VALUES = np.random.default_rng(5).integers(0, 1000, 200_000)


def _spin_two():
    return np.unique(VALUES, return_counts=True)  # a compiled call returning a tuple of arrays, as banding's merge


def _ctrl_c_in(seconds: float) -> threading.Thread:
    t = threading.Thread(target=lambda: (time.sleep(seconds), os.kill(os.getpid(), signal.SIGINT)))
    t.start()
    return t


def test_the_work_runs_on_a_helper_thread_and_its_value_comes_back():
    names = []
    value = off_main(lambda: names.append(threading.current_thread().name) or 42, threading.Event())
    assert value == 42 and names and names[0] != threading.main_thread().name


def test_an_error_of_the_work_is_raised_in_the_caller():
    def work():
        raise MemoryError("big")

    with pytest.raises(MemoryError, match="big"):
        off_main(work, threading.Event())


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals need the main thread")
def test_ctrl_c_sets_cancel_and_the_work_stops_at_its_next_check():
    cancel = threading.Event()
    stopped = threading.Event()

    def work():  # compiled calls returning tuples until cancelled, as a scan's banding does
        while not cancel.is_set():
            _spin_two()
        stopped.set()

    kicker = _ctrl_c_in(0.3)
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):  # raised in the wait, never inside the work
        off_main(work, cancel)
    kicker.join()
    assert cancel.is_set() and stopped.is_set()
    assert time.monotonic() - t0 < 0.3 + GRACE_SECONDS
