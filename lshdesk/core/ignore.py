"""Pairs the user said are not duplicates (dupeGuru's ignore list): each remembered by both files' path, size and
modification time, so that editing either file brings the pair back; kept per folder set, read back as untrusted."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from lshdesk.core.clustering import group_min_similarity, groups
from lshdesk.core.errors import LshdeskError
from lshdesk.core.persistence.atomic import write_atomic
from lshdesk.core.scan.pipeline import ScanResult

FORMAT = "lshdesk-ignore-list"
VERSION = 1
MAX_BYTES = 64 << 20  # a list this big is not one a person made pair by pair: refused, not read into memory


class IgnoreListError(LshdeskError):
    """An ignore list file that cannot be used (unreadable, damaged, or not one)."""


@dataclass(frozen=True, order=True)
class FileKey:
    """A file as it was when its pair was ignored."""

    path: str
    size: int
    mtime_ns: int


Pair = tuple[FileKey, FileKey]  # in order: (smaller, larger)


def _pair(a: FileKey, b: FileKey) -> Pair:
    return (a, b) if a <= b else (b, a)


def file_key(result: ScanResult, doc: int) -> FileKey | None:
    """The key of a scanned document; None without a modification time (a session from an older lshdesk)."""
    d = result.docs
    if d.mtime is None:
        return None
    return FileKey(d.paths[doc], int(d.size[doc]), int(d.mtime[doc]))


@dataclass
class IgnoreList:
    """The pairs not to report, and where they are kept ('' for a list held only in memory)."""

    pairs: set[Pair] = field(default_factory=set)
    path: str = ""

    def __len__(self) -> int:
        return len(self.pairs)

    def add(self, result: ScanResult, docs: Iterable[tuple[int, int]]) -> int:
        """Remember these pairs of ``result``'s documents; how many were new."""
        before = len(self.pairs)
        for a, b in docs:
            ka, kb = file_key(result, a), file_key(result, b)
            if ka is not None and kb is not None and ka != kb:
                self.pairs.add(_pair(ka, kb))
        return len(self.pairs) - before

    def forget(self, pairs: Iterable[Pair]) -> None:
        self.pairs.difference_update(pairs)

    def ignored(self, result: ScanResult) -> npt.NDArray[np.bool_]:
        """For each of ``result``'s pairs, whether it is on the list (both files unchanged since)."""
        d = result.docs
        if not self.pairs or d.mtime is None:
            return np.zeros(len(result.pairs), dtype=bool)
        keys = [FileKey(p, s, m) for p, s, m in zip(d.paths, d.size.tolist(), d.mtime.tolist())]
        left, right = result.pairs.left.tolist(), result.pairs.right.tolist()
        return np.array([_pair(keys[a], keys[b]) in self.pairs for a, b in zip(left, right)], dtype=bool)

    def apply(self, result: ScanResult) -> tuple[ScanResult, int]:
        """``result`` without the pairs on the list (groups found again from the pairs left), and how many left."""
        gone = self.ignored(result)
        if not gone.any():
            return result, 0
        pairs = result.pairs.take(np.flatnonzero(~gone))
        comps = groups(len(result.docs), pairs.left, pairs.right)
        kept = replace(result, pairs=pairs, groups=comps, group_min=group_min_similarity(comps, result.shingles))
        return kept, int(gone.sum())

    def to_json(self) -> str:
        rows = [[list(_fields(a)), list(_fields(b))] for a, b in sorted(self.pairs)]
        return json.dumps(
            {"format": FORMAT, "version": VERSION, "pairs": rows}, indent=1
        )  # escaped: a name that is not UTF-8 survives + "\n"

    def save(self, path: str = "") -> None:
        """Write the list (atomically: a failure leaves the old file whole)."""
        target = path or self.path
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, self.to_json())


def _fields(k: FileKey) -> tuple[str, int, int]:
    return k.path, k.size, k.mtime_ns


def _key(row: object) -> FileKey:
    if not (isinstance(row, list) and len(row) == 3):
        raise ValueError("a file is not [path, size, mtime_ns]")
    path, size, mtime = row
    if not (isinstance(path, str) and path and all(type(v) is int and v >= 0 for v in (size, mtime))):
        raise ValueError("a file is not [path, size, mtime_ns]")
    return FileKey(path, size, mtime)


def parse(text: str, where: str = "") -> IgnoreList:
    """An ignore list from its JSON; ``IgnoreListError`` naming what is wrong."""
    try:
        doc = json.loads(text)
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise ValueError(f'not an lshdesk ignore list (no "format": "{FORMAT}")')
        if doc.get("version") != VERSION:
            raise ValueError(f"version {doc.get('version')!r}, this lshdesk reads version {VERSION}")
        rows = doc.get("pairs")
        if not isinstance(rows, list):
            raise ValueError('"pairs" is not a list')
        pairs = set()
        for row in rows:
            if not (isinstance(row, list) and len(row) == 2):
                raise ValueError("a pair is not [file, file]")
            pairs.add(_pair(_key(row[0]), _key(row[1])))
    except (ValueError, RecursionError) as e:
        raise IgnoreListError(f"{where or 'the ignore list'}: {e}") from None
    return IgnoreList(pairs, where)


def load(path: str, missing_ok: bool = False) -> IgnoreList:
    """Read an ignore list file (an empty list for a missing file when ``missing_ok``)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        if missing_ok:
            return IgnoreList(path=path)
        raise IgnoreListError(f"{path}: no such file") from None
    except OSError as e:
        raise IgnoreListError(f"{path}: {e.strerror or e}") from None
    if len(data) > MAX_BYTES:
        raise IgnoreListError(f"{path}: larger than {MAX_BYTES >> 20} MB, not an ignore list")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise IgnoreListError(f"{path}: not UTF-8 text") from None
    return parse(text, path)


def default_path(roots: Iterable[str], data_dir: str | None = None) -> str:
    """Where the window keeps the list of a folder set: one file per set of folders (in any order)."""
    import hashlib  # here: a scan without the window's lists loads none of it

    import platformdirs

    folders = sorted({r if "://" in r else os.path.realpath(r) for r in roots})
    digest = hashlib.sha256("\0".join(folders).encode("utf-8", "surrogateescape")).hexdigest()[:20]
    base = data_dir or platformdirs.user_data_dir("lshdesk", appauthor=False)
    return os.path.join(base, "ignore", f"{digest}.json")
