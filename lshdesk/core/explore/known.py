"""Exact Jaccard already known for one result: sorted pair codes -> J, so a scheme visited again costs only banding.

A pair's exact similarity never changes while the result is shown, so the explorer keeps every one it has computed
(the exact reference's listed pairs, every re-band's candidates) and computes only the pairs it has not seen:
lookups are ``searchsorted`` joins of sorted codes, new pairs are inserted in order (linear, no re-sort). Memory is
16 bytes a pair, capped by ``MAX_KNOWN`` pairs: past it, only the latest scheme's pairs are kept (nothing of a
scheme that alone brings more).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from lshdesk.core.clustering import exact_jaccard
from lshdesk.core.shingling import ShingleBatch

if TYPE_CHECKING:
    from lshdesk.core.scan.pipeline import ScanResult

MAX_KNOWN = 8_000_000  # pairs remembered (128 MB): more than the densest scheme of a ~6k-document char:5 corpus


class KnownJaccard:
    """The exact Jaccard of every pair computed so far for one set of documents (codes ``left * n + right``)."""

    def __init__(self, shingles: ShingleBatch, max_known: int = MAX_KNOWN) -> None:
        self.shingles = shingles
        self.n = len(shingles)
        self.max_known = max_known
        self.codes = np.zeros(0, dtype=np.int64)  # ascending, unique
        self.values = np.zeros(0, dtype=np.float64)
        self.computed = 0  # pairs scored here (not found known), for tests and benchmarks
        self._seeded: list[object] = []  # the references already merged in
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.codes)

    def seed(self, codes: npt.NDArray[np.int64], values: npt.NDArray[np.float64], key: object | None = None) -> None:
        """Remember pairs whose exact Jaccard is known already (sorted unique codes); once per ``key`` if given."""
        with self._lock:
            if key is not None:
                if any(k is key for k in self._seeded):
                    return
                self._seeded.append(key)
            pos, found = self._find(codes)
            self._insert(pos[~found], codes[~found], values[~found])

    def jaccard(self, codes: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """Exact Jaccard of each pair (sorted unique codes): looked up where known, computed (and kept) where not."""
        with self._lock:
            pos, found = self._find(codes)
            out = np.empty(len(codes), dtype=np.float64)
            out[found] = self.values[pos[found]]
            new = ~found
            if not new.any():
                return out
            fresh = codes[new]
            out[new] = exact_jaccard(self.shingles, fresh // max(self.n, 1), fresh % max(self.n, 1))
            self.computed += len(fresh)
            if len(self.codes) + len(fresh) <= self.max_known:
                self._insert(pos[new], fresh, out[new])
            elif len(codes) <= self.max_known:  # too many: keep the pairs of the scheme shown, forget the others
                self.codes, self.values = codes.copy(), out.copy()
            # else this scheme alone has more pairs than may be kept: keep what was known
            return out

    def _find(self, codes: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        """Where each code goes in the known codes, and whether it is there."""
        pos = np.searchsorted(self.codes, codes)
        if not len(self.codes):
            return pos, np.zeros(len(codes), dtype=bool)
        return pos, self.codes[np.minimum(pos, len(self.codes) - 1)] == codes

    def _insert(self, pos: npt.NDArray[np.int64], codes: npt.NDArray[np.int64], values: npt.NDArray) -> None:
        if len(codes):
            self.codes = np.insert(self.codes, pos, codes)
            self.values = np.insert(self.values, pos, values)


def measured_candidates(result: ScanResult) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """A Jaccard scan's candidates whose exact Jaccard the scan measured, as (sorted pair codes, Jaccard): what
    ``KnownJaccard.seed`` takes (the verification's join leaves the others at nan, ``scan/verify``)."""
    c, n = result.candidates, max(len(result.docs), 1)
    keep = ~np.isnan(c.jaccard)
    codes = c.left[keep] * n + c.right[keep]
    order = np.argsort(codes, kind="stable")
    return codes[order], c.jaccard[keep][order]
