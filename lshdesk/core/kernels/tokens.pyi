"""Types of the compiled module ``tokens`` (its source: tokens.pyx, compiled at install)."""

from typing import Any

import numpy as np
import numpy.typing as npt

TOKEN_BYTES: npt.NDArray[Any]
WHITE: npt.NDArray[Any]

def ascii_char_units(buf: npt.NDArray[Any], offsets: npt.NDArray[Any], white: Any) -> Any: ...
def tokenize_bytes(buf: npt.NDArray[Any], offsets: npt.NDArray[Any], table: Any) -> Any: ...
def window_ids(units: npt.NDArray[Any], unit_off: npt.NDArray[Any], n: int | np.integer[Any]) -> Any: ...
def word_ids(buf: npt.NDArray[Any], offsets: npt.NDArray[Any], n: int | np.integer[Any], table: Any) -> Any: ...
