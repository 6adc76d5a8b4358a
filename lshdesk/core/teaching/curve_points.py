"""Three points of the S-curve P(J) = 1 - (1 - J^r)^b that the lessons name, each in closed form.

- ``book_threshold``: (1/b)^(1/r), what *Mining of Massive Datasets* (ch. 3.4) calls an approximation to the
  threshold: where P rises fastest *roughly*. P there is 1 - (1 - 1/b)^b, near 1 - 1/e = 0.632, not 1/2.
- ``steepest``: the inflection point ((r - 1) / (r*b - 1))^(1/r), where P'(J) peaks (P'' = 0). It exists inside
  (0, 1) only for b > 1 and r > 1: with r = 1 the curve is concave (steepest at J = 0), with b = 1 (P = J^r) convex.
- ``half_way``: (1 - 2^(-1/b))^(1/r), where P = 1/2: as many pairs above it are candidates as below it are not.
"""

from __future__ import annotations

from dataclasses import dataclass

from lshdesk.core.scurve import threshold


def book_threshold(bands: int, rows: int) -> float:
    """MMDS's approximate threshold (1/b)^(1/r)."""
    return threshold(bands, rows)


def steepest(bands: int, rows: int) -> float | None:
    """The J where P rises fastest inside (0, 1): ((r - 1) / (r*b - 1))^(1/r); None when the curve has no inflection
    there (r = 1: concave, steepest at J = 0; b = 1: convex, steepest at J = 1)."""
    if bands <= 1 or rows <= 1:
        return None
    return ((rows - 1) / (rows * bands - 1)) ** (1.0 / rows)


def half_way(bands: int, rows: int) -> float:
    """The J where P(J) = 1/2: (1 - 2^(-1/b))^(1/r)."""
    return (1.0 - 2.0 ** (-1.0 / bands)) ** (1.0 / rows)


def shape(bands: int, rows: int) -> str:
    """'S-shaped', 'concave' (r = 1) or 'convex' (b = 1; both 1: the straight line P = J)."""
    if rows == 1 and bands == 1:
        return "straight"
    if rows == 1:
        return "concave"
    if bands == 1:
        return "convex"
    return "S-shaped"


@dataclass(frozen=True)
class CurvePoints:
    """The three named points of one scheme's curve."""

    bands: int
    rows: int
    book: float
    steepest: float | None
    half: float


def curve_points(bands: int, rows: int) -> CurvePoints:
    """The book's threshold, the steepest point and the half-way point of b x r."""
    return CurvePoints(bands, rows, book_threshold(bands, rows), steepest(bands, rows), half_way(bands, rows))
