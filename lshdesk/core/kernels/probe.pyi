"""Types of the compiled module ``probe`` (its source: probe.pyx, compiled at install)."""

from typing import Any

import numpy.typing as npt

def probe_intersection_sizes(
    ids: npt.NDArray[Any], offsets: npt.NDArray[Any], left: npt.NDArray[Any], right: npt.NDArray[Any]
) -> Any: ...
