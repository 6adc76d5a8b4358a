"""Exact similarity of candidate pairs, verification at the threshold, and groups by union-find."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.kernels import pairs as pair_kernels
from lshdesk.core.kernels.probe import probe_intersection_sizes
from lshdesk.core.lsh import Candidates
from lshdesk.core.minhash import estimate_pairs
from lshdesk.core.shingling import ShingleBatch
from lshdesk.core.threads import Workers, wait_for


def exact_jaccard(shingles: ShingleBatch, left: npt.NDArray, right: npt.NDArray) -> npt.NDArray[np.float64]:
    """Exact Jaccard similarity of each pair of documents, from their shingle sets (0 when both are empty).

    Many pairs are split between two threads (the kernel runs without the GIL).
    """
    left = np.ascontiguousarray(left, dtype=np.int64)
    right = np.ascontiguousarray(right, dtype=np.int64)
    inter = intersection_sizes(shingles, left, right)
    counts = shingles.counts()
    union = counts[left] + counts[right] - inter
    return np.divide(inter, union, out=np.zeros(len(inter)), where=union > 0)


def intersection_sizes(shingles: ShingleBatch, left: npt.NDArray, right: npt.NDArray) -> npt.NDArray[np.int64]:
    """|A ∩ B| of each pair of documents (int64 index arrays); many pairs are split between two threads (halves of
    the work: the right documents' sizes).

    The probing kernel (a hash table per left document) beats the merge of ``pairs.intersection_sizes`` on every
    case measured (one thread, the 6,059-document docs6k corpus, ``rebanding.py --kernels``): 4.3-4.6x on candidates
    of char:5 sets (665 ids a document), 4.6-5.1x on word:3 sets (124 ids), 1.8-2.3x on random pairs (a new table
    at every pair).
    """
    ids, offsets = shingles.ids, shingles.offsets
    if len(left) < 20000:
        return probe_intersection_sizes(ids, offsets, left, right)
    work = np.cumsum(shingles.counts()[right])  # a pair costs about |B| probes: split the work, not the pairs
    half = int(np.searchsorted(work, work[-1] // 2))
    pool = Workers(1, "lshdesk-verify")
    try:
        other = pool.submit(probe_intersection_sizes, ids, offsets, left[half:], right[half:])
        first = probe_intersection_sizes(ids, offsets, left[:half], right[:half])
        return np.concatenate([first, wait_for(other)])
    finally:
        pool.shutdown(wait=False)  # done by now, unless Ctrl+C came: then do not wait


@dataclass(frozen=True)
class Pairs:
    """Pairs of documents with their estimate, exact similarity and number of colliding bands, one array each.

    A scan's candidates may hold ``jaccard = nan``: a pair the verification's join proved below the threshold
    without measuring it (``scan/verify``). Verified pairs always hold their exact similarity."""

    left: npt.NDArray[np.int64]
    right: npt.NDArray[np.int64]
    estimate: npt.NDArray[np.float64]
    jaccard: npt.NDArray[np.float64]
    bands: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.left)

    def take(self, index: npt.NDArray) -> Pairs:
        return Pairs(self.left[index], self.right[index], self.estimate[index], self.jaccard[index], self.bands[index])


def verify(cands: Candidates, sigs: npt.NDArray, shingles: ShingleBatch, threshold: float) -> tuple[Pairs, Pairs]:
    """(all candidates scored, verified pairs with exact similarity >= threshold sorted by similarity descending)."""
    jac = exact_jaccard(shingles, cands.left, cands.right)
    scored = Pairs(cands.left, cands.right, estimate_pairs(sigs, cands.left, cands.right), jac, cands.bands)
    return scored, verified(scored, threshold)


def verified(scored: Pairs, threshold: float) -> Pairs:
    """The scored pairs whose exact similarity is at least the threshold, by similarity descending."""
    jac = scored.jaccard
    keep = np.flatnonzero(jac >= threshold - 1e-12)
    return scored.take(keep[np.lexsort((scored.right[keep], scored.left[keep], -jac[keep]))])


def groups(n_docs: int, left: npt.NDArray, right: npt.NDArray) -> list[npt.NDArray[np.int64]]:
    """Connected components of the pair graph with two or more members, largest first, members ascending."""
    left = np.ascontiguousarray(left, dtype=np.int64)
    right = np.ascontiguousarray(right, dtype=np.int64)
    roots = pair_kernels.components(n_docs, left, right) if n_docs else np.zeros(0, np.int64)
    in_group = np.flatnonzero(np.bincount(roots, minlength=n_docs)[roots] > 1)  # singletons never split out
    order = in_group[np.argsort(roots[in_group], kind="stable")]
    edges = np.flatnonzero(np.diff(roots[order])) + 1
    comps = np.split(order, edges) if len(order) else []
    comps.sort(key=lambda c: (-len(c), int(c[0])))
    return comps


def group_min_similarity(comps: list[npt.NDArray[np.int64]], shingles: ShingleBatch) -> npt.NDArray[np.float64]:
    """``min_similarity_in_group`` of every group at once (one compiled pass; 1.0 for a group of one)."""
    if not comps:
        return np.zeros(0, dtype=np.float64)
    members = np.concatenate(comps).astype(np.int64)
    starts = np.zeros(len(comps) + 1, dtype=np.int64)
    np.cumsum([len(c) for c in comps], out=starts[1:])
    return pair_kernels.group_min_jaccard(shingles.ids, shingles.offsets, members, starts, np.ones(len(comps)))


def min_similarity_in_group(members: npt.NDArray, shingles: ShingleBatch) -> float:
    """The lowest exact similarity between any two members of a group (a chain A~B~C shows here)."""
    i, j = np.triu_indices(len(members), k=1)
    return float(exact_jaccard(shingles, members[i], members[j]).min()) if len(i) else 1.0
