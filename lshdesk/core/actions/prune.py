"""A scan result without the documents that left their folder (pairs, groups and arrays renumbered), and the files
actions took away from a scan and Undo gave back."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from lshdesk.core.clustering import Pairs, group_min_similarity, groups
from lshdesk.core.scan.pipeline import Documents, ScanResult
from lshdesk.core.shingling import ShingleBatch


def _pairs(p: Pairs, keep: npt.NDArray[np.bool_], new: npt.NDArray[np.int64]) -> Pairs:
    rows = np.flatnonzero(keep[p.left] & keep[p.right])
    q = p.take(rows)
    return Pairs(new[q.left], new[q.right], q.estimate, q.jaccard, q.bands)


def without(result: ScanResult, gone: Sequence[int]) -> tuple[ScanResult, npt.NDArray[np.int64]]:
    """The result as if the ``gone`` documents had never been scanned, and each kept document's old number.

    Groups are found again from the remaining verified pairs (a chain A~B~C without B is two documents apart).
    """
    n = len(result.docs)
    keep = np.ones(n, dtype=bool)
    keep[np.asarray(list(gone), dtype=np.int64)] = False
    old = np.flatnonzero(keep)
    new = np.full(n, -1, dtype=np.int64)
    new[old] = np.arange(len(old))
    d, s = result.docs, result.shingles
    docs = Documents(
        paths=[d.paths[i] for i in old.tolist()],
        rel=[d.rel[i] for i in old.tolist()],
        root=d.root[old],
        size=d.size[old],
        n_tokens=d.n_tokens[old],
        mtime=d.mtime[old] if d.mtime is not None else None,
    )
    counts = s.counts()[old]
    offsets = np.zeros(len(old) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    ids = s.ids[np.repeat(keep, s.counts())]
    shingles = ShingleBatch(ids, offsets, s.n_tokens[old])
    pairs = _pairs(result.pairs, keep, new)
    comps = groups(len(old), pairs.left, pairs.right)
    pruned = replace(
        result,
        docs=docs,
        signatures=result.signatures[old],
        shingles=shingles,
        candidates=_pairs(result.candidates, keep, new),
        pairs=pairs,
        groups=comps,
        group_min=group_min_similarity(comps, shingles),
    )
    return pruned, old


@dataclass(frozen=True)
class TakenAway:
    """A scanned result, the files actions took out of it (moved, trashed), and the result shown without them: each
    action takes more away, each Undo gives some back, in any order, and the result shown is found again from the
    scan (so a file moved back by the second Undo returns as well as by the first)."""

    scanned: ScanResult
    away: frozenset[str] = frozenset()
    shown: ScanResult | None = None  # None: the scanned result itself

    def result(self) -> ScanResult:
        return self.scanned if self.shown is None else self.shown

    def taking(self, paths: Iterable[str]) -> TakenAway:
        return self._with(self.away | set(paths))

    def giving_back(self, paths: Iterable[str]) -> TakenAway:
        return self._with(self.away - set(paths))

    def _with(self, away: frozenset[str]) -> TakenAway:
        gone = [i for i, p in enumerate(self.scanned.docs.paths) if p in away]
        return TakenAway(self.scanned, away, without(self.scanned, gone)[0] if gone else None)
