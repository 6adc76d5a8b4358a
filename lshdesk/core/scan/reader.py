"""The scan's reading stage: batches of listed files read, shingled and signed on helper threads, started while
the listing goes on, and taken in listing order.

A helper thread reads a batch (``frontend``: a compiled, GIL-free read of its files, then GIL-free shingling
and signing). Batches are bounded in files and bytes (``frontend.BATCH_FILES``, ``frontend.BATCH_BYTES``), so
progress flows and cancel answers within a batch. A batch is cut as soon as the listing has filled it. While the
listing goes on, ``READERS_WHILE_LISTING`` threads read, so the listing keeps a core: on two cores, docs6k
(6,059 files) took 0.057-0.061 s instead of 0.069-0.071 s listing first, and 100k files 1.35 s instead of 1.5 s;
with every thread reading during the listing, the three threads took turns on two cores and nothing was gained.
Then ``WORKERS`` threads read the rest. Results are taken in listing order, so the output does not depend on
timing.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Generator, Sequence

import numpy as np

from lshdesk.core.corpus.extract import EXTRACT_VERSION, format_of_extension
from lshdesk.core.corpus.listing import Skipped
from lshdesk.core.corpus.pool import ExtractPool
from lshdesk.core.errors import check_cancel
from lshdesk.core.minhash import HashFamily
from lshdesk.core.params import ScanParams
from lshdesk.core.scan.cache import SignatureCache, params_key
from lshdesk.core.scan.frontend import BATCH_FILES, Prepared, full, read_and_sign_cached, read_and_sign_listed
from lshdesk.core.scan.listed import Listing
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scan.store import ScanStore
from lshdesk.core.shingling import IDS_VERSION, ShingleBatch
from lshdesk.core.threads import Workers, wait_for

WORKERS = max(2, os.cpu_count() or 2)  # threads that read and sign batches (system calls and kernels: no GIL)
READERS_WHILE_LISTING = max(1, min(WORKERS, (os.cpu_count() or 2) - 1))  # the listing thread needs a core


class CacheUse:
    """What one scan does with the signature cache, a batch at a time: look up the batch's files worth caching,
    remember those it read. Plain text is read, tokenized and signed faster than its cache row is fetched (100k
    files: 2.5 s cold without a cache, 2.0 s from the cache, 4.3 s writing it): only files that need an extractor
    are cached."""

    def __init__(self, cache: SignatureCache, params: ScanParams, family: HashFamily) -> None:
        sp = params.signature
        self.cache, self.k, self.dtype = cache, sp.k, family.dtype
        self.key = params_key(sp, np.uint32, family.dtype, f"ids{IDS_VERSION}|x{EXTRACT_VERSION}")
        self.worth_paths: set[str] = set()

    def hits(self, files: Listing, index: range) -> tuple[set[int], dict]:
        """The batch's files worth caching, and those found in the cache unchanged (index -> Entry)."""
        worth = [i for i in index if format_of_extension(files.paths[i]) not in (None, "txt")]
        if not worth:
            return set(), {}
        self.worth_paths.update(files.paths[i] for i in worth)
        found = self.cache.lookup(
            self.key, [(files.paths[i], files.stamp(i)) for i in worth], np.uint32, self.dtype, self.k
        )
        return set(worth), {worth[j]: e for j, e in found.items()}

    def remember(
        self, files: Listing, prep: Prepared, batch: ShingleBatch, sigs: np.ndarray, worth: set[int], hits: dict
    ) -> None:
        rows = [
            (files.paths[i], files.stamp(i), int(batch.n_tokens[j]), batch.doc(j), sigs[j])
            for j, i in enumerate(prep.ok)
            if i in worth and i not in hits
        ]
        if rows:
            self.cache.store(self.key, rows)

    def finish(self, roots: Sequence[str]) -> None:
        self.cache.forget_missing(self.key, roots, self.worth_paths)


class ReadStage:
    """Reads the files of ``files`` (a growing listing) in batches on helper threads, keeping what they give."""

    def __init__(self, files: Listing, params: ScanParams, family: HashFamily, cache: SignatureCache | None) -> None:
        self.files, self.params, self.family = files, params, family
        self.use = CacheUse(cache, params, family) if cache is not None and cache.enabled else None
        self.store = ScanStore(params.signature.k, family.dtype)
        self.kept: list[int] = []  # the documents kept: indices into the listing, in its order
        self.skipped: list[Skipped] = []  # files listed but not read, batch by batch
        self.skipped_at: list[int] = []  # the index of each in the listing
        self.done = 0  # files taken
        self.cached = 0  # documents whose signature came from the signature cache
        self.start = 0  # the first listed file not yet in a batch
        self.filling = 0  # bytes listed since ``start``
        self.cut: deque[range] = deque()  # batches cut from the listing, not yet handed to a thread
        self.in_flight: deque = deque()  # (future, the batch's listing range, its files worth caching, its cache hits)
        self.pool: Workers | None = None  # started by the first batch: none for an empty folder
        self.extract = ExtractPool()  # PDF, DOCX, ODT, EPUB in worker processes (started by the first such file)

    def listed(self, size: int, count: int = 1) -> None:
        """The listing added a file of ``size`` bytes (or ``count`` files of a size not known: -1): cut a batch
        once it is full, take the batches finished, and keep ``READERS_WHILE_LISTING`` threads reading. A file
        of no known size fills a batch by its count only (its bytes are bounded as it is read: ``frontend``)."""
        first = len(self.files) - count
        if full(first - self.start, self.filling, max(size, 0), BATCH_FILES):
            self.cut.append(range(self.start, first))
            self.start, self.filling = first, 0
        while len(self.files) - 1 - self.start >= BATCH_FILES:
            self.cut.append(range(self.start, self.start + BATCH_FILES))
            self.start, self.filling = self.start + BATCH_FILES, 0
        self.filling += max(size, 0)
        while self.in_flight and self.in_flight[0][0].done():
            self._take(None)
        while self.cut and len(self.in_flight) < READERS_WHILE_LISTING:
            self._submit(self.cut.popleft())

    def finish(
        self, cancel: threading.Event | None, t0: float, roots: Sequence[str]
    ) -> Generator[Progress, None, None]:
        """After the listing of ``roots``: read the rest, take every batch in order, reporting stage "reading"."""
        n = len(self.files)
        if self.start < n:
            self.cut.append(range(self.start, n))
            self.start = n
        yield Progress("reading", self.done, n, time.perf_counter() - t0)
        while self.cut or self.in_flight:
            check_cancel(cancel)
            while self.cut and len(self.in_flight) <= WORKERS:
                self._submit(self.cut.popleft())
            self._take(cancel)
            yield Progress("reading", self.done, n, time.perf_counter() - t0)
        if self.use is not None:
            self.use.finish(roots)  # the cache forgets files gone from below the roots

    def close(self, finished: bool) -> None:
        """End the threads; after a cancel, an interruption or a failure never wait on a batch still at work (it
        may be stuck), and end the extraction processes with a file still at work abandoned."""
        if self.pool is not None:
            self.pool.shutdown(wait=finished, cancel_futures=True)
        self.extract.close()

    def _submit(self, index: range) -> None:
        # The threads read the listing's lists and arrays while it grows: only item by item, under the GIL (a
        # buffer export, such as np.frombuffer of ``files.size``, would make the listing's next append fail).
        p = self.params.corpus
        batch = (self.files.paths, index, p.max_bytes, self.params.signature, self.family, p.formats)
        worth, hits = self.use.hits(self.files, index) if self.use is not None else (set(), {})
        self.cached += len(hits)
        if self.pool is None:
            self.pool = Workers(WORKERS, "lshdesk-read")
        if hits:
            task = self.pool.submit(
                read_and_sign_cached, *batch, hits, p.storage_options, self.extract, self.files.size
            )
        else:
            task = self.pool.submit(read_and_sign_listed, *batch, p.storage_options, self.extract, self.files.size)
        self.in_flight.append((task, index, worth, hits))

    def _take(self, cancel: threading.Event | None) -> None:
        future, index, worth, hits = self.in_flight.popleft()
        prep, batch, sigs = wait_for(future, cancel)
        if prep.stamps is not None:
            self.files.restamp(prep.ok, prep.stamps)  # sizes and times as the reader found them
        ids = self.store.n_ids + len(batch.ids)  # as many ids a file in the rest as so far, and a twentieth more
        room = len(self.files), int(ids * len(self.files) / (self.done + len(index)) * 1.05) + 1
        kept = self.store.add(prep, batch, sigs, self.files.paths, self.skipped, room)
        self.kept += kept
        self.skipped_at += prep.skipped_at or []
        if len(kept) < len(prep.ok):  # the store skipped those without words, after the batch's own
            has = set(kept)
            self.skipped_at += [i for i in prep.ok if i not in has]
        if self.use is not None:
            self.use.remember(self.files, prep, batch, sigs, worth, hits)
        self.done += len(index)
