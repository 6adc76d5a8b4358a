"""S-curve maths: P(J), the threshold, false-positive / false-negative areas (against fine-grid integration and
datasketch's quad), the optimal scheme (against datasketch's _optimal_param) and the presets."""

from __future__ import annotations

import math

import numpy as np
import pytest
from datasketch.lsh import _false_negative_probability, _false_positive_probability, _optimal_param

from lshdesk.core.errors import ParamError
from lshdesk.core.params import Banding, ScanParams, SignatureParams
from lshdesk.core.scurve import (
    all_schemes,
    false_negative_area,
    false_positive_area,
    optimal_banding,
    presets,
    probability,
    scan_banding,
    threshold,
)

SCHEMES = [(1, 1), (1, 16), (16, 1), (4, 4), (20, 5), (9, 13), (32, 8), (64, 4), (2, 100), (128, 2), (16, 16)]


@pytest.mark.parametrize("b, r", SCHEMES)
def test_probability_is_at_least_one_band_matching(b, r):
    # independent formulation: P = sum over m >= 1 bands matching of C(b, m) p^m (1-p)^(b-m), p = J^r
    js = np.linspace(0, 1, 41)
    got = probability(js, b, r)
    for j, g in zip(js.tolist(), got.tolist()):
        p = j**r
        want = sum(math.comb(b, m) * p**m * (1 - p) ** (b - m) for m in range(1, b + 1))
        assert g == pytest.approx(want, abs=1e-12)
    assert got[0] == 0.0 and got[-1] == 1.0
    assert np.all(np.diff(got) >= -1e-15)  # never decreasing in J


@pytest.mark.parametrize("b, r", SCHEMES)
def test_threshold(b, r):
    t = threshold(b, r)
    assert t**r * b == pytest.approx(1.0, rel=1e-12)  # (1/b)^(1/r): where one band alone would match with prob 1/b
    assert 0 < t <= 1


def test_threshold_examples():
    assert threshold(1, 5) == 1.0
    assert threshold(16, 4) == pytest.approx(0.5)
    assert threshold(20, 5) == pytest.approx(20 ** (-1 / 5))


def _grid_areas(t: float, b: int, r: int) -> tuple[float, float]:
    """FP / FN areas by the trapezoid rule on a 200k-point grid of each interval (error well below 1e-7 here)."""
    lo = np.linspace(0.0, t, 200_000)
    hi = np.linspace(t, 1.0, 200_000)
    fp = np.trapezoid(1.0 - (1.0 - lo**r) ** b, lo)
    fn = np.trapezoid((1.0 - hi**r) ** b, hi)
    return float(fp), float(fn)


@pytest.mark.parametrize("b, r", SCHEMES)
@pytest.mark.parametrize("t", [0.05, 0.3, 0.5, 0.8, 0.95, 1.0])
def test_false_areas_equal_numeric_integration(t, b, r):
    fp, fn = _grid_areas(t, b, r)
    assert float(false_positive_area(t, b, r)) == pytest.approx(fp, abs=1e-6)
    assert float(false_negative_area(t, b, r)) == pytest.approx(fn, abs=1e-6)
    assert float(false_positive_area(t, b, r)) == pytest.approx(_false_positive_probability(t, b, r), abs=1e-6)
    assert float(false_negative_area(t, b, r)) == pytest.approx(_false_negative_probability(t, b, r), abs=1e-6)


def test_false_areas_vectorised_over_schemes():
    b = np.array([s[0] for s in SCHEMES])
    r = np.array([s[1] for s in SCHEMES])
    fp, fn = false_positive_area(0.6, b, r), false_negative_area(0.6, b, r)
    assert fp.shape == fn.shape == (len(SCHEMES),)
    for i, (bi, ri) in enumerate(SCHEMES):
        assert fp[i] == pytest.approx(float(false_positive_area(0.6, bi, ri)), abs=1e-12)
        assert fn[i] == pytest.approx(float(false_negative_area(0.6, bi, ri)), abs=1e-12)


def test_false_areas_limits():
    # strict 1 x 1 scheme: P(J) = J, so FP = t^2/2 and FN = (1-t)^2/2 exactly
    for t in (0.2, 0.5, 0.9):
        assert float(false_positive_area(t, 1, 1)) == pytest.approx(t * t / 2, abs=1e-14)
        assert float(false_negative_area(t, 1, 1)) == pytest.approx((1 - t) ** 2 / 2, abs=1e-14)
    assert float(false_negative_area(1.0, 7, 3)) == pytest.approx(0.0, abs=1e-15)


THRESHOLDS = [round(x, 2) for x in np.arange(0.1, 0.951, 0.05)]


@pytest.mark.parametrize("k", [16, 64, 128, 256])
def test_optimal_banding_equals_datasketch(k):
    for t in THRESHOLDS:
        for fp_w, fn_w in [(0.5, 0.5), (0.2, 0.8), (0.9, 0.1)]:
            got = optimal_banding(t, k, fp_w, fn_w)
            assert (got.bands, got.rows) == _optimal_param(t, k, fp_w, fn_w), (t, k, fp_w, fn_w)
            assert got.bands * got.rows <= k


def test_optimal_banding_weights_move_the_choice():
    # more weight on false negatives -> a lower effective threshold (more bands or fewer rows)
    t = 0.7
    lenient = optimal_banding(t, 128, 0.1, 0.9)
    strict = optimal_banding(t, 128, 0.9, 0.1)
    assert threshold(lenient.bands, lenient.rows) < threshold(strict.bands, strict.rows)


@pytest.mark.parametrize("k", [1, 7, 16, 128])
def test_all_schemes_lists_every_fitting_scheme_once_in_datasketch_order(k):
    bands, rows = all_schemes(k)
    got = list(zip(bands.tolist(), rows.tolist()))
    assert got == sorted(got)
    assert set(got) == {(b, r) for b in range(1, k + 1) for r in range(1, k + 1) if b * r <= k}
    assert len(got) == len(set(got))


def test_scan_banding_is_the_manual_scheme_else_the_weighted_optimum():
    sig = SignatureParams(k=64)
    assert scan_banding(ScanParams(sig, 0.7, Banding(4, 3))) == Banding(4, 3)
    for fp_w, fn_w in [(0.05, 0.95), (0.9, 0.1)]:
        auto = scan_banding(ScanParams(sig, 0.7, None, fp_weight=fp_w, fn_weight=fn_w))
        assert (auto.bands, auto.rows) == _optimal_param(0.7, 64, fp_w, fn_w)


@pytest.mark.parametrize("t", [0.0, -0.1, 1.01])
def test_optimal_banding_refuses_bad_threshold(t):
    with pytest.raises(ParamError, match="threshold"):
        optimal_banding(t, 64)


@pytest.mark.parametrize("k", [1, 2, 7, 12, 16, 60, 64, 100, 128, 200, 256])
def test_presets(k):
    p = presets(k)
    assert p["strict"] == Banding(1, k)
    assert p["loose"] == Banding(k, 1)
    bal = p["balanced"]
    assert bal.bands * bal.rows == k and bal.bands >= bal.rows
    # the squarest factorisation: the smallest b - r over all b x r = k with b >= r (brute force)
    best = min((k // r - r, r) for r in range(1, k + 1) if k % r == 0 and k // r >= r)
    assert bal.rows == best[1]


@pytest.mark.parametrize("m", [1, 2, 3, 8, 33, 65, 200])
def test_the_quadrature_nodes_are_numpys_and_exact_on_polynomials(m):
    from lshdesk.core.scurve import _nodes

    x, w = _nodes(m)
    ref_x, ref_w = np.polynomial.legendre.leggauss(m)
    assert np.allclose(x, ref_x, rtol=0, atol=1e-12 if m <= 65 else 1e-10)
    assert np.allclose(w, ref_w, rtol=1e-11 if m <= 65 else 1e-9, atol=0)
    for j in range(0, 2 * m, max(1, m // 4)):  # degree <= 2m - 1 is integrated exactly
        want = 2.0 / (j + 1) if j % 2 == 0 else 0.0
        assert float(x**j @ w) == pytest.approx(want, abs=1e-13)
