"""Checking a session's header and arrays against each other before anything uses them (untrusted input).

Every header field has its type checked; every array its dtype, its shape against the header (documents, k,
groups) and its indices against their bounds, and shingle ids must be sorted within each document, as the
compiled kernels assume. Anything wrong is a ``SessionError`` naming the field and what is wrong with it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from lshdesk.core.pathnames import name_from_stored
from lshdesk.core.persistence.session_read import SessionError

PAIR_FIELDS = ("left", "right", "estimate", "jaccard", "bands")
I64, F64, U32 = np.dtype(np.int64), np.dtype(np.float64), np.dtype(np.uint32)


def field(header: dict[str, Any], key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    """``header[key]``, which must be of ``kind`` (never a bool where a number is meant)."""
    if key not in header:
        if default is ...:
            raise SessionError(f"its header has no {key!r}")
        return default
    value = header[key]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        value = None  # True is an int to Python, not to a session
    if not isinstance(value, kind):
        raise SessionError(f"its header's {key!r} must be {_kinds(kind)}, not {type(header[key]).__name__}")
    return value


def _kinds(kind: type | tuple[type, ...]) -> str:
    return " or ".join(k.__name__ for k in kind) if isinstance(kind, tuple) else kind.__name__


def names(header: dict[str, Any], key: str, default: Any = ...) -> list[str]:
    """A list of file names (text, or ``{"bytes": base64}`` for names that are not UTF-8)."""
    try:
        return [name_from_stored(v) for v in field(header, key, list, default)]
    except ValueError as e:
        raise SessionError(f"its header's {key!r} holds a bad name ({e})") from None


def name(value: Any, what: str) -> str:
    """One file name (as ``names``)."""
    try:
        return name_from_stored(value)
    except ValueError as e:
        raise SessionError(f"its header names {what} badly ({e})") from None


def indices(header: dict[str, Any], key: str, bound: int, default: Any = ...) -> tuple[int, ...]:
    """A list of whole numbers in ``range(bound)``."""
    values = field(header, key, list, default)
    if not all(type(v) is int and 0 <= v < bound for v in values):
        raise SessionError(f"its header's {key!r} must list whole numbers from 0 to {bound - 1}")
    return tuple(values)


def number(header: dict[str, Any], key: str) -> float:
    value = float(field(header, key, (int, float)))
    if not math.isfinite(value) or value < 0:
        raise SessionError(f"its header's {key!r} must be a number of at least 0, not {value}")
    return value


def _array(a: dict[str, np.ndarray], name: str, dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    if name not in a:
        raise SessionError(f"array {name} is missing")
    x = a[name]
    if x.dtype != dtype:
        raise SessionError(f"array {name} has type {x.dtype}, not {dtype}")
    if x.shape != shape:
        raise SessionError(f"array {name} has shape {x.shape}, not {shape} as the header says")
    return x


def _length(a: dict[str, np.ndarray], name: str) -> int:
    if name not in a or a[name].ndim != 1:
        raise SessionError(f"array {name} is missing or not a list")
    return len(a[name])


def _within(x: np.ndarray, name: str, low: float, high: float) -> None:
    if len(x) and not (np.all(x >= low) and np.all(x <= high)):  # NaN fails both
        raise SessionError(f"array {name} holds values outside {low:g} to {high:g}")


def check_arrays(a: dict[str, np.ndarray], n_docs: int, k: int, n_roots: int, sig_dtype: np.dtype) -> None:
    """Every array the right dtype and shape for ``n_docs`` documents of ``k`` slots, every index in bounds."""
    n = n_docs
    _within(_array(a, "docs.root", I64, (n,)), "docs.root", 0, n_roots - 1)
    for name in ("docs.size", "docs.n_tokens", "shingles.n_tokens"):
        _within(_array(a, name, I64, (n,)), name, 0, 2**62)
    _array(a, "signatures", sig_dtype, (n, k))
    m = _length(a, "shingles.ids")
    ids = _array(a, "shingles.ids", U32, (m,))
    offsets = _array(a, "shingles.offsets", I64, (n + 1,))
    if offsets[0] != 0 or offsets[-1] != m or np.any(np.diff(offsets) < 0):
        raise SessionError("array shingles.offsets does not cut shingles.ids into documents")
    rising = np.diff(ids.astype(np.int64)) > 0
    starts = offsets[1:-1]
    rising[starts[(starts > 0) & (starts < m)] - 1] = True  # a new document may start lower
    if not np.all(rising):
        raise SessionError("array shingles.ids is not sorted within each document")
    n_members = _length(a, "groups.members")
    _within(_array(a, "groups.members", I64, (n_members,)), "groups.members", 0, n - 1)
    n_groups = _length(a, "groups.sizes")
    sizes = _array(a, "groups.sizes", I64, (n_groups,))
    if np.any(sizes < 1) or int(sizes.sum()) != n_members:
        raise SessionError("array groups.sizes does not add up to groups.members")
    _within(_array(a, "groups.min", F64, (n_groups,)), "groups.min", 0, 1)
    for prefix in ("candidates", "pairs"):
        p = _length(a, f"{prefix}.left")
        dtypes = (I64, I64, F64, F64, I64)
        left, right, est, jac, bands = (
            _array(a, f"{prefix}.{f}", d, (p,)) for f, d in zip(PAIR_FIELDS, dtypes, strict=True)
        )
        _within(left, f"{prefix}.left", 0, n - 1)
        _within(right, f"{prefix}.right", 0, n - 1)
        _within(est, f"{prefix}.estimate", 0, 1)
        # a candidate the verification proved below the threshold without measuring it has J = nan (scan/verify)
        _within(jac[~np.isnan(jac)] if prefix == "candidates" else jac, f"{prefix}.jaccard", 0, 1)
        _within(bands, f"{prefix}.bands", 0, k)
        if f"{prefix}.containment" in a:  # a containment scan's pairs
            _within(_array(a, f"{prefix}.containment", F64, (p,)), f"{prefix}.containment", 0, 1)
