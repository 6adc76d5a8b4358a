"""The report's S-curve as inline SVG: one point per candidate pair, or counts per similarity bin when there are many."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.core.scurve import probability
from lshdesk.core.scurve import threshold as curve_threshold

MAX_POINTS = 2000  # above this many candidate pairs, the plot shows counts per bin (a light, quick file to open)
N_BINS = 50
VERIFIED, BELOW = "#2e7d32", "#9e9e9e"
LEGEND_ROWS = 2  # lines of text under the plot: the formula and thresholds, the candidates not measured


def bin_counts(jaccard: npt.NDArray, threshold: float, n_bins: int = N_BINS) -> tuple[npt.NDArray, npt.NDArray]:
    """(verified, below the threshold) candidate counts in ``n_bins`` equal bins of similarity over [0, 1]."""
    index = np.minimum((np.asarray(jaccard) * n_bins).astype(np.int64), n_bins - 1)
    verified = jaccard >= threshold - 1e-12
    return (
        np.bincount(index[verified], minlength=n_bins),
        np.bincount(index[~verified], minlength=n_bins),
    )


def scurve_svg(result: ScanResult, width: int = 640, height: int = 396) -> str:
    """The S-curve of the scheme with its candidate pairs at their exact similarity, as SVG (legend below: uncrossed)."""
    b, r = result.banding.bands, result.banding.rows
    left, top, w, h = 56, 16, width - 72, height - 60 - LEGEND_ROWS * 16

    def x(j: float) -> float:
        return left + j * w

    def y(p: float) -> float:
        return top + (1 - p) * h

    js = np.linspace(0, 1, 201)
    curve = " ".join(f"{x(j):.1f},{y(p):.1f}" for j, p in zip(js, probability(js, b, r)))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="S-curve for {b} bands x {r} rows" style="max-width:100%;height:auto" '
        f'viewBox="0 0 {width} {height}">',
        f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="#fff" stroke="#999"/>',
    ]
    for t in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line x1="{x(t):.1f}" y1="{top}" x2="{x(t):.1f}" y2="{top + h}" stroke="#eee"/>')
        parts.append(f'<text x="{x(t):.1f}" y="{top + h + 16}" font-size="11" text-anchor="middle">{t:g}</text>')
        parts.append(f'<text x="{left - 6}" y="{y(t) + 4:.1f}" font-size="11" text-anchor="end">{t:g}</text>')
    th = result.params.threshold
    jac = result.candidates.jaccard
    unmeasured = int(np.count_nonzero(np.isnan(jac)))  # proven below the threshold by the join (scan/verify)
    jac = jac[~np.isnan(jac)]
    if len(jac) > MAX_POINTS:
        parts += _bins(jac, th, x, top + h, h * 0.45)
        key = (
            f"candidate pairs per {1 / N_BINS:g} of J (bar height: log of the count): "
            f'<tspan fill="{VERIFIED}">▮ verified</tspan> <tspan fill="#757575">▮ below the threshold</tspan>'
        )
    else:
        for j, ok in zip(jac.tolist(), (jac >= th - 1e-12).tolist()):
            parts.append(
                f'<circle cx="{x(j):.1f}" cy="{y(float(probability(j, b, r))):.1f}" r="3" '
                f'fill="{VERIFIED if ok else BELOW}" fill-opacity=".7"/>'
            )
        key = (
            f'<tspan fill="{VERIFIED}">● verified candidate</tspan>  '
            '<tspan fill="#757575">● candidate below the threshold</tspan>'
        )
    parts.append(
        f'<line x1="{x(th):.1f}" y1="{top}" x2="{x(th):.1f}" y2="{top + h}" stroke="#c62828" stroke-dasharray="5,4"/>'
    )
    parts.append(f'<polyline points="{curve}" fill="none" stroke="#1565c0" stroke-width="2"/>')
    below = top + h + 48  # the legend's first baseline: under the axis title
    parts.append(
        f'<text x="{left + w / 2}" y="{top + h + 32}" font-size="12" text-anchor="middle">exact similarity J</text>'
        f'<text x="14" y="{top + h / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 14 {top + h / 2})">'
        f"P(candidate)</text>"
        f'<text x="{left}" y="{below}" font-size="12"><tspan fill="#1565c0">P = 1 - (1 - J^{r})^{b}, curve threshold '
        f'{curve_threshold(b, r):.2f}</tspan><tspan dx="16" fill="#c62828">your threshold {th:g} (dashed)</tspan></text>'
        f'<text x="{left + 8}" y="{top - 4}" font-size="11">{key}</text>'
        + (
            f'<text x="{left}" y="{below + 16}" font-size="12" fill="#757575">'
            f"{unmeasured:,} more candidates proven below the threshold (not measured, not drawn)</text>"
            if unmeasured
            else ""
        )
        + "</svg>"
    )
    return "".join(parts)


def _bins(jac: npt.NDArray, threshold: float, x: Callable[[float], float], base: float, tallest: float) -> list[str]:
    """Bars of candidate counts per similarity bin along the bottom of the plot (log height, exact count in a title)."""
    verified, below = bin_counts(jac, threshold)
    total = verified + below
    scale = tallest / np.log10(max(int(total.max()), 1) + 1)
    out = []
    for i, (n_ok, n_below) in enumerate(zip(verified.tolist(), below.tolist())):
        if n_ok + n_below == 0:
            continue
        x0, bar_w = x(i / N_BINS) + 0.5, x(1 / N_BINS) - x(0) - 1
        height = np.log10(n_ok + n_below + 1) * scale
        share = n_ok / (n_ok + n_below)
        lo, hi = i / N_BINS, (i + 1) / N_BINS
        title = f"{lo:.2f}-{hi:.2f}: {n_ok + n_below:,} candidate pairs, {n_ok:,} verified"
        for colour, part, y0 in ((VERIFIED, share, base - height * share), (BELOW, 1 - share, base - height)):
            if part > 0:
                out.append(
                    f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{bar_w:.1f}" height="{height * part:.1f}" '
                    f'fill="{colour}" fill-opacity=".75"><title>{title}</title></rect>'
                )
    return out
