"""What an action will touch: the marked files as the scan saw them, where each goes, and why one is refused."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from lshdesk.core.errors import LshdeskError
from lshdesk.core.humanize import human_size

if TYPE_CHECKING:
    from lshdesk.core.scan.pipeline import ScanResult

KINDS = {
    "trash": "Move to the trash",
    "move": "Move to folder",
    "copy": "Copy to folder",
    "hardlink": "Replace with hard links",
    "symlink": "Replace with symbolic links",
}


@dataclass(frozen=True)
class Planned:
    """One marked file: its document number, path, name below its scanned folder, and size and date at the scan."""

    doc: int
    path: str
    rel: str
    root: str  # the scanned folder it was found in
    size: int
    mtime_ns: int  # 0 when unknown (a session saved by an older lshdesk): only the size is checked


@dataclass(frozen=True)
class Plan:
    """The marked files, in scan order."""

    files: tuple[Planned, ...]

    def __len__(self) -> int:
        return len(self.files)

    @property
    def total_size(self) -> int:
        return sum(f.size for f in self.files)

    def describe(self) -> str:
        n = len(self.files)
        return f"{n:,} file{'s' if n != 1 else ''}, {human_size(self.total_size)}"


def make_plan(result: ScanResult, marks: np.ndarray) -> Plan:
    """The marked documents of a ``ScanResult`` as a plan (nothing on disk is read)."""
    d = result.docs
    mt = d.mtime if d.mtime is not None else np.zeros(len(d), dtype=np.int64)
    return Plan(
        tuple(
            Planned(int(i), d.paths[i], d.rel[i], result.roots[int(d.root[i])], int(d.size[i]), int(mt[i]))
            for i in np.flatnonzero(marks).tolist()
        )
    )


def group_preview(result: ScanResult, marks: np.ndarray) -> dict[int, tuple[int, list[str]]]:
    """For each marked document: its group's number (1-based, linked groups) and the paths of the group's documents
    that stay (unmarked): what an action's confirmation shows, group by group."""
    out: dict[int, tuple[int, list[str]]] = {}
    for g, members in enumerate(result.groups):
        docs = members.tolist()
        stays = [result.docs.paths[d] for d in docs if not marks[d]]
        out.update({d: (g + 1, stays) for d in docs if marks[d]})
    return out


class Unsafe(LshdeskError):
    """A file would land outside the folder the user chose (a hostile name, a link planted there): refused."""


def folder_names(roots: tuple[str, ...]) -> dict[str, str]:
    """Each scanned folder's name in a destination: its own, or ``docs (2)`` for a second folder named ``docs``."""
    names: dict[str, str] = {}
    for r in roots:
        base = os.path.basename(os.path.normpath(r)) or "root"
        name, k = base, 2
        while name in names.values():
            name, k = f"{base} ({k})", k + 1
        names[r] = name
    return names


def destination(f: Planned, folder: str, roots: tuple[str, ...]) -> str:
    """Where a file goes in ``folder``: below a folder named as its scanned folder, at the same relative path.

    Two scanned folders with one name (``a/docs``, ``b/docs``) go to ``docs`` and ``docs (2)``. The relative name
    is split on ``/`` only (how the listing joins it): on Linux ``..\\x`` is one legal name, never a step up. A
    destination that is not below ``folder`` once resolved (a ``..`` part, a link inside ``folder``) raises Unsafe.
    """
    parts = [folder_names(roots).get(f.root, "other"), *f.rel.split("/")]
    if os.sep != "/" or os.altsep:  # Windows: there a backslash does separate, so it is a part of its own
        parts = [q for p in parts for q in p.replace(os.altsep or "/", os.sep).split(os.sep)]
    bad = next((p for p in parts if p in ("", ".", "..") or os.path.isabs(p)), None)
    if bad is not None:
        raise Unsafe(f"its name {f.rel!r} has a part {bad!r} that would lead out of {folder}: refused")
    dest = os.path.join(folder, *parts)
    top = os.path.realpath(folder)
    real = os.path.realpath(dest)
    if not real.startswith(top.rstrip(os.sep) + os.sep):
        raise Unsafe(f"{dest} leads to {real}, outside {folder} (a link on the way): refused")
    return dest


def destinations(plan: Plan, folder: str, roots: tuple[str, ...]) -> list[str]:
    """Where each file of ``plan`` goes in ``folder``, or why it will not (for the confirmation)."""
    out = []
    for f in plan.files:
        try:
            out.append(destination(f, folder, roots))
        except Unsafe as e:
            out.append(f"not moved: {e}")
    return out


def changed(f: Planned) -> str | None:
    """Why a file may not be touched because it is not what the scan saw, or None if it is unchanged."""
    try:
        st = os.stat(f.path)
    except FileNotFoundError:
        return "gone since the scan"
    except OSError as e:
        return f"cannot be read: {e.strerror or e}"
    if not stat.S_ISREG(st.st_mode):
        return "no longer a regular file"
    if st.st_size != f.size:
        return f"changed since the scan (size {human_size(f.size)} then, {human_size(st.st_size)} now)"
    if f.mtime_ns and st.st_mtime_ns != f.mtime_ns:
        return "changed since the scan (modified after it)"
    return None


def _writable(mode: int) -> bool:
    return bool(mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def read_only(path: str) -> str | None:
    """Why a file cannot (or should not) be moved out of its folder: it or its folder is read-only; else None.

    A file whose write permissions were all removed was protected on purpose, so it is left where it is.
    """
    folder = os.path.dirname(path) or "."
    try:
        if not _writable(os.stat(path).st_mode) or not os.access(path, os.W_OK):
            return "read-only file (no write permission): left where it is"
        if not _writable(os.stat(folder).st_mode) or not os.access(folder, os.W_OK):
            return f"its folder {folder} is read-only: the file cannot be taken out of it"
    except OSError as e:
        return f"cannot be checked: {e.strerror or e}"
    return None


def inside(path: str, folders: tuple[str, ...]) -> bool:
    """True if ``path`` is one of ``folders`` or lies below one of them."""
    real = os.path.realpath(path)
    for f in folders:
        rf = os.path.realpath(f)
        if real == rf or real.startswith(rf.rstrip(os.sep) + os.sep):
            return True
    return False


def to_csv(plan: Plan) -> str:
    """The marked list as CSV: path, folder, relative path, size, modification time (ns)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["path", "scanned_folder", "relative_path", "size", "mtime_ns"])
    for f in plan.files:
        w.writerow([f.path, f.root, f.rel, f.size, f.mtime_ns])
    return buf.getvalue()


def to_json(plan: Plan) -> str:
    """The marked list as JSON, with a format version."""
    files = [
        {"path": f.path, "scanned_folder": f.root, "relative_path": f.rel, "size": f.size, "mtime_ns": f.mtime_ns}
        for f in plan.files
    ]
    return json.dumps({"format_version": 1, "marked": files, "total_size": plan.total_size}, indent=1) + "\n"
