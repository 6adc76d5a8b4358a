"""Per-pair figures from signatures, checked against plain-Python loops, scipy, the Node reference and lsh.py."""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from lshdesk.core.compare import (
    Z95,
    all_pairs,
    band_collisions,
    band_of_slot,
    bucket_members,
    pair_figures,
    shared_cells,
    slot_agreement,
    wilson_interval,
)
from lshdesk.core.lsh import candidate_pairs
from lshdesk.core.minhash import sign_texts
from lshdesk.core.params import Banding, ShingleSpec, SignatureParams

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def loop_bands(a: list[int], b: list[int], banding: Banding) -> list[int]:
    """Bands in which two signatures agree on every row: the definition, one slot at a time."""
    r = banding.rows
    return [band for band in range(banding.bands) if all(a[s] == b[s] for s in range(band * r, band * r + r))]


def test_wilson_matches_scipy() -> None:
    stats = pytest.importorskip("scipy.stats")
    for k in (1, 4, 16, 128, 1024):
        for m in sorted({0, 1, k // 3, k // 2, k - 1, k}):
            if not 0 <= m <= k:
                continue
            ci = stats.binomtest(m, k).proportion_ci(confidence_level=0.95, method="wilson")
            low, high = wilson_interval(m, k)
            assert low == pytest.approx(ci.low, abs=1e-9) and high == pytest.approx(ci.high, abs=1e-9), (m, k)


def test_wilson_is_the_set_of_proportions_the_score_test_accepts() -> None:
    """Brute force over a fine grid of J: accepted where |m/k - J| <= z sqrt(J(1-J)/k); the ends must agree."""
    grid = np.linspace(0.0, 1.0, 200_001)
    for m, k in ((0, 10), (3, 16), (13, 16), (16, 16), (40, 128)):
        p = m / k
        ok = (p - grid) ** 2 <= Z95**2 * grid * (1 - grid) / k
        low, high = wilson_interval(m, k)
        assert float(low) == pytest.approx(grid[ok].min(), abs=1e-5)
        assert float(high) == pytest.approx(grid[ok].max(), abs=1e-5)
        assert low <= p <= high


def test_wilson_textbook_value_and_bad_input() -> None:
    low, high = wilson_interval(0, 10)  # the rule-of-thumb case: 0 of 10 gives about [0, 0.278]
    assert low == 0.0 and high == pytest.approx(0.2775, abs=5e-4)
    lows, highs = wilson_interval(np.array([0, 8, 16]), 16)
    assert lows.shape == (3,) and np.all(np.diff(lows) > 0) and np.all(np.diff(highs) > 0)
    with pytest.raises(ValueError):
        wilson_interval(5, 4)
    with pytest.raises(ValueError):
        wilson_interval(0, 0)


def test_pair_figures_on_signatures_built_to_agree_on_known_slots() -> None:
    base = np.arange(1000, 1016, dtype=np.uint64)
    a, b, c = base.copy(), base.copy(), base.copy()
    b[[0, 1, 5]] = [7, 8, 9]  # B differs from A on slots 0, 1, 5
    c[:8] = np.arange(20, 28)  # C differs from A on slots 0..7, and from B there too (other values)
    sigs = np.stack([a, b, c])
    figs = pair_figures(sigs, Banding(4, 4))
    assert list(zip(figs.left.tolist(), figs.right.tolist())) == [(0, 1), (0, 2), (1, 2)]
    assert figs.matches.tolist() == [13, 8, 8]
    assert figs.k == 16 and figs.estimate.tolist() == [13 / 16, 8 / 16, 8 / 16]
    assert [figs.bands_of(p) for p in range(3)] == [[2, 3], [2, 3], [2, 3]]
    assert np.all(figs.low <= figs.estimate) and np.all(figs.estimate <= figs.high)
    assert slot_agreement(sigs).tolist() == [s >= 8 for s in range(16)]


def test_figures_match_plain_python_loops_on_random_signatures() -> None:
    rng = np.random.default_rng(7)
    for n, k, banding in ((2, 16, Banding(4, 4)), (5, 30, Banding(7, 4)), (6, 12, Banding(12, 1)), (4, 9, None)):
        sigs = rng.integers(0, 3, size=(n, k)).astype(np.uint32)  # few values: plenty of agreement
        figs = pair_figures(sigs, banding)
        rows = sigs.tolist()
        for p, (i, j) in enumerate(combinations(range(n), 2)):
            assert (figs.left[p], figs.right[p]) == (i, j)
            m = sum(x == y for x, y in zip(rows[i], rows[j]))
            assert figs.matches[p] == m and figs.estimate[p] == m / k
            assert figs.bands_of(p) == (loop_bands(rows[i], rows[j], banding) if banding else [])
        agree = [all(rows[i][s] == rows[0][s] for i in range(n)) for s in range(k)]
        assert slot_agreement(sigs).tolist() == agree
        shared = [[any(rows[o][s] == rows[i][s] for o in range(n) if o != i) for s in range(k)] for i in range(n)]
        assert shared_cells(sigs).tolist() == shared
        if banding is not None:
            members = [
                [
                    any(b in loop_bands(rows[i], rows[o], banding) for o in range(n) if o != i)
                    for b in range(banding.bands)
                ]
                for i in range(n)
            ]
            assert bucket_members(sigs, banding).tolist() == members
            assert band_collisions(np.array(agree), banding).tolist() == [
                all(agree[b * banding.rows : (b + 1) * banding.rows]) for b in range(banding.bands)
            ]


def test_colliding_bands_agree_with_the_lsh_index() -> None:
    """lsh.py finds candidates by hashing band slices into buckets; counting equal slices must give the same pairs."""
    rng = np.random.default_rng(11)
    sigs = rng.integers(0, 4, size=(30, 24)).astype(np.uint32)
    for banding in (Banding(6, 4), Banding(8, 3), Banding(24, 1), Banding(5, 4)):
        figs = pair_figures(sigs, banding)
        ours = {(int(i), int(j)): int(c) for i, j, c in zip(figs.left, figs.right, figs.collided.sum(axis=1)) if c}
        cands = candidate_pairs(sigs, banding)
        theirs = {(int(i), int(j)): int(c) for i, j, c in zip(cands.left, cands.right, cands.bands)}
        assert ours == theirs


def test_against_the_article_reference_computed_in_node() -> None:
    ref = json.loads((FIXTURES / "article_reference.json").read_text())["candidates"]
    sigs = np.array(ref["signatures"], dtype=np.uint64)
    figs = pair_figures(sigs)
    for e in ref["estimates"]:
        p = int(np.flatnonzero((figs.left == e["i"]) & (figs.right == e["j"]))[0])
        assert figs.estimate[p] == e["estimate"]
    for scheme in ref["schemes"]:
        figs = pair_figures(sigs, Banding(scheme["b"], scheme["r"]))
        found = sorted([int(figs.left[p]), int(figs.right[p])] for p in range(len(figs)) if figs.collided[p].any())
        assert found == sorted(scheme["pairs"])


def test_agreeing_slots_of_two_signed_sentences() -> None:
    params = SignatureParams(ShingleSpec("word", 1), "article", 16, 12345)
    sigs = sign_texts(
        ["the quick brown fox jumps over the lazy dog", "the quick brown fox leaps over the lazy dog"], params
    )
    same = np.flatnonzero(sigs[0] == sigs[1])  # the reference: compare the two rows slot by slot
    figs = pair_figures(sigs, Banding(4, 4))
    assert 0 < len(same) < 16, "pick sentences that agree on some slots, not all"
    assert figs.matches[0] == len(same)
    assert figs.bands_of(0) == [b for b in range(4) if set(range(4 * b, 4 * b + 4)) <= set(same.tolist())]
    assert np.flatnonzero(slot_agreement(sigs)).tolist() == same.tolist()


def test_band_of_slot_and_edges() -> None:
    assert band_of_slot(14, Banding(3, 4)).tolist() == [0] * 4 + [1] * 4 + [2] * 4 + [-1, -1]
    assert band_of_slot(5, None).tolist() == [-1] * 5
    assert all_pairs(1)[0].size == 0 and all_pairs(4)[0].tolist() == [0, 0, 0, 1, 1, 2]
    one = np.arange(8, dtype=np.uint32)[None, :]
    assert len(pair_figures(one, Banding(2, 4))) == 0
    assert not slot_agreement(one).any() and not shared_cells(one).any()
    with pytest.raises(ValueError):
        pair_figures(np.arange(8))
