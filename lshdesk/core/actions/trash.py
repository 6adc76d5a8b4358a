"""The freedesktop trash (Linux and other free desktops): where a file sent there is kept, and bringing it back.

A trash folder holds ``files/NAME`` and ``info/NAME.trashinfo``, whose ``Path=`` is the file's original path
(percent-encoded; relative to the trash's top folder when below it). send2trash names a second ``a.txt`` sent there
``a 1.txt``, then ``a 2.txt``: the first name with neither file nor info, so the one just sent is found by trying
those names in turn (never by listing a trash that may hold 100,000 entries). macOS and Windows trashes keep no
such record that lshdesk can read: ``supported()`` is False there and Undo says where to restore by hand.
"""

from __future__ import annotations

import os
import sys
from urllib.parse import unquote_to_bytes

INFO_SUFFIX = ".trashinfo"
MAX_NAMES = 10_000  # "a 9999.txt": beyond that a trash is not searched further


def supported() -> bool:
    """True where send2trash writes a freedesktop trash (not macOS, not Windows, not through GIO)."""
    if sys.platform in ("darwin", "win32"):
        return False
    try:
        from send2trash import send2trash
    except ImportError:
        return False
    return send2trash.__module__ == "send2trash.plat_other"


def home_trash() -> tuple[str, str]:
    """The user's own trash and its top folder (``~/.local/share/Trash``, ``~/.local/share``)."""
    data = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return os.path.join(data, "Trash"), data


def _mount_point(path: str) -> str:
    path = os.path.realpath(path)
    while not os.path.ismount(path) and os.path.dirname(path) != path:
        path = os.path.dirname(path)
    return path


def trash_dirs(original: str) -> list[tuple[str, str]]:
    """The trash folders a file at ``original`` can have gone to, each with its top folder: the home trash, then
    the file system's own (``TOP/.Trash/UID``, ``TOP/.Trash-UID``), as send2trash chooses them."""
    found = [home_trash()]
    parent = os.path.dirname(os.path.abspath(original))
    while not os.path.isdir(parent) and os.path.dirname(parent) != parent:
        parent = os.path.dirname(parent)
    top = _mount_point(parent)
    uid = str(os.getuid()) if hasattr(os, "getuid") else ""
    found += [(os.path.join(top, ".Trash", uid), top), (os.path.join(top, f".Trash-{uid}"), top)]
    return found


def info_path(trashed: str) -> str:
    """The ``.trashinfo`` beside a file in a trash's ``files`` folder."""
    files = os.path.dirname(trashed)
    return os.path.join(os.path.dirname(files), "info", os.path.basename(trashed) + INFO_SUFFIX)


def original_path(info: str, top: str) -> str | None:
    """The original path an info file records (absolute), or None if it cannot be read or has none."""
    try:
        with open(info, "rb") as f:
            lines = f.read(1 << 16).splitlines()
    except OSError:
        return None
    raw = next((line[5:] for line in lines if line.startswith(b"Path=")), None)
    if raw is None:
        return None
    path = os.fsdecode(unquote_to_bytes(raw.strip()))
    return os.path.normpath(path if os.path.isabs(path) else os.path.join(top, path))


def find(original: str, inode: int) -> tuple[str, str] | None:
    """Where the trash keeps the file that was at ``original`` (its inode ``inode``), with that trash's folder."""
    base = os.path.basename(original)
    stem, ext = os.path.splitext(base)
    want = os.path.abspath(original)
    for trash, top in trash_dirs(original):
        for n in range(MAX_NAMES):
            name = base if n == 0 else f"{stem} {n}{ext}"
            held = os.path.join(trash, "files", name)
            info = info_path(held)
            if not os.path.lexists(held) and not os.path.lexists(info):
                break
            try:
                same = os.lstat(held).st_ino == inode
            except OSError:
                continue
            if same and original_path(info, top) == want:
                return held, trash
    return None


def why_not_from_trash(held: str, original: str) -> str | None:
    """Why ``held`` is not the trash's record of the file from ``original``; None if it is (checked, not trusted)."""
    for trash, top in trash_dirs(original):
        if os.path.dirname(os.path.realpath(held)) == os.path.realpath(os.path.join(trash, "files")):
            recorded = original_path(info_path(held), top)
            if recorded is None:
                return "no longer in the trash (its .trashinfo is gone)"
            if recorded != os.path.abspath(original):
                return f"the trash says it came from {recorded}, not {original}"
            return None
    return f"{held} is not in a trash folder of {original}"
