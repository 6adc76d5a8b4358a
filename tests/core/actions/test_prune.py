"""A result without moved documents: the same pairs among the others, groups found again, arrays renumbered."""

from __future__ import annotations

import os

import numpy as np
from actions_corpus import make_corpus, scan_corpus

from lshdesk.core.actions.prune import without
from lshdesk.core.clustering import exact_jaccard


def test_without_drops_the_documents_and_keeps_everything_else_consistent(tmp_path):
    make_corpus(tmp_path)
    result = scan_corpus(tmp_path, reference=False)
    names = [os.path.basename(p) for p in result.docs.paths]
    gone = [names.index("g0_b.txt"), names.index("lone0.txt"), names.index("g1_copy_c.txt")]
    pruned, old = without(result, gone)
    assert len(pruned.docs) == len(result.docs) - 3 and set(old.tolist()) == set(range(len(names))) - set(gone)
    assert pruned.docs.paths == [result.docs.paths[i] for i in old]
    assert np.array_equal(pruned.signatures, result.signatures[old])
    assert np.array_equal(pruned.docs.mtime, result.docs.mtime[old])
    for j, i in enumerate(old):
        assert np.array_equal(pruned.shingles.doc(j), result.shingles.doc(int(i)))
    before = {(result.docs.paths[a], result.docs.paths[b]) for a, b in zip(result.pairs.left, result.pairs.right)}
    after = {(pruned.docs.paths[a], pruned.docs.paths[b]) for a, b in zip(pruned.pairs.left, pruned.pairs.right)}
    kept = set(pruned.docs.paths)
    assert after == {pair for pair in before if set(pair) <= kept}
    assert np.allclose(pruned.pairs.jaccard, exact_jaccard(pruned.shingles, pruned.pairs.left, pruned.pairs.right))
    assert sorted(len(g) for g in pruned.groups) == [2, 2, 3]  # two groups lost a member, the third is whole
    assert all(0.5 <= m <= 1 for m in pruned.group_min)
