"""Replacing a marked duplicate by a link to the document kept: the original goes to the system trash (Undo's way
back) and a hard or symbolic link takes its name, made in one step that never replaces a file appearing meanwhile."""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

import numpy as np

from lshdesk.core.actions import trash
from lshdesk.core.actions.plan import Planned, inside

if TYPE_CHECKING:
    from lshdesk.core.scan.pipeline import ScanResult

KINDS = ("hardlink", "symlink")


def why_not(kind: str, f: Planned, target: str, roots: tuple[str, ...], reference: tuple[str, ...]) -> str | None:
    """Why the file of ``f`` must not be replaced by a link to ``target``; None if it may."""
    if reference and inside(f.path, reference):
        return "a file of a reference folder: never replaced"
    if not target:
        return "every document of its group is marked: none is kept to link to"
    if not inside(target, roots):
        return f"the document kept ({target}) is outside the scanned folders: no link made"
    try:
        kept, here = os.stat(target), os.stat(os.path.dirname(f.path) or ".")
    except OSError as e:
        return f"the document kept ({target}) cannot be reached: {e.strerror or e}"
    if not stat.S_ISREG(kept.st_mode):
        return f"the document kept ({target}) is not a regular file"
    if os.path.samefile(f.path, target):
        return f"already the same file as {target}"
    if kind == "hardlink" and kept.st_dev != here.st_dev:
        return f"on another file system than {target}: a hard link cannot cross file systems (use symbolic links)"
    if not trash.supported():
        return "the system trash gives no way back here: not replaced"
    return None


def make(kind: str, target: str, path: str) -> None:
    """The link at ``path`` (FileExistsError if anything is there); a symbolic link is relative (``ln -sr``), so it
    still points at the kept document after the folder is moved or mounted elsewhere."""
    if kind == "hardlink":
        os.link(target, path, follow_symlinks=False)
    else:
        os.symlink(os.path.relpath(target, os.path.dirname(path)), path)


def not_ours(kind: str, path: str, target: str) -> str | None:
    """Why the file at ``path`` is no longer the link made to ``target`` (Undo then leaves it); None if it is."""
    try:
        st, kept = os.lstat(path), os.stat(target)
    except FileNotFoundError as e:
        return f"gone: {e.filename}"
    except OSError as e:
        return f"cannot be checked: {e.strerror or e}"
    if kind == "symlink":
        if not stat.S_ISLNK(st.st_mode) or os.path.realpath(path) != os.path.realpath(target):
            return f"{path} is no longer the link to {target}: left as it is"
        return None
    if stat.S_ISLNK(st.st_mode) or (st.st_dev, st.st_ino) != (kept.st_dev, kept.st_ino):
        return f"{path} is no longer a hard link to {target}: left as it is"
    return None


def targets(result: ScanResult, marks: np.ndarray, kept: np.ndarray | None = None) -> dict[int, str]:
    """For each marked document, the path of the document kept in its group (the one a link will lead to): the one
    the user keeps (``kept``: one boolean per document) if it is unmarked, else the group's first unmarked document of
    a reference folder, else its first unmarked one; '' where every document of the group is marked."""
    out: dict[int, str] = {}
    ref = set(result.reference)
    for members in result.groups:
        docs = members.tolist()
        free = [d for d in docs if not marks[d]]
        pick = next((d for d in free if kept is not None and kept[d]), None)
        if pick is None:
            pick = next((d for d in free if int(result.docs.root[d]) in ref), free[0] if free else None)
        for d in docs:
            if marks[d]:
                out[d] = result.docs.paths[pick] if pick is not None else ""
    return out
