"""Types of the compiled module ``pairs`` (its source: pairs.pyx, compiled at install)."""

from typing import Any

import numpy as np
import numpy.typing as npt

def intersection_sizes(
    ids: npt.NDArray[Any], offsets: npt.NDArray[Any], left: npt.NDArray[Any], right: npt.NDArray[Any]
) -> Any: ...
def components(n: int | np.integer[Any], left: npt.NDArray[Any], right: npt.NDArray[Any]) -> Any: ...
def group_min_jaccard(
    ids: npt.NDArray[Any],
    offsets: npt.NDArray[Any],
    members: npt.NDArray[Any],
    starts: npt.NDArray[Any],
    seed: npt.NDArray[Any],
) -> Any: ...
def rows_min_jaccard(
    ids: npt.NDArray[Any],
    offsets: npt.NDArray[Any],
    members: npt.NDArray[Any],
    p_lo: int | np.integer[Any],
    p_hi: int | np.integer[Any],
    best: float | np.floating[Any],
) -> Any: ...
def all_pairs_rows(
    doc_of: npt.NDArray[Any],
    posting: npt.NDArray[Any],
    post_offsets: npt.NDArray[Any],
    pos_in_post: npt.NDArray[Any],
    offsets: npt.NDArray[Any],
    counts: npt.NDArray[Any],
    is_ref: Any,
    use_ref: bool,
    row_lo: int | np.integer[Any],
    row_hi: int | np.integer[Any],
    floor: float | np.floating[Any],
    n_bins: int | np.integer[Any],
    hist: npt.NDArray[Any],
) -> Any: ...
def query_intersection_sizes(
    q: npt.NDArray[Any], ids: npt.NDArray[Any], offsets: npt.NDArray[Any], docs: npt.NDArray[Any]
) -> Any: ...
def take_rows(ids: npt.NDArray[Any], offsets: npt.NDArray[Any], docs: npt.NDArray[Any]) -> Any: ...
