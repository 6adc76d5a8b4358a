"""The textbook lessons' core: the book's own signature matrix (MMDS Fig. 3.5), the row-by-row algorithm against
permutations, the scale figures, and the expected number of candidates against LSH run over many seeds."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from lshdesk.core.compare import all_pairs
from lshdesk.core.lsh import candidate_pairs
from lshdesk.core.params import Banding, SignatureParams
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching import mmds


def test_the_books_example_ends_in_its_figure_3_5():
    steps = mmds.signature_steps()
    assert steps[-1].sig.tolist() == [[1, 3, 0, 1], [0, 2, 0, 0]]  # MMDS, Example 3.8
    assert (steps[0].sig == mmds.INF).all() and len(steps) == len(mmds.ELEMENTS) + 1
    # each step lowers exactly the slots whose set holds the row and whose value was larger (or unset)
    for before, after in itertools.pairwise(steps):
        assert ((after.sig != before.sig) == after.changed).all()


def test_the_minimum_of_a_permutations_values_is_the_first_row_in_its_order():
    """With h a true permutation of the rows (as the book's h1 is), the algorithm gives the first row of each set."""
    r = random.Random(5)
    for _ in range(50):
        matrix = [[r.randint(0, 1) for _ in range(4)] for _ in range(5)]
        order = list(range(5))
        r.shuffle(order)
        # h(x) = x (a = 1, b = 0) reads the rows in their own order: the rows reordered by ``order`` make it any order
        table = [matrix[row] for row in order]
        assert mmds.signature_steps(table, [(1, 0)], 5)[-1].sig[0].tolist() == mmds.permutation_signature(matrix, order)


def test_agreeing_first_rows_happen_with_probability_j_over_all_permutations():
    """Over all 120 orders of the book's 5 rows, S1 and S4 get the same first row in exactly J = 2/3 of them."""
    same = [
        mmds.permutation_signature(mmds.MATRIX, order)[0] == mmds.permutation_signature(mmds.MATRIX, order)[3]
        for order in itertools.permutations(range(5))
    ]
    assert sum(same) / len(same) == pytest.approx(mmds.column_jaccard(mmds.MATRIX, 0, 3)) == pytest.approx(2 / 3)


def test_the_scale_figures():
    s = mmds.scale(10**5, k=100, rate=1e6)
    assert s.pairs == 4_999_950_000 and s.signature_bytes == 40_000_000 and s.seconds == pytest.approx(4999.95)
    assert mmds.scale(10**8).pairs == 10**16 // 2 - 10**8 // 2


def test_the_expected_candidates_match_lsh_over_many_seeds():
    """The sum of P(J) over the sentences' pairs against the mean count LSH gives over 300 seeds (random signatures
    of the fast family: P(J) holds for random hash functions), within 4 standard errors."""
    texts = list(t.SENTENCES)
    jac = t.jaccard_matrix(texts)
    left, right = all_pairs(len(texts))
    for b, r in ((4, 4), (8, 2), (16, 1)):
        want = mmds.expected_candidates(jac[left, right], b, r)
        counts = [
            len(candidate_pairs(t.lesson_signatures(texts, SignatureParams(t.WORDS, "fast", 16, seed)), Banding(b, r)))
            for seed in range(300)
        ]
        spread = mmds.candidate_spread(jac[left, right], b, r)
        assert np.mean(counts) == pytest.approx(want, abs=4 * spread / np.sqrt(300) + 0.05), (b, r)


def test_the_ax_plus_b_family_agrees_close_to_j_but_not_exactly():
    """Each (ax + b) mod 5 is one order of the 5 rows: its agreement, counted order by order, is the family's."""
    for i, j in itertools.combinations(range(4), 2):
        same, n = mmds.family_agreement(mmds.MATRIX, i, j)
        by_order = 0
        for a, b in ((a, b) for a in range(1, 5) for b in range(5)):
            order = sorted(range(5), key=lambda x: (a * x + b) % 5)
            sig = mmds.permutation_signature(mmds.MATRIX, order)
            by_order += sig[i] == sig[j]
        assert (same, n) == (by_order, 20)
    same, n = mmds.family_agreement(mmds.MATRIX, 0, 3)
    assert same / n != mmds.column_jaccard(mmds.MATRIX, 0, 3) and abs(same / n - 2 / 3) < 0.05
