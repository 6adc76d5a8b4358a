"""Types of the compiled module ``join`` (its source: join.pyx, compiled at install)."""

from typing import Any

import numpy as np
import numpy.typing as npt

def rank_table(n_ids: Any) -> Any: ...
def count_ids(
    ids: npt.NDArray[Any],
    lo: int | np.integer[Any],
    hi: int | np.integer[Any],
    keys: npt.NDArray[Any],
    df: npt.NDArray[Any],
    slot: npt.NDArray[Any],
) -> Any: ...
def frequency_ranks(df: npt.NDArray[Any]) -> int: ...
def ranked_rows(
    slot: npt.NDArray[Any],
    rank: npt.NDArray[Any],
    offsets: npt.NDArray[Any],
    n_ranks: int | np.integer[Any],
    lo: int | np.integer[Any],
    hi: int | np.integer[Any],
    out: npt.NDArray[Any],
) -> Any: ...
def reversed_rows(
    tok: npt.NDArray[Any],
    offsets: npt.NDArray[Any],
    n_ranks: int | np.integer[Any],
    lo: int | np.integer[Any],
    hi: int | np.integer[Any],
    out: npt.NDArray[Any],
) -> Any: ...
def build_index(
    tok: npt.NDArray[Any],
    offsets: npt.NDArray[Any],
    order: npt.NDArray[Any],
    n_tokens: int | np.integer[Any],
    t: float | np.floating[Any],
) -> Any: ...
def partner_lists(later: npt.NDArray[Any], earlier: npt.NDArray[Any], n_docs: int | np.integer[Any]) -> Any: ...
def join_rows(*args: Any) -> Any: ...  # tok, offsets, order, pos_of, *post, *adj, t, lo, hi, out (see join.pyx)
