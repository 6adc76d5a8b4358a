"""A dataset scan's row map in a session: its files, each document's row, the columns; checked when read back.

The header's ``dataset`` holds the files (stored names), the root each was found under and the text and id
columns; the arrays ``dataset.starts`` (file f holds rows starts[f] to starts[f + 1] - 1) and ``dataset.row`` (each
document's row number) hold the rest. Read back, every part is checked, and the documents' names must be the row
references the map gives (``datasets.row_ref``): a map that disagrees with the documents is refused, with the
reason. A session without ``dataset`` (a scan of folders, or saved before sessions kept it) has no row map.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lshdesk.core.corpus.datasets import DatasetRows
from lshdesk.core.pathnames import stored_name
from lshdesk.core.persistence import session_check as check
from lshdesk.core.persistence.session_read import SessionError

I64 = np.dtype(np.int64)
CHUNK = 65536  # documents' names compared at a time


def to_header(rows: DatasetRows) -> dict[str, Any]:
    """The header's ``dataset`` entry."""
    return {
        "files": [stored_name(f) for f in rows.files],
        "file_root": list(rows.file_root),
        "text_column": rows.text_column,
        "id_column": rows.id_column,
    }


def to_arrays(rows: DatasetRows) -> dict[str, np.ndarray]:
    return {"dataset.starts": rows.starts.astype(np.int64), "dataset.row": rows.row.astype(np.int64)}


def from_session(
    header: dict[str, Any], a: dict[str, np.ndarray], paths: list[str], n_roots: int
) -> DatasetRows | None:
    """The row map the session holds (None if it holds none), checked against its documents ``paths``."""
    d = check.field(header, "dataset", (dict, type(None)), None)
    if d is None:
        return None
    files = check.names(d, "files")
    if not files:
        raise SessionError("its dataset lists no file")
    file_root = check.indices(d, "file_root", n_roots)
    if len(file_root) != len(files):
        raise SessionError("its dataset lists a different number of files and of their folders")
    text_column = check.field(d, "text_column", str)
    id_column = check.field(d, "id_column", (str, type(None)))
    starts, row = _array(a, "dataset.starts", len(files) + 1), _array(a, "dataset.row", len(paths))
    if starts[0] != 0 or np.any(np.diff(starts) < 0):
        raise SessionError("array dataset.starts does not cut the rows into files")
    if len(row) and (row[0] < 0 or row[-1] >= starts[-1] or np.any(np.diff(row) <= 0)):
        raise SessionError(f"array dataset.row must list rows from 0 to {int(starts[-1]) - 1}, each once, in order")
    rows = DatasetRows(tuple(files), file_root, starts, row, text_column, id_column)
    _check_names(rows, paths)
    return rows


def _array(a: dict[str, np.ndarray], name: str, n: int) -> np.ndarray:
    x = a.get(name)
    if x is None:
        raise SessionError(f"array {name} is missing (its header has a dataset)")
    if x.dtype != I64 or x.shape != (n,):
        raise SessionError(f"array {name} has type {x.dtype} and shape {x.shape}, not int64 and ({n},)")
    return x


def _check_names(rows: DatasetRows, paths: list[str]) -> None:
    """Every document's name is the row reference of its row (``datasets.row_ref``): the map and the documents
    agree. Compared a chunk at a time as whole lists (a million names in well under a second)."""
    fidx = rows.file_of(rows.row)
    at = rows.row - rows.starts[fidx]
    before, after = [f"{f}#row=" for f in rows.files], f"&text={rows.text_column}"  # datasets.row_ref's form
    for s in range(0, len(paths), CHUNK):
        files, places = fidx[s : s + CHUNK].tolist(), at[s : s + CHUNK].tolist()
        want = [f"{before[f]}{r}{after}" for f, r in zip(files, places, strict=True)]
        if want != paths[s : s + CHUNK]:
            j = next(i for i, (w, p) in enumerate(zip(want, paths[s : s + CHUNK], strict=True)) if w != p)
            raise SessionError(
                f"its dataset's row map disagrees with document {s + j + 1} ({paths[s + j]!r} is not row "
                f"{places[j]} of {rows.files[files[j]]!r})"
            )
