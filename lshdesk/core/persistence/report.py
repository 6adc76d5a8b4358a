"""A self-contained HTML report of a scan (one file, works offline): parameters, counts, S-curve, groups, pairs."""

from __future__ import annotations

import html
from datetime import datetime

import numpy as np

from lshdesk import __version__
from lshdesk.core.corpus.reading import read_text
from lshdesk.core.errors import NotText
from lshdesk.core.passages import shared_passages
from lshdesk.core.pathnames import display
from lshdesk.core.persistence.export import display_paths, pair_indices
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.core.scurve import probability
from lshdesk.core.scurve import threshold as curve_threshold

MAX_PAIRS_WITH_TEXT = 200
EXCERPT_CHARS = 240

_CSS = """
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:2rem auto;max-width:1100px;color:#222;padding:0 1rem}
h1{font-size:1.6rem}h2{margin-top:2rem;border-bottom:1px solid #ddd}table{border-collapse:collapse}
td,th{padding:.25rem .6rem;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
th{background:#f6f6f6}.num{text-align:right;font-variant-numeric:tabular-nums}
.pair{border:1px solid #ddd;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:1rem}.cols pre{white-space:pre-wrap;font:13px/1.4 monospace;
background:#fafafa;padding:.5rem;margin:.25rem 0}mark{background:#ffe082}.muted{color:#777}
"""


def scurve_svg(result: ScanResult, width: int = 640, height: int = 360) -> str:
    """The S-curve of the scan's scheme with its candidate pairs at their exact similarity, as inline SVG."""
    b, r = result.banding.bands, result.banding.rows
    left, top, w, h = 56, 16, width - 72, height - 60

    def x(j: float) -> float:
        return left + j * w

    def y(p: float) -> float:
        return top + (1 - p) * h

    js = np.linspace(0, 1, 201)
    curve = " ".join(f"{x(j):.1f},{y(p):.1f}" for j, p in zip(js, probability(js, b, r)))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
        f'aria-label="S-curve for {b} bands x {r} rows">',
        f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="#fff" stroke="#999"/>',
    ]
    for t in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<line x1="{x(t):.1f}" y1="{top}" x2="{x(t):.1f}" y2="{top + h}" stroke="#eee"/>')
        parts.append(f'<text x="{x(t):.1f}" y="{top + h + 16}" font-size="11" text-anchor="middle">{t:g}</text>')
        parts.append(f'<text x="{left - 6}" y="{y(t) + 4:.1f}" font-size="11" text-anchor="end">{t:g}</text>')
    th = result.params.threshold
    parts.append(
        f'<line x1="{x(th):.1f}" y1="{top}" x2="{x(th):.1f}" y2="{top + h}" stroke="#c62828" stroke-dasharray="5,4"/>'
    )
    parts.append(f'<polyline points="{curve}" fill="none" stroke="#1565c0" stroke-width="2"/>')
    c = result.candidates
    verified = c.jaccard >= th - 1e-12
    for j, ok in zip(c.jaccard.tolist(), verified.tolist()):
        colour = "#2e7d32" if ok else "#9e9e9e"
        parts.append(
            f'<circle cx="{x(j):.1f}" cy="{y(float(probability(j, b, r))):.1f}" r="3" fill="{colour}" fill-opacity=".7"/>'
        )
    parts.append(
        f'<text x="{left + w / 2}" y="{height - 8}" font-size="12" text-anchor="middle">exact similarity J</text>'
        f'<text x="14" y="{top + h / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 14 {top + h / 2})">'
        f"P(candidate)</text>"
        f'<text x="{left + w - 8}" y="{top + h - 44}" font-size="12" text-anchor="end">P = 1 - (1 - J^{r})^{b}, '
        f"curve threshold {curve_threshold(b, r):.2f}</text>"
        f'<text x="{left + w - 8}" y="{top + h - 28}" font-size="12" text-anchor="end" fill="#c62828">'
        f"your threshold {th:g} (dashed)</text>"
        f'<text x="{left + w - 8}" y="{top + h - 12}" font-size="12" text-anchor="end">'
        f'<tspan fill="#2e7d32">● verified candidate</tspan>  <tspan fill="#757575">● candidate below the threshold</tspan></text>'
        "</svg>"
    )
    return "".join(parts)


def _excerpt(text: str, spans: list[tuple[int, int]]) -> str:
    """The longest shared passages, marked, each trimmed to a readable length."""
    longest = sorted(spans, key=lambda s: s[0] - s[1])[:3]
    out = []
    for s, e in sorted(longest):
        body = text[s:e]
        if len(body) > EXCERPT_CHARS:
            body = body[: EXCERPT_CHARS // 2] + " … " + body[-EXCERPT_CHARS // 2 :]
        before = text[max(0, s - 60) : s]
        after = text[e : e + 60]
        out.append(f"…{html.escape(before)}<mark>{html.escape(body)}</mark>{html.escape(after)}…")
    return "\n\n".join(out) if out else '<span class="muted">(no shared passage to show)</span>'


def _read(path: str, cap: int) -> str:
    try:
        return read_text(path, cap)
    except NotText as e:
        return f"[cannot read: {e}]"


def to_html(result: ScanResult) -> str:
    """The whole report as one HTML string."""
    names = display_paths(result)
    sp = result.params.signature
    rows = pair_indices(result)
    esc = html.escape
    roots = ", ".join(display(r) for r in result.roots)
    out = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>lshdesk report: {esc(roots)}</title><style>{_CSS}</style></head><body>",
        f"<h1>Near-duplicate documents in {esc(roots)}</h1>",
        f"<p class='muted'>lshdesk {__version__}, {datetime.now().strftime('%Y-%m-%d %H:%M')}</p>",
        "<h2>Summary</h2><table>",
        f"<tr><th>Documents</th><td class='num'>{len(result.docs):,}</td></tr>",
        f"<tr><th>Skipped files</th><td class='num'>{len(result.skipped):,}</td></tr>",
        f"<tr><th>Candidate pairs</th><td class='num'>{len(result.candidates):,}</td></tr>",
        f"<tr><th>Verified pairs (similarity &ge; {result.params.threshold:g})</th><td class='num'>{len(rows):,}</td></tr>",
        f"<tr><th>Groups</th><td class='num'>{len(result.groups):,}</td></tr></table>",
        "<h2>Parameters</h2><table>",
        f"<tr><th>Shingling</th><td>{esc(str(sp.shingle))}</td></tr><tr><th>Hash family</th><td>{esc(sp.family)}</td></tr>",
        f"<tr><th>k</th><td>{sp.k}</td></tr><tr><th>Seed</th><td>{sp.seed}</td></tr>",
        f"<tr><th>Bands x rows</th><td>{result.banding.bands} x {result.banding.rows}</td></tr>",
        f"<tr><th>Threshold</th><td>{result.params.threshold:g}</td></tr></table>",
        "<h2>The S-curve</h2>",
        scurve_svg(result),
        "<h2>Groups</h2>",
    ]
    if result.groups:
        out.append("<table><tr><th>#</th><th>Documents</th><th>Lowest similarity</th><th>Members</th></tr>")
        for gi, (g, low) in enumerate(zip(result.groups, result.group_min)):
            members = "<br>".join(esc(names[i]) for i in g.tolist())
            out.append(
                f"<tr><td>{gi + 1}</td><td class='num'>{len(g)}</td><td class='num'>{low:.3f}</td><td>{members}</td></tr>"
            )
        out.append("</table>")
    else:
        out.append("<p>No groups.</p>")
    out.append("<h2>Pairs</h2>")
    if len(rows) > MAX_PAIRS_WITH_TEXT:
        out.append(
            f"<p class='muted'>The {MAX_PAIRS_WITH_TEXT} most similar of {len(rows):,} pairs are shown with text.</p>"
        )
    cap = result.params.corpus.max_bytes
    for ia, ib, est, jac, bands in rows[:MAX_PAIRS_WITH_TEXT]:
        a, b = names[ia], names[ib]
        ta, tb = _read(result.docs.paths[ia], cap), _read(result.docs.paths[ib], cap)
        spans_a, spans_b, n_shared = shared_passages(ta, tb, sp.shingle)
        out.append(
            f"<div class='pair'><p><b>{esc(a)}</b> ~ <b>{esc(b)}</b>: similarity <b>{jac:.3f}</b>, "
            f"estimate {est:.3f}, {bands} band(s) collided, {n_shared} shared shingles</p>"
            f"<div class='cols'><pre>{_excerpt(ta, spans_a)}</pre><pre>{_excerpt(tb, spans_b)}</pre></div></div>"
        )
    if result.skipped:
        out.append("<h2>Skipped files</h2><table><tr><th>File</th><th>Reason</th></tr>")
        out += [f"<tr><td>{esc(display(s.path))}</td><td>{esc(display(s.reason))}</td></tr>" for s in result.skipped]
        out.append("</table>")
    out.append("</body></html>\n")
    return "".join(out)
