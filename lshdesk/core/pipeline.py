"""The scan: list, read, shingle and sign in batches, band, verify, group; a generator that yields progress.

Drive it with ``run(scan(...), on_progress)`` or iterate it yourself; it checks the cancel flag between batches
and raises ``ScanCancelled`` when it is set, so a cancelled scan leaves nothing half-done behind.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from lshdesk.core.clustering import Pairs, groups, min_similarity_in_group, verify
from lshdesk.core.corpus import NotText, Skipped, SourceFile, read_text, walk
from lshdesk.core.errors import ScanCancelled
from lshdesk.core.hashing import TokenHasher
from lshdesk.core.lsh import Candidates, candidate_pairs
from lshdesk.core.minhash import HashFamily, make_family
from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.scurve import optimal_banding
from lshdesk.core.shingling import ShingleBatch, hash_shingles, shingle_strings

BATCH_FILES = 256


@dataclass(frozen=True)
class Progress:
    """Where a scan is: a stage name, items done of total (total 0 = unknown yet), and seconds since start."""

    stage: str
    done: int
    total: int
    elapsed: float = 0.0


@dataclass(frozen=True)
class Documents:
    """The documents of a scan, one array (or list) per property, in scan order (folder, then path)."""

    paths: list[str]
    rel: list[str]
    root: npt.NDArray[np.int64]
    size: npt.NDArray[np.int64]
    n_tokens: npt.NDArray[np.int64]

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


def _concat_batches(batches: list[ShingleBatch]) -> ShingleBatch:
    if not batches:
        return ShingleBatch(np.zeros(0, np.uint64), np.zeros(1, np.int64), np.zeros(0, np.int64))
    ids = np.concatenate([b.ids for b in batches])
    counts = np.concatenate([b.counts() for b in batches])
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return ShingleBatch(ids, offsets, np.concatenate([b.n_tokens for b in batches]))


def sign_batch(texts: list[str], params: ScanParams, family: HashFamily, hasher: TokenHasher) -> tuple[ShingleBatch, np.ndarray]:
    """Shingle ids and signatures of a batch of texts."""
    batch = hash_shingles(texts, params.signature.shingle, hasher)
    if family.needs_strings:
        sigs = family.sign_strings([shingle_strings(t, params.signature.shingle) for t in texts])
    else:
        sigs = family.sign_ids(batch)
    return batch, sigs


def _check(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise ScanCancelled("scan cancelled")


def find_pairs(
    sigs: np.ndarray, shingles: ShingleBatch, banding: Banding, threshold: float, root: np.ndarray, reference: Sequence[int] = ()
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
) -> Generator[Progress, None, ScanResult]:
    """Scan folders (or files) for near-duplicate documents; ``reference`` lists indices of reference folders."""
    t0 = time.perf_counter()
    stage_t: dict[str, float] = {}
    sp = params.signature
    banding = params.banding or optimal_banding(params.threshold, sp.k, params.fp_weight, params.fn_weight)
    family = make_family(sp)

    files: list[SourceFile] = []
    skipped: list[Skipped] = []
    for entry in walk(roots, params.corpus):
        (files if isinstance(entry, SourceFile) else skipped).append(entry)
        if (len(files) + len(skipped)) % 1000 == 0:
            _check(cancel)
            yield Progress("listing", len(files), 0, time.perf_counter() - t0)
    stage_t["listing"] = time.perf_counter() - t0

    kept: list[SourceFile] = []
    n_tokens: list[np.ndarray] = []
    batches: list[ShingleBatch] = []
    sig_parts: list[np.ndarray] = []
    hasher = TokenHasher()
    yield Progress("reading", 0, len(files), time.perf_counter() - t0)
    for start in range(0, len(files), BATCH_FILES):
        _check(cancel)
        texts, ok = [], []
        for f in files[start : start + BATCH_FILES]:
            try:
                texts.append(read_text(f.path, params.corpus.max_bytes))
                ok.append(f)
            except NotText as e:
                skipped.append(Skipped(f.path, str(e)))
        batch, sigs = sign_batch(texts, params, family, hasher)
        has = batch.counts() > 0
        for f in (f for f, h in zip(ok, has) if not h):
            skipped.append(Skipped(f.path, "no words to compare (only punctuation, symbols or spaces)"))
        if not has.all():
            idx = np.flatnonzero(has)
            batch = ShingleBatch(*_subset(batch, idx))
            sigs = sigs[idx]
        kept += [f for f, h in zip(ok, has) if h]
        batches.append(batch)
        sig_parts.append(sigs)
        yield Progress("reading", min(start + BATCH_FILES, len(files)), len(files), time.perf_counter() - t0)
    stage_t["reading"] = time.perf_counter() - t0 - sum(stage_t.values())

    _check(cancel)
    shingles = _concat_batches(batches)
    sigs = np.concatenate(sig_parts) if sig_parts else np.zeros((0, sp.k), dtype=family.dtype)
    docs = Documents(
        [f.path for f in kept],
        [f.rel for f in kept],
        np.array([f.root for f in kept], dtype=np.int64),
        np.array([f.size for f in kept], dtype=np.int64),
        shingles.n_tokens,
    )
    yield Progress("banding", 0, 1, time.perf_counter() - t0)
    candidates, pairs = find_pairs(sigs, shingles, banding, params.threshold, docs.root, reference)
    stage_t["banding+verifying"] = time.perf_counter() - t0 - sum(stage_t.values())
    _check(cancel)
    yield Progress("grouping", 0, 1, time.perf_counter() - t0)
    comps = groups(len(docs), pairs.left, pairs.right)
    group_min = np.array([min_similarity_in_group(g, shingles) for g in comps], dtype=np.float64)
    stage_t["grouping"] = time.perf_counter() - t0 - sum(stage_t.values())
    elapsed = time.perf_counter() - t0
    yield Progress("done", len(docs), len(docs), elapsed)
    return ScanResult(
        tuple(roots), params, banding, docs, skipped, sigs, shingles, candidates, pairs, comps, group_min,
        tuple(reference), elapsed, stage_t,
    )


def _subset(batch: ShingleBatch, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    counts = batch.counts()[idx]
    from lshdesk.core.arrays import ranges

    ids = batch.ids[ranges(batch.offsets[idx], counts)]
    offsets = np.zeros(len(idx) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return ids, offsets, batch.n_tokens[idx]


def run(gen: Generator[Progress, None, ScanResult], on_progress: Callable[[Progress], None] | None = None) -> ScanResult:
    """Drive a scan generator to its end, passing each progress report on; return its result."""
    while True:
        try:
            p = next(gen)
        except StopIteration as stop:
            return stop.value
        if on_progress is not None:
            on_progress(p)
