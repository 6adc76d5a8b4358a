"""Types of the compiled module ``utext`` (its source: utext.pyx, compiled at install)."""

from typing import Any

import numpy.typing as npt

UNIDATA_VERSION: str  # the unicodedata version the tables were generated from

def _run(
    buf: npt.NDArray[Any], offsets: npt.NDArray[Any], chars: bool, strict: bool = False, ids: bool = False
) -> Any: ...
