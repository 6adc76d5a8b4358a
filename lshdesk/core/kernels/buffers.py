"""Growing output arrays inside compiled loops (numba, ``nogil``): grow rarely, outside the inner loops."""

from __future__ import annotations

import numpy as np

from lshdesk.core.kernels.jit import nb


@nb.njit(cache=True, nogil=True)
def grow(a, need):  # pragma: no cover - compiled
    """``a`` itself if it holds ``need`` items, else a copy at least twice as large (its items kept in front)."""
    if need <= a.size:
        return a
    out = np.empty(max(need, 2 * a.size), dtype=a.dtype)
    out[: a.size] = a
    return out
