"""The work the Dask workers do: plain functions of numpy arrays over core calls (this module never imports dask).

A scan is cut into partitions of consecutive files, so partition ``p`` holds the documents
``bounds[p]:bounds[p + 1]`` of the local engine's order. Each function here is one task of the engine's graph:

- ``sign_part``: read, shingle and sign a partition with ``core.frontend`` (the local engine's code, so the
  signatures are bit-identical); the shingle sets stay on the worker that made them.
- ``band_map`` / ``band_reduce`` / ``pair_reduce``: the banding shuffle. Each partition's ``(band, key, doc)``
  records are routed by a hash of ``(band, key)``; each reducer finds the buckets of its keys and routes every
  colliding pair to the partition of its left document, where the pairs are counted (one count per band).
- ``requests`` / ``take_docs`` / ``score``: verification as a join. A partition asks each partition for the
  documents its pairs need (only those), gets back their shingle sets and signatures, and scores the pairs with
  ``clustering.exact_jaccard`` and ``minhash.estimate_pairs`` (again the local engine's code).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.arrays import ranges, unique
from lshdesk.core.clustering import Pairs, exact_jaccard
from lshdesk.core.corpus.listing import SourceFile
from lshdesk.core.hashing import fmix64
from lshdesk.core.lsh import Candidates, band_keys
from lshdesk.core.minhash import estimate_pairs, make_family
from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.scan import frontend
from lshdesk.core.shingling import ShingleBatch, empty_batch

UNREADABLE, NO_WORDS = 0, 1  # the two kinds of file skipped while reading, in the order the local engine lists them
_NO_WORDS_REASON = "no words to compare (only punctuation, symbols or spaces)"
_ROUTE = np.uint64(0x9E3779B97F4A7C15)

Record = tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint64], npt.NDArray[np.int64]]  # (band, key, doc)


@dataclass(frozen=True)
class SignedPart:
    """A partition's kept documents (shingle sets, signatures) and what happened to each of its files."""

    shingles: ShingleBatch
    sigs: npt.NDArray
    kept: npt.NDArray[np.bool_]  # per file of the partition: read and has words
    skips: list[tuple[int, int, str]]  # (file index in the scan, UNREADABLE or NO_WORDS, reason)


@dataclass(frozen=True)
class PartSummary:
    """The small part of a ``SignedPart`` the client needs: no shingle sets, no signatures."""

    kept: npt.NDArray[np.bool_]
    skips: list[tuple[int, int, str]]
    n_tokens: npt.NDArray[np.int64]
    counts: npt.NDArray[np.int64]


@dataclass(frozen=True)
class DocSlice:
    """Some documents of one partition: their global numbers (ascending), shingle sets and signatures."""

    ids: npt.NDArray[np.int64]
    shingles: ShingleBatch
    sigs: npt.NDArray


def concat_batches(batches: list[ShingleBatch]) -> ShingleBatch:
    """One batch holding the documents of several, in order."""
    if not batches:
        return empty_batch()
    counts = np.concatenate([b.counts() for b in batches])
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return ShingleBatch(
        np.concatenate([b.ids for b in batches]), offsets, np.concatenate([b.n_tokens for b in batches])
    )


@dataclass(frozen=True)
class FileSlice:
    """Files ``first, first + 1, ...`` of a scan: paths and sizes (one object, which Dask sends without looking inside)."""

    first: int
    paths: list[str]
    sizes: npt.NDArray[np.int64]

    @classmethod
    def of(cls, files: list[SourceFile], first: int) -> FileSlice:
        return cls(first, [f.path for f in files], np.fromiter((f.size for f in files), np.int64, len(files)))

    def files(self) -> list[SourceFile]:
        return [SourceFile(p, 0, "", s) for p, s in zip(self.paths, self.sizes.tolist())]


def sign_part(part: FileSlice, params: ScanParams, report: Callable[[int], None] | None = None) -> SignedPart:
    """Read, shingle and sign a slice of the scan's files with the local engine's front end; ``report(files done)``
    after each batch."""
    files, first_file = part.files(), part.first
    sp = params.signature
    family = make_family(sp)
    kept = np.zeros(len(files), dtype=bool)
    skips: list[tuple[int, int, str]] = []
    batches, sig_parts = [], []
    start = 0
    for chunk in frontend.batches(files):  # bounded memory per task, as in the local engine
        prep, batch, sigs = frontend.read_and_sign(
            chunk, params.corpus.max_bytes, sp, family, params.corpus.formats, params.corpus.storage_options
        )
        assert prep.files is not None  # given SourceFile objects, read_batch names those it read
        read = {id(f) for f in prep.files}
        ok = [start + i for i, f in enumerate(chunk) if id(f) in read]
        unread = [start + i for i, f in enumerate(chunk) if id(f) not in read]  # read_batch skips them in order
        skips += [(first_file + i, UNREADABLE, s.reason) for i, s in zip(unread, prep.skipped)]
        has = batch.counts() > 0
        skips += [(first_file + i, NO_WORDS, _NO_WORDS_REASON) for i, h in zip(ok, has.tolist()) if not h]
        idx = np.flatnonzero(has)
        kept[np.asarray(ok, dtype=np.int64)[idx]] = True
        batches.append(batch.take(idx))
        sig_parts.append(sigs[idx])
        start += len(chunk)
        if report is not None:
            report(start)
    sigs = np.concatenate(sig_parts) if sig_parts else np.zeros((0, sp.k), dtype=family.dtype)
    return SignedPart(concat_batches(batches), sigs, kept, skips)


def summary(part: SignedPart) -> PartSummary:
    return PartSummary(part.kept, part.skips, part.shingles.n_tokens, part.shingles.counts())


def split_by(dest: npt.NDArray[np.int64], n_out: int, *columns: npt.NDArray) -> list[tuple[npt.NDArray, ...]]:
    """Rows of ``columns`` grouped by their destination ``0 <= dest < n_out`` (order kept within a group)."""
    order = np.argsort(dest, kind="stable")
    bounds = np.searchsorted(dest[order], np.arange(n_out + 1))
    cols = [c[order] for c in columns]
    return [tuple(c[bounds[j] : bounds[j + 1]] for c in cols) for j in range(n_out)]


def band_map(part: SignedPart, first_doc: int, banding: Banding, n_out: int) -> list[Record]:
    """Each document's bucket key in each band (``lsh.band_keys``), routed by a hash of (band, key)."""
    keys = band_keys(part.sigs, banding)
    n, b = keys.shape
    band = np.tile(np.arange(b, dtype=np.uint16), n)
    doc = np.repeat(np.arange(first_doc, first_doc + n, dtype=np.int64), b)
    key = keys.ravel()
    dest = (fmix64(key ^ (band.astype(np.uint64) * _ROUTE)) % np.uint64(n_out)).astype(np.int64)
    return split_by(dest, n_out, band, key, doc)  # type: ignore[return-value]


def part_of(doc: npt.NDArray[np.int64], bounds: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The partition holding each document."""
    return np.searchsorted(bounds, doc, side="right") - 1


def band_reduce(
    bounds: npt.NDArray[np.int64], *pieces: Record
) -> list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]:
    """Buckets of 2+ documents among the records received; every pair in each, routed to its left document's partition."""
    band = np.concatenate([p[0] for p in pieces])
    key = np.concatenate([p[1] for p in pieces])
    doc = np.concatenate([p[2] for p in pieces])
    order = np.lexsort((doc, key, band))
    band, key, doc = band[order], key[order], doc[order]
    edges = np.flatnonzero(np.concatenate(([True], (band[1:] != band[:-1]) | (key[1:] != key[:-1]), [True])))
    starts, sizes = edges[:-1], np.diff(edges)
    starts, sizes = starts[sizes > 1], sizes[sizes > 1]
    pos = ranges(starts, sizes)  # each member of a bucket
    after = np.repeat(starts + sizes, sizes) - pos - 1  # members after it (a document is once per band's bucket)
    left = np.repeat(doc[pos], after)
    right = doc[ranges(pos + 1, after)]  # docs ascend within a bucket, so left < right
    return split_by(part_of(left, bounds), len(bounds) - 1, left, right)  # type: ignore[return-value]


def in_runs(
    doc: npt.NDArray[np.int64], starts: npt.NDArray[np.int64], stops: npt.NDArray[np.int64]
) -> npt.NDArray[np.bool_]:
    """Whether each document lies in one of the sorted, disjoint ranges ``starts[i]:stops[i]``."""
    i = np.searchsorted(starts, doc, side="right") - 1
    return (i >= 0) & (doc < stops[np.maximum(i, 0)]) if len(starts) else np.zeros(len(doc), dtype=bool)


def pair_reduce(
    n_docs: int, reference: tuple[np.ndarray, np.ndarray] | None, *pieces: tuple[np.ndarray, np.ndarray]
) -> Candidates:
    """One partition's candidate pairs, sorted, each with the number of bands it collided in (as ``candidate_pairs``)."""
    left = np.concatenate([p[0] for p in pieces]) if pieces else np.zeros(0, np.int64)
    right = np.concatenate([p[1] for p in pieces]) if pieces else np.zeros(0, np.int64)
    codes, counts = np.unique(left * n_docs + right, return_counts=True)
    cands = Candidates(codes // max(n_docs, 1), codes % max(n_docs, 1), counts.astype(np.int64))
    if reference is None:
        return cands
    keep = in_runs(cands.left, *reference) != in_runs(cands.right, *reference)  # reference x other folders only
    return Candidates(cands.left[keep], cands.right[keep], cands.bands[keep])


def requests(cands: Candidates, bounds: npt.NDArray[np.int64]) -> dict[int, npt.NDArray[np.int64]]:
    """The documents a partition's pairs need, by the partition that holds them (ascending numbers)."""
    need = unique(np.concatenate([cands.left, cands.right]))
    where = part_of(need, bounds)
    parts, first = np.unique(where, return_index=True)
    return {int(p): a for p, a in zip(parts, np.split(need, first[1:]))}


def needed_parts(req: dict[int, np.ndarray]) -> list[int]:
    return sorted(req)


def take_docs(part: SignedPart, first_doc: int, ids: npt.NDArray[np.int64]) -> DocSlice:
    """Documents ``ids`` (global numbers, all in this partition) with their shingle sets and signatures."""
    local = ids - first_doc
    return DocSlice(ids, part.shingles.take(local), part.sigs[local])


def score(cands: Candidates, *slices: DocSlice) -> Pairs:
    """Estimate and exact similarity of each pair, from the slices holding both its documents (ascending)."""
    ids = np.concatenate([s.ids for s in slices]) if slices else np.zeros(0, np.int64)
    shingles = concat_batches([s.shingles for s in slices])
    sigs = np.concatenate([s.sigs for s in slices]) if slices else np.zeros((0, 0), np.uint32)
    left, right = np.searchsorted(ids, cands.left), np.searchsorted(ids, cands.right)
    jac = exact_jaccard(shingles, left, right)
    est = estimate_pairs(sigs, left, right) if len(left) else np.zeros(0, np.float64)
    return Pairs(cands.left, cands.right, est, jac, cands.bands)
