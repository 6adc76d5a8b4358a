"""The S-curve's named points against independent computations: a numeric second derivative, bisection on P = 1/2,
and the issue's table; the exercises and texts that state them; the entry's figures only where they apply."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from lshdesk.core.params import Banding, ShingleSpec, SignatureParams
from lshdesk.core.scurve import optimal_banding, probability
from lshdesk.core.teaching import curve_points as cp
from lshdesk.core.teaching import experiments as ex
from lshdesk.core.teaching import lessons as t
from lshdesk.core.teaching.exercises import banding_exercises, lesson_exercises
from lshdesk.core.teaching.figures import percent_text, prob_is, to_fixed

SCHEMES = [(4, 4), (10, 2), (16, 1), (20, 5), (2, 8), (8, 12), (1, 16), (3, 7)]


def numeric_steepest(b: int, r: int) -> float:
    """Where the slope of P peaks on a fine grid, by central differences (no formula of ours involved)."""
    j = np.linspace(0.0, 1.0, 200_001)
    slope = np.gradient(probability(j, b, r), j)
    return float(j[int(np.argmax(slope))])


def bisect_half(b: int, r: int) -> float:
    lo, hi = 0.0, 1.0
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if probability(mid, b, r) < 0.5 else (lo, mid)
    return (lo + hi) / 2


@pytest.mark.parametrize(("b", "r"), SCHEMES)
def test_steepest_point_is_where_the_numeric_slope_peaks(b, r):
    top = cp.steepest(b, r)
    peak = numeric_steepest(b, r)
    if r == 1:  # concave: the slope is largest at J = 0
        assert top is None and peak == 0.0 and cp.shape(b, r) == "concave"
    elif b == 1:  # convex: at J = 1
        assert top is None and peak == 1.0 and cp.shape(b, r) == "convex"
    else:
        assert top == pytest.approx(peak, abs=2e-5)
        j = np.array([top - 1e-4, top + 1e-4])  # P'' changes sign there: an inflection
        h = 1e-6
        second = (probability(j + h, b, r) - 2 * probability(j, b, r) + probability(j - h, b, r)) / h**2
        assert second[0] > 0 > second[1]


@pytest.mark.parametrize(("b", "r"), SCHEMES)
def test_half_way_point_is_where_bisection_finds_p_one_half(b, r):
    assert cp.half_way(b, r) == pytest.approx(bisect_half(b, r), abs=1e-12)
    assert float(probability(cp.half_way(b, r), b, r)) == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("b", "r", "book", "top", "half"),
    [
        (4, 4, "0.707", "0.669", "0.632"),
        (10, 2, "0.316", "0.229", "0.259"),
        (16, 1, "0.063", None, "0.042"),
        (20, 5, "0.549", "0.526", "0.509"),
    ],
)
def test_the_issues_table(b, r, book, top, half):
    p = cp.curve_points(b, r)
    assert to_fixed(p.book, 3) == book and to_fixed(p.half, 3) == half
    assert (p.steepest is None) if top is None else to_fixed(p.steepest, 3) == top


def test_the_book_threshold_is_not_the_half_way_point():
    """At the article's 10 x 2 the curve crosses (1/b)^(1/r) at P = 1 - (1 - 1/b)^b = 0.651, not 1/2."""
    p = float(probability(cp.book_threshold(10, 2), 10, 2))
    assert p == pytest.approx(1 - 0.9**10) and to_fixed(p, 2) == "0.65"


def test_scurve_exercises_mark_the_true_steepest_point_right():
    steep = lesson_exercises("scurve")[1]
    assert steep.check("0.526") and not steep.check("0.549") and not steep.check("0.509")
    assert "0.549" in steep.answer and "0.509" in steep.answer
    tune = lesson_exercises("scurve")[2]
    choice = optimal_banding(0.8, 16)
    missed = 1 - float(probability(0.8, choice.bands, choice.rows))
    assert (choice.bands, choice.rows) == (2, 8) and tune.value == pytest.approx(missed) and tune.check("0.69")
    assert f"{choice.bands} × {choice.rows}" in tune.answer and "69 %" in tune.answer


def test_banding_exercises_follow_the_seed():
    """The loose count in the question is the page's, at any seed (it was 28 of 28 whatever the seed)."""
    for seed in (1, 2, 3, 12345):
        sigs = t.lesson_signatures(t.SENTENCES, SignatureParams(t.WORDS, "article", 16, seed))
        out = t.banding_outcome(sigs, t.jaccard_matrix(t.SENTENCES), Banding(16, 1))
        question = banding_exercises(seed, 0.5)[1].question
        assert f"Seed {seed}:" in question and f"why are {int(out.candidate.sum())} of the 28 pairs" in question


def test_small_shares_and_certainties_read_right():
    assert percent_text(1e-9) == "< 0.0001 %" and percent_text(3e-6) == "0.0003 %" and percent_text(0.0) == "0 %"
    assert prob_is(1 - 1e-7) == " > 0.999" and prob_is(1e-7) == " < 0.001" and prob_is(0.25) == " = 0.250"


def test_the_entrys_figures_only_beside_the_sample_sentences():
    docs = [f"alpha beta gamma {i} delta" for i in range(4)]
    mine = ex.run(ex.error_vs_k(docs, n_seeds=2, ks=(4, 8)))
    sample = ex.run(ex.error_vs_k(t.SENTENCES, n_seeds=2, ks=(4, 8)))
    col = lambda res: [r["entry_reference"] for r in csv.DictReader(io.StringIO(res.to_csv()))]  # noqa: E731
    assert col(mine) == ["", ""] and col(sample) == ["0.098", "0.07"]
    sweep = ex.run(ex.banding_sweep(docs, n_seeds=2, cutoff=0.5))
    rows = list(csv.DictReader(io.StringIO(sweep.to_csv())))
    assert all(r["entry_recall"] == r["entry_fpr"] == "" for r in rows)
    sample_sweep = ex.run(ex.banding_sweep(t.SENTENCES, n_seeds=2, cutoff=0.5))
    assert [r["entry_recall"] for r in csv.DictReader(io.StringIO(sample_sweep.to_csv()))][0] == "0.3400"
    char = ex.run(ex.banding_sweep(t.SENTENCES, n_seeds=2, cutoff=0.5, spec=ShingleSpec("char", 5)))
    assert not char.on_sample and not ex.run(ex.banding_sweep(t.SENTENCES, n_seeds=2, cutoff=0.6)).on_sample
