"""Types of the compiled module ``banding`` (its source: banding.pyx, compiled at install)."""

from typing import Any

import numpy as np
import numpy.typing as npt

def band_keys(sigs: npt.NDArray[Any], bands: int | np.integer[Any], rows: int | np.integer[Any]) -> Any: ...
def band_buckets(
    keys: npt.NDArray[Any], band_lo: int | np.integer[Any], report: bool, codes: Any, n_codes: int | np.integer[Any]
) -> Any: ...
def merge_counted(a: npt.NDArray[Any], ca: npt.NDArray[Any], b: npt.NDArray[Any], cb: npt.NDArray[Any]) -> Any: ...
