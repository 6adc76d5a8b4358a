"""Carrying out an action file by file: a generator that yields progress, honours cancel, refuses changed files.

An ``ActionRun`` keeps what it did (``done``) and what it refused and why (``refused``) as it goes, and logs each
file before going to the next, so a cancelled or failed run still says exactly which files it moved.
"""

from __future__ import annotations

import errno
import os
import shutil
import sys
import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass, field, replace

from lshdesk.core.actions import links, trash, undo
from lshdesk.core.actions.log import ActionLog, Entry, finished, new_run_id, now
from lshdesk.core.actions.plan import KINDS, Plan, Planned, Unsafe, changed, destination, inside, read_only
from lshdesk.core.corpus.datasets import parse_row_ref
from lshdesk.core.errors import ParamError, check_cancel
from lshdesk.core.scan.progress import Progress

STAGES = {
    "trash": "Moving to the trash",
    "move": "Moving",
    "copy": "Copying",
    "hardlink": "Replacing with hard links",
    "symlink": "Replacing with symbolic links",
    "undo": "Moving back",
}


def send_to_trash(path: str) -> None:
    """The system trash (recoverable), through send2trash; imported when first needed."""
    from send2trash import send2trash

    send2trash(path)


def trash_location() -> str:
    """Where the trash keeps files, in words for the user."""
    if sys.platform == "darwin":
        return "the Trash (in the Dock)"
    if sys.platform == "win32":
        return "the Recycle Bin"
    data = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return os.path.join(data, "Trash", "files") + " (your file manager's Trash)"


ROWS_ARE_NOT_FILES = (
    "the marked documents are rows of a dataset file, not files: lshdesk moves, copies or links whole files only "
    "(write the rows kept with lshdesk scan --write-deduplicated OUT)"
)
NO_HARD_LINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK, errno.ENOSYS}


def _link(src: str, dest: str) -> bool:
    """Give ``src`` the name ``dest`` too, in one step that fails if ``dest`` exists (FileExistsError): a file
    appearing there meanwhile is never replaced. False where the file system has no hard links."""
    try:
        os.link(src, dest, follow_symlinks=False)
    except OSError as e:
        if e.errno in NO_HARD_LINKS:
            return False
        raise
    return True


def copy_atomic(src: str, dest: str) -> None:
    """Copy with data and times to ``dest``, which appears only once complete (never half-written) and never in
    place of a file that is there (FileExistsError)."""
    tmp = dest + ".lshdesk-part"
    try:
        shutil.copy2(src, tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        if _link(tmp, dest):
            try:
                os.unlink(tmp)
            except OSError:
                os.unlink(dest)  # no copy is left behind, the part file goes below
                raise
        elif os.path.lexists(dest):  # no hard links: checked just before the replace
            raise FileExistsError(f"{dest} already exists")
        else:
            os.replace(tmp, dest)
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise


def move_file(src: str, dest: str) -> None:
    """Rename, or across devices copy completely then remove the source; never replaces an existing file (the new
    name is a hard link made in one step where the file system has them, then the old name goes)."""
    if os.path.lexists(dest):
        raise FileExistsError(f"{dest} already exists")
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    try:
        if _link(src, dest):
            try:
                os.unlink(src)
            except OSError:
                os.unlink(dest)  # the file keeps its one name, where it was
                raise
        else:
            os.rename(src, dest)
    except OSError as e:
        if e.errno != errno.EXDEV:  # another device: copy, then remove the original
            raise
        copy_atomic(src, dest)
        try:
            os.unlink(src)
        except OSError:
            os.unlink(dest)  # the original stays: no second copy is left behind
            raise


WRITE_FAILURES = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS}


def _why(e: OSError, dest: str) -> str:
    """An OSError in the user's words; a full disk names the file that could not be written (shutil's error names
    the source of a copy)."""
    if e.errno in WRITE_FAILURES:
        return f"{e.strerror or e}: {dest} could not be written (the original is left as it was)"
    return f"{e.strerror or e}" + (f": {e.filename}" if getattr(e, "filename", None) else "")


def outside(path: str, roots: tuple[str, ...]) -> str | None:
    """Why a file is not touched because its real place (links resolved, now) is not below a scanned folder, or
    None: a link planted in a scanned folder (``docs -> ~/mydocs``) never hands an action the user's own files."""
    if inside(path, roots):
        return None
    return f"its real place ({os.path.realpath(path)}) is outside the scanned folders: not touched"


@dataclass
class ActionRun:
    """One action over a plan: ``kind`` is 'trash', 'move', 'copy', 'hardlink' or 'symlink'; ``folder`` the
    destination of move and copy; ``keep`` the document each marked one is replaced by a link to (link kinds)."""

    plan: Plan
    kind: str
    roots: tuple[str, ...]
    folder: str = ""
    log: ActionLog = field(default_factory=ActionLog)
    trash: Callable[[str], None] = send_to_trash
    run_id: str = field(default_factory=new_run_id)
    done: list[tuple[int, str]] = field(default_factory=list)  # (document, where it went)
    refused: list[tuple[str, str]] = field(default_factory=list)  # (path, reason)
    keep: dict[int, str] = field(default_factory=dict)  # link kinds: marked document -> path of the one kept
    reference: tuple[str, ...] = ()  # the reference folders: their files are never replaced by links

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ParamError(f"unknown action {self.kind!r}: choose one of {', '.join(KINDS)}")
        if any(parse_row_ref(f.path) is not None for f in self.plan.files):  # never the dataset file for a row
            raise ParamError(ROWS_ARE_NOT_FILES)
        if self.kind in ("move", "copy"):
            if not self.folder:
                raise ParamError("choose a folder to move or copy the files to")
            if inside(self.folder, self.roots):
                raise ParamError(
                    f"{self.folder} is inside a scanned folder: choose a folder outside them "
                    "(files put there would be found by the next scan)"
                )

    def steps(self, cancel: threading.Event | None = None) -> Generator[Progress, None, ActionRun]:
        """Act on each file in turn; a refused file is reported and the others go on; returns this run."""
        total = len(self.plan)
        for i, f in enumerate(self.plan.files):
            yield Progress(STAGES[self.kind], i, total)
            check_cancel(cancel)  # after the report: a cancel asked while it was shown stops before the next file
            reason = self._act(f)
            if reason is not None:
                self.refused.append((f.path, reason))
        yield Progress(STAGES[self.kind], total, total)
        return self

    def _act(self, f: Planned) -> str | None:
        if self.kind in links.KINDS:
            return self._link(f)
        reason = outside(f.path, self.roots) or changed(f) or (read_only(f.path) if self.kind != "copy" else None)
        if reason is not None:
            return reason
        try:
            dest = trash_location() if self.kind == "trash" else destination(f, self.folder, self.roots)
        except Unsafe as e:
            return str(e)
        folder = self.folder
        try:
            if self.kind == "trash":
                inode = os.lstat(f.path).st_ino
                self.trash(f.path)
                held = trash.find(f.path, inode) if trash.supported() else None
                dest, folder = held if held is not None else (dest, "")  # the file in the trash: Undo's way back
            else:
                if self.kind == "move":
                    move_file(f.path, dest)
                else:
                    if os.path.lexists(dest):
                        return f"{dest} already exists: not replaced"
                    os.makedirs(os.path.dirname(dest), exist_ok=True)
                    copy_atomic(f.path, dest)
        except FileExistsError:
            return f"{dest} already exists: not replaced"
        except OSError as e:
            return _why(e, dest)
        self.done.append((f.doc, dest))
        self.log.append(self._entry(f, dest, folder))
        return None

    def _link(self, f: Planned) -> str | None:
        """The original to the trash, then the link in its place; if the link cannot be made, the original back."""
        target = self.keep.get(f.doc, "")
        reason = outside(f.path, self.roots) or changed(f) or read_only(f.path)
        reason = reason or links.why_not(self.kind, f, target, self.roots, self.reference)
        if reason is not None:
            return reason
        try:
            inode = os.lstat(f.path).st_ino
            self.trash(f.path)
        except OSError as e:
            return _why(e, f.path)
        held = trash.find(f.path, inode)
        if held is None:
            return f"sent to the trash but not found there: no link made (restore it from {trash_location()})"
        try:
            links.make(self.kind, target, f.path)
        except OSError as e:
            try:
                move_file(held[0], f.path)
                os.unlink(trash.info_path(held[0]))
            except OSError:
                return f"no link made ({_why(e, f.path)}); the original is in the trash: {held[0]}"
            return f"no link made ({_why(e, f.path)}): the original is back in its place"
        self.done.append((f.doc, f.path))
        entry = self._entry(f, held[0], held[1])
        self.log.append(replace(entry, link=target))
        return None

    def _entry(self, f: Planned, dest: str, folder: str) -> Entry:
        """The log line, with the file as it is where it went (what Undo checks: size, date, inode)."""
        try:
            st = os.lstat(dest)
            size, mtime_ns, inode = st.st_size, st.st_mtime_ns, st.st_ino
        except OSError:  # gone meanwhile, or a trash kept where lshdesk cannot look
            size, mtime_ns, inode = f.size, f.mtime_ns, 0
        return Entry(self.run_id, now(), self.kind, f.path, dest, size, mtime_ns, "", inode, folder, self.roots)

    @property
    def gone(self) -> list[int]:
        """The documents no longer where the scan found them (moved or sent to the trash)."""
        return [doc for doc, _ in self.done] if self.kind != "copy" else []


@dataclass
class UndoRun:
    """Moves the files of one logged move back where they were, or restores those of one trash action from the
    trash; each entry is checked first (``undo.why_not``: the log is not trusted) and never replaces a file."""

    entries: list[Entry]
    log: ActionLog = field(default_factory=ActionLog)
    run_id: str = field(default_factory=new_run_id)
    done: list[str] = field(default_factory=list)  # paths restored
    refused: list[tuple[str, str]] = field(default_factory=list)

    def steps(self, cancel: threading.Event | None = None) -> Generator[Progress, None, UndoRun]:
        total = len(self.entries)
        for i, e in enumerate(self.entries):
            yield Progress(STAGES["undo"], i, total)
            check_cancel(cancel)
            reason = self._back(e)
            if reason is not None:
                self.refused.append((e.dest, reason))
                continue
            self.done.append(e.source)
            self.log.append(Entry(self.run_id, now(), "undo", e.dest, e.source, e.size, e.mtime_ns, e.run, e.inode))
        if self.entries:  # every file went through (a cancel stops above): the move is undone, refusals and all
            self.log.append(finished(self.run_id, self.entries[0].run))
        yield Progress(STAGES["undo"], total, total)
        return self

    def _back(self, e: Entry) -> str | None:
        if e.action in links.KINDS:
            return self._unlink(e)
        reason = undo.why_not(e) or read_only(e.dest)
        if reason is not None:
            return reason
        try:
            move_file(e.dest, e.source)
        except FileExistsError:
            return f"a file is back at {e.source}: not replaced"
        except OSError as err:
            return _why(err, e.source)
        if e.action == "trash":
            try:
                os.unlink(trash.info_path(e.dest))  # the trash forgets it: the file is back
            except OSError:
                pass  # a stale entry in the trash's list, the file itself restored
        return None

    def _unlink(self, e: Entry) -> str | None:
        """The link lshdesk made goes, and the original comes back from the trash (as a trashed file does)."""
        as_trashed = replace(e, action="trash")
        reason = links.not_ours(e.action, e.source, e.link) or undo.why_not(as_trashed) or read_only(e.dest)
        if reason is not None:
            return reason
        os.unlink(e.source)
        reason = self._back(as_trashed)
        if reason is not None:
            try:
                links.make(e.action, e.link, e.source)  # the original stays in the trash: its link comes back
            except OSError:
                pass
        return reason
