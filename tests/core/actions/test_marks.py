"""Rules keep exactly one document per group (never marking a reference document); invert and the summary."""

from __future__ import annotations

import numpy as np
import pytest

from lshdesk.core.actions.marks import RULES, in_reference, invert, mark_by_rule, no_marks, summary
from lshdesk.core.clustering import Pairs
from lshdesk.core.errors import ParamError


def _pairs(edges: list[tuple[int, int, float]]) -> Pairs:
    left, right, jac = (np.array(c) for c in zip(*edges)) if edges else (np.zeros(0, np.int64),) * 3
    n = len(left)
    return Pairs(
        left.astype(np.int64), right.astype(np.int64), jac.astype(float), jac.astype(float), np.ones(n, np.int64)
    )


def _complete(groups) -> Pairs:
    """Every two members of a group a verified pair at 0.9."""
    return _pairs([(int(a), int(b), 0.9) for g in groups for i, a in enumerate(g) for b in g[i + 1 :]])


def _random_case(seed: int):
    rng = np.random.default_rng(seed)
    n = 60
    perm = rng.permutation(n)
    cuts = np.sort(rng.choice(np.arange(2, n - 2), size=8, replace=False))
    groups = [np.sort(g) for g in np.split(perm[:48], np.sort(np.unique(np.clip(cuts, 2, 46)))) if len(g) >= 2]
    size = rng.integers(1, 5, n)  # few values: ties happen
    mtime = rng.integers(0, 4, n) * 10**9
    paths = ["/" + "d/" * int(rng.integers(1, 4)) + f"f{i}.txt" for i in range(n)]
    reference = rng.random(n) < 0.2
    return groups, size, mtime, paths, reference


def _expected_keeper(members, rule, size, mtime, paths):
    """Brute force: the first member (in scan order) with the best key."""
    key = {
        "oldest": lambda i: mtime[i],
        "newest": lambda i: -mtime[i],
        "largest": lambda i: -size[i],
        "shortest": lambda i: len(paths[i]),
    }[rule]
    return min(members.tolist(), key=lambda i: (key(i), i))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("rule", ["oldest", "newest", "largest", "shortest"])
def test_each_group_keeps_the_rules_choice_and_no_reference_document_is_marked(seed, rule):
    groups, size, mtime, paths, reference = _random_case(seed)
    marks = mark_by_rule(
        groups, rule, paths=paths, size=size, mtime=mtime, reference=reference, pairs=_complete(groups), threshold=0.8
    )
    in_groups = np.zeros(len(paths), bool)
    for g in groups:
        in_groups[g] = True
        keeper = _expected_keeper(g, rule, size, mtime, paths)
        assert not marks[keeper]
        others = [i for i in g.tolist() if i != keeper]
        assert all(marks[i] != reference[i] for i in others)  # every other member marked unless it is a reference
    assert not (marks & reference).any()
    assert not (marks & ~in_groups).any()  # a document outside every group is never marked by a rule


def test_reference_rule_marks_only_groups_holding_a_reference_document():
    groups = [np.array([0, 1, 2]), np.array([3, 4])]
    reference = np.array([False, True, False, False, False])
    marks = mark_by_rule(
        groups,
        "reference",
        paths=["a"] * 5,
        size=np.ones(5, np.int64),
        mtime=None,
        reference=reference,
        pairs=_complete(groups),
        threshold=0.8,
    )
    assert marks.tolist() == [True, False, True, False, False]


@pytest.mark.parametrize("rule", ["oldest", "newest", "largest", "shortest"])
def test_a_chain_marks_only_documents_close_to_one_that_stays(rule):
    """A~B~C with A and C below the threshold: whichever the rule keeps, nothing marked lacks a close kept match."""
    pairs = _pairs([(0, 1, 0.85), (1, 2, 0.82), (0, 2, 0.70)])  # the join measured A~C: below t
    for keep in range(3):  # make the rule keep A, B, then C
        mtime = np.array([5, 5, 5]) * 10**9
        mtime[keep] = {"oldest": 1, "newest": 9}.get(rule, 5) * 10**9
        size = np.full(3, 10, np.int64)
        size[keep] = 99
        paths = ["/dd/a.txt", "/dd/b.txt", "/dd/c.txt"]
        paths[keep] = "/k.txt"
        marks = mark_by_rule(
            [np.array([0, 1, 2])],
            rule,
            paths=paths,
            size=size,
            mtime=mtime,
            reference=no_marks(3),
            pairs=pairs,
            threshold=0.8,
        )
        assert not marks[keep]
        stays = np.flatnonzero(~marks)
        for d in np.flatnonzero(marks):
            close = [(l, r) for l, r, j in zip(pairs.left, pairs.right, pairs.jaccard) if j >= 0.8 and d in (l, r)]
            assert any((l if r == d else r) in stays for l, r in close), (rule, keep, marks)
        expected = {0: [False, True, False], 1: [True, False, True], 2: [False, True, False]}[keep]
        assert marks.tolist() == expected


def test_unknown_rule_and_unknown_dates_are_refused_with_a_reason():
    args = dict(
        paths=["a", "b"], size=np.ones(2, np.int64), reference=np.zeros(2, bool), pairs=_pairs([]), threshold=0.8
    )
    with pytest.raises(ParamError, match="unknown rule"):
        mark_by_rule([np.array([0, 1])], "smallest", mtime=None, **args)
    with pytest.raises(ParamError, match="scan again"):
        mark_by_rule([np.array([0, 1])], "oldest", mtime=None, **args)
    assert set(RULES) == {"oldest", "newest", "largest", "shortest", "reference"}


def test_invert_swaps_within_groups_only_and_spares_reference_documents():
    groups = [np.array([0, 1, 2]), np.array([4, 5])]
    reference = in_reference(np.array([0, 1, 1, 1, 1, 1, 1]), [0])
    marks = np.array([False, True, False, True, False, False, False])
    out = invert(marks, groups, reference)
    assert out.tolist() == [False, False, True, False, True, True, False]  # doc 3 (no group) unmarked, 0 a reference
    in_groups = np.isin(np.arange(7), np.concatenate(groups))
    assert np.array_equal(invert(out, groups, reference), marks & in_groups & ~reference)  # twice: back, within groups


def test_summary_counts_and_sums_the_marked_sizes():
    size = np.array([1024, 2048, 512], np.int64)
    assert summary(no_marks(3), size) == "None marked"
    assert summary(np.array([True, True, False]), size) == "2 marked, 3.0 KB"
