"""Datasets told by their names, and their rows' references: what a scan of folders asks of datasets, without
``corpus.datasets`` (its record batches and row types, ~2 ms of every command's start: issue 29)."""

from __future__ import annotations

import os
import re

# name ending -> (format, compression); longest endings first, so 'a.jsonl.gz' is JSON Lines in gzip
ENDINGS = {
    ".jsonl.gz": ("jsonl", "gzip"),
    ".jsonl.zst": ("jsonl", "zstd"),
    ".ndjson": ("jsonl", None),
    ".jsonl": ("jsonl", None),
    ".parquet": ("parquet", None),
    ".csv": ("csv", None),
    ".tsv": ("tsv", None),
    ".arrow": ("arrow", None),
    ".feather": ("arrow", None),
}
_REF = re.compile(r"^(?P<file>.+?)#row=(?P<row>\d+)&text=(?P<column>.*)\Z", re.S)
_NEUTRAL = frozenset({".csv", ".tsv", ".json"})  # documents in a folder of documents, rows in a dataset
_SKIP_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv"})


def format_of(path: str) -> tuple[str, str | None] | None:
    """(format, compression) of a dataset file, told by its name; None for any other file."""
    low = path.lower()
    return next((v for end, v in ENDINGS.items() if low.endswith(end)), None)


def is_dataset_root(root: str) -> bool:
    """True for a dataset file, or a folder whose top level holds Parquet, Arrow or JSON Lines files and no other
    document lshdesk reads (CSV, TSV and JSON files are neutral there: ``datasets.save_to_disk`` writes .arrow files
    beside two .json files, and a folder of CSV files alone stays a folder of documents, as before)."""
    if os.path.isfile(root):
        return format_of(root) is not None
    if not os.path.isdir(root):
        return False
    from lshdesk.core.corpus.listing import TEXT_EXTENSIONS

    found = False
    try:
        with os.scandir(root) as it:
            for e in it:  # a folder of documents answers at its first document: one short look
                if e.name.startswith(".") or not e.is_file():
                    continue
                ext = os.path.splitext(e.name)[1].lower()
                if ext in _NEUTRAL:
                    continue
                if format_of(e.name) is not None:
                    found = True
                elif ext in TEXT_EXTENSIONS:
                    return False
    except OSError:
        return False
    return found


def dataset_files(root: str) -> list[str]:
    """The dataset files of a root: the file itself, or those below the folder in name order (absolute paths)."""
    root = os.path.abspath(root)
    if not os.path.isdir(root):
        return [root]
    out = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        out += [os.path.join(folder, n) for n in sorted(names) if not n.startswith(".") and format_of(n)]
    return out


def row_ref(path: str, row: int, column: str) -> str:
    """The name a row has in a scan's results: its file, its position in the file, the text column."""
    return f"{path}#row={row}&text={column}"


def parse_row_ref(name: str) -> tuple[str, int, str] | None:
    """(file, row, text column) of a row reference, or None for any other name."""
    m = _REF.match(name)
    if m is None or format_of(m["file"]) is None:
        return None
    return m["file"], int(m["row"]), m["column"]
