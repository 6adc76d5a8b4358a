"""Types of the compiled module ``minhash`` (its source: minhash.pyx, compiled at install)."""

from typing import Any

import numpy as np
import numpy.typing as npt

def fnv1a_units(units: npt.NDArray[Any], offsets: npt.NDArray[Any]) -> Any: ...
def minhash_affine32(
    x: npt.NDArray[Any], offsets: npt.NDArray[Any], a: npt.NDArray[Any], b: npt.NDArray[Any]
) -> Any: ...
def minhash_affine_mod(
    x: npt.NDArray[Any],
    offsets: npt.NDArray[Any],
    a: npt.NDArray[Any],
    b: npt.NDArray[Any],
    p: int | np.integer[Any],
    empty: int | np.integer[Any],
) -> Any: ...
def agreeing_slots(sigs: npt.NDArray[Any], left: npt.NDArray[Any], right: npt.NDArray[Any]) -> Any: ...
def agreeing_with(sigs: npt.NDArray[Any], row: npt.NDArray[Any]) -> Any: ...
