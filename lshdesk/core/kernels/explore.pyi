"""Types of the compiled module ``explore`` (its source: explore.pyx, compiled at install)."""

from typing import Any

import numpy as np
import numpy.typing as npt

def best_band_agreement(
    sigs: npt.NDArray[Any],
    left: npt.NDArray[Any],
    right: npt.NDArray[Any],
    bands: int | np.integer[Any],
    rows: int | np.integer[Any],
) -> Any: ...
def same_slots(
    sigs: npt.NDArray[Any], lo: int | np.integer[Any], hi: int | np.integer[Any], d: int | np.integer[Any]
) -> Any: ...
