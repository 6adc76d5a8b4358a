"""Two texts aligned by the passages they share: anchor points (a position in each text) and the map between them."""

from __future__ import annotations

from bisect import bisect_left

import numpy as np
import numpy.typing as npt

Spans = dict[str, list[tuple[int, int]]]


def anchors(shingles_a: Spans, shingles_b: Spans) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """(positions in A, positions in B) where the same shingle starts in both texts, both ascending.

    Only shingles found once in each text are used (a repeated phrase says nothing about where it matches), and of
    those the longest chain in the same order in both texts (a passage moved elsewhere would cross the others).
    """
    points = sorted(
        (a[0][0], b[0][0]) for s, a in shingles_a.items() if len(a) == 1 and len(b := shingles_b.get(s, [])) == 1
    )
    chain = _longest_increasing([b for _, b in points])
    return (
        np.array([points[i][0] for i in chain], dtype=np.int64),
        np.array([points[i][1] for i in chain], dtype=np.int64),
    )


def _longest_increasing(values: list[int]) -> list[int]:
    """Indices of a longest strictly increasing subsequence (O(n log n))."""
    tails: list[int] = []  # tails[k]: the smallest last value of an increasing run of length k + 1
    tail_at: list[int] = []
    before = [-1] * len(values)
    for i, v in enumerate(values):
        k = bisect_left(tails, v)
        if k == len(tails):
            tails.append(v)
            tail_at.append(i)
        else:
            tails[k], tail_at[k] = v, i
        before[i] = tail_at[k - 1] if k else -1
    out, i = [], tail_at[-1] if tail_at else -1
    while i >= 0:
        out.append(i)
        i = before[i]
    return out[::-1]


def map_position(
    pos: float, source: npt.NDArray[np.int64], target: npt.NDArray[np.int64], source_len: int, target_len: int
) -> int:
    """Where a position of one text falls in the other: exact at the anchors, in proportion between them."""
    xs = np.concatenate([[0], source, [max(source_len, 1)]]).astype(np.float64)
    ys = np.concatenate([[0], target, [max(target_len, 1)]]).astype(np.float64)
    keep = np.concatenate([[True], np.diff(xs) > 0])  # np.interp needs increasing x
    return int(round(float(np.interp(pos, xs[keep], ys[keep]))))
