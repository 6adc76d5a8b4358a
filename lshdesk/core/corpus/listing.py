"""Listing the files of folders: every file below the roots is either a ``SourceFile`` to read or ``Skipped`` with a reason."""

from __future__ import annotations

import fnmatch
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import NamedTuple

from lshdesk.core.corpus import extract
from lshdesk.core.humanize import human_size
from lshdesk.core.kernels.folders import list_folder, packed
from lshdesk.core.params import CorpusOptions

TEXT_EXTENSIONS = extract.extensions()  # every format lshdesk reads: plain text, PDF, DOCX, ODT, HTML, ...
VCS_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", ".venv", "node_modules"})


class SourceFile(NamedTuple):
    """A file to read: its path, which of the given folders it was found in, its name below that folder (a named
    tuple: a listing makes one per file, and a frozen dataclass costs three times as much to make)."""

    path: str
    root: int
    rel: str
    size: int
    mtime_ns: int = 0
    ino: int = 0
    ctime_ns: int = 0


class FileRun(NamedTuple):
    """Regular files of one folder, one after the other in the listing, of a plain-text extension: listed from
    the folder's entries alone (no ``stat``), so their sizes and times come from the reader's ``fstat``, which
    also finds the empty ones and those over the size cap (``walk(..., runs=True)``). Each file's name below
    its root is ``path[cut:]`` (kept as one number: no second string per file)."""

    root: int
    paths: list[str]
    cut: int


# How to read a skipped file after all, in the words of each interface (``Skipped.fix`` names one).
FIXES = {
    "all-files": {
        "cli": "read it with --all-files or --include",
        "gui": "read it with 'All files' or an include pattern",
    },
    "tool-folder": {
        "cli": "read it with --all-files or name the folder",
        "gui": "read it with 'All files' or add the folder",
    },
    "size-cap": {"cli": "raise --max-size", "gui": "raise the size cap"},
    "follow-links": {
        "cli": "follow it with --follow-links (inside the scanned folder only)",
        "gui": "follow it with 'Follow folder links' (inside the scanned folder only)",
    },
}
COUNT_CAP = 10_000  # files counted in a skipped tool folder at most (node_modules can hold far more)


@dataclass(frozen=True)
class Skipped:
    """A file (or folder) not used, and why, in words a user understands; ``fix`` names how to read it anyway."""

    path: str
    reason: str
    fix: str = ""  # a key of FIXES, or "" when there is nothing to switch

    def describe(self, ui: str = "cli") -> str:
        """The reason and, if there is one, how to read the file anyway, in the words of ``ui`` ("cli" or "gui")."""
        fix = FIXES.get(self.fix, {}).get(ui)
        return f"{self.reason}; {fix}" if fix else self.reason


def _wanted(rel: str, name: str, options: CorpusOptions) -> str | None:
    """None if the file is to be read, else the reason it is not."""
    if options.exclude and any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(name, g) for g in options.exclude):
        return "excluded by a pattern"
    if options.include:
        if any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(name, g) for g in options.include):
            return None
        return "not matched by the include patterns"
    if options.all_files:
        return None
    ext = _extension(name)
    if ext in extract.extensions(options.formats):
        return None
    fid = extract.format_of_extension(name)
    if fid is not None:
        return f"format not selected: {fid}"
    what = f"'{ext}'" if ext else "no extension"
    return f"not a text file type ({what})"


def _extension(name: str) -> str:
    """``os.path.splitext(name)[1].lower()`` for a file's name, in a third of the time (a listing asks per file)."""
    dot = name.rfind(".")
    if dot <= 0 or (name[0] == "." and not name[:dot].strip(".")):  # no dot, or only leading dots: no extension
        return ""
    return name[dot:].lower()


def _count_files(path: str, cap: int = COUNT_CAP) -> str:
    """How many files a folder holds (below it too), for a skipped folder's row: '1,204 files', '10,000+ files'."""
    n, stack = 0, [path]
    while stack and n < cap:
        try:
            with os.scandir(stack.pop()) as it:
                for e in it:
                    if e.is_dir(follow_symlinks=False):
                        stack.append(e.path)
                    else:
                        n += 1
        except OSError:
            continue
    return files_phrase(n, cap)


def files_phrase(n: int, cap: int = COUNT_CAP) -> str:
    """'1 file', '1,204 files', '10,000+ files' (at the cap)."""
    return f"{min(n, cap):,}{'+' if n >= cap else ''} file{'' if n == 1 else 's'}"


def in_walk_order(
    listed: Sequence[Skipped], listed_at: Sequence[int], read: Sequence[Skipped], read_at: Sequence[int]
) -> list[Skipped]:
    """Skipped files in the order the walk met them: those the listing skipped (``listed_at``: how many files it
    had listed before each, ascending) with those the reading skipped (``read_at``: the index of each among the
    files listed), whatever batches the reading took them in."""
    first = [((at, 0), s) for at, s in zip(listed_at, listed)]
    then = sorted((((at, 1), s) for at, s in zip(read_at, read)), key=lambda t: t[0])
    return [s for _, s in sorted(first + then, key=lambda t: t[0])]


def size_reason(size: int, cap: int) -> str:
    """Why a file is over the cap, with sizes that differ on screen ('20.0 MB > 20.0 MB' says nothing)."""
    a, b = human_size(size), human_size(cap)
    if a == b:
        a, b = f"{size:,} bytes", f"{cap:,} bytes"
    return f"larger than the size cap ({a} > {b})"


def walk(
    roots: Sequence[str],
    options: CorpusOptions,
    elsewhere: Callable[[str, int], Iterable[SourceFile | Skipped] | None] | None = None,
    runs: bool = False,
) -> Iterator[SourceFile | Skipped | FileRun]:
    """Every file below the roots (recursively, sorted); links to folders skipped, or followed inside the roots.

    Iterative, not recursive: a tree of any depth is walked. A link to a folder is listed as skipped (as fd,
    ripgrep and find do), unless ``options.follow_links``: then it is followed if its real place lies inside the
    root it was found in, each folder at most once (device and inode: loops stop). A link to a file is read as the
    file only if the file lies inside the root. So nothing outside the folders the user chose is ever listed
    (``root -> /`` or ``/proc/self`` walked other users' files and never ended). A root inside another root
    (``nest`` and ``nest/sub``) is read once, as itself: the outer root's walk passes over it, so its files belong
    to it (a reference folder inside a scanned folder stays on the reference side). A folder named as a root is
    always read, even a tool or version-control folder, even a link. ``elsewhere(root, index)`` lists a root that
    is not a local path (a URL: see ``sources.walk``), or returns None for a local one. With ``runs``, the plain
    text files of a folder come as ``FileRun`` items, not stat-ed (the scan reads them); without, every file is
    stat-ed here and comes as a ``SourceFile`` or ``Skipped``.
    """
    seen_dirs: set[tuple[int, int]] = set()
    others = _root_keys(roots)
    for index, root in enumerate(roots):
        if elsewhere is not None and (listed := elsewhere(root, index)) is not None:
            yield from listed
            continue
        root = os.path.abspath(root)
        try:
            st = os.stat(root)
        except OSError as e:
            yield Skipped(root, f"cannot open: {e.strerror or e}")
            continue
        if not stat.S_ISDIR(st.st_mode):  # a single file given as a root
            yield _file_entry(root, index, os.path.basename(root), os.path.basename(root), options)
            continue
        tree = _Tree(root, index, options, seen_dirs, others).walk()
        yield from tree if runs else _stat_runs(tree, options)


def _stat_runs(entries: Iterator[SourceFile | Skipped | FileRun], options: CorpusOptions) -> Iterator:
    """The entries with each run's files stat-ed: a ``SourceFile`` with its size and times, or why it is skipped."""
    for entry in entries:
        if not isinstance(entry, FileRun):
            yield entry
            continue
        for path in entry.paths:
            rel = path[entry.cut :]
            yield _lstat_entry(path, entry.root, rel, rel.rpartition("/")[2], options)


def _lstat_entry(path: str, index: int, rel: str, name: str, options: CorpusOptions) -> SourceFile | Skipped:
    """A file of a wanted extension, not a link, found in a folder: one ``lstat``, and ``_file_entry`` for anything
    but a regular file of a size to read."""
    try:
        st = os.lstat(path)
    except OSError:
        return _file_entry(path, index, rel, name, options)
    size = st.st_size
    if not stat.S_ISREG(st.st_mode) or size == 0 or size > options.max_bytes:
        return _file_entry(path, index, rel, name, options)
    return SourceFile(path, index, rel, size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns)


def _root_keys(roots: Sequence[str]) -> dict:
    """Each root's identity -> its index: (device, inode) for folders, the absolute path for files."""
    keys: dict = {}
    for index, root in enumerate(roots):
        try:
            st = os.stat(root)
        except OSError:
            continue
        key = (st.st_dev, st.st_ino) if stat.S_ISDIR(st.st_mode) else os.path.abspath(root)
        keys.setdefault(key, index)
    return keys


def _below(real: str, folder: str) -> bool:
    return real == folder or real.startswith(folder.rstrip(os.sep) + os.sep)


_NAME = attrgetter("name")
_NOT_WANTED = re.compile(b"[^f]")  # the end of a run of wanted files in a folder's kinds (``kernels.folders``)
_KIND = {True: b"l", False: b"d"}


def _kinds(entries: list[os.DirEntry]) -> bytes:
    """``kernels.folders`` kinds of entries listed in Python: links, folders, and every file left to look at."""
    out = bytearray(len(entries))
    for j, e in enumerate(entries):
        try:
            is_dir, is_link = e.is_dir(follow_symlinks=False), e.is_symlink()
        except OSError:
            is_dir = is_link = False
        out[j] = (_KIND[is_link] if is_link or is_dir else b"o")[0]
    return bytes(out)


class _Tree:
    """One root's walk: depth first, in name order (the order a recursive walk gives), with a stack of open
    folders' names and kinds (``kernels.folders``: types from ``readdir``, no system call per entry). The regular
    files of a plain-text extension come as runs, not stat-ed; any other file of a wanted extension gets one
    ``lstat``. On 1 M files (1,000 folders), listing took ~12 x ``os.walk`` with a ``DirEntry`` and a ``stat``
    per file."""

    def __init__(self, root: str, index: int, options: CorpusOptions, seen: set, others: dict) -> None:
        self.root, self.index, self.options, self.seen, self.others = root, index, options, seen, others
        self.real_root = os.path.realpath(root)
        self.file_roots = any(isinstance(key, str) for key in others)  # a file given as a root is read as that root
        plain = not (options.include or options.exclude or options.all_files)
        self.exts = extract.extensions(options.formats) if plain else None  # None: ask ``_wanted``
        runs = plain and not self.file_roots and (options.formats is None or "txt" in options.formats)
        self.run_exts = packed(extract.FORMATS["txt"].extensions if runs else ()) or b"\0" * 8
        self.compiled = os.name == "posix" and sys.getfilesystemencoding() == "utf-8"

    def walk(self) -> Iterator[SourceFile | Skipped | FileRun]:
        first = self._open(self.root)
        if isinstance(first, Skipped):
            yield first
            return
        top = self.root if self.root.endswith(os.sep) else self.root + os.sep
        stack: list[list] = [["", top, *first, 0]]  # rel, the folder's path and a separator, paths, kinds, next
        index, options, exts, others, file_roots = self.index, self.options, self.exts, self.others, self.file_roots
        cut = len(top)
        while stack:
            frame = stack[-1]
            rel, prefix, paths, kinds, i = frame
            if i == len(paths):
                stack.pop()
                continue
            kind = kinds[i]
            if kind == 102:  # b"f": a run of wanted regular files, as they are
                m = _NOT_WANTED.search(kinds, i)
                frame[4] = j = m.start() if m else len(paths)
                yield FileRun(index, paths[i:j], cut)
                continue
            frame[4] = i + 1
            path = paths[i]
            name = path[len(prefix) :]
            sub = f"{rel}/{name}" if rel else name
            if kind == 108 or kind == 100:  # b"l", b"d"
                got = self._link(path, name, sub) if kind == 108 else self._folder(path, name)
                if isinstance(got, (SourceFile, Skipped)):
                    yield got
                elif got is not None:  # a folder's paths and kinds
                    stack.append([sub, path + os.sep, *got, 0])
            elif file_roots and others.get(path, index) != index:
                continue  # a file given as another root: read as that root
            elif exts is not None and _extension(name) in exts:
                yield _lstat_entry(path, index, sub, name, options)
            else:
                reason = _wanted(sub, name, options)
                if reason is not None:  # not opened, not even looked at: no system call
                    yield Skipped(path, reason, "all-files" if reason.startswith("not a text file type") else "")
                else:
                    yield _file_entry(path, index, sub, name, options)

    def _open(self, path: str) -> tuple[list[str], bytes] | Skipped:
        """A folder's entries' paths in name order and their kinds, or why it is not read (visited already: a
        loop or a second link)."""
        try:
            st = os.stat(path)
            key = (st.st_dev, st.st_ino)
            if key in self.seen:
                return Skipped(path, "folder already visited (a symbolic link loop or a second link to it)")
            self.seen.add(key)
            prefix = path if path.endswith(os.sep) else path + os.sep
            listed = list_folder(os.fsencode(prefix), self.run_exts) if self.compiled else None
            if listed is not None:
                return listed
            with os.scandir(path) as it:
                entries = sorted(it, key=_NAME)
            return [prefix + e.name for e in entries], _kinds(entries)
        except OSError as e:
            return Skipped(path, f"cannot open folder: {e.strerror or e}")

    def _folder(self, path: str, name: str) -> tuple[list[str], bytes] | Skipped | None:
        """A folder met in the walk: its entries to walk, why not, or None (another root, read as itself)."""
        if _another_root(path, self.index, self.others):
            return None
        if name in VCS_DIRS and not self.options.all_files:
            return Skipped(path, f"tool or version-control folder, not read ({_count_files(path)})", "tool-folder")
        return self._open(path)

    def _link(self, path: str, name: str, sub: str) -> tuple[list[str], bytes] | SourceFile | Skipped | None:
        """A symbolic link: a file inside the root is read as the file; a folder is skipped, or followed (with
        ``follow_links``) when it lies inside the root."""
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return Skipped(path, "broken symbolic link (its target does not exist)")
        except OSError as err:
            return Skipped(path, f"cannot read the symbolic link: {err.strerror or err}")
        real = os.path.realpath(path)
        is_dir = stat.S_ISDIR(st.st_mode)
        what = "folder" if is_dir else "file"
        if not _below(real, self.real_root):
            return Skipped(path, f"link to a {what} outside the scanned folder ({real}), not followed")
        if not is_dir:
            return _file_entry(path, self.index, sub, name, self.options)
        if not self.options.follow_links:
            return Skipped(path, "link to a folder, not followed", "follow-links")
        return self._folder(path, name)


def _another_root(path: str, index: int, others: dict) -> bool:
    """True if the folder at ``path`` is a root other than ``index`` (it is read as itself)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return others.get((st.st_dev, st.st_ino), index) != index


def _file_entry(path: str, index: int, rel: str, name: str, options: CorpusOptions) -> SourceFile | Skipped:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return Skipped(
            path, "broken symbolic link (its target does not exist)" if os.path.islink(path) else "file vanished"
        )
    except OSError as e:
        return Skipped(path, f"cannot read: {e.strerror or e}")
    if not stat.S_ISREG(st.st_mode):
        kind = (
            "FIFO" if stat.S_ISFIFO(st.st_mode) else "socket" if stat.S_ISSOCK(st.st_mode) else "device or special file"
        )
        return Skipped(path, f"not a regular file ({kind})")
    return judge(path, index, rel, name, st.st_size, st.st_mtime_ns, options, st.st_ino, st.st_ctime_ns)


def judge(
    path: str,
    index: int,
    rel: str,
    name: str,
    size: int,
    version: int,
    options: CorpusOptions,
    ino: int = 0,
    ctime_ns: int = 0,
) -> SourceFile | Skipped:
    """A listed file (local or in object storage; ``version``: its mtime_ns or the object's version) to read, or
    skipped by the patterns, formats, emptiness or size cap."""
    reason = _wanted(rel, name, options)
    if reason:
        return Skipped(path, reason, "all-files" if reason.startswith("not a text file type") else "")
    if size == 0:
        return Skipped(path, "empty file")
    if size > options.max_bytes:
        return Skipped(path, size_reason(size, options.max_bytes), "size-cap")
    return SourceFile(path, index, rel, size, version, ino, ctime_ns)
