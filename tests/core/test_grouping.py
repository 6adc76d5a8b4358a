"""Groups that explain themselves: closest partners and strict groups against brute force on random pair graphs,
and a chain of real texts cut into strict groups whose every pair reaches the threshold."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from core_helpers import make_words, mutate

from lshdesk.core.clustering import Pairs, exact_jaccard, groups, min_similarity_in_group
from lshdesk.core.grouping import closest_in_group, lowest_in_groups, strict_groups
from lshdesk.core.params import ShingleSpec
from lshdesk.core.shingle_kinds import hash_shingles


def _random_pairs(seed: int, n_docs: int = 40, n_pairs: int = 120) -> Pairs:
    rng = np.random.default_rng(seed)
    left = rng.integers(0, n_docs, n_pairs)
    right = rng.integers(0, n_docs, n_pairs)
    keep = left < right
    edges = np.unique(np.stack([left[keep], right[keep]], axis=1), axis=0)
    jac = np.round(rng.uniform(0.5, 1.0, len(edges)), 2)  # rounded: ties happen
    zeros = np.zeros(len(edges))
    return Pairs(edges[:, 0], edges[:, 1], zeros, jac, zeros.astype(np.int64))


@pytest.mark.parametrize("seed", range(6))
def test_closest_partner_is_the_most_similar_pair_inside_the_group(seed):
    p = _random_pairs(seed)
    comps = groups(40, p.left, p.right)
    best, partner = closest_in_group(40, comps, p)
    sims = {(int(a), int(b)): float(j) for a, b, j in zip(p.left, p.right, p.jaccard)}
    for d in range(40):
        mine = [(j, b if a == d else a) for (a, b), j in sims.items() if d in (a, b)]
        if not mine:
            assert partner[d] == -1 and np.isnan(best[d])
            continue
        top = max(j for j, _ in mine)
        assert best[d] == top
        assert partner[d] == min(o for j, o in mine if j == top)  # ties: the lower index


@pytest.mark.parametrize("seed", range(6))
def test_strict_groups_are_cliques_inside_linked_groups_and_cannot_merge(seed):
    p = _random_pairs(seed)
    edges = {frozenset((int(a), int(b))) for a, b in zip(p.left, p.right)}
    strict = strict_groups(p)
    linked = [set(c.tolist()) for c in groups(40, p.left, p.right)]
    seen: set[int] = set()
    for g in strict:
        members = g.tolist()
        assert members == sorted(members) and len(members) >= 2
        assert not seen & set(members)  # disjoint
        seen |= set(members)
        assert all(frozenset(e) in edges for e in combinations(members, 2))  # every pair verified
        assert any(set(members) <= c for c in linked)
    assert [len(g) for g in strict] == sorted((len(g) for g in strict), reverse=True)
    for g, h in combinations(strict, 2):  # complete linkage ran to the end: no two touching groups could join
        cross = [frozenset((a, b)) in edges for a in g.tolist() for b in h.tolist()]
        assert not all(cross)
    low = lowest_in_groups(40, strict, p)
    for g, lo in zip(strict, low):
        inside = [float(j) for a, b, j in zip(p.left, p.right, p.jaccard) if a in g and b in g]
        assert lo == min(inside)


def test_a_chain_of_texts_is_cut_into_strict_groups_whose_every_pair_reaches_the_threshold():
    rng = np.random.default_rng(3)
    words = make_words(rng, 200, vocab_size=2000)
    texts = [" ".join(words)]
    for _ in range(7):  # each text a few edits from the one before: neighbours close, the ends far apart
        words = mutate(rng, words, 14)
        texts.append(" ".join(words))
    batch = hash_shingles(texts, ShingleSpec("word", 3))
    left, right = (a.astype(np.int64) for a in np.triu_indices(len(texts), k=1))
    jac = exact_jaccard(batch, left, right)
    threshold = 0.5
    keep = jac >= threshold
    p = Pairs(left[keep], right[keep], jac[keep], jac[keep], np.ones(int(keep.sum()), np.int64))
    linked = groups(len(texts), p.left, p.right)
    assert len(linked) == 1 and min_similarity_in_group(linked[0], batch) < threshold  # a real chain
    strict = strict_groups(p)
    assert len(strict) >= 2
    for g in strict:
        assert min_similarity_in_group(g, batch) >= threshold - 1e-12
