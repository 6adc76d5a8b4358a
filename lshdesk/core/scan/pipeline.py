"""The scan: list, read, shingle and sign in batches, band, verify, group; a generator that yields progress.

Two stages: ``sign_stage`` (list, read, sign: a ``SignedCorpus``) and a pair stage (``stages.pair_stages`` for
Jaccard, ``query.corpus.containment_scan`` for containment); a query ranks in the signed corpus alone. ``assemble``
is the one place a ``ScanResult`` is built from them, for this engine and the Dask one.

Drive a scan with ``run(scan(...), on_progress)`` or iterate it yourself; it checks the cancel flag between
batches and raises ``ScanCancelled`` when it is set, so a cancelled scan leaves nothing half-done behind.

Reading (``reader.ReadStage``) starts while the listing goes on: two helper threads read, shingle and sign
batches in compiled, GIL-free code, and their results are taken in listing order, so the output does not depend
on timing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

import numpy as np
import numpy.typing as npt

from lshdesk.core.clustering import Pairs, verify
from lshdesk.core.corpus.dataset_names import is_dataset_root
from lshdesk.core.corpus.listing import Skipped, SourceFile, in_walk_order
from lshdesk.core.corpus.sources import walk
from lshdesk.core.errors import ParamError, check_cancel
from lshdesk.core.lsh import Candidates, candidate_pairs
from lshdesk.core.minhash import make_family
from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.scan.cache import SignatureCache
from lshdesk.core.scan.listed import Listing
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scan.reader import ReadStage
from lshdesk.core.scan.stages import Found, pair_stages, stopwatch
from lshdesk.core.scurve import scan_banding
from lshdesk.core.shingling import ShingleBatch

if TYPE_CHECKING:
    from lshdesk.core.corpus.datasets import DatasetRows


@dataclass(frozen=True, kw_only=True)
class Documents:
    """The documents of a scan, one array (or list) per property, in scan order (folder, then path)."""

    paths: Sequence[str]  # a list, or for a dataset's rows names made when asked (corpus.row_names)
    rel: Sequence[str]
    root: npt.NDArray[np.int64]
    size: npt.NDArray[np.int64]
    n_tokens: npt.NDArray[np.int64]
    mtime: npt.NDArray[np.int64] | None = None  # modification times (ns) when listed; None from an older session

    def __len__(self) -> int:
        return len(self.paths)


@dataclass(frozen=True, kw_only=True)
class SignedCorpus:
    """What listing, reading and signing found: documents, signatures, shingle sets (what a query ranks in)."""

    roots: tuple[str, ...]
    params: ScanParams
    docs: Documents
    skipped: list[Skipped]
    signatures: npt.NDArray
    shingles: ShingleBatch
    reference: tuple[int, ...] = ()
    seconds: float = 0.0
    stage_seconds: dict[str, float] = field(default_factory=dict)
    cached: int = 0  # documents whose signature came from the signature cache
    warnings: tuple[str, ...] = ()  # what went wrong without stopping the scan (e.g. a damaged cache set aside)
    dataset: DatasetRows | None = None  # the rows the documents are, when the roots are datasets


@dataclass(frozen=True, kw_only=True)
class ScanResult(SignedCorpus):
    """Everything a scan found: the signed corpus, the scheme, candidates, verified pairs, groups."""

    banding: Banding
    candidates: Pairs
    pairs: Pairs
    groups: list[npt.NDArray[np.int64]]
    group_min: npt.NDArray[np.float64]  # the lowest exact similarity inside each group
    scheme_note: str = ""  # why the automatic scheme is ``banding`` (scan.scheme), "" for a manual one


def assemble(
    corpus: SignedCorpus,
    banding: Banding,
    found: Found,
    *,
    seconds: float,
    stage_seconds: dict[str, float],
    scheme_note: str = "",
) -> ScanResult:
    """The result of a scan of ``corpus`` with ``banding``: the one place both engines build it."""
    return ScanResult(
        roots=corpus.roots,
        params=corpus.params,
        docs=corpus.docs,
        skipped=corpus.skipped,
        signatures=corpus.signatures,
        shingles=corpus.shingles,
        reference=corpus.reference,
        seconds=seconds,
        stage_seconds=stage_seconds,
        cached=corpus.cached,
        warnings=corpus.warnings,
        dataset=corpus.dataset,
        banding=banding,
        candidates=found.candidates,
        pairs=found.pairs,
        groups=found.groups,
        group_min=found.group_min,
        scheme_note=scheme_note,
    )


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


def sign_stage(
    roots: Sequence[str],
    params: ScanParams,
    cancel: threading.Event | None = None,
    reference: Sequence[int] = (),
    cache: SignatureCache | None = None,
) -> Generator[Progress, None, SignedCorpus]:
    """List, read, shingle and sign: the stages every scan and query starts with (see ``scan``)."""
    _check_reference(len(roots), reference)
    if roots and all(is_dataset_root(r) for r in roots):  # each row a document (corpus.datasets)
        return (yield from _sign_rows(roots, params, cancel, reference))
    t0 = time.perf_counter()
    clock = stopwatch()
    stage_t: dict[str, float] = {}
    sp = params.signature
    family = make_family(sp)
    files = Listing()  # flat lists, not one object per file (see Listing)
    skipped: list[Skipped] = []
    skipped_at: list[int] = []  # how many files were listed before each skipped one
    reading = ReadStage(files, params, family, cache)  # batches start while the listing goes on
    finished = False
    report = 1000  # the listed entries at which the next progress report is due
    try:
        for entry in walk(roots, params.corpus, runs=True):  # plain text files come in runs, not stat-ed
            if isinstance(entry, SourceFile):
                files.add(entry)
                reading.listed(entry.size)
            elif isinstance(entry, Skipped):
                skipped.append(entry)
                skipped_at.append(len(files))
            else:
                files.add_run(entry)
                reading.listed(-1, len(entry.paths))
            if len(files) + len(skipped) >= report:
                report += 1000
                check_cancel(cancel)
                yield Progress("listing", len(files), 0, clock())
        stage_t["listing"] = clock()
        yield from reading.finish(cancel, t0, roots)
        finished = True
    finally:  # cancelled, interrupted or failed: never wait on a batch still at work (it may be stuck)
        reading.close(finished)
    stage_t["reading"] = clock() - sum(stage_t.values())
    check_cancel(cancel)
    shingles, sigs = reading.store.finish()
    return SignedCorpus(
        roots=tuple(roots),
        params=params,
        docs=_documents(files, reading.kept, shingles),
        skipped=in_walk_order(skipped, skipped_at, reading.skipped, reading.skipped_at),
        signatures=sigs,
        shingles=shingles,
        reference=tuple(reference),
        seconds=clock(),
        stage_seconds=stage_t,
        cached=reading.cached,
        warnings=tuple(cache.warnings) if cache is not None else (),
    )


def _sign_rows(
    roots: Sequence[str], params: ScanParams, cancel: threading.Event | None, reference: Sequence[int]
) -> Generator[Progress, None, SignedCorpus]:
    """``sign_stage`` for datasets (``scan.dataset_stage``): each row a document; or a random sample of the rows
    (``scan.sample_stage``), when the options ask for one."""
    if params.corpus.sample_rows is not None:
        from lshdesk.core.scan.sample_stage import sign_sample as sign_rows
    else:
        from lshdesk.core.scan.dataset_stage import sign_dataset as sign_rows

    got = yield from sign_rows(roots, params, cancel)
    return SignedCorpus(
        roots=tuple(roots),
        params=params,
        docs=Documents(**got.docs),
        skipped=got.skipped,
        signatures=got.signatures,
        shingles=got.shingles,
        reference=tuple(reference),
        seconds=got.seconds,
        stage_seconds={"reading": got.seconds},
        dataset=got.rows,
    )


def _check_reference(n_roots: int, reference: Sequence[int]) -> None:
    """Refuse reference folders that are every folder (there would be nothing to compare them with)."""
    if reference and set(range(n_roots)) <= set(reference):
        raise ParamError(
            "every folder is a reference folder: untick one (reference folders are compared only with the others)"
        )


def _documents(files: Listing, kept: list[int], shingles: ShingleBatch) -> Documents:
    """The listed files read, in listing order."""
    take = np.asarray(kept, dtype=np.int64)
    return Documents(
        paths=[files.paths[i] for i in kept],
        rel=[files.rel_of(i) for i in kept],
        root=np.asarray(files.root, dtype=np.int64)[take],
        size=np.asarray(files.size, dtype=np.int64)[take],
        n_tokens=shingles.n_tokens,
        mtime=np.asarray(files.mtime, dtype=np.int64)[take],
    )


def scan(
    roots: Sequence[str],
    params: ScanParams,
    cancel: threading.Event | None = None,
    reference: Sequence[int] = (),
    cache: SignatureCache | None = None,
) -> Generator[Progress, None, ScanResult]:
    """Scan folders (or files) for near-duplicate documents; ``reference`` lists indices of reference folders.

    ``sign_stage``, then the Jaccard pair stages (``stages.pair_stages``). With a ``cache``, files found there
    unchanged are not read again, and the others are remembered. Before verifying, a report of stage "estimating"
    carries the expected number of candidate pairs (``done``) and, when that is large, a ``warning``: the driver
    goes on, or sets ``cancel`` to stop. Every folder being a reference folder is refused (there would be nothing
    to compare them with).
    """
    banding = scan_banding(params)
    corpus = yield from sign_stage(roots, params, cancel, reference, cache)
    clock = stopwatch(corpus.seconds)
    stage_t = dict(corpus.stage_seconds)
    docs = corpus.docs
    is_ref = np.isin(docs.root, np.asarray(reference, dtype=np.int64)) if reference else None
    sp = params.signature
    note = ""
    if params.banding is None and len(docs) >= 2:  # automatic: spend a bounded time on recall (scan.scheme)
        from lshdesk.core.scan.scheme import choose_scheme  # (not loaded when there is nothing to pair)

        whole = whole_documents(corpus)  # a sample's scheme is the one its whole dataset would be scanned with
        choice = choose_scheme(
            corpus.signatures, corpus.shingles, params.threshold, banding, is_ref, seed=sp.seed, population=whole
        )
        banding, note = choice.banding, choice.reason()
    found = yield from pair_stages(
        corpus.signatures, corpus.shingles, banding, params.threshold, is_ref, sp.shingle, cancel, clock, stage_t
    )
    check_cancel(cancel)
    elapsed = clock()
    yield Progress("done", len(docs), len(docs), elapsed)
    return assemble(corpus, banding, found, seconds=elapsed, stage_seconds=stage_t, scheme_note=note)


def whole_documents(corpus: SignedCorpus) -> int:
    """The documents of the whole dataset when ``corpus`` is a random sample of its rows (its documents scaled by
    rows in all / rows drawn), else the corpus's own."""
    rows = corpus.dataset
    if rows is None or not rows.drawn:
        return len(corpus.docs)
    return round(len(corpus.docs) * rows.n_rows / rows.drawn)


R = TypeVar("R", bound=SignedCorpus)
T = TypeVar("T")


def cached_scan(
    roots: Sequence[str],
    params: ScanParams,
    cancel: threading.Event | None = None,
    reference: Sequence[int] = (),
    cache_path: str | None = None,
    scan_fn: Callable[..., Generator[Progress, None, R]] = scan,  # type: ignore[assignment]  # mypy#3737
) -> Generator[Progress, None, R]:
    """``scan`` (or ``scan_fn``, called as ``scan`` is) with the signature cache (at ``cache_path``, else the user's
    cache folder), opened where the scan runs (it may wait for a lock) and closed when it ends, however it ends;
    trouble with it becomes a warning."""
    cache = SignatureCache.open(cache_path)
    try:
        return (yield from scan_fn(roots, params, cancel, reference, cache))
    finally:
        cache.close()


def run(gen: Generator[Progress, None, T], on_progress: Callable[[Progress], None] | None = None) -> T:
    """Drive a scan generator (or any generator of progress) to its end, passing each report on; return its result."""
    while True:
        try:
            p = next(gen)
        except StopIteration as stop:
            return stop.value
        if on_progress is not None:
            on_progress(p)
