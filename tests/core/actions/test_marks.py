"""Rules keep exactly one document per group (never marking a reference document); invert and the summary."""

from __future__ import annotations

import numpy as np
import pytest

from lshdesk.core.actions.marks import RULES, in_reference, invert, mark_by_rule, no_marks, summary
from lshdesk.core.errors import ParamError


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
    marks = mark_by_rule(groups, rule, paths=paths, size=size, mtime=mtime, reference=reference)
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
        groups, "reference", paths=["a"] * 5, size=np.ones(5, np.int64), mtime=None, reference=reference
    )
    assert marks.tolist() == [True, False, True, False, False]


def test_unknown_rule_and_unknown_dates_are_refused_with_a_reason():
    args = dict(paths=["a", "b"], size=np.ones(2, np.int64), reference=np.zeros(2, bool))
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
