"""Containment scans: planted excerpts found in their sources with precision 1 (brute force over Python sets), the
size-class schemes' Jaccard bound, reference folders, and the implied containment of an estimate."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from core_helpers import containment, jaccard, planted_excerpts, random_id_pairs, split_for, write_tree

from lshdesk.core.errors import ParamError
from lshdesk.core.params import Banding, ScanParams, ShingleSpec
from lshdesk.core.query.containment import ContainmentPairs, containment_schemes, size_classes
from lshdesk.core.query.corpus import containment_scan
from lshdesk.core.query.rank import containment_from_jaccard
from lshdesk.core.scan.pipeline import run
from lshdesk.core.shingle_kinds import shingle_strings

SPEC = ShingleSpec("word", 3)


@pytest.fixture(scope="module", params=[7, 23])
def planted(request, tmp_path_factory):
    root = tmp_path_factory.mktemp(f"contain{request.param}")
    texts, source = planted_excerpts(np.random.default_rng(request.param))
    write_tree(root, texts)
    return root, texts, source


def brute_force(texts: dict[str, str], t: float) -> dict[tuple[str, str], float]:
    """Every (contained, container) with C >= t, the smaller set as contained (ties: the smaller name)."""
    sets = {k: shingle_strings(v, SPEC) for k, v in texts.items()}
    out = {}
    for x, y in combinations(sorted(sets), 2):
        a, b = (x, y) if (len(sets[x]), x) <= (len(sets[y]), y) else (y, x)
        c = containment(sets[a], sets[b])
        if c >= t:
            out[(a, b)] = c
    return out


def test_every_excerpt_found_in_its_source_with_precision_one(planted):
    root, texts, source = planted
    result = run(containment_scan([str(root)], ScanParams(threshold=0.8)))
    assert isinstance(result.pairs, ContainmentPairs)
    got = {
        (result.docs.rel[l], result.docs.rel[r]): c
        for l, r, c in zip(result.pairs.left.tolist(), result.pairs.right.tolist(), result.pairs.containment.tolist())
    }
    want = brute_force(texts, 0.8)
    assert set(source.items()) <= set(want)  # the planted pairs are containment pairs (the edits are light)
    assert set(got) == set(want)  # recall 1 and precision 1 against the brute force
    for pair, c in got.items():
        assert c == pytest.approx(want[pair], abs=1e-9)
    # the Jaccard of an excerpt and its source is far below 0.8: a Jaccard scan could not find them
    assert result.pairs.jaccard.max() < 0.3
    assert [len(g) for g in result.groups] == [2] * 40


def test_nothing_below_the_threshold_is_reported(planted):
    root, texts, _ = planted
    result = run(containment_scan([str(root)], ScanParams(threshold=0.95)))
    assert np.all(result.pairs.containment >= 0.95)
    assert len(result.candidates) >= len(result.pairs)
    got = {(result.docs.rel[l], result.docs.rel[r]) for l, r in zip(result.pairs.left, result.pairs.right)}
    assert got == set(brute_force(texts, 0.95))


def test_reference_folder_keeps_only_pairs_across(planted, tmp_path):
    root, _, source = planted
    result = run(
        containment_scan([str(root / "excerpts"), str(root / "long")], ScanParams(threshold=0.8), reference=[1])
    )
    assert len(result.pairs) == 40
    assert set(result.docs.root[result.pairs.left].tolist()) == {0}
    assert set(result.docs.root[result.pairs.right].tolist()) == {1}


def test_manual_banding_is_refused(tmp_path):
    write_tree(tmp_path, {"a.txt": "one two three four"})
    with pytest.raises(ParamError, match="leave them out"):
        run(containment_scan([str(tmp_path)], ScanParams(threshold=0.8, banding=Banding(16, 8))))


def test_scheme_bound_holds_for_every_pair_at_the_threshold():
    """For random set sizes: any pair whose containment can reach t has a Jaccard of at least its scheme's bound."""
    rng = np.random.default_rng(3)
    counts = rng.integers(1, 5000, 300)
    t = 0.7
    cls = size_classes(counts)
    schemes = {(ci, cj): s for ci, cj, s in containment_schemes(counts, t, 128)}
    for a, b in rng.integers(0, 300, (2000, 2)).tolist():
        s, l = sorted((int(counts[a]), int(counts[b])))
        j_at_t = t * s / (s + l - t * s)  # the least Jaccard of a pair of these sizes with C = t
        key = tuple(sorted((int(cls[a]), int(cls[b]))))
        assert schemes[key].jaccard <= j_at_t + 1e-12
        assert schemes[key].banding.bands * schemes[key].banding.rows <= 128


def test_containment_from_jaccard_is_exact_for_exact_jaccard():
    rng = np.random.default_rng(5)
    batch = random_id_pairs(rng, 1, *split_for(1, 4, 400))
    a, b = set(batch.doc(0).tolist()), set(batch.doc(1).tolist())
    c = containment_from_jaccard(jaccard(a, b), len(a), len(b))
    assert float(c) == pytest.approx(containment(a, b), abs=1e-12)
    assert float(containment_from_jaccard(1.0, 10, 1000)) == 1.0  # never above 1


def test_cross_candidates_are_the_cross_pairs_of_banding_both_classes_together():
    from lshdesk.core.lsh import candidate_pairs
    from lshdesk.core.query.containment import cross_candidates

    rng = np.random.default_rng(12)
    sigs = rng.integers(0, 6, (300, 8), dtype=np.uint32)  # few values: many shared buckets
    small, large = np.arange(0, 300, 3), np.setdiff1d(np.arange(300), np.arange(0, 300, 3))
    a, b, nb = cross_candidates(sigs, small, large, Banding(8, 1))
    c = candidate_pairs(sigs, Banding(8, 1))
    is_small = np.isin(np.arange(300), small)
    cross = is_small[c.left] != is_small[c.right]
    want = {
        ((l, r) if is_small[l] else (r, l)): n
        for l, r, n in zip(c.left[cross].tolist(), c.right[cross].tolist(), c.bands[cross].tolist())
    }
    assert dict(zip(zip(a.tolist(), b.tolist()), nb.tolist())) == want
    assert len(want) > 100
