"""Clustering: exact Jaccard against Python sets, verification at the threshold, groups against brute-force
connected components, and the weakest link of a group."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from core_helpers import jaccard, make_words, mutate

from lshdesk.core.clustering import exact_jaccard, groups, min_similarity_in_group, verify
from lshdesk.core.lsh import Candidates
from lshdesk.core.minhash import estimate_pairs, sign_texts
from lshdesk.core.params import ShingleSpec, SignatureParams
from lshdesk.core.shingle_kinds import hash_shingles, shingle_strings


def _corpus(seed: int = 1) -> list[str]:
    rng = np.random.default_rng(seed)
    base = [make_words(rng, 60, vocab_size=300) for _ in range(4)]
    texts = []
    for words in base:
        texts.append(" ".join(words))
        for n in (2, 6, 15, 30):
            texts.append(" ".join(mutate(rng, words, n)))
    texts += ["", "!!! ...", "solo", "solo", "a b"]
    return texts


@pytest.mark.parametrize("spec", [ShingleSpec("word", 1), ShingleSpec("word", 3), ShingleSpec("char", 5)], ids=str)
def test_exact_jaccard_equals_python_sets(spec):
    texts = _corpus()
    batch = hash_shingles(texts, spec)
    sets = [shingle_strings(t, spec) for t in texts]
    left, right = (a.astype(np.int64) for a in np.triu_indices(len(texts), k=1))
    got = exact_jaccard(batch, left, right)
    want = [jaccard(sets[i], sets[j]) for i, j in zip(left.tolist(), right.tolist())]
    assert np.allclose(got, want, rtol=0, atol=1e-12)
    # both empty -> 0, identical -> 1, symmetric
    assert exact_jaccard(batch, np.array([len(texts) - 5]), np.array([len(texts) - 4]))[0] == 0.0
    assert exact_jaccard(batch, np.array([len(texts) - 3]), np.array([len(texts) - 2]))[0] == 1.0
    assert np.array_equal(exact_jaccard(batch, right, left), got)


def _all_pairs(n: int) -> Candidates:
    left, right = (a.astype(np.int64) for a in np.triu_indices(n, k=1))
    return Candidates(left, right, np.ones(len(left), dtype=np.int64))


@pytest.mark.parametrize("threshold", [0.2, 0.5, 0.75, 0.9, 1.0])
def test_verify_keeps_exactly_the_pairs_at_the_threshold(threshold):
    texts = _corpus(2)
    spec = ShingleSpec("word", 2)
    batch = hash_shingles(texts, spec)
    sets = [shingle_strings(t, spec) for t in texts]
    sigs = sign_texts(texts, SignatureParams(spec, "fast", 64, 1))
    cands = _all_pairs(len(texts))
    scored, kept = verify(cands, sigs, batch, threshold)
    assert len(scored) == len(cands)
    assert np.allclose(scored.estimate, estimate_pairs(sigs, cands.left, cands.right))
    want = {(i, j) for i, j in zip(cands.left.tolist(), cands.right.tolist()) if jaccard(sets[i], sets[j]) >= threshold}
    got = list(zip(kept.left.tolist(), kept.right.tolist()))
    assert set(got) == want and len(got) == len(want)
    assert np.all(np.diff(kept.jaccard) <= 0)  # similarity descending
    for (i, j), jac in zip(got, kept.jaccard.tolist()):
        assert jac == pytest.approx(jaccard(sets[i], sets[j]), abs=1e-12)


def test_verify_keeps_a_pair_exactly_at_the_threshold():
    # {a,b,c} vs {a,b,d}: J = 2/4 = 0.5 exactly; and 1/3 (not a binary fraction) exactly at threshold 1/3
    texts = ["a b c", "a b d", "x y", "x z"]
    spec = ShingleSpec("word", 1)
    batch = hash_shingles(texts, spec)
    sigs = sign_texts(texts, SignatureParams(spec, "fast", 16, 1))
    _, kept = verify(_all_pairs(4), sigs, batch, 0.5)
    assert list(zip(kept.left.tolist(), kept.right.tolist())) == [(0, 1)]
    _, kept = verify(_all_pairs(4), sigs, batch, 1 / 3)
    assert list(zip(kept.left.tolist(), kept.right.tolist())) == [(0, 1), (2, 3)]


def _components_brute_force(n: int, edges: list[tuple[int, int]]) -> list[list[int]]:
    adj = {i: set() for i in range(n)}
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    seen, comps = set(), []
    for s in range(n):
        if s in seen:
            continue
        stack, comp = [s], []
        seen.add(s)
        while stack:
            v = stack.pop()
            comp.append(v)
            for w in adj[v] - seen:
                seen.add(w)
                stack.append(w)
        if len(comp) > 1:
            comps.append(sorted(comp))
    return comps


@pytest.mark.parametrize("seed", range(6))
def test_groups_equal_brute_force_components(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 40))
    m = int(rng.integers(0, 2 * n))
    edges = [tuple(sorted(map(int, rng.choice(n, 2, replace=False)))) for _ in range(m)]
    left = np.array([e[0] for e in edges], dtype=np.int64)
    right = np.array([e[1] for e in edges], dtype=np.int64)
    got = [g.tolist() for g in groups(n, left, right)]
    want = _components_brute_force(n, edges)
    assert sorted(got) == sorted(want)
    # largest first, then by first member; members ascending
    assert [(-len(g), g[0]) for g in got] == sorted((-len(g), g[0]) for g in got)


def test_groups_chain_and_edges_in_any_order():
    # A~B, B~C (a chain), D~E, F alone; edges given right-to-left too
    got = groups(6, np.array([2, 1, 4]), np.array([1, 0, 3]))
    assert [g.tolist() for g in got] == [[0, 1, 2], [3, 4]]
    assert groups(0, np.zeros(0, np.int64), np.zeros(0, np.int64)) == []
    assert groups(3, np.zeros(0, np.int64), np.zeros(0, np.int64)) == []


def test_min_similarity_in_group_shows_a_chain():
    spec = ShingleSpec("word", 1)
    texts = ["a b c d", "c d e f", "e f g h", "unrelated words here"]  # A~B (1/3), B~C (1/3), A vs C: 0
    batch = hash_shingles(texts, spec)
    sets = [shingle_strings(t, spec) for t in texts]
    members = np.array([0, 1, 2], dtype=np.int64)
    want = min(jaccard(sets[i], sets[j]) for i, j in combinations(members.tolist(), 2))
    assert min_similarity_in_group(members, batch) == pytest.approx(want) == 0.0
    assert min_similarity_in_group(np.array([0, 1]), batch) == pytest.approx(1 / 3)
    assert min_similarity_in_group(np.array([2]), batch) == 1.0
