"""Groups that explain themselves: each member's closest partner, and strict groups where every pair is verified."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from lshdesk.core.clustering import Pairs


def group_ids(n_docs: int, comps: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.int64]:
    """The group number of each document, -1 for a document in no group."""
    gid = np.full(n_docs, -1, dtype=np.int64)
    for g, members in enumerate(comps):
        gid[members] = g
    return gid


def closest_in_group(
    n_docs: int, comps: list[npt.NDArray[np.int64]], pairs: Pairs
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """(similarity, partner) of each document's most similar verified pair inside its own group (nan, -1 if none).

    Ties go to the partner with the lower index, so the answer does not depend on the order of the pairs.
    """
    best = np.full(n_docs, np.nan)
    partner = np.full(n_docs, -1, dtype=np.int64)
    gid = group_ids(n_docs, comps)
    inside = (gid[pairs.left] >= 0) & (gid[pairs.left] == gid[pairs.right])
    left, right, jac = pairs.left[inside], pairs.right[inside], pairs.jaccard[inside]
    node = np.concatenate([left, right])
    other = np.concatenate([right, left])
    sim = np.concatenate([jac, jac])
    order = np.lexsort((other, -sim, node))  # by document, then most similar first, then lowest partner
    first = order[np.unique(node[order], return_index=True)[1]]
    best[node[first]] = sim[first]
    partner[node[first]] = other[first]
    return best, partner


def lowest_in_groups(n_docs: int, comps: list[npt.NDArray[np.int64]], pairs: Pairs) -> npt.NDArray[np.float64]:
    """The lowest similarity among the verified pairs inside each group (1.0 for a group with none)."""
    low = np.ones(len(comps))
    gid = group_ids(n_docs, comps)
    inside = (gid[pairs.left] >= 0) & (gid[pairs.left] == gid[pairs.right])
    np.minimum.at(low, gid[pairs.left[inside]], pairs.jaccard[inside])
    return low


def strict_groups(pairs: Pairs) -> list[npt.NDArray[np.int64]]:
    """Groups in which every two members form a verified pair (so every pair is at or above the threshold).

    Complete linkage over the verified pairs, most similar first: two groups join only when every document of one
    is verified with every document of the other, so a chain A~B~C with A and C apart is cut at its weakest link.
    Largest first, members ascending (as ``clustering.groups``).
    """
    adjacent: dict[int, set[int]] = {}
    for l, r in zip(pairs.left.tolist(), pairs.right.tolist()):
        adjacent.setdefault(l, set()).add(r)
        adjacent.setdefault(r, set()).add(l)
    cluster: dict[int, list[int]] = {}
    order = np.lexsort((pairs.right, pairs.left, -pairs.jaccard))
    for l, r in zip(pairs.left[order].tolist(), pairs.right[order].tolist()):
        a, b = cluster.get(l, [l]), cluster.get(r, [r])
        if a is b or not all(y in adjacent[x] for x in a for y in b):
            continue
        merged = a + b
        for d in merged:
            cluster[d] = merged
    unique = {id(c): c for c in cluster.values()}.values()
    comps = [np.array(sorted(c), dtype=np.int64) for c in unique if len(c) > 1]
    comps.sort(key=lambda c: (-len(c), int(c[0])))
    return comps
