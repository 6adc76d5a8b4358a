"""Alignment by shared passages: anchors in order in both texts, and positions mapped onto the copy of a passage."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from core_helpers import make_words

from lshdesk.core.alignment import _longest_increasing, anchors, map_position
from lshdesk.core.params import ShingleSpec
from lshdesk.core.passages import _shingle_spans, compare_files
from lshdesk.core.scan.pipeline import run


@pytest.mark.parametrize("seed", range(8))
def test_longest_increasing_subsequence_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 12, 9).tolist()
    got = _longest_increasing(values)
    assert all(values[a] < values[b] for a, b in zip(got, got[1:])) and got == sorted(got)
    best = max(
        (
            len(c)
            for n in range(len(values) + 1)
            for c in combinations(range(len(values)), n)
            if all(values[a] < values[b] for a, b in zip(c, c[1:]))
        ),
    )
    assert len(got) == best


def _texts(seed: int) -> tuple[str, str, str]:
    rng = np.random.default_rng(seed)
    words = lambda n: " ".join(make_words(rng, n, vocab_size=5000))  # noqa: E731
    passage = words(60)
    a = words(40) + "\n" + passage + "\n" + words(30)
    b = words(300) + "\n" + passage + "\n" + words(200)  # the copy sits much further into a longer text
    return a, b, passage


@pytest.mark.parametrize("spec", [ShingleSpec("word", 3), ShingleSpec("char", 6)], ids=str)
def test_a_position_in_a_shared_passage_maps_onto_its_copy(spec):
    a, b, passage = _texts(4)
    pa, pb = anchors(_shingle_spans(a, spec), _shingle_spans(b, spec))
    assert len(pa) > 10 and np.all(np.diff(pa) > 0) and np.all(np.diff(pb) > 0)
    start_a, start_b = a.index(passage), b.index(passage)
    for offset in (0, 17, len(passage) // 2, len(passage) - 30):
        got = map_position(start_a + offset, pa, pb, len(a), len(b))
        assert abs(got - (start_b + offset)) <= 3  # exact at anchors, at most a word off between them
    proportional = (start_a + 10) / len(a) * len(b)
    assert abs(proportional - (start_b + 10)) > 500  # what linking by proportion did: far from the copy


def test_compare_files_returns_anchors_and_says_when_texts_are_identical(tmp_path):
    a, b, _ = _texts(5)
    (tmp_path / "a.txt").write_text(a, encoding="utf-8")
    (tmp_path / "b.txt").write_text(b, encoding="utf-8")
    (tmp_path / "c.txt").write_text(a, encoding="utf-8")
    spec = ShingleSpec("word", 3)
    one = run(compare_files((str(tmp_path / "a.txt"), str(tmp_path / "b.txt")), 1 << 20, spec))
    assert len(one.anchors[0]) > 10 and not one.identical
    same = run(compare_files((str(tmp_path / "a.txt"), str(tmp_path / "c.txt")), 1 << 20, spec))
    assert same.identical and np.array_equal(same.anchors[0], same.anchors[1])


def test_map_position_without_anchors_is_proportional():
    none = np.zeros(0, np.int64)
    assert map_position(50, none, none, 100, 300) == 150
    assert map_position(0, none, none, 0, 10) == 0
