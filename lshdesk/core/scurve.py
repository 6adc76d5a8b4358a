"""The S-curve maths of banding as plain functions: P(J) = 1 - (1 - J^r)^b, its threshold, FP/FN areas, best (b, r).

P is a polynomial of degree b*r in J, so Gauss-Legendre quadrature with ceil((b*r + 1) / 2) nodes integrates it
exactly (up to rounding, and its weights are positive so rounding does not grow): no scipy, no adaptive quad.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from lshdesk.core.errors import ParamError
from lshdesk.core.params import Banding, ScanParams


def probability(j: npt.ArrayLike, bands: int | np.ndarray, rows: int | np.ndarray) -> npt.NDArray[np.float64]:
    """Probability that a pair of Jaccard similarity j becomes a candidate: ``1 - (1 - j**r)**b``."""
    j = np.asarray(j, dtype=np.float64)
    return 1.0 - (1.0 - j**rows) ** bands


def threshold(bands: int, rows: int) -> float:
    """MMDS's approximate threshold ``(1/b)**(1/r)``: roughly where the curve rises (it is steepest at
    ``((r-1)/(r*b-1))**(1/r)`` and crosses 1/2 at ``(1-2**(-1/b))**(1/r)``: see ``teaching.curve_points``)."""
    return (1.0 / bands) ** (1.0 / rows)


def _legendre(m: int, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """P_m(x) and P_m'(x) by the three-term recurrence (x inside (-1, 1))."""
    p0, p1 = np.ones_like(x), x
    for n in range(2, m + 1):
        p0, p1 = p1, ((2 * n - 1) * x * p1 - (n - 1) * p0) / n
    return p1, m * (x * p1 - p0) / (x * x - 1)


@lru_cache(maxsize=256)  # every degree of k <= 512 (b x r <= k: m <= k/2 + 1)
def _nodes(m: int) -> tuple[np.ndarray, np.ndarray]:
    """The m Gauss-Legendre nodes (ascending) and weights on [-1, 1]: Newton's method on P_m from the classical first
    guesses, weights 2 / ((1 - x^2) P_m'(x)^2), symmetrised as numpy's ``leggauss`` does. Within 1e-12 of it up to
    m = 65 (k = 128), without its LAPACK call and ``numpy.polynomial`` (~4 ms of every scan's start), and faster
    for large k (m = 2049: 0.4 s against tens of seconds)."""
    x = np.cos(np.pi * (np.arange(m, 0, -1) - 0.25) / (m + 0.5))
    for _ in range(100):
        p, dp = _legendre(m, x)
        step = p / dp
        x = x - step
        if np.max(np.abs(step)) <= 1e-15:
            break
    dp = _legendre(m, x)[1]
    w = 2.0 / ((1.0 - x * x) * dp * dp)
    x, w = (x - x[::-1]) / 2, (w + w[::-1]) / 2
    return x, w * (2.0 / w.sum())


def _integral(f_values_fn: Callable[[np.ndarray], np.ndarray], lo: float, hi: float, degree: int) -> np.ndarray:
    x, w = _nodes(max(1, (degree + 2) // 2))
    s = 0.5 * (hi - lo) * x + 0.5 * (hi + lo)
    return 0.5 * (hi - lo) * (f_values_fn(s) @ w)


def false_positive_area(t: float, bands: int | np.ndarray, rows: int | np.ndarray) -> np.ndarray:
    """Area under P(J) for J in [0, t]: the weight of pairs below the threshold that become candidates."""
    b, r = np.atleast_1d(bands)[:, None], np.atleast_1d(rows)[:, None]
    degree = int(np.max(b * r))
    return _integral(lambda s: 1.0 - (1.0 - s[None, :] ** r) ** b, 0.0, t, degree).reshape(np.shape(bands))


def false_negative_area(t: float, bands: int | np.ndarray, rows: int | np.ndarray) -> np.ndarray:
    """Area above P(J) for J in [t, 1]: the weight of pairs above the threshold that are missed."""
    b, r = np.atleast_1d(bands)[:, None], np.atleast_1d(rows)[:, None]
    degree = int(np.max(b * r))
    return _integral(lambda s: (1.0 - s[None, :] ** r) ** b, t, 1.0, degree).reshape(np.shape(bands))


def all_schemes(k: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every (b, r) with b * r <= k as two arrays, b ascending then r ascending (datasketch's order)."""
    pairs = [(b, r) for b in range(1, k + 1) for r in range(1, k // b + 1)]
    return np.array([p[0] for p in pairs], dtype=np.int64), np.array([p[1] for p in pairs], dtype=np.int64)


def optimal_banding(t: float, k: int, fp_weight: float = 0.5, fn_weight: float = 0.5) -> Banding:
    """The (b, r) with b*r <= k minimising ``fp_weight * FP area + fn_weight * FN area`` (datasketch's criterion).

    Ties go to the first scheme in datasketch's order (b ascending, then r ascending), so the choice matches
    ``datasketch.lsh._optimal_param``.
    """
    if not 0.0 < t <= 1.0:
        raise ParamError(f"threshold must be in (0, 1], not {t}")
    b, r = all_schemes(k)
    error = fp_weight * false_positive_area(t, b, r) + fn_weight * false_negative_area(t, b, r)
    best = int(np.argmin(error))
    return Banding(int(b[best]), int(r[best]))


def scan_banding(params: ScanParams) -> Banding:
    """The scheme a scan uses: the manual one if set, else the optimal one for its threshold, k and weights."""
    if params.banding is not None:
        return params.banding
    return optimal_banding(params.threshold, params.signature.k, params.fp_weight, params.fn_weight)


def presets(k: int) -> dict[str, Banding]:
    """The entry's three schemes for k slots: strict 1 x k, balanced (the squarest b x r), loose k x 1."""
    r = max(d for d in range(1, int(np.sqrt(k)) + 1) if k % d == 0)
    return {"strict": Banding(1, k), "balanced": Banding(k // r, r), "loose": Banding(k, 1)}
