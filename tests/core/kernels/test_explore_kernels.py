"""The explorer's kernels against numpy: a pair's best band agreement, a bucket's members (both signature dtypes,
read-only signatures as a loaded session gives them)."""

from __future__ import annotations

import numpy as np
import pytest

from lshdesk.core.kernels.explore import best_band_agreement, same_slots


def signatures(seed: int, n: int, k: int, values: int, dtype) -> np.ndarray:
    """Random signatures with few distinct slot values, read-only: many agreements, and a kernel must not write."""
    sigs = np.random.default_rng(seed).integers(0, values, size=(n, k)).astype(dtype)
    return np.frombuffer(sigs.tobytes(), dtype=dtype).reshape(n, k)


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
@pytest.mark.parametrize(("b", "r"), [(8, 4), (32, 1), (3, 5), (1, 1), (10, 3)])
def test_best_band_agreement_is_numpys(dtype, b, r):
    sigs = signatures(1, 50, 32, 3, dtype)
    rng = np.random.default_rng(2)
    left, right = rng.integers(0, 50, 300), rng.integers(0, 50, 300)
    bands = (sigs[left, : b * r] == sigs[right, : b * r]).reshape(-1, b, r)
    got = best_band_agreement(sigs, left, right, b, r)
    assert got.dtype == np.int64
    assert got.tolist() == bands.sum(axis=2).max(axis=1).tolist()
    assert best_band_agreement(sigs, left[:0], right[:0], b, r).tolist() == []


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_same_slots_are_numpys_ascending(dtype):
    sigs = signatures(3, 200, 12, 2, dtype)
    for lo, hi, d in ((0, 4, 0), (4, 8, 17), (11, 12, 199), (0, 12, 5), (6, 6, 3)):
        want = np.flatnonzero((sigs[:, lo:hi] == sigs[d, lo:hi]).all(axis=1))
        got = same_slots(sigs, lo, hi, d)
        assert got.dtype == np.int64 and d in got
        assert got.tolist() == want.tolist()


def test_slots_out_of_the_signatures_are_refused():
    sigs = signatures(4, 5, 8, 3, np.uint32)
    with pytest.raises(IndexError):
        same_slots(sigs, 4, 9, 0)
    with pytest.raises(IndexError):
        same_slots(sigs, 0, 4, 5)
    with pytest.raises(ValueError, match="3 bands x 3 rows"):
        best_band_agreement(sigs, np.zeros(1, np.int64), np.zeros(1, np.int64), 3, 3)
