"""A scanned document's nearest documents by both measures: what the window's "Find similar..." lists."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.query.rank import rank
from lshdesk.core.shingling import ShingleBatch


@dataclass(frozen=True)
class Nearest:
    """Documents near one document, by exact Jaccard descending: the estimate (matching slots / k), the exact
    Jaccard, C(this in it) and C(it in this), one array each."""

    index: npt.NDArray[np.int64]
    estimate: npt.NDArray[np.float64]
    jaccard: npt.NDArray[np.float64]
    contained: npt.NDArray[np.float64]  # C(this in it): how much of the document is inside each match
    contains: npt.NDArray[np.float64]  # C(it in this): how much of each match is inside the document

    def __len__(self) -> int:
        return len(self.index)


def nearest(sigs: npt.NDArray, shingles: ShingleBatch, doc: int, top: int = 20) -> Nearest:
    """The ``top`` nearest documents of scanned document ``doc`` by Jaccard, and its ``top`` best containers (by
    containment of ``doc`` in them), merged; the document itself is left out."""
    return nearest_to(sigs, shingles, sigs[doc], shingles.doc(doc), top, exclude=[doc])


def nearest_to(
    sigs: npt.NDArray,
    shingles: ShingleBatch,
    q_sig: npt.NDArray,
    q_ids: npt.NDArray,
    top: int = 20,
    exclude: npt.ArrayLike = (),
) -> Nearest:
    """The ``top`` nearest documents of a query (its signature and shingle ids, e.g. a file signed with the scan's
    parameters) by Jaccard, and its ``top`` best containers, merged; ``exclude``: documents never listed."""
    by_j = rank(sigs, shingles, q_sig, q_ids, top, measure="jaccard", exclude=exclude)
    by_c = rank(sigs, shingles, q_sig, q_ids, top, measure="containment", exclude=exclude)
    index = np.concatenate([by_j.index, by_c.index])
    jac = np.concatenate([by_j.jaccard, by_c.jaccard])
    cont = np.concatenate([by_j.containment, by_c.containment])
    index, first = np.unique(index, return_index=True)
    jac, cont = jac[first], cont[first]
    counts = shingles.counts()
    inter = np.rint(cont * len(q_ids))
    contains = np.divide(inter, counts[index], out=np.zeros(len(index)), where=counts[index] > 0)
    k = max(sigs.shape[1], 1)
    est = np.count_nonzero(sigs[index] == q_sig, axis=1) / k
    order = np.lexsort((index, -cont, -jac))
    return Nearest(index[order], est[order], jac[order], cont[order], contains[order])
