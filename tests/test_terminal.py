"""The command line's terminal: work off the main thread, Ctrl+C turned into a cancel, errors handed back."""

from __future__ import annotations

import os
import signal
import threading
import time

import numba as nb
import numpy as np
import pytest

from lshdesk.terminal import GRACE_SECONDS, off_main


@nb.njit(nogil=True)
def _spin_two(n):  # pragma: no cover - compiled
    s = 0
    for i in range(n):
        s = (s * 31 + i) % 1000003
    return np.full(2, s), np.empty(0)  # a tuple of arrays: its boxing runs bytecode (numba's unpickling)


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
            _spin_two(200_000)
        stopped.set()

    _spin_two(1)
    kicker = _ctrl_c_in(0.3)
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):  # not SystemError: the interrupt never lands inside a compiled call
        off_main(work, cancel)
    kicker.join()
    assert cancel.is_set() and stopped.is_set()
    assert time.monotonic() - t0 < 0.3 + GRACE_SECONDS
