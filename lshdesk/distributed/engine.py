"""The Dask engine: ``pipeline.scan`` as a task graph on a cluster, a generator with the same progress, cancel and result.

The client lists the folders (names only), cuts the files into partitions and sends each partition to a worker,
which reads, shingles and signs it and keeps the shingle sets and signatures. Banding is a shuffle of
``(band, key, document)`` records, verification a join that brings each pair's two shingle sets together on one
worker; the client receives per-document counts, the scored candidate pairs and nothing proportional to the
corpus' text, then groups the verified pairs by union-find as the local engine does. Datasets (each row a
document) are cut into parts from their metadata instead (``distributed.rows``), read and signed at the workers
(``distributed.row_parts``); the rest of the graph is the same.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Generator, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from lshdesk.core.arrays import unique
from lshdesk.core.clustering import Pairs, groups
from lshdesk.core.corpus.datasets import DatasetRows
from lshdesk.core.corpus.listing import Skipped, SourceFile, in_walk_order
from lshdesk.core.corpus.sources import is_url, walk
from lshdesk.core.lsh import Candidates
from lshdesk.core.minhash import make_family
from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.scan.pipeline import Documents, ScanResult, SignedCorpus, assemble
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scan.scheme import choose_on_sample, sample_docs
from lshdesk.core.scan.stages import Found
from lshdesk.core.scurve import scan_banding
from lshdesk.core.shingling import ShingleBatch
from lshdesk.distributed import row_parts, rows, tasks
from lshdesk.distributed.cluster import CONNECT_TIMEOUT, ClusterError, connect, progress_sink, report_progress
from lshdesk.distributed.graph import Graph, plan_partitions
from lshdesk.distributed.listing import on_workers

if TYPE_CHECKING:
    from distributed import Client, Future


def scan(
    roots: Sequence[str],
    params: ScanParams,
    cancel: threading.Event | None = None,
    reference: Sequence[int] = (),
    *,
    address: str | None = None,
    client: Client | None = None,
    n_workers: int | None = None,
    gather: bool = True,
    partition_files: int | None = None,
    timeout: float | None = None,
    part_bytes: int | None = None,
) -> Generator[Progress, None, ScanResult]:
    """``pipeline.scan`` on a Dask cluster: the scheduler at ``address``, the given ``client``, or a LocalCluster.

    ``gather=True`` brings every signature and shingle set back, so the result is the local engine's in full (the
    GUI's side by side needs them). ``gather=False`` leaves them on the workers: ``signatures`` is then an
    ``(n_docs, 0)`` array and ``shingles`` holds counts only (``ids`` empty), enough for ``core.export``.
    ``timeout``: seconds the scheduler at ``address`` has to answer (default ``cluster.CONNECT_TIMEOUT``).
    Dataset roots (each row a document, ``distributed.rows``) are cut into parts of about ``part_bytes`` (default:
    a few per worker thread), folders into partitions of ``partition_files`` files.
    """
    t0 = time.perf_counter()
    yield Progress("connecting", 0, 0, 0.0)
    with connect(address, client=client, n_workers=n_workers, timeout=timeout or CONNECT_TIMEOUT) as cl:
        graph = Graph(cl, cancel, t0)
        try:
            cut = (partition_files, part_bytes)
            return (yield from _scan(graph, list(roots), params, tuple(reference), gather, cut))
        finally:
            graph.release()


def _scan(
    g: Graph,
    roots: list[str],
    params: ScanParams,
    reference: tuple[int, ...],
    gather: bool,
    cut: tuple[int | None, int | None],
) -> Generator[Progress, None, ScanResult]:
    partition_files, part_bytes = cut
    stage_t: dict[str, float] = {"connecting": g.elapsed()}
    data = rows.dataset_files(roots, params.corpus.storage_options)  # None: folders of documents
    if data is not None:
        signed, summaries, docs, bounds, skipped_all, dataset = yield from _sign_rows(
            g, roots, data, params, part_bytes
        )
        stage_t["reading"] = g.elapsed() - sum(stage_t.values())
    else:
        files, skipped, skipped_at = yield from _list(g, roots, params)
        stage_t["listing"] = g.elapsed() - sum(stage_t.values())
        parts = plan_partitions(len(files), sum(g.client.nthreads().values()) or 1, partition_files)
        signed, summaries = yield from _sign(g, files, parts, params)
        stage_t["reading"] = g.elapsed() - sum(stage_t.values())
        docs, bounds, read_skips = _documents(files, parts, summaries)
        skipped_all = in_walk_order(skipped, skipped_at, [s for _, s in read_skips], [i for i, _ in read_skips])
        dataset = None
    n = len(docs)
    banding, note = _scheme(g, signed, bounds, docs, params, reference)
    yield Progress("banding", 0, n, g.elapsed(), "documents")
    if n >= 2:
        cands = _band(g, signed, bounds, banding, n, _reference_runs(docs.root, reference))
        scored = yield from _score(g, signed, bounds, cands, n, "banding")
    else:
        scored = _concat_pairs([])
    pairs = scored.take(_verified_order(scored, params.threshold))
    stage_t["banding+verifying"] = g.elapsed() - sum(stage_t.values())
    g.check()
    yield Progress("grouping", 0, 1, g.elapsed())
    comps = groups(n, pairs.left, pairs.right)
    group_min = yield from _group_min(g, signed, bounds, comps, scored, n)
    sigs, shingles = _gathered(g, signed, summaries, params, gather)
    stage_t["grouping"] = g.elapsed() - sum(stage_t.values())
    g.release()
    elapsed = g.elapsed()
    yield Progress("done", n, n, elapsed)
    corpus = SignedCorpus(
        roots=tuple(roots),
        params=params,
        docs=docs,
        skipped=skipped_all,
        signatures=sigs,
        shingles=shingles,
        reference=reference,
        dataset=dataset,
    )
    found = Found(candidates=scored, pairs=pairs, groups=comps, group_min=group_min)
    return assemble(corpus, banding, found, seconds=elapsed, stage_seconds=stage_t, scheme_note=note)


def _scheme(
    g: Graph, signed: list[Future], bounds: np.ndarray, docs: Documents, params: ScanParams, reference: tuple[int, ...]
) -> tuple[Banding, str]:
    """The scheme and why, as the local engine chooses it (``scan.scheme``): only the sampled documents come back."""
    banding, n = scan_banding(params), len(docs)
    if params.banding is not None or n < 2:
        return banding, ""
    sample = sample_docs(n, params.signature.seed)
    part = tasks.part_of(sample, bounds)
    slices = [g.submit("take", tasks.take_docs, signed[p], int(bounds[p]), sample[part == p]) for p in unique(part)]
    got: list[tasks.DocSlice] = g.client.gather(slices)
    is_ref = np.isin(docs.root, np.asarray(reference, dtype=np.int64)) if reference else None
    choice = choose_on_sample(
        np.concatenate([s.sigs for s in got]),
        tasks.concat_batches([s.shingles for s in got]),
        params.threshold,
        banding,
        n,
        None if is_ref is None else is_ref[sample],
        0 if is_ref is None else int(is_ref.sum()),
    )
    return choice.banding, choice.reason()


def _list(
    g: Graph, roots: list[str], params: ScanParams
) -> Generator[Progress, None, tuple[list[SourceFile], list[Skipped], list[int]]]:
    """The files to read (names and sizes only; URLs listed by the workers) and those skipped."""
    files: list[SourceFile] = []
    skipped: list[Skipped] = []
    skipped_at: list[int] = []  # how many files were listed before each skipped one (in_walk_order)
    for entry in walk(roots, params.corpus, on_workers(g.client)):
        if isinstance(entry, SourceFile):
            files.append(entry)
        elif isinstance(entry, Skipped):  # no runs asked for: only files and skipped ones come
            skipped.append(entry)
            skipped_at.append(len(files))
        if (len(files) + len(skipped)) % 1000 == 0:
            g.check()
            yield Progress("listing", len(files), 0, g.elapsed())
    return files, skipped, skipped_at


def _sign(
    g: Graph, files: list[SourceFile], parts: list[tuple[int, int]], params: ScanParams
) -> Generator[Progress, None, tuple[list[Future], list[tasks.PartSummary]]]:
    """Each partition read, shingled and signed on a worker (kept there), and its summary brought back."""
    if files and not is_url(files[0].path):  # objects in storage: each worker reads them from the store itself
        _check_visible(g.client, files[0].path)
    work = [tasks.FileSlice.of(files[a:b], a) for a, b in parts]
    sizes = [b - a for a, b in parts]
    return (yield from _sign_parts(g, tasks.sign_part, tasks.summary, work, sizes, len(files), params))


def _sign_parts(
    g: Graph, sign: Callable, summary: Callable, work: list, sizes: list[int], total: int, params: ScanParams
) -> Generator[Progress, None, tuple[list[Future], list[Any]]]:
    """``sign(part, params, report)`` for each part on a worker (its result kept there), ``summary`` of it brought
    back; progress in the parts' own unit (files, or rows: ``sizes[i] < 0`` where a part's are not known)."""
    unit = "files" if sign is tasks.sign_part else "rows"
    with progress_sink(g.client, g.tag, len(work)) as done:  # per partition, from the workers, batch by batch
        signed = [g.submit("sign", sign, w, params, partial(report_progress, g.tag, p)) for p, w in enumerate(work)]
        small = [g.submit("summary", summary, s) for s in signed]
        shown = [0]

        def read(finished: list[int]) -> Progress:
            for i in finished:
                done[i] = max(done[i], sizes[i])
            shown[0] = sum(done)
            return Progress("reading", shown[0], max(total, shown[0]), g.elapsed(), unit=unit)

        def poll() -> Progress | None:
            return read([]) if sum(done) > shown[0] else None

        yield Progress("reading", 0, total, g.elapsed(), unit=unit)
        yield from g.watch(small, read, poll)
    return signed, g.client.gather(small)


def _sign_rows(
    g: Graph, roots: list[str], files: list[rows.DataFile], params: ScanParams, part_bytes: int | None
) -> Generator[Progress, None, tuple[list[Future], list[Any], Documents, np.ndarray, list[Skipped], DatasetRows]]:
    """A dataset's parts (planned here from metadata) read and signed on the workers, the rows named here."""
    rows.check_found(roots, files)
    storage = params.corpus.storage_options
    if not is_url(files[0].path):
        _check_visible(g.client, files[0].path)
    parts, total = rows.plan(files, sum(g.client.nthreads().values()) or 1, storage, part_bytes)
    signed, sums = yield from _sign_parts(
        g, row_parts.sign_rows, row_parts.rows_summary, parts, [-1] * len(parts), total, params
    )
    docs, bounds, skipped, dataset = rows.documents(roots, files, parts, sums, params.corpus)
    yield Progress("reading", dataset.n_rows, dataset.n_rows, g.elapsed(), unit="rows")
    return signed, sums, docs, bounds, skipped, dataset


def _documents(
    files: list[SourceFile], parts: list[tuple[int, int]], summaries: list[tasks.PartSummary]
) -> tuple[Documents, np.ndarray, list[tuple[int, Skipped]]]:
    """The documents read, each partition's first document, and the files that could not be read (with their
    index among the files, in its order)."""
    kept_n = [int(s.kept.sum()) for s in summaries]
    bounds = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum(kept_n, out=bounds[1:])
    kept = [f for (a, b), s in zip(parts, summaries) for f, k in zip(files[a:b], s.kept.tolist()) if k]
    read_skips = sorted((s for m in summaries for s in m.skips), key=lambda t: t[0])
    n_tokens = np.concatenate([s.n_tokens for s in summaries]) if summaries else np.zeros(0, np.int64)
    docs = Documents(
        paths=[f.path for f in kept],
        rel=[f.rel for f in kept],
        root=np.array([f.root for f in kept], dtype=np.int64),
        size=np.array([f.size for f in kept], dtype=np.int64),
        n_tokens=n_tokens,
        mtime=np.array([f.mtime_ns for f in kept], dtype=np.int64),
    )
    return docs, bounds, [(i, Skipped(files[i].path, reason)) for i, _, reason in read_skips]


def _gathered(
    g: Graph, signed: list[Future], summaries: list[tasks.PartSummary], params: ScanParams, gather: bool
) -> tuple[np.ndarray, ShingleBatch]:
    """Every signature and shingle set brought back (``gather``), else an ``(n, 0)`` array and the counts only."""
    sp = params.signature
    k_dtype = make_family(sp).dtype
    if gather:
        full: list[tasks.SignedPart] = g.client.gather(signed)
        sigs = np.concatenate([p.sigs for p in full]) if full else np.zeros((0, sp.k), dtype=k_dtype)
        return sigs, tasks.concat_batches([p.shingles for p in full])
    counts = np.concatenate([s.counts for s in summaries]) if summaries else np.zeros(0, np.int64)
    n_tokens = np.concatenate([s.n_tokens for s in summaries]) if summaries else np.zeros(0, np.int64)
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return np.zeros((len(counts), 0), dtype=k_dtype), ShingleBatch(tasks.empty_batch().ids, offsets, n_tokens)


def _check_visible(client: Client, path: str) -> None:
    """Refuse a cluster whose workers do not see the files where this machine does (each would be 'vanished')."""
    seen = client.run(os.path.exists, path)
    blind = sorted(w for w, ok in seen.items() if not ok)
    if blind:
        raise ClusterError(
            f"{len(blind)} of {len(seen)} workers (e.g. {blind[0]}) cannot see {path}: the workers must reach the "
            "folders at the same paths as this machine (a shared or mounted file system)"
        )


def _reference_runs(root: npt.NDArray[np.int64], reference: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray] | None:
    """The documents of reference folders as ``(starts, stops)`` runs (documents come folder by folder)."""
    if not reference:
        return None
    is_ref = np.isin(root, np.asarray(reference)).astype(np.int8)
    edges = np.diff(np.concatenate(([0], is_ref, [0])))
    return np.flatnonzero(edges == 1).astype(np.int64), np.flatnonzero(edges == -1).astype(np.int64)


def _band(g: Graph, signed: list, bounds: np.ndarray, banding: Banding, n: int, ref) -> list[Future]:
    """The banding shuffle's tasks; one future per partition, its candidate pairs (left document in it)."""
    c = len(signed)
    maps = [g.submit("band-map", tasks.band_map, s, int(bounds[p]), banding, c) for p, s in enumerate(signed)]
    reds = [g.submit("band-reduce", tasks.band_reduce, bounds, *[g.item(m, j) for m in maps]) for j in range(c)]
    return [g.submit("pairs", tasks.pair_reduce, n, ref, *[g.item(r, p) for r in reds]) for p in range(c)]


def _score(
    g: Graph, signed: list, bounds: np.ndarray, cands: list[Future], n: int, stage: str
) -> Generator[Progress, None, Pairs]:
    """Score each partition's pairs where their shingle sets meet: ask, fetch the documents needed, compute."""
    reqs = [g.submit("requests", tasks.requests, c, bounds) for c in cands]
    needs = [g.submit("needs", tasks.needed_parts, r) for r in reqs]
    total = 2 * len(cands)
    done = [0]

    def report(finished: list[int]) -> Progress:
        done[0] += len(finished)
        return Progress(stage, n * done[0] // total, n, g.elapsed(), "documents")

    yield from g.watch(needs, report)
    need: list[list[int]] = g.client.gather(needs)
    scores = []
    for p, (c, r) in enumerate(zip(cands, reqs)):
        slices = [g.submit("take", tasks.take_docs, signed[d], int(bounds[d]), g.item(r, d)) for d in need[p]]
        scores.append(g.submit("score", tasks.score, c, *slices))
    yield from g.watch(scores, report)
    return _concat_pairs(g.client.gather(scores))


def _concat_pairs(parts: list[Pairs]) -> Pairs:
    if not parts:
        z = np.zeros(0, np.int64)
        return Pairs(z, z.copy(), np.zeros(0), np.zeros(0), z.copy())
    return Pairs(
        *(np.concatenate([getattr(p, f) for p in parts]) for f in ("left", "right", "estimate", "jaccard", "bands"))
    )


def _verified_order(scored: Pairs, threshold: float) -> npt.NDArray[np.int64]:
    """Pairs at the threshold, by similarity descending then documents (as ``clustering.verify``)."""
    keep = np.flatnonzero(scored.jaccard >= threshold - 1e-12)
    return keep[np.lexsort((scored.right[keep], scored.left[keep], -scored.jaccard[keep]))]


def _group_min(
    g: Graph, signed: list, bounds: np.ndarray, comps: list[np.ndarray], scored: Pairs, n: int
) -> Generator[Progress, None, npt.NDArray[np.float64]]:
    """The lowest exact similarity inside each group: every pair of members, the ones not scored yet on the workers."""
    if not comps:
        return np.zeros(0, dtype=np.float64)
    tri = [np.triu_indices(len(c), k=1) for c in comps]
    left = np.concatenate([c[i] for c, (i, _) in zip(comps, tri)]).astype(np.int64)
    right = np.concatenate([c[j] for c, (_, j) in zip(comps, tri)]).astype(np.int64)
    jac = np.empty(len(left))
    known_codes = scored.left * n + scored.right  # sorted: the candidates come sorted
    codes = left * n + right
    at = np.minimum(np.searchsorted(known_codes, codes), max(len(known_codes) - 1, 0))
    known = (known_codes[at] == codes) if len(known_codes) else np.zeros(len(codes), dtype=bool)
    jac[known] = scored.jaccard[at[known]]  # a group of two is one verified pair: nothing to compute
    todo = np.flatnonzero(~known)
    if len(todo):
        owner = tasks.part_of(left[todo], bounds)
        split = tasks.split_by(owner, len(bounds) - 1, left[todo], right[todo])
        cands = g.client.scatter([Candidates(l, r, np.zeros(len(l), np.int64)) for l, r in split], hash=False)
        g.live.update(cands)
        rest = yield from _score(g, signed, bounds, cands, n, "grouping")
        jac[todo[np.argsort(owner, kind="stable")]] = rest.jaccard  # _score answers partition by partition
    starts = np.cumsum([0] + [len(i) for i, _ in tri[:-1]])
    return np.minimum.reduceat(jac, starts).astype(np.float64)
