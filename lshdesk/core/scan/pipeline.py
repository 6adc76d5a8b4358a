"""The scan: list, read, shingle and sign in batches, band, verify, group; a generator that yields progress.

Drive it with ``run(scan(...), on_progress)`` or iterate it yourself; it checks the cancel flag between batches
and raises ``ScanCancelled`` when it is set, so a cancelled scan leaves nothing half-done behind.

Reading (``reader.ReadStage``) starts while the listing goes on: two helper threads read, shingle and sign
batches in compiled, GIL-free code, and their results are taken in listing order, so the output does not depend
on timing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from lshdesk.core.clustering import Pairs, verify
from lshdesk.core.corpus.listing import Skipped, SourceFile
from lshdesk.core.corpus.sources import walk
from lshdesk.core.errors import ParamError, check_cancel
from lshdesk.core.lsh import Candidates, candidate_pairs
from lshdesk.core.minhash import make_family
from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.scan.cache import SignatureCache
from lshdesk.core.scan.frontend import Listing
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scan.reader import ReadStage
from lshdesk.core.scan.stages import compile_stage, pair_stages, start_compiling
from lshdesk.core.scurve import scan_banding
from lshdesk.core.shingle_kinds import kind_of
from lshdesk.core.shingling import ShingleBatch

DENSE_THRESHOLD = (
    0.3  # at or below it (or with a dense kind of shingles) a scan also loads the verification's join kernels
)


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
    dense = kind_of(sp.shingle.kind).dense or params.threshold <= DENSE_THRESHOLD  # the join may verify: load it too

    files = Listing()  # flat lists, not one object per file (see Listing)
    skipped: list[Skipped] = []
    reading = ReadStage(files, params, family, cache)  # batches start while the listing goes on
    finished = False
    try:
        for entry in walk(roots, params.corpus):
            if isinstance(entry, SourceFile):
                files.add(entry)
                reading.listed(entry.size)
                compiled = compiled or start_compiling(sp, family, dense)  # while the rest is listed
            else:
                skipped.append(entry)
            if (len(files) + len(skipped)) % 1000 == 0:
                check_cancel(cancel)
                yield Progress("listing", len(files), 0, time.perf_counter() - t0)
        stage_t["listing"] = time.perf_counter() - t0
        yield from compile_stage(compiled, cancel, clock) if compiled else ()
        stage_t["compiling"] = clock() - sum(stage_t.values())
        yield from reading.finish(cancel, t0, roots)
        finished = True
    finally:  # cancelled, interrupted or failed: never wait on a batch still at work (it may be stuck)
        reading.close(finished)
    stage_t["reading"] = time.perf_counter() - t0 - sum(stage_t.values())
    skipped += reading.skipped
    kept, store = reading.kept, reading.store

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
        reading.cached,
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
