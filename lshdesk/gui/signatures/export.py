"""The signature grid as text: tab-separated for the clipboard, CSV for a file."""

from __future__ import annotations

import csv
import io

import numpy as np
import numpy.typing as npt


def table_text(
    sigs: npt.NDArray[np.uint64], names: list[str], rows: list[int] | None = None, cols: list[int] | None = None
) -> str:
    """Tab-separated: one line per document (``rows``, default all), its name then its slot values (``cols``)."""
    rows = list(range(len(sigs))) if rows is None else rows
    cols = list(range(sigs.shape[1])) if cols is None else cols
    sub = sigs[np.ix_(rows, cols)] if rows and cols else np.zeros((len(rows), 0), np.uint64)
    return "".join("\t".join([names[r], *map(str, sub[i].tolist())]) + "\n" for i, r in enumerate(rows))


def signatures_csv(sigs: npt.NDArray[np.uint64], names: list[str]) -> str:
    """A header ``document,slot_0,...``, then one row per document: its name and its k values."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["document", *(f"slot_{c}" for c in range(sigs.shape[1]))])
    for name, row in zip(names, sigs.tolist()):
        w.writerow([name, *row])
    return out.getvalue()
