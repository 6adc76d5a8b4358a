"""What the S-curve plot draws for a scheme: its candidates and the other known pairs, capped in number (Qt-free)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.explore.containment import ContainmentCurves
from lshdesk.core.explore.exact import ExactReference
from lshdesk.core.explore.figures import Figures

KIND_CAUGHT, KIND_MISSED, KIND_OTHER = 0, 1, 2


@dataclass(frozen=True)
class PlotPairs:
    """Pairs to draw: document indices, exact similarity (``jaccard``; containment in a containment scan's view),
    kind (caught, missed above t, other), bands collided."""

    left: npt.NDArray[np.int64]
    right: npt.NDArray[np.int64]
    jaccard: npt.NDArray[np.float64]
    kind: npt.NDArray[np.int8]  # KIND_CAUGHT, KIND_MISSED (J >= t, not a candidate) or KIND_OTHER
    bands: npt.NDArray[np.int64]


def empty_pairs() -> PlotPairs:
    """No pair to draw."""
    none = np.zeros(0, np.int64)
    return PlotPairs(none, none, np.zeros(0, np.float64), np.zeros(0, np.int8), none)


def plot_pairs(f: Figures | None, ref: ExactReference | None, t: float, max_points: int = 5_000) -> PlotPairs:
    """The pairs to draw for figures ``f``: its candidates and the reference's other pairs, at most ``max_points``
    (every missed pair first, then the same share of the rest whatever the scheme)."""
    if f is None:
        return empty_pairs()
    left, right, jac = [f.left], [f.right], [f.jaccard]
    kind, bands = [np.full(len(f.left), KIND_CAUGHT, np.int8)], [f.bands]
    if ref is not None:
        n = max(ref.n_docs, 1)
        codes, oj = ref.codes[f.others], ref.jaccard[f.others]
        left.append(codes // n)
        right.append(codes % n)
        jac.append(oj)
        kind.append(np.where(oj >= t - 1e-12, KIND_MISSED, KIND_OTHER).astype(np.int8))
        bands.append(np.zeros(len(codes), np.int64))
    joined = PlotPairs(
        np.concatenate(left), np.concatenate(right), np.concatenate(jac), np.concatenate(kind), np.concatenate(bands)
    )
    return _cap(joined, max_points)


def containment_pairs(cc: ContainmentCurves, curve: int | None = None, max_points: int = 5_000) -> PlotPairs:
    """The pairs of a containment scan to draw, at their exact containment: those of size-class pair ``curve``
    (None: all), at most ``max_points`` as in ``plot_pairs``."""
    idx = np.arange(len(cc.left)) if curve is None else np.flatnonzero(cc.curve == curve)
    kind = np.where(cc.caught, KIND_CAUGHT, np.where(cc.missed(), KIND_MISSED, KIND_OTHER)).astype(np.int8)
    return _cap(PlotPairs(cc.left[idx], cc.right[idx], cc.containment[idx], kind[idx], cc.bands[idx]), max_points)


def _cap(p: PlotPairs, max_points: int) -> PlotPairs:
    """At most ``max_points`` of ``p``: every missed pair first, then the rest of lowest ``rank``: the same pairs
    stay drawn when the scheme changes (they move between the rugs; a fresh random share made them flicker)."""
    if len(p.left) > max_points:
        missed = np.flatnonzero(p.kind == KIND_MISSED)[:max_points]
        rest = np.flatnonzero(p.kind != KIND_MISSED)
        need = max(0, max_points - len(missed))
        pick = rest[np.argpartition(rank(p.left[rest], p.right[rest]), need)[:need]] if need < len(rest) else rest
        keep = np.sort(np.concatenate([missed, pick]))
        p = PlotPairs(p.left[keep], p.right[keep], p.jaccard[keep], p.kind[keep], p.bands[keep])
    return p


def rank(left: np.ndarray, right: np.ndarray) -> npt.NDArray[np.uint64]:
    """A fixed pseudo-random number per pair (a multiply-xorshift hash; independent of ``jitter``)."""
    h = left.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15) ^ right.astype(np.uint64) * np.uint64(0xC2B2AE3D27D4EB4F)
    return h ^ (h >> np.uint64(31))


def jitter(left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """A fixed offset in [0, 1) per pair (golden-ratio hashing), so points do not jump between updates."""
    return (left * 0.6180339887 + right * 0.7548776662) % 1.0
