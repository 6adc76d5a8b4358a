"""The HTML report: per-bin counts instead of one point per pair when there are many, passage examples across the
similarity range, and every pair in a folded table."""

from __future__ import annotations

import re

import numpy as np
import pytest
from core_helpers import make_words, mutate, write_tree

from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.persistence import report, report_svg
from lshdesk.core.persistence.export import pair_rows
from lshdesk.core.scan.pipeline import run, scan


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    """Families of edited copies, light to heavy edits, so that verified pairs spread from the threshold to 1."""
    rng = np.random.default_rng(11)
    files = {}
    for f in range(6):
        words = make_words(rng, 150, vocab_size=3000)
        files[f"f{f}/base.txt"] = " ".join(words)
        for n in (0, 3, 10, 20, 35):
            files[f"f{f}/edit{n}.txt"] = " ".join(mutate(rng, words, n))
    root = write_tree(tmp_path_factory.mktemp("report"), files)
    return run(scan([str(root)], ScanParams(threshold=0.3, banding=Banding(64, 2))))


def _bars(svg: str) -> list[tuple[int, int]]:
    """(candidates, verified) of each bin, read back from the bars' titles (two bars may share a bin)."""
    titles = set(re.findall(r"<title>([^<]+)</title>", svg))
    out = []
    for t in titles:
        n, ok = re.search(r": ([0-9,]+) candidate pairs, ([0-9,]+) verified", t).groups()
        out.append((int(n.replace(",", "")), int(ok.replace(",", ""))))
    return out


def test_many_pairs_are_drawn_as_counts_per_bin(result, monkeypatch):
    c = result.candidates
    assert len(c) > 20
    few = report_svg.scurve_svg(result)
    assert few.count("<circle") == len(c)  # under the limit: one point per candidate pair
    monkeypatch.setattr(report_svg, "MAX_POINTS", 20)
    svg = report_svg.scurve_svg(result)
    assert "<circle" not in svg
    bars = _bars(svg)
    assert 1 < len(bars) <= report_svg.N_BINS
    assert sum(n for n, _ in bars) == len(c)
    assert sum(ok for _, ok in bars) == int(np.sum(c.jaccard >= result.params.threshold - 1e-12))


@pytest.mark.parametrize("seed", range(4))
def test_examples_spread_over_the_similarity_range(seed):
    rng = np.random.default_rng(seed)
    sims = np.concatenate([rng.uniform(0.995, 1.0, 900), rng.uniform(0.3, 0.995, 60)])  # most pairs near 1
    sims = sorted(sims.tolist(), reverse=True)
    n = 25
    chosen = report.spread_examples(sims, n)
    assert len(chosen) == n and chosen == sorted(set(chosen))
    assert chosen[0] == 0 and chosen[-1] == len(sims) - 1  # the most and the least similar
    picked = np.array([sims[i] for i in chosen])
    step = (sims[0] - sims[-1]) / (n - 1)
    biggest_gap = max(a - b for a, b in zip(sims, sims[1:]))
    assert np.max(-np.diff(picked)) <= step + biggest_gap + 1e-12  # no stretch of the range left without example
    top_200 = sims[:200]  # what the report showed before: all at 0.995-1.000
    assert sum(s < min(top_200) for s in picked) >= n // 2
    assert report.spread_examples(sims[:10], n) == list(range(10))


def test_the_report_shows_examples_across_the_range_and_every_pair(result, monkeypatch):
    rows = pair_rows(result)
    monkeypatch.setattr(report, "MAX_PAIRS_WITH_TEXT", 5)
    page = report.to_html(result)
    shown = [float(s) for s in re.findall(r"similarity <b>([0-9.]+)</b>", page)]
    assert len(shown) == 5 < len(rows)
    assert max(shown) == pytest.approx(rows[0][3], abs=5e-4) and min(shown) == pytest.approx(rows[-1][3], abs=5e-4)
    table = page[page.index("<details>") : page.index("</details>")]
    assert f"All {len(rows):,} pairs" in table
    assert table.count("<tr><td>") == len(rows)
    for a, b, _, j, _ in rows:
        assert f"<tr><td>{a}<td>{b}<td class=num>{j:.3f}" in table


def _text_boxes(svg: str) -> list[tuple[str, float, float, float, float]]:
    """Each <text>'s words and a box that holds them (12 px type: 7.2 px a character at most, 12 px high)."""
    boxes = []
    for attrs, body in re.findall(r"<text ([^>]*)>(.*?)</text>", svg):
        if "rotate" in attrs:
            continue
        words = re.sub(r"<[^>]+>", "", body)
        x, y = (float(re.search(rf'\b{a}="([0-9.]+)"', attrs).group(1)) for a in ("x", "y"))
        width = len(words) * 7.2
        x0 = x - width if 'text-anchor="end"' in attrs else x - width / 2 if "middle" in attrs else x
        boxes.append((words, x0, y - 12, x0 + width, y + 3))
    return boxes


@pytest.mark.parametrize(("t", "banding"), [(0.3, Banding(64, 2)), (0.8, Banding(16, 8)), (0.5, Banding(20, 5))])
def test_no_label_of_the_report_s_curve_crosses_the_curve_or_leaves_the_picture(result, t, banding):
    """Issue 31, item 14: the formula's label sat across the curve at P = 0.5."""
    from dataclasses import replace

    r = replace(result, banding=banding, params=replace(result.params, threshold=t))
    svg = report_svg.scurve_svg(r)
    width, height = (float(v) for v in re.search(r'width="(\d+)" height="(\d+)"', svg).groups())
    (points,) = re.findall(r'<polyline points="([^"]+)"', svg)
    curve = [tuple(map(float, p.split(","))) for p in points.split()]
    boxes = _text_boxes(svg)
    assert any(w.startswith("P = 1 - (1 - J^") for w, *_ in boxes)
    for words, x0, y0, x1, y1 in boxes:
        assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height, words
        assert not any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in curve), f"{words!r} crosses the curve"


def test_the_report_page_wraps_long_names_instead_of_scrolling_sideways():
    css = report._CSS
    assert "overflow-wrap:anywhere" in css and "minmax(0,1fr)" in css and "svg{max-width:100%" in css
