"""Documents' names as the results read them: the file name first, then its folder; group titles that differ."""

from __future__ import annotations

import os
from collections.abc import Sequence

from PySide6.QtCore import Qt

from lshdesk.core.corpus.datasets import parse_row_ref

NAME_ROLE = Qt.ItemDataRole.UserRole + 1  # a name cell's (file name, folder), for the delegate that paints it
TITLE_ITEMS = 12  # names or folders listed in a group's title at most (the view elides what does not fit)


def split_name(name: str) -> tuple[str, str]:
    """('NEWS.Debian.txt', 'debian-doc/vim') for 'debian-doc/vim/NEWS.Debian.txt'; ('a.txt', '') for 'a.txt'."""
    folder, _, file = name.rpartition("/")
    return file, folder


def short_name(path: str) -> str:
    """A document's short name in a menu or message: its file's name, or 'row N of FILE' for a dataset's row."""
    row = parse_row_ref(path)
    return os.path.basename(path) if row is None else f"row {row[1]:,} of {os.path.basename(row[0])}"


def spoken(name: str) -> str:
    """A name as a screen reader says it: 'NEWS.Debian.txt in debian-doc/vim'."""
    file, folder = split_name(name)
    return f"{file} in {folder}" if folder else file


def file_first_keys(names: Sequence[str]) -> list[str]:
    """Sort keys that order names as they are shown: by file name, then by folder, case-insensitively."""
    return [f"{file}\0{folder}".lower() for file, folder in map(split_name, names)]


def _common_ends(parts: list[list[str]]) -> tuple[int, int]:
    """How many leading and trailing folder names every one of ``parts`` shares (not overlapping)."""
    shortest = min(len(p) for p in parts)
    lead = 0
    while lead < shortest and all(p[lead] == parts[0][lead] for p in parts):
        lead += 1
    trail = 0
    while trail < shortest - lead and all(p[-1 - trail] == parts[0][-1 - trail] for p in parts):
        trail += 1
    return lead, trail


def _listed(items: list[str]) -> str:
    unique = list(dict.fromkeys(items))
    more = len(unique) - TITLE_ITEMS
    return ", ".join(unique[:TITLE_ITEMS]) + (f", … ({more} more)" if more > 0 else "")


def group_title(names: Sequence[str]) -> str:
    """What tells a group from the others: its file names, then where they differ.

    'NEWS.Debian.txt in vim, vim-tiny' for debian-doc/vim/NEWS.Debian.txt and debian-doc/vim-tiny/NEWS.Debian.txt
    (the folders' shared start and end left out); 'a.txt, b.txt in docs' for two files of one folder.
    """
    files, folders = zip(*map(split_name, names)) if names else ((), ())
    parts = [f.split("/") if f else [] for f in folders]
    if not parts:
        return ""
    lead, trail = _common_ends(parts)
    middles = ["/".join(p[lead : len(p) - trail]) for p in parts]
    if not any(middles):  # one folder for all  # noqa: SIM108 (two cases, each with its why)
        where = folders[0]
    else:  # a folder that holds the others' is named by its last part ('.' at the top)
        where = _listed([m or (p[-1] if p else ".") for m, p in zip(middles, parts)])
    what = _listed(list(files))
    return f"{what} in {where}" if where else what
