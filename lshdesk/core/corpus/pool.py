"""Extraction of PDF, DOCX, ODT and EPUB in worker processes, one per core, each file under a time limit.

Those extractors are pure Python: on the scan's threads they held the GIL (the window waited) and used one core.
Here the scan's reading threads hand the bytes they read to ``ExtractPool.submit`` and wait on the future it
returns (``threads.wait_for``, so Cancel is seen at once). One dispatcher thread gives each file to an idle worker
process and watches the clock: a worker past ``time_limit`` on one file is killed (the file skipped with that
reason) and replaced; a worker that dies skips its file with a reason too. Processes start on the first file
that needs one (a scan of plain text starts none, nor loads ``multiprocessing``: ~14 ms), by ``spawn`` (safe
beside threads), and end at ``close``. A worker returns the text and, for word shingling, its ``token_bytes``.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lshdesk.core.corpus.extract import extract_text
from lshdesk.core.errors import NotText, ScanCancelled

if TYPE_CHECKING:
    from concurrent.futures import Future
    from multiprocessing.connection import Connection

POOLED = frozenset({"pdf", "docx", "odt", "epub"})  # the formats worth a process (the others are cheap)
TIME_LIMIT = 30.0  # seconds one file's extraction may take (the scan's default)
Answer = tuple[str, str | None, bytes | None]  # (reason the file is skipped, or "", text, token bytes)
READY = "ready"


class PoolBroken(RuntimeError):
    """The worker processes cannot start in this host: extract on the calling thread instead."""


def extract_job(data: bytes, name: str, formats: frozenset[str] | None, tokens: bool) -> Answer:
    """What a worker does with one file: its text (and token bytes), or the reason it has none."""
    try:
        text = extract_text(data, name, formats)
    except NotText as e:
        return str(e), None, None
    if not tokens:
        return "", text, None
    from lshdesk.core.shingling import token_bytes

    return "", text, token_bytes(text)


def _serve(conn: Connection, job: Callable[..., Answer]) -> None:  # pragma: no cover - runs in the worker process
    conn.send(READY)  # started: from here a death is the file's doing, not the host's
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer = job(*task)
        except Exception as e:  # noqa: BLE001 - a failure is the file's skip reason, the worker lives on
            answer = (f"extraction failed: {type(e).__name__}", None, None)
        conn.send(answer)


class _Worker:
    def __init__(self, ctx: Any, job: Callable[..., Answer]) -> None:  # a multiprocessing context
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, job), daemon=True, name="lshdesk-extract")
        self.proc.start()
        child.close()
        self.future: Future | None = None
        self.deadline = 0.0
        self.ready = False

    def kill(self) -> None:
        self.proc.kill()
        self.proc.join(5)
        self.conn.close()


class ExtractPool:
    """Worker processes extracting files' text; ``submit`` gives a future of an ``Answer``; ``close`` ends them."""

    def __init__(
        self, workers: int | None = None, time_limit: float = TIME_LIMIT, job: Callable[..., Answer] = extract_job
    ) -> None:
        self.size = max(1, workers or os.cpu_count() or 1)
        self.time_limit = time_limit
        self.job = job
        self.started = 0  # worker processes started so far (replacements included)
        self._tasks: queue.SimpleQueue = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._closed = False
        self.broken = False  # set when a worker could not start: the callers extract on their own thread
        self._stop = threading.Event()

    def submit(self, data: bytes, name: str, formats: frozenset[str] | None, tokens: bool) -> Future:
        """Extract ``data`` (the bytes of file ``name``) in a worker; the future's result is an ``Answer``."""
        from concurrent.futures import Future
        from multiprocessing import Pipe

        fut: Future = Future()
        with self._lock:
            if self._closed:
                raise RuntimeError("the extraction pool is closed")
            if self._thread is None:
                self._wake_r, self._wake_w = Pipe(duplex=False)  # a new file wakes the dispatcher at once
                self._thread = threading.Thread(target=self._dispatch, name="lshdesk-extract", daemon=True)
                self._thread.start()
            self._tasks.put((fut, (data, name, formats, tokens)))
            self._wake_w.send_bytes(b"")
        return fut

    def close(self) -> None:
        """End the workers now; a file still waiting or at work is abandoned (its future raises ScanCancelled)."""
        with self._lock:
            self._closed = True
            thread = self._thread
        if thread is not None:
            self._stop.set()
            self._tasks.put(None)  # wakes the dispatcher when it sleeps for want of work
            self._wake_w.send_bytes(b"")
            thread.join()
            self._wake_r.close()
            self._wake_w.close()

    def __enter__(self) -> ExtractPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the dispatcher thread ---------------------------------------------------------------------------------------
    def _dispatch(self) -> None:
        import multiprocessing
        from multiprocessing.connection import wait

        ctx = multiprocessing.get_context("spawn")
        idle: list[_Worker] = []
        busy: list[_Worker] = []
        closing = False
        try:
            while not closing and not self._stop.is_set():
                while len(busy) < self.size:  # hand out files while a worker is free
                    try:
                        task = self._tasks.get() if not busy else self._tasks.get_nowait()  # idle: sleep till work
                    except queue.Empty:
                        break
                    if task is None:
                        closing = True
                        break
                    fut, payload = task
                    if not fut.set_running_or_notify_cancel():
                        continue
                    w = idle.pop() if idle else self._spawn(ctx)
                    w.future, w.deadline = fut, time.monotonic() + self.time_limit
                    w.conn.send(payload)
                    busy.append(w)
                if closing or not busy:
                    continue
                soonest = min(w.deadline for w in busy)
                ready = wait([self._wake_r] + [w.conn for w in busy], timeout=max(0.0, soonest - time.monotonic()))
                while self._wake_r.poll():
                    self._wake_r.recv_bytes()
                now = time.monotonic()
                for w in list(busy):
                    if w.conn in ready:
                        self._answer(w, busy, idle)
                    elif now >= w.deadline:
                        busy.remove(w)
                        w.kill()
                        self._set(w.future, (f"extraction took longer than {self.time_limit:g} s", None, None))
        finally:
            for w in busy + idle:
                w.kill()
                self._abandon(w.future)
            self._drain()

    def _spawn(self, ctx: Any) -> _Worker:
        self.started += 1
        return _Worker(ctx, self.job)

    def _answer(self, w: _Worker, busy: list[_Worker], idle: list[_Worker]) -> None:
        try:
            answer = w.conn.recv()
        except (EOFError, OSError):  # the worker died: on this file (a crash, killed for memory), or at its start
            busy.remove(w)
            w.kill()
            if not w.ready:  # a host whose main module a spawned process cannot run (python -, an embedding)
                self.broken = True
                if w.future is not None and not w.future.done():
                    w.future.set_exception(PoolBroken("the extraction processes cannot start here"))
                return
            self._set(w.future, ("the extractor stopped working on this file", None, None))
            return
        if answer == READY:
            w.ready = True
            return
        busy.remove(w)
        self._set(w.future, answer)
        w.future = None
        idle.append(w)

    @staticmethod
    def _set(fut: Future | None, answer: Answer) -> None:
        if fut is not None and not fut.done():
            fut.set_result(answer)

    def _drain(self) -> None:
        while True:
            try:
                task = self._tasks.get_nowait()
            except queue.Empty:
                return
            if task is not None:
                self._abandon(task[0])

    @staticmethod
    def _abandon(fut: Future | None) -> None:
        if fut is not None and not fut.done():
            fut.set_exception(ScanCancelled("cancelled"))
