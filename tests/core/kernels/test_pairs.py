"""The compiled pair loops against plain Python: merge intersections (every id dtype a caller passes), components,
a group's lowest similarity (whole groups and blocks of rows, from a seed), all pairs with their histogram."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from lshdesk.core.explore.exact import FINE_BINS, _index
from lshdesk.core.kernels import pairs
from lshdesk.core.shingling import ShingleBatch


def _sets(rng, n: int, most: int, pool: int) -> list[set[int]]:
    """n sets of 0..most ids from a small pool (so pairs overlap a lot), id 0 and the pool's top included."""
    return [set(rng.integers(0, pool, int(rng.integers(0, most + 1))).tolist()) for _ in range(n)]


def _flat(sets: list[set[int]], dtype) -> tuple[np.ndarray, np.ndarray]:
    offsets = np.zeros(len(sets) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in sets], out=offsets[1:])
    return np.array([x for s in sets for x in sorted(s)], dtype=dtype), offsets


def _jaccard(a: set[int], b: set[int]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


@pytest.mark.parametrize("dtype", [np.uint32, np.int32, np.uint64])
def test_intersections_equal_python_sets(dtype):
    rng = np.random.default_rng(1)
    sets = _sets(rng, 50, 120, 300) + [set(), {0}, {0, 2**31 - 1}]
    ids, offsets = _flat(sets, dtype)
    left, right = rng.integers(0, len(sets), 3000), rng.integers(0, len(sets), 3000)
    got = pairs.intersection_sizes(ids, offsets, left, right)
    assert got.dtype == np.int64
    assert got.tolist() == [len(sets[a] & sets[b]) for a, b in zip(left.tolist(), right.tolist())]


def test_components_root_every_node_at_its_components_smallest_member():
    rng = np.random.default_rng(2)
    n = 400
    left, right = rng.integers(0, n, 300), rng.integers(0, n, 300)
    roots = pairs.components(n, left, right)
    comp = list(range(n))  # plain relabelling until nothing changes
    changed = True
    while changed:
        changed = False
        for a, b in zip(left.tolist(), right.tolist()):
            m = min(comp[a], comp[b])
            if comp[a] != m or comp[b] != m:
                comp[a] = comp[b] = m
                changed = True
    assert roots.dtype == np.int64 and roots.tolist() == comp
    assert pairs.components(3, np.zeros(0, np.int64), np.zeros(0, np.int64)).tolist() == [0, 1, 2]


@pytest.mark.parametrize("dtype", [np.uint32, np.int32])
def test_groups_lowest_similarity_equals_all_pairs_in_python(dtype):
    rng = np.random.default_rng(3)
    sets = _sets(rng, 90, 60, 80) + [set(), set()]
    ids, offsets = _flat(sets, dtype)
    perm = rng.permutation(len(sets))
    cuts = np.sort(rng.choice(np.arange(1, len(sets)), 12, replace=False))
    groups = np.split(perm, cuts)  # groups of one too: their lowest is their seed
    members = np.concatenate(groups).astype(np.int64)
    starts = np.zeros(len(groups) + 1, dtype=np.int64)
    np.cumsum([len(g) for g in groups], out=starts[1:])
    seed = np.where(rng.random(len(groups)) < 0.5, 1.0, rng.uniform(0, 1, len(groups)))
    want = [min([seed[g]] + [_jaccard(sets[a], sets[b]) for a, b in combinations(m, 2)]) for g, m in enumerate(groups)]
    got = pairs.group_min_jaccard(ids, offsets, members, starts, seed)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-15)
    big = members[: starts[3]]
    lowest = 1.0
    for p in range(0, len(big), 7):  # a large group a block of rows at a time
        lowest = pairs.rows_min_jaccard(ids, offsets, big, p, min(len(big), p + 7), lowest)
    assert lowest == pytest.approx(min(_jaccard(sets[a], sets[b]) for a, b in combinations(big, 2)), abs=1e-15)


@pytest.mark.parametrize("with_ref", [False, True])
def test_all_pairs_rows_equal_brute_force_with_the_histogram(with_ref):
    """Rows in two blocks; floor 0.2 keeps well over 1,024 pairs (the outputs grow)."""
    rng = np.random.default_rng(4)
    sets = _sets(rng, 150, 40, 60) + [set()]
    ids, offsets = _flat(sets, np.uint32)
    batch = ShingleBatch(ids, offsets, np.diff(offsets))
    is_ref = rng.random(len(sets)) < 0.3
    rows = (*_index(batch), offsets, batch.counts(), is_ref, with_ref)
    hist = np.zeros(FINE_BINS, dtype=np.int64)
    parts = [pairs.all_pairs_rows(*rows, lo, hi, 0.2, FINE_BINS, hist) for lo, hi in ((0, 61), (61, len(sets)))]
    left, right, jac = (np.concatenate(p) for p in zip(*parts))
    want_hist = np.zeros(FINE_BINS, dtype=np.int64)
    want = []
    for a, b in combinations(range(len(sets)), 2):
        j = _jaccard(sets[a], sets[b])
        if j > 0 and not (with_ref and is_ref[a] == is_ref[b]):
            want_hist[min(FINE_BINS - 1, int(np.floor(j * FINE_BINS + 1e-9)))] += 1
            if j >= 0.2:
                want.append((a, b, j))
    assert len(want) > 1024 or with_ref
    order = np.lexsort((right, left))  # each row's pairs come in the order its partners were first met
    assert list(zip(left[order].tolist(), right[order].tolist())) == [(a, b) for a, b, _ in want]
    np.testing.assert_allclose(jac[order], [j for *_, j in want], rtol=0, atol=1e-15)
    assert hist.tolist() == want_hist.tolist()
