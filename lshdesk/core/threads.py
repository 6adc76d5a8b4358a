"""Helper threads for the scan's compiled work (``Workers``), and waiting on them so that Ctrl+C and Cancel are
answered at once, never after stuck work finishes."""

from __future__ import annotations

import threading
import time
from _queue import Empty, SimpleQueue  # (the queue module loads heapq: ~2 ms)
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

from lshdesk.core.errors import check_cancel

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)
POLL_SECONDS = 0.1


class Cancelled(Exception):
    """The outcome of a task ``Workers.shutdown`` dropped before it ran."""


class Task(Generic[T]):
    """A call handed to ``Workers``: its outcome once it has run (what the scan used of concurrent.futures.Future)."""

    __slots__ = ("_done", "_value", "_error")

    def __init__(self) -> None:
        self._done = threading.Event()
        self._value: Any = None
        self._error: BaseException | None = None

    @classmethod
    def of(cls, value: T) -> Task[T]:
        """A task already done, with ``value``."""
        task: Task[T] = cls()
        task._settle(value, None)
        return task

    def _settle(self, value: Any, error: BaseException | None) -> None:
        self._value, self._error = value, error
        self._done.set()

    def done(self) -> bool:
        return self._done.is_set()

    def result(self, timeout: float | None = None) -> T:
        """The call's value, or its exception raised here; TimeoutError if it has not run within ``timeout``."""
        if not self._done.wait(timeout):
            raise TimeoutError
        if self._error is not None:
            raise self._error
        return self._value


class Workers:
    """Up to ``n`` helper threads running the calls submitted, in turn (what the scan used of ThreadPoolExecutor,
    which loads concurrent.futures and logging: ~8 ms of every scan that reads a file). A thread starts at a
    submit while fewer than ``n`` run. Daemon threads: a process never waits at exit on a call stuck in a system
    call (a cancelled scan of a hung network folder)."""

    def __init__(self, n: int, name: str) -> None:
        self._n, self._name = max(1, n), name
        self._queue: SimpleQueue = SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._closed = False

    def submit(self, fn: Callable[..., T], *args: Any) -> Task[T]:
        if self._closed:
            raise RuntimeError("submit after shutdown")
        task: Task[T] = Task()
        self._queue.put((task, fn, args))
        if len(self._threads) < self._n:
            t = threading.Thread(target=self._work, name=f"{self._name}-{len(self._threads)}", daemon=True)
            t.start()
            self._threads.append(t)
        return task

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        """No more submits; with ``cancel_futures`` the calls not begun are dropped (``Cancelled``); with ``wait``,
        returns once the threads are done."""
        self._closed = True
        while cancel_futures:
            try:
                item = self._queue.get_nowait()
            except Empty:
                break
            if item is not None:
                item[0]._settle(None, Cancelled())
        for _ in self._threads:
            self._queue.put(None)
        if wait:
            for t in self._threads:
                t.join()

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            task, fn, args = item
            item = None
            try:
                task._settle(fn(*args), None)
            except BaseException as e:  # the caller's result() raises it
                task._settle(None, e)
            task = fn = args = None  # nothing held while the thread waits for the next call


class Waitable(Protocol[T_co]):
    def result(self, timeout: float | None = None) -> T_co: ...


def wait_for(future: Waitable[T], cancel: threading.Event | None = None) -> T:
    """The result of a ``Task`` (or a concurrent.futures.Future), waited for in short steps: the cancel flag and
    Ctrl+C are seen within ``POLL_SECONDS``."""
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
