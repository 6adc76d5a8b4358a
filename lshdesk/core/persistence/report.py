"""A self-contained HTML report of a scan (one file, works offline): parameters, counts, S-curve, groups, pairs."""

from __future__ import annotations

import html
from datetime import datetime

import numpy as np

from lshdesk import __version__
from lshdesk.core.corpus.sources import read_text  # local files and objects in storage (URLs)
from lshdesk.core.errors import NotText
from lshdesk.core.overlap import overlap
from lshdesk.core.passages import shared_passages
from lshdesk.core.pathnames import display
from lshdesk.core.persistence.export import display_paths, pair_indices
from lshdesk.core.persistence.report_svg import scurve_svg
from lshdesk.core.scan.pipeline import ScanResult

MAX_PAIRS_WITH_TEXT = 100  # passages shown with their text, spread across the similarity range
EXCERPT_CHARS = 240

_CSS = """
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:2rem auto;max-width:1100px;color:#222;padding:0 1rem}
h1{font-size:1.6rem}h2{margin-top:2rem;border-bottom:1px solid #ddd}table{border-collapse:collapse}
td,th{padding:.25rem .6rem;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
th{background:#f6f6f6}.num{text-align:right;font-variant-numeric:tabular-nums}
.pair{border:1px solid #ddd;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
.cols{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem}.cols pre{white-space:pre-wrap;
font:13px/1.4 monospace;background:#fafafa;padding:.5rem;margin:.25rem 0}mark{background:#ffe082}.muted{color:#777}
td,th,pre,p,h1,h2,summary{overflow-wrap:anywhere}table{max-width:100%}svg{max-width:100%;height:auto}
"""  # a long path or an unbroken line wraps: no page wider than the window (a scrollbar at 1280 px)


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


def spread_examples(similarities: list[float], n: int) -> list[int]:
    """Up to ``n`` positions in a list sorted by similarity (descending), spread evenly over the similarity range:
    the most and the least similar pair, and for each step between, the pair nearest to it. Ascending positions."""
    if len(similarities) <= n:
        return list(range(len(similarities)))
    ascending = -np.asarray(similarities, dtype=np.float64)  # searchsorted needs ascending values
    targets = -np.linspace(similarities[0], similarities[-1], n)
    at = np.clip(np.searchsorted(ascending, targets), 0, len(ascending) - 1)
    before = np.clip(at - 1, 0, None)
    nearest = np.where(np.abs(ascending[before] - targets) <= np.abs(ascending[at] - targets), before, at)
    chosen = set(nearest.tolist())
    for i in np.linspace(0, len(similarities) - 1, n).round().astype(np.int64).tolist():
        if len(chosen) >= n:  # where many pairs share a value, the rest are taken evenly by rank
            break
        chosen.add(i)
    return sorted(chosen)


def _all_pairs(rows: list[tuple[int, int, float, float, int]], names: list[str]) -> list[str]:
    """Every pair in a table folded under a summary (compact rows: the table of 50,000 pairs stays a few MB)."""
    esc = html.escape
    out = [
        f"<h2>Pairs</h2><details><summary>All {len(rows):,} pairs (similarity, estimate, bands)</summary>",
        "<table><tr><th>Document A</th><th>Document B</th><th>Similarity</th><th>Estimate</th><th>Bands</th></tr>",
    ]
    out += [
        f"<tr><td>{esc(names[a])}<td>{esc(names[b])}<td class=num>{j:.3f}<td class=num>{e:.3f}<td class=num>{n}</tr>"
        for a, b, e, j, n in rows
    ]
    out.append("</table></details>")
    return out


def _bar(share: float, label: str) -> str:
    """An inline SVG bar: ``share`` of it filled, the label beside it."""
    w = round(300 * min(max(share, 0.0), 1.0))
    return (
        f"<svg width='420' height='18' role='img' aria-label='{html.escape(label)}'>"
        f"<rect width='300' height='14' y='2' fill='#eee'/><rect width='{w}' height='14' y='2' fill='#17796d'/>"
        f"<text x='308' y='14' font-size='12'>{html.escape(label)}</text></svg>"
    )


def _contained(share: float | None, shingles: int) -> str:
    return _bar(share, f"{share:.0%} of {shingles:,}") if share is not None else "not kept by the cluster's scan"


def _overlap_section(result: ScanResult) -> list[str]:
    """Folder against folder (the reference folders, or the first folder, against the rest); none for one folder."""
    o = overlap(result)
    if o is None:
        return []
    esc = html.escape
    out = [
        "<h2>Folder against folder</h2><table><tr><th>Side</th><th>Documents with a near-duplicate on the "
        "other side</th><th>Its shingles the other side holds too</th></tr>"
    ]
    for side in (o.a, o.b):
        share = side.matched / side.docs if side.docs else 0.0
        out.append(
            f"<tr><td>{esc(side.name)}</td><td>{_bar(share, f'{side.matched:,} of {side.docs:,} ({share:.0%})')}</td>"
            f"<td>{_contained(side.contained, side.shingles)}</td></tr>"
        )
    out.append(f"</table><p class='muted'>{len(o.pairs):,} of the pairs join the two sides.</p>")
    return out


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
        *_overlap_section(result),
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
    out.append("<h2>Passages</h2>")
    examples = spread_examples([row[3] for row in rows], MAX_PAIRS_WITH_TEXT)
    if len(examples) < len(rows):
        low, high = rows[examples[-1]][3], rows[examples[0]][3]
        out.append(
            f"<p class='muted'>{len(examples)} of {len(rows):,} pairs, chosen across the similarity range "
            f"({low:.3f} to {high:.3f}), with their longest shared passages marked. Every pair is listed below.</p>"
        )
    cap = result.params.corpus.max_bytes
    for ia, ib, est, jac, bands in (rows[i] for i in examples):
        a, b = names[ia], names[ib]
        ta, tb = _read(result.docs.paths[ia], cap), _read(result.docs.paths[ib], cap)
        spans_a, spans_b, n_shared = shared_passages(ta, tb, sp.shingle)
        out.append(
            f"<div class='pair'><p><b>{esc(a)}</b> ~ <b>{esc(b)}</b>: similarity <b>{jac:.3f}</b>, "
            f"estimate {est:.3f}, {bands} band(s) collided, {n_shared} shared shingles</p>"
            f"<div class='cols'><pre>{_excerpt(ta, spans_a)}</pre><pre>{_excerpt(tb, spans_b)}</pre></div></div>"
        )
    out += _all_pairs(rows, names)
    if result.skipped:
        out.append("<h2>Skipped files</h2><table><tr><th>File</th><th>Reason</th></tr>")
        out += [
            f"<tr><td>{esc(display(s.path))}</td><td>{esc(display(s.describe()))}</td></tr>" for s in result.skipped
        ]
        out.append("</table>")
    out.append("</body></html>\n")
    return "".join(out)
