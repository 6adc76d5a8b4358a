"""The core's small array helpers against numpy's own answers."""

from __future__ import annotations

import numpy as np
import pytest

from lshdesk.core.arrays import stable_groups


@pytest.mark.parametrize(
    "n, distinct, dtype", [(0, 1, np.uint32), (1, 1, np.uint32), (5000, 40, np.uint32), (5000, 1 << 31, np.int64)]
)
def test_stable_groups_rank_values_as_unique_does_and_keep_ties_in_order(n, distinct, dtype):
    values = np.random.default_rng(n).integers(0, distinct, n).astype(dtype)
    order, rank = stable_groups(values)
    uniq, inverse = np.unique(values, return_inverse=True)
    assert np.array_equal(rank, inverse) and rank.dtype == np.int64
    assert np.array_equal(order, np.argsort(values, kind="stable"))
    assert np.all(np.diff(rank[order]) >= 0) and np.array_equal(uniq[rank], values)
