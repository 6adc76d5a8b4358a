"""The scan: list, read, shingle and sign in batches, band, verify, group; a generator that yields progress.

Drive it with ``run(scan(...), on_progress)`` or iterate it yourself; it checks the cancel flag between batches
and raises ``ScanCancelled`` when it is set, so a cancelled scan leaves nothing half-done behind.

Two helper threads each read a batch and shingle and sign it in compiled, GIL-free code (``frontend``), so both
cores work; results are taken in scan order, so the output does not depend on timing. Batches are bounded in
files and bytes (``frontend.BATCH_FILES``, ``frontend.BATCH_BYTES``), so progress flows and cancel answers within a batch.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from lshdesk.core.clustering import Pairs, verify
from lshdesk.core.corpus.extract import EXTRACT_VERSION, format_of_extension
from lshdesk.core.corpus.listing import Skipped, SourceFile
from lshdesk.core.corpus.pool import ExtractPool
from lshdesk.core.corpus.sources import walk
from lshdesk.core.errors import ParamError, check_cancel
from lshdesk.core.lsh import Candidates, candidate_pairs
from lshdesk.core.minhash import make_family
from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.scan.cache import SignatureCache, params_key
from lshdesk.core.scan.frontend import BATCH_FILES, Listing, index_batches, read_and_sign_cached, read_and_sign_listed
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scan.stages import compile_stage, pair_stages, start_compiling
from lshdesk.core.scan.store import ScanStore as _Store
from lshdesk.core.scurve import scan_banding
from lshdesk.core.shingling import IDS_VERSION, ShingleBatch
from lshdesk.core.threads import wait_for

WORKERS = 2  # threads that read and sign batches (system calls and numba kernels run without the GIL)
DENSE_THRESHOLD = 0.3  # at or below it (or with char shingles) a scan also loads the verification's join kernels


@dataclass(frozen=True)
class Documents:
    """The documents of a scan, one array (or list) per property, in scan order (folder, then path)."""

    paths: list[str]
    rel: list[str]
    root: npt.NDArray[np.int64]
    size: npt.NDArray[np.int64]
    n_tokens: npt.NDArray[np.int64]
    mtime: npt.NDArray[np.int64] | None = None  # modification times (ns) when listed; None from an older session

    def __len__(self) -> int:
        return len(self.paths)


@dataclass(frozen=True)
class ScanResult:
    """Everything a scan found: documents, signatures, shingle sets, candidates, verified pairs, groups."""

    roots: tuple[str, ...]
    params: ScanParams
    banding: Banding
    docs: Documents
    skipped: list[Skipped]
    signatures: npt.NDArray
    shingles: ShingleBatch
    candidates: Pairs
    pairs: Pairs
    groups: list[npt.NDArray[np.int64]]
    group_min: npt.NDArray[np.float64]  # the lowest exact similarity inside each group
    reference: tuple[int, ...] = ()
    seconds: float = 0.0
    stage_seconds: dict[str, float] = field(default_factory=dict)
    cached: int = 0  # documents whose signature came from the signature cache
    warnings: tuple[str, ...] = ()  # what went wrong without stopping the scan (e.g. a damaged cache set aside)


def _collect(
    item: tuple, store: _Store, files: Listing, kept: list[int], skipped: list[Skipped], remember, cancel
) -> int:
    """Take the oldest batch in flight into the store (in scan order); return its number of listed files."""
    future, n_listed = item
    prep, batch, sigs = wait_for(future, cancel)
    kept += store.add(prep, batch, sigs, files.paths, skipped)
    if remember is not None:
        remember(prep, batch, sigs)
    return n_listed


class _CacheUse:
    """What one scan does with the signature cache: look up the files worth caching, remember those it read."""

    def __init__(self, cache: SignatureCache, sp, family, files: Listing) -> None:
        self.cache, self.files = cache, files
        self.key = params_key(sp, np.uint32, family.dtype, f"ids{IDS_VERSION}|x{EXTRACT_VERSION}")
        self.dtype = family.dtype
        # Plain text is read, tokenized and signed faster than its cache row is fetched (100k files: 2.5 s cold
        # without a cache, 2.0 s from the cache, 4.3 s writing it): only files that need an extractor are cached.
        self.worth = [i for i, p in enumerate(files.paths) if format_of_extension(p) not in (None, "txt")]
        keys = [(files.paths[i], files.stamp(i)) for i in self.worth]
        found = cache.lookup(self.key, keys, np.uint32, family.dtype, sp.k)
        self.hits = {self.worth[j]: e for j, e in found.items()}
        self.wanted = set(self.worth)

    def remember(self, prep, batch: ShingleBatch, sigs: np.ndarray) -> None:
        f = self.files
        rows = [
            (f.paths[i], f.stamp(i), int(batch.n_tokens[j]), batch.doc(j), sigs[j])
            for j, i in enumerate(prep.ok)
            if i in self.wanted and i not in self.hits
        ]
        if rows:
            self.cache.store(self.key, rows)

    def finish(self, roots: Sequence[str]) -> None:
        self.cache.forget_missing(self.key, roots, {self.files.paths[i] for i in self.worth})


def find_pairs(
    sigs: np.ndarray,
    shingles: ShingleBatch,
    banding: Banding,
    threshold: float,
    root: np.ndarray,
    reference: Sequence[int] = (),
) -> tuple[Pairs, Pairs]:
    """Band the stored signatures, score the candidates exactly, keep those at the threshold (no re-hashing)."""
    cands = candidate_pairs(sigs, banding)
    if reference:
        is_ref = np.isin(root, np.asarray(reference))
        keep = is_ref[cands.left] != is_ref[cands.right]
        cands = Candidates(cands.left[keep], cands.right[keep], cands.bands[keep])
    return verify(cands, sigs, shingles, threshold)


def scan(
    roots: Sequence[str],
    params: ScanParams,
    cancel: threading.Event | None = None,
    reference: Sequence[int] = (),
    cache: SignatureCache | None = None,
) -> Generator[Progress, None, ScanResult]:
    """Scan folders (or files) for near-duplicate documents; ``reference`` lists indices of reference folders.

    With a ``cache``, files found there unchanged are not read again, and the others are remembered. Before
    verifying, a report of stage "estimating" carries the expected number of candidate pairs (``done``) and, when
    that is large, a ``warning``: the driver goes on, or sets ``cancel`` to stop. Every fold being a reference
    folder is refused (there would be nothing to compare them with).
    """
    if reference and set(range(len(roots))) <= set(reference):
        raise ParamError(
            "every folder is a reference folder: untick one (reference folders are compared only with the others)"
        )
    t0 = time.perf_counter()

    def clock() -> float:
        return time.perf_counter() - t0

    stage_t: dict[str, float] = {}
    sp = params.signature
    banding = scan_banding(params)
    family = make_family(sp)
    compiled = None  # the kernels load on a helper thread from the first file listed: an empty folder loads none
    dense = sp.shingle.kind == "char" or params.threshold <= DENSE_THRESHOLD  # the join may verify: load it too

    files = Listing()  # flat lists, not one object per file (see Listing)
    skipped: list[Skipped] = []
    for entry in walk(roots, params.corpus):
        if isinstance(entry, SourceFile):
            files.add(entry)
            compiled = compiled or start_compiling(sp, family, dense)  # while the rest is listed
        else:
            skipped.append(entry)
        if (len(files) + len(skipped)) % 1000 == 0:
            check_cancel(cancel)
            yield Progress("listing", len(files), 0, time.perf_counter() - t0)
    stage_t["listing"] = time.perf_counter() - t0
    yield from compile_stage(compiled, cancel, clock) if compiled else ()
    stage_t["compiling"] = clock() - sum(stage_t.values())

    use = _CacheUse(cache, sp, family, files) if cache is not None and cache.enabled else None
    kept: list[int] = []
    store = _Store(len(files), sp.k, family.dtype, sum(files.size))
    yield Progress("reading", 0, len(files), time.perf_counter() - t0)
    pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="lshdesk-read")
    extract = ExtractPool()  # PDF, DOCX, ODT, EPUB in worker processes (started by the first such file)
    finished = False
    try:
        in_flight: deque = deque()
        done = 0
        max_bytes, storage = params.corpus.max_bytes, params.corpus.storage_options
        for index in index_batches(files.size, BATCH_FILES):
            check_cancel(cancel)
            batch = (files.paths, index, max_bytes, sp, family, params.corpus.formats)
            if use is not None and use.hits:
                task = pool.submit(read_and_sign_cached, *batch, use.hits, storage, extract, files.size)
            else:
                task = pool.submit(read_and_sign_listed, *batch, storage, extract, files.size)
            in_flight.append((task, len(index)))
            if len(in_flight) > WORKERS:
                done += _collect(in_flight.popleft(), store, files, kept, skipped, use and use.remember, cancel)
                yield Progress("reading", done, len(files), time.perf_counter() - t0)
        while in_flight:
            check_cancel(cancel)
            done += _collect(in_flight.popleft(), store, files, kept, skipped, use and use.remember, cancel)
            yield Progress("reading", done, len(files), time.perf_counter() - t0)
        finished = True
    finally:  # cancelled, interrupted or failed: never wait on a batch still at work (it may be stuck)
        pool.shutdown(wait=finished, cancel_futures=True)
        extract.close()  # its workers end now, a file still at work (cancelled scan) abandoned
    stage_t["reading"] = time.perf_counter() - t0 - sum(stage_t.values())
    if use is not None:
        use.finish(roots)

    check_cancel(cancel)
    shingles, sigs = store.finish()
    take = np.asarray(kept, dtype=np.int64)
    docs = Documents(
        [files.paths[i] for i in kept],
        [files.rel[i] for i in kept],
        np.asarray(files.root, dtype=np.int64)[take],
        np.asarray(files.size, dtype=np.int64)[take],
        shingles.n_tokens,
        np.asarray(files.mtime, dtype=np.int64)[take],
    )
    del files
    is_ref = np.isin(docs.root, np.asarray(reference, dtype=np.int64)) if reference else None
    candidates, pairs, comps, group_min = yield from pair_stages(
        sigs, shingles, banding, params.threshold, is_ref, sp.shingle, cancel, clock, stage_t
    )
    check_cancel(cancel)
    elapsed = time.perf_counter() - t0
    yield Progress("done", len(docs), len(docs), elapsed)
    return ScanResult(
        tuple(roots),
        params,
        banding,
        docs,
        skipped,
        sigs,
        shingles,
        candidates,
        pairs,
        comps,
        group_min,
        tuple(reference),
        elapsed,
        stage_t,
        len(use.hits) if use is not None else 0,
        tuple(cache.warnings) if cache is not None else (),
    )


def cached_scan(
    roots: Sequence[str],
    params: ScanParams,
    cancel: threading.Event | None = None,
    reference: Sequence[int] = (),
    cache_path: str | None = None,
    scan_fn: Callable[..., Generator[Progress, None, ScanResult]] = scan,
) -> Generator[Progress, None, ScanResult]:
    """``scan`` (or ``scan_fn``, called as ``scan`` is) with the signature cache (at ``cache_path``, else the user's
    cache folder), opened where the scan runs (it may wait for a lock) and closed when it ends, however it ends;
    trouble with it becomes a warning."""
    cache = SignatureCache.open(cache_path)
    try:
        return (yield from scan_fn(roots, params, cancel, reference, cache))
    finally:
        cache.close()


def run(
    gen: Generator[Progress, None, ScanResult], on_progress: Callable[[Progress], None] | None = None
) -> ScanResult:
    """Drive a scan generator to its end, passing each progress report on; return its result."""
    while True:
        try:
            p = next(gen)
        except StopIteration as stop:
            return stop.value
        if on_progress is not None:
            on_progress(p)
