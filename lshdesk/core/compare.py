"""Why documents match, from their signatures: agreeing slots, estimate with a 95% interval, colliding bands."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.params import Banding

Z95 = 1.959963984540054  # the standard normal quantile for a two-sided 95% interval


def wilson_interval(
    m: npt.ArrayLike, k: npt.ArrayLike, z: float = Z95
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """(low, high) of the Wilson score interval for a binomial proportion m/k (95% with the default z).

    Each of the k slots agrees with probability J (the Jaccard similarity), so the number of matching slots m is
    Binomial(k, J). The Wilson score interval is the set of J for which ``|m/k - J| <= z * sqrt(J (1 - J) / k)``;
    unlike the plain ``m/k +- z * se`` it stays inside [0, 1] and is not empty at m = 0 or m = k.
    """
    m = np.asarray(m, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    if np.any(k <= 0) or np.any(m < 0) or np.any(m > k):
        raise ValueError("the Wilson interval needs 0 <= m <= k and k > 0")
    return wilson_bounds(m, k, z)


def wilson_bounds(
    m: npt.ArrayLike, k: npt.ArrayLike, z: float = Z95
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """``wilson_interval`` without the checks, for arrays of counts: nan where k == 0 (an empty bin)."""
    m = np.asarray(m, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.clip(m / k, 0.0, 1.0)
        z2 = z * z
        denom = 1.0 + z2 / k
        centre = (p + z2 / (2.0 * k)) / denom
        half = z / denom * np.sqrt(p * (1.0 - p) / k + z2 / (4.0 * k * k))
    low = np.where(m == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(m == k, 1.0, np.clip(centre + half, 0.0, 1.0))
    empty = k == 0
    return np.where(empty, np.nan, low), np.where(empty, np.nan, high)


def all_pairs(n: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every pair of n rows as (left, right) arrays with left < right, in row-major order (0-1, 0-2, ..., 1-2, ...)."""
    left, right = np.triu_indices(n, k=1)
    return left.astype(np.int64), right.astype(np.int64)


def pair_agreement(sigs: npt.NDArray, left: npt.NDArray, right: npt.NDArray) -> npt.NDArray[np.bool_]:
    """A ``(n_pairs, k)`` mask: True where the two rows of each pair hold the same value."""
    return sigs[left] == sigs[right]


def slot_agreement(sigs: npt.NDArray) -> npt.NDArray[np.bool_]:
    """A ``(k,)`` mask: True where every row holds the same value (all False when there are fewer than 2 rows)."""
    if len(sigs) < 2:
        return np.zeros(sigs.shape[1], dtype=bool)
    return np.all(sigs == sigs[0], axis=0)


def shared_cells(sigs: npt.NDArray) -> npt.NDArray[np.bool_]:
    """An ``(n, k)`` mask: True where a cell's value is held by at least one other row in the same slot."""
    n = len(sigs)
    out = np.zeros(sigs.shape, dtype=bool)
    if n < 2:
        return out
    order = np.argsort(sigs, axis=0, kind="stable")
    ranked = np.take_along_axis(sigs, order, axis=0)
    same = ranked[1:] == ranked[:-1]  # ranked row i equals ranked row i+1
    dup = np.zeros(sigs.shape, dtype=bool)
    dup[1:] |= same
    dup[:-1] |= same
    np.put_along_axis(out, order, dup, axis=0)
    return out


def band_of_slot(k: int, banding: Banding | None) -> npt.NDArray[np.int64]:
    """Each slot's band index, or -1 for slots in no band (beyond bands x rows, or with no banding)."""
    out = np.full(k, -1, dtype=np.int64)
    if banding is not None:
        banding.check(k)
        used = banding.bands * banding.rows
        out[:used] = np.arange(used) // banding.rows
    return out


def band_collisions(agree: npt.NDArray[np.bool_], banding: Banding) -> npt.NDArray[np.bool_]:
    """From slot agreement masks ``(..., k)``, a mask ``(..., bands)``: True where all r rows of the band agree."""
    k = agree.shape[-1]
    banding.check(k)
    b, r = banding.bands, banding.rows
    return agree[..., : b * r].reshape(*agree.shape[:-1], b, r).all(axis=-1)  # type: ignore[return-value]  # numpy's stub: all() may be a scalar


def bucket_members(sigs: npt.NDArray, banding: Banding) -> npt.NDArray[np.bool_]:
    """An ``(n, bands)`` mask: True where a row agrees with at least one other row on every slot of the band."""
    n = len(sigs)
    out = np.zeros((n, banding.bands), dtype=bool)
    if n < 2:
        return out
    left, right = all_pairs(n)
    hit = band_collisions(pair_agreement(sigs, left, right), banding)
    np.logical_or.at(out, left, hit)
    np.logical_or.at(out, right, hit)
    return out


@dataclass(frozen=True)
class PairFigures:
    """The figures of every pair of rows, one array each; ``collided[p]`` marks the bands pair p shares a bucket in."""

    left: npt.NDArray[np.int64]
    right: npt.NDArray[np.int64]
    matches: npt.NDArray[np.int64]
    k: int
    estimate: npt.NDArray[np.float64]
    low: npt.NDArray[np.float64]
    high: npt.NDArray[np.float64]
    collided: npt.NDArray[np.bool_]  # (n_pairs, bands); (n_pairs, 0) without a banding

    def __len__(self) -> int:
        return len(self.left)

    def bands_of(self, p: int) -> list[int]:
        """The bands in which pair p collided (the reasons it became a candidate pair)."""
        return np.flatnonzero(self.collided[p]).tolist()


def pair_figures(sigs: npt.NDArray, banding: Banding | None = None) -> PairFigures:
    """Matching slots m of k, estimate m/k with its 95% Wilson interval, and colliding bands, for all pairs of rows."""
    if sigs.ndim != 2:
        raise ValueError(f"signatures must be an (n_docs, k) array, not shape {sigs.shape}")
    n, k = sigs.shape
    left, right = all_pairs(n)
    agree = pair_agreement(sigs, left, right)
    matches = np.count_nonzero(agree, axis=1).astype(np.int64)
    low, high = wilson_interval(matches, k) if k else (np.zeros(len(left)), np.zeros(len(left)))
    collided = band_collisions(agree, banding) if banding is not None else np.zeros((len(left), 0), dtype=bool)
    return PairFigures(left, right, matches, k, matches / max(k, 1), low, high, collided)
