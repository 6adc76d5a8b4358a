"""A containment scan's S-curve: each size-class pair's curve is its scheme's P(candidate) at the containments
asked, every pair lies on its curve's caught or not-caught side, and the pairs drawn are checked by brute force."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from core_helpers import containment, graded_excerpts, write_tree

from lshdesk.core.explore.containment import DRAW_FLOOR, containment_curves, pair_probability
from lshdesk.core.params import ScanParams, ShingleSpec
from lshdesk.core.query.containment import containment_schemes
from lshdesk.core.query.corpus import containment_scan
from lshdesk.core.scan.pipeline import run
from lshdesk.core.shingle_kinds import shingle_strings

T = 0.7


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    root = tmp_path_factory.mktemp("graded")
    write_tree(root, graded_excerpts(np.random.default_rng(5)))
    result = run(containment_scan([str(root)], ScanParams(threshold=T)))
    p = result.params
    gen = containment_curves(result.signatures, result.shingles, result.candidates, T, p.fp_weight, p.fn_weight)
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        return result, stop.value


def test_each_curve_is_its_class_pairs_scheme_probability(scanned):
    result, cc = scanned
    schemes = containment_schemes(result.shingles.counts(), T, result.signatures.shape[1])
    assert [c.scheme for c in cc.curves] == [s for _, _, s in schemes]  # the scan's own schemes
    c = np.array([0.0, 0.2, 0.5, T, 0.9, 1.0])
    for curve in cc.curves:
        (s, _), (_, l) = curve.scheme.smaller, curve.scheme.larger
        b, r = curve.banding.bands, curve.banding.rows
        j = c * s / (s + l - c * s)  # LSH Ensemble's conversion, written out here
        assert curve.lowest(c) == pytest.approx(1 - (1 - j**r) ** b, abs=1e-12)
        # at the threshold, the curve is the scheme's P at the Jaccard its b x r was chosen for
        assert float(curve.lowest(T)) == pytest.approx(1 - (1 - curve.scheme.jaccard**r) ** b, abs=1e-9)
        assert np.all(curve.highest(c) >= curve.lowest(c) - 1e-12)


def test_pairs_sit_on_their_side_of_their_class_pairs_curves(scanned):
    result, cc = scanned
    counts = result.shingles.counts()
    verified = set(zip(result.pairs.left.tolist(), result.pairs.right.tolist()))
    assert len(verified) >= 3 and cc.n_verified == len(verified)
    drawn = dict(zip(zip(cc.left.tolist(), cc.right.tolist()), range(len(cc.left))))
    for pair in verified:  # every verified pair is drawn caught, at or above the threshold
        i = drawn[pair]
        assert cc.caught[i] and cc.containment[i] >= T - 1e-12
    for i in range(len(cc.left)):
        curve = cc.curves[cc.curve[i]]
        sa, sb = counts[cc.left[i]], counts[cc.right[i]]
        assert curve.scheme.smaller[0] <= sa <= curve.scheme.smaller[1]
        assert curve.scheme.larger[0] <= sb <= curve.scheme.larger[1]
        own = float(pair_probability(cc.containment[i], sa, sb, curve.banding))
        assert curve.lowest(cc.containment[i]) - 1e-12 <= own <= curve.highest(cc.containment[i]) + 1e-12
    assert np.all(cc.bands[cc.caught] >= 1) and np.all(cc.bands[~cc.caught] == 0)
    assert not (~cc.caught).all() and (~cc.caught).any()  # the fixture has both kinds


def test_the_pairs_drawn_are_every_pair_above_the_floor_by_brute_force(scanned):
    result, cc = scanned
    sets = [shingle_strings(Path(p).read_text(encoding="utf-8"), ShingleSpec("word", 3)) for p in result.docs.paths]
    want = {}
    for a, b in combinations(range(len(sets)), 2):
        x, y = (a, b) if (len(sets[a]), a) <= (len(sets[b]), b) else (b, a)
        c = containment(sets[x], sets[y])
        if c >= DRAW_FLOOR:
            want[(x, y)] = c
    got = {(a, b): c for a, b, c in zip(cc.left.tolist(), cc.right.tolist(), cc.containment.tolist())}
    caught = set(zip(cc.left[cc.caught].tolist(), cc.right[cc.caught].tolist()))
    assert set(want) <= set(got) and set(got) - set(want) <= caught  # candidates are drawn whatever their C
    for pair, c in want.items():
        assert got[pair] == pytest.approx(c, abs=1e-9)
    assert not cc.sampled and cc.n_pairs == len(sets) * (len(sets) - 1) // 2
