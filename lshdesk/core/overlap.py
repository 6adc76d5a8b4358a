"""Folder against folder: how many documents of one side have a near-duplicate on the other, and how much of one
side's text the other holds (containment of their shingle sets), with the pairs behind each figure."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.arrays import unique
from lshdesk.core.pathnames import display
from lshdesk.core.scan.pipeline import ScanResult


@dataclass(frozen=True)
class Side:
    """One side of the comparison: its folders, documents, and what of it the other side holds."""

    name: str  # its folders, as shown
    roots: tuple[int, ...]  # indices into ``result.roots``
    docs: int
    matched: int  # documents with a near-duplicate (a reported pair) on the other side
    shingles: int  # distinct shingles of all its documents together (0 when the scan kept no shingle sets)
    contained: float | None  # the share of those the other side holds too (0 for an empty side; None: not kept)


@dataclass(frozen=True)
class Overlap:
    """Side A against side B; ``pairs`` indexes the scan's pairs that join a document of A to one of B."""

    a: Side
    b: Side
    pairs: npt.NDArray[np.int64]

    def lines(self) -> list[str]:
        """The figures in words, A then B."""
        out = []
        for one, other in ((self.a, self.b), (self.b, self.a)):
            share = one.matched / one.docs if one.docs else 0.0
            held = (
                f"{one.contained:.0%} of its shingles are" if one.contained is not None else "(shingle sets not kept)"
            )
            out.append(
                f"{one.matched:,} of {one.docs:,} documents of {one.name} ({share:.0%}) have a near-duplicate in "
                f"{other.name}; {held} in {other.name} too"
            )
        return out

    def to_json(self) -> dict:
        def side(s: Side) -> dict:
            return {
                "folders": s.name,
                "documents": s.docs,
                "with_near_duplicate": s.matched,
                "shingles": s.shingles,
                "contained": round(s.contained, 6) if s.contained is not None else None,
            }

        return {"a": side(self.a), "b": side(self.b), "pairs": len(self.pairs)}


def default_sides(result: ScanResult) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The reference folders against the rest; with none, the first folder against the others; None for one folder."""
    every = tuple(range(len(result.roots)))
    if len(every) < 2:
        return None
    ref = tuple(sorted(set(result.reference)))
    a = ref if 0 < len(ref) < len(every) else (0,)
    return a, tuple(r for r in every if r not in a)


def _kept(result: ScanResult) -> bool:
    """The scan kept its shingle sets (a cluster's scan without ``gather`` leaves them on the workers)."""
    s = result.shingles
    return len(s) == len(result.docs) and len(s.ids) == int(s.offsets[-1])


def _distinct(result: ScanResult, docs: npt.NDArray[np.int64]) -> npt.NDArray[np.uint32]:
    return unique(result.shingles.take(docs).ids)


def _side(
    result: ScanResult,
    roots: tuple[int, ...],
    docs: npt.NDArray[np.int64],
    matched: npt.NDArray[np.int64],
    mine: npt.NDArray[np.uint32],
    theirs: npt.NDArray[np.uint32],
) -> Side:
    name = ", ".join(display(result.roots[r]) for r in roots)
    contained: float | None = float(np.isin(mine, theirs, assume_unique=True).mean()) if len(mine) else 0.0
    if not _kept(result):
        contained = None
    return Side(name, roots, int(len(docs)), int(len(matched)), int(len(mine)), contained)


def overlap(result: ScanResult, sides: tuple[tuple[int, ...], tuple[int, ...]] | None = None) -> Overlap | None:
    """Side A against side B (root indices; default ``default_sides``); None when there are not two sides."""
    sides = sides if sides is not None else default_sides(result)
    if sides is None or not sides[0] or not sides[1] or set(sides[0]) & set(sides[1]):
        return None
    in_a, in_b = np.isin(result.docs.root, sides[0]), np.isin(result.docs.root, sides[1])
    left, right = result.pairs.left, result.pairs.right
    cross = np.flatnonzero((in_a[left] & in_b[right]) | (in_b[left] & in_a[right]))
    ends = np.concatenate([left[cross], right[cross]])
    docs_a, docs_b = np.flatnonzero(in_a), np.flatnonzero(in_b)
    none = np.zeros(0, np.uint32)
    ids_a, ids_b = (_distinct(result, docs_a), _distinct(result, docs_b)) if _kept(result) else (none, none)
    return Overlap(
        _side(result, sides[0], docs_a, unique(ends[in_a[ends]]), ids_a, ids_b),
        _side(result, sides[1], docs_b, unique(ends[in_b[ends]]), ids_b, ids_a),
        cross.astype(np.int64),
    )
