"""The Dask engine's plumbing: cutting the file list into partitions, and the task graph it submits and watches."""

from __future__ import annotations

import math
import operator
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from lshdesk.core.errors import ScanCancelled
from lshdesk.core.scan.progress import Progress

if TYPE_CHECKING:
    from distributed import Client, Future

MAX_PARTITION_FILES = 250_000  # a worker holds a partition's shingle sets: ~0.5 GB at 500 shingles per document
MIN_PARTITION_FILES = 4096  # ~0.2 s of reading and signing: below that, scheduling costs more than it spreads
PARTITIONS_PER_THREAD = 2  # some slack to balance uneven files; the shuffles grow as partitions squared


def plan_partitions(n_files: int, n_threads: int, partition_files: int | None = None) -> list[tuple[int, int]]:
    """Consecutive ``(start, stop)`` file ranges: a few per worker thread, none over ``MAX_PARTITION_FILES``."""
    if n_files == 0:
        return []
    if partition_files is None:
        wanted = max(PARTITIONS_PER_THREAD * n_threads, math.ceil(n_files / MAX_PARTITION_FILES))
        n_parts = min(math.ceil(n_files / MIN_PARTITION_FILES), wanted)
        partition_files = math.ceil(n_files / max(n_parts, 1))
    return [(a, min(a + partition_files, n_files)) for a in range(0, n_files, partition_files)]


class Graph:
    """Submits the scan's tasks under readable keys, watches them for progress, cancels them all on request."""

    def __init__(self, client: Client, cancel: threading.Event | None, t0: float) -> None:
        self.client, self.cancel, self.t0 = client, cancel, t0
        self.tag = uuid.uuid4().hex[:8]
        self.live: weakref.WeakSet[Future] = weakref.WeakSet()  # not a list: results nobody holds are freed early
        self.count = 0

    def submit(self, name: str, fn: Callable, *args: Any) -> Future:
        self.count += 1
        fut = self.client.submit(fn, *args, key=f"lshdesk-{name}-{self.tag}-{self.count}", pure=False)
        self.live.add(fut)
        return fut

    def item(self, fut: Future, i: int) -> Future:
        return self.submit("piece", operator.getitem, fut, i)

    def check(self) -> None:
        if self.cancel is not None and self.cancel.is_set():
            self.release()
            raise ScanCancelled("scan cancelled")

    def release(self) -> None:
        """Cancel what still runs and let the workers drop every result of this scan."""
        for fut in list(self.live):  # Client.cancel trips a scheduler assertion on tasks nobody wants any more
            fut.release()  # work not started is dropped; a task already running finishes, its result discarded
        self.live = weakref.WeakSet()

    def watch(
        self,
        futs: list[Future],
        report: Callable[[list[int]], Progress],
        poll: Callable[[], Progress | None] | None = None,
    ) -> Generator[Progress, None, None]:
        """Yield ``report(indices finished since the last report)`` until all are done, and ``poll()`` between
        (news from tasks still running, or None); raise a task's error."""
        pending = set(range(len(futs)))
        while pending:
            self.check()
            done = [i for i in pending if futs[i].done()]
            if not done:
                news = poll() if poll is not None else None
                if news is not None:
                    yield news
                time.sleep(0.05)
                continue
            pending.difference_update(done)
            for i in done:
                if futs[i].status != "finished":
                    futs[i].result()  # raises the task's exception, with the worker's traceback
            yield report(done)

    def elapsed(self) -> float:
        return time.perf_counter() - self.t0
