"""Small array helpers shared by the core."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


def ranges(starts: npt.NDArray[np.int64], lengths: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Concatenate ``arange(s, s + l)`` for each start and length, without a Python loop."""
    lengths = np.asarray(lengths, dtype=np.int64)
    run_starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.repeat(np.asarray(starts, dtype=np.int64), lengths) + (
        np.arange(int(lengths.sum()), dtype=np.int64) - run_starts
    )
