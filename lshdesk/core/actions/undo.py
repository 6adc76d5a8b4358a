"""What Undo checks before it touches a file: the action log is a file anyone with the user's rights can edit.

An entry is acted on only if what it claims holds on disk: its old place lies below a folder that was scanned, a
move's destination is exactly where a move to the folder the user chose puts that file (and that folder lies
outside the scanned ones), a trashed file is in a trash whose ``.trashinfo`` names its old place, and the file
there is the one that went (size, modification time and inode as logged; a modification time of 0 proves nothing).
"""

from __future__ import annotations

import os
import stat

from lshdesk.core.actions import trash
from lshdesk.core.actions.log import Entry
from lshdesk.core.actions.plan import Planned, Unsafe, destination, inside

OLD = "logged without what Undo checks (by an older lshdesk, or written by hand): left where it is"


def _root_of(source: str, roots: tuple[str, ...]) -> str | None:
    return next((r for r in roots if inside(source, (r,))), None)


def _where_a_move_put_it(e: Entry, root: str) -> str | None:
    """Why ``e.dest`` is not where moving ``e.source`` to ``e.folder`` puts it; None if it is."""
    if not os.path.isabs(e.folder) or os.path.realpath(e.folder) == os.path.realpath(os.sep):
        return f"the logged folder {e.folder!r} is not a folder a move can be made to"
    if inside(e.folder, e.roots):  # as a move refuses it
        return f"the logged folder {e.folder} is inside a scanned folder"
    rel = os.path.relpath(e.source, root).replace(os.sep, "/")
    try:
        expected = destination(Planned(-1, e.source, rel, root, e.size, e.mtime_ns), e.folder, e.roots)
    except Unsafe as err:
        return str(err)
    if os.path.realpath(expected) != os.path.realpath(e.dest):
        return f"{e.dest} is not where a move to {e.folder} puts {e.source}"
    return None


def _same_file(e: Entry) -> str | None:
    """Why the file at ``e.dest`` is not the one that went there; None if it is."""
    try:
        st = os.lstat(e.dest)
    except FileNotFoundError:
        return f"gone from {e.dest}"
    except OSError as err:
        return f"cannot be checked: {err.strerror or err}"
    if not stat.S_ISREG(st.st_mode):
        return "no longer a regular file"
    if st.st_ino != e.inode:
        return "another file is there now (not the one moved)"
    if st.st_size != e.size or st.st_mtime_ns != e.mtime_ns:
        return "changed since it was moved"
    return None


def why_not(e: Entry) -> str | None:
    """Why Undo must leave the file of entry ``e`` (a 'move' or a 'trash') where it is; None if it may move it back."""
    if e.action == "trash" and not trash.supported():
        return f"the system trash gives no way back from here: restore it from the trash yourself ({e.dest})"
    if e.action == "trash" and not e.inode:
        return f"not found in the trash when it went there (or logged by an older lshdesk): restore it from {e.dest}"
    if not e.inode or not e.roots or (e.action == "move" and not e.folder):
        return OLD
    if not e.mtime_ns:
        return "no modification time in the log: it cannot be told from another file"
    if not os.path.isabs(e.source) or not os.path.isabs(e.dest):
        return "the log names a relative path: left where it is"
    root = _root_of(e.source, e.roots)
    if root is None:
        return f"its old place {e.source} is not below a scanned folder"
    where = _where_a_move_put_it(e, root) if e.action == "move" else trash.why_not_from_trash(e.dest, e.source)
    return where or _same_file(e)
