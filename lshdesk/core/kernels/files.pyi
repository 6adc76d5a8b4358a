"""Types of the compiled module ``files`` (its source: files.pyx, compiled at install)."""

from typing import Any

import numpy as np
import numpy.typing as npt

PLAIN: int
READ: int
AGAIN: int
EMPTY: int
BIG: int
UTF8: int

def read_files(
    names: npt.NDArray[Any],
    sizes: npt.NDArray[Any],
    max_bytes: int,
    txt_ok: bool,
    claimed: npt.NDArray[Any],
    flags: int | np.integer[Any],
    buf: npt.NDArray[Any],
    offsets: npt.NDArray[Any],
    state: npt.NDArray[Any],
    stamps: npt.NDArray[Any],
) -> tuple[int, int]: ...
