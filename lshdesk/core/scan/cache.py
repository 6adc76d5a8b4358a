"""The signature cache: a SQLite file remembering each file's shingle ids and signature, so re-scans skip work.

A row is keyed by everything that decides it: the file's absolute path (its exact bytes: names need not be
UTF-8), size, modification time, inode and status-change time (an edit that keeps size and mtime still changes
the ctime), and a parameters key (shingling, hash family, k, seed, and the versions of the tokenizer and
extractors). A file whose stamp changed is a miss and is read again; rows of files no longer found below a
scanned folder are dropped. Rows are untrusted on read: a row whose blobs do not fit, or whose checksum (CRC-32
over its path, token count, signature and ids) does not match, is dropped and its file read again; a checksum
mismatch (a torn page: a signature zeroed on disk still fits) is warned of once per cache opened. A damaged or foreign cache file is set aside (renamed) and a new one started; one written by a newer
lshdesk, or locked by another, is left alone and the scan runs without a cache. The scan goes on, with a warning.
"""

from __future__ import annotations

import os
import sqlite3
import time
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from lshdesk.core.params import SignatureParams
from lshdesk.core.userdirs import user_cache_dir

if TYPE_CHECKING:
    from pathlib import Path

FORMAT_VERSION = 3  # 2: paths as bytes, inode and ctime in the key; 3: a checksum per row
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    params TEXT NOT NULL, path BLOB NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    ino INTEGER NOT NULL, ctime_ns INTEGER NOT NULL,
    n_tokens INTEGER NOT NULL, sig BLOB NOT NULL, ids BLOB NOT NULL, crc INTEGER NOT NULL,
    PRIMARY KEY (params, path)
) WITHOUT ROWID;
"""
Stamp = tuple[int, int, int, int]  # size, mtime_ns, inode, ctime_ns: a file whose stamp changed is read again


class _Newer(Exception):
    """The cache was written by a newer lshdesk: left alone."""


LOOKUP_CHUNK = 500  # paths per query (SQLite before 3.32 allows 999 parameters)


def default_path() -> Path:
    """``signatures.sqlite3`` in the user's cache folder (platformdirs)."""
    from pathlib import Path

    return Path(_default_location())


def _default_location() -> str:
    return os.path.join(user_cache_dir(), "signatures.sqlite3")


def _shown(path: str) -> str:
    """``path`` as messages name it (as pathlib writes it: a scan opens its cache without loading pathlib)."""
    from pathlib import Path

    return str(Path(path))


def _ours(conn: sqlite3.Connection, tables: set[str]) -> bool:
    if "meta" not in tables:  # a newer lshdesk may add tables: the meta row says whose it is
        return False
    row = conn.execute("SELECT value FROM meta WHERE key = 'app'").fetchone()
    return row is not None and row[0] == "lshdesk"


def _upgrade(conn: sqlite3.Connection) -> None:
    """Check the format: an older one is emptied and rebuilt, a newer one raises ``_Newer``, nonsense is damage."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'format_version'").fetchone()
    if row is None:
        return
    if not str(row[0]).isdigit():
        raise sqlite3.DatabaseError(f"cache format {row[0]!r}")
    version = int(row[0])
    if version > FORMAT_VERSION:
        raise _Newer(f"cache format {version}; this lshdesk writes {FORMAT_VERSION}")
    if version < FORMAT_VERSION:
        conn.executescript("DROP TABLE IF EXISTS entries; DELETE FROM meta WHERE key = 'format_version';")


def checksum(path: bytes, n_tokens: object, sig: object, ids: object) -> int:
    """A row's CRC-32 over its path, token count, signature and ids (any value read back: a mismatch is damage).

    CRC-32 runs at ~1 GB/s: a 100k-row cache's 64 MB of blobs cost ~60 ms to check, far less than reading them.
    """
    crc = zlib.crc32(path)
    crc = zlib.crc32(str(n_tokens).encode(), crc)
    for blob in (sig, ids):
        crc = zlib.crc32(blob if isinstance(blob, bytes) else repr(blob).encode(), crc)
    return crc


def _entry(
    n_tokens: object, sig: object, ids: object, ids_dtype: np.dtype, sig_dtype: np.dtype, k: int | None
) -> Entry | None:
    """A row read back as an Entry, or None if it does not fit (wrong lengths, unsorted ids, bad count)."""
    if not (isinstance(sig, bytes) and isinstance(ids, bytes) and type(n_tokens) is int and n_tokens >= 0):
        return None
    if len(ids) % ids_dtype.itemsize or len(sig) % sig_dtype.itemsize:
        return None
    sig_arr, ids_arr = np.frombuffer(sig, dtype=sig_dtype), np.frombuffer(ids, dtype=ids_dtype)
    if (k is not None and len(sig_arr) != k) or (len(ids_arr) > 1 and not np.all(ids_arr[1:] > ids_arr[:-1])):
        return None
    return Entry(ids_arr, sig_arr, n_tokens)


def params_key(sp: SignatureParams, ids_dtype: npt.DTypeLike, sig_dtype: npt.DTypeLike, extra: str = "") -> str:
    """Everything that changes a cached row, as one string."""
    return f"v{FORMAT_VERSION}|{sp.shingle}|{sp.family}|k{sp.k}|s{sp.seed}|{np.dtype(ids_dtype).str}|{np.dtype(sig_dtype).str}|{extra}"


def _row(key: str, path: bytes, stamp: Stamp, n_tokens: int, sig: bytes, ids: bytes) -> tuple:
    return (key, path, *stamp, n_tokens, sig, ids, checksum(path, n_tokens, sig, ids))


@dataclass(frozen=True)
class Entry:
    """One file's cached shingle ids (sorted, unique), signature and token count."""

    ids: np.ndarray
    sig: np.ndarray
    n_tokens: int


@dataclass
class SignatureCache:
    """Open with ``SignatureCache.open(path)``; ``warnings`` says what went wrong, if anything (never raises)."""

    path: str | None
    conn: sqlite3.Connection | None
    warnings: list[str] = field(default_factory=list)
    damaged: int = 0  # rows dropped for a checksum mismatch since opened (one warning says so)

    @classmethod
    def open(cls, path: str | Path | None = None, timeout: float = 2.0) -> SignatureCache:
        path = os.fspath(path) if path is not None else _default_location()
        cache = cls(path, None)
        for attempt in range(2):
            try:
                os.makedirs(os.path.dirname(path) or os.curdir, exist_ok=True)
                conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
                tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
                if tables and not _ours(conn, tables):  # someone else's database: never touch it
                    conn.close()
                    cache.warnings.append(
                        f"{_shown(path)} is not an lshdesk signature cache; it is left alone and the scan runs without a cache"
                    )
                    return cache
                if tables:
                    _upgrade(conn)  # before anything is written: a newer cache is left exactly as it is
                conn.executescript(SCHEMA)
                conn.execute("INSERT OR IGNORE INTO meta VALUES ('app', 'lshdesk')")
                conn.execute("INSERT OR IGNORE INTO meta VALUES ('format_version', ?)", (str(FORMAT_VERSION),))
                conn.execute("PRAGMA journal_mode=WAL")
                cache.conn = conn
                return cache
            except _Newer as e:
                conn.close()
                cache.warnings.append(
                    f"the signature cache {_shown(path)} was written by a newer lshdesk ({e}); it is left alone and the "
                    "scan runs without a cache"
                )
                return cache
            except sqlite3.OperationalError as e:
                if "locked" in str(e) or "busy" in str(e):
                    cache.warnings.append(
                        f"the signature cache is in use by another lshdesk ({_shown(path)}); scanning without it"
                    )
                    return cache
                if attempt == 0 and cache._set_aside(e):
                    continue
                cache.warnings.append(f"cannot use the signature cache {_shown(path)}: {e}; scanning without it")
                return cache
            except (sqlite3.DatabaseError, ValueError) as e:
                if attempt == 0 and cache._set_aside(e):
                    continue
                cache.warnings.append(f"cannot use the signature cache {_shown(path)}: {e}; scanning without it")
                return cache
            except OSError as e:
                cache.warnings.append(
                    f"cannot create the signature cache {_shown(path)}: {e.strerror or e}; scanning without it"
                )
                return cache
        return cache

    def _set_aside(self, error: Exception) -> bool:
        """Rename a damaged or foreign cache file out of the way; True if a new one can be started."""
        assert self.path is not None
        if not os.path.exists(self.path):
            return False
        folder, name = os.path.split(_shown(self.path))
        aside = f"{name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
        try:
            os.replace(self.path, os.path.join(folder, aside))
            for suffix in ("-wal", "-shm"):
                try:
                    os.unlink(self.path + suffix)
                except FileNotFoundError:
                    pass
        except OSError:
            return False
        self.warnings.append(
            f"the signature cache was damaged or not lshdesk's ({error}); set aside as {aside} and started anew"
        )
        return True

    @property
    def enabled(self) -> bool:
        return self.conn is not None

    def lookup(
        self,
        key: str,
        files: Sequence[tuple[str, Stamp]],
        ids_dtype: npt.DTypeLike,
        sig_dtype: npt.DTypeLike,
        k: int | None = None,
    ) -> dict[int, Entry]:
        """Entries for the (path, stamp) cached unchanged, by position in ``files``. A row that does not fit
        (``k`` values of ``sig_dtype``, sorted unique ids) is dropped, and its file is read again."""
        if self.conn is None or not files:
            return {}
        want = {os.fsencode(p): (i, stamp) for i, (p, stamp) in enumerate(files)}
        out: dict[int, Entry] = {}
        bad: list[bytes] = []
        try:
            rows, names = [], list(want)
            for s in range(0, len(names), LOOKUP_CHUNK):  # only these files' rows (the key is (params, path))
                chunk = names[s : s + LOOKUP_CHUNK]
                rows += self.conn.execute(
                    "SELECT path, size, mtime_ns, ino, ctime_ns, n_tokens, sig, ids, crc FROM entries "
                    f"WHERE params = ? AND path IN ({', '.join('?' * len(chunk))})",
                    (key, *chunk),
                ).fetchall()
            for path, size, mtime, ino, ctime, n_tokens, sig, ids, crc in rows:
                hit = want.get(path) if isinstance(path, bytes) else None
                if hit is None or hit[1] != (size, mtime, ino, ctime):
                    continue
                if crc != checksum(path, n_tokens, sig, ids):
                    self._damaged()
                    bad.append(path)
                    continue
                entry = _entry(n_tokens, sig, ids, np.dtype(ids_dtype), np.dtype(sig_dtype), k)
                if entry is None:
                    bad.append(path)
                else:
                    out[hit[0]] = entry
            if bad:
                self.conn.execute("BEGIN")
                self.conn.executemany("DELETE FROM entries WHERE params = ? AND path = ?", [(key, p) for p in bad])
                self.conn.execute("COMMIT")
        except sqlite3.Error as e:
            self._fail(e)
            return {}
        return out

    def _damaged(self) -> None:
        self.damaged += 1
        if self.damaged == 1:
            self.warnings.append(
                f"the signature cache {_shown(self.path or '')} holds damaged rows (a checksum did not match); they are dropped "
                "and their files read again"
            )

    def store(self, key: str, rows: Iterable[tuple[str, Stamp, int, np.ndarray, np.ndarray]]) -> None:
        """Remember (path, stamp, n_tokens, ids, signature) rows."""
        if self.conn is None:
            return
        try:
            self.conn.execute("BEGIN")
            self.conn.executemany(
                "INSERT OR REPLACE INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (_row(key, os.fsencode(p), stamp, t, sig.tobytes(), ids.tobytes()) for p, stamp, t, ids, sig in rows),
            )
            self.conn.execute("COMMIT")
        except sqlite3.Error as e:
            self._fail(e)

    def forget_missing(self, key: str, roots: Sequence[str], present: set[str]) -> int:
        """Drop rows of files below ``roots`` that no longer exist; return how many."""
        if self.conn is None:
            return 0
        gone: list[tuple[str, bytes]] = []
        listed = {os.fsencode(p) for p in present}
        try:
            for root in roots:
                prefix = os.fsencode(os.path.join(os.path.abspath(root), ""))  # ends with the separator
                after = prefix[:-1] + bytes([prefix[-1] + 1])  # every path below sorts in [prefix, after)
                cur = self.conn.execute(
                    "SELECT path FROM entries WHERE params = ? AND path >= ? AND path < ?", (key, prefix, after)
                )
                # a file not listed this time may only have been filtered out (formats, patterns): keep its row
                gone += [(key, p) for (p,) in cur if p not in listed and not os.path.exists(p)]
            if gone:
                self.conn.execute("BEGIN")
                self.conn.executemany("DELETE FROM entries WHERE params = ? AND path = ?", gone)
                self.conn.execute("COMMIT")
        except sqlite3.Error as e:
            self._fail(e)
        return len(gone)

    def _fail(self, error: Exception) -> None:
        self.warnings.append(f"the signature cache failed ({error}); going on without it")
        try:
            if self.conn is not None:
                self.conn.close()
        finally:
            self.conn = None

    def size_bytes(self) -> int:
        """The cache's size on disk (with its write-ahead log)."""
        if self.path is None:
            return 0
        return sum(os.path.getsize(p) for p in (self.path, self.path + "-wal") if os.path.exists(p))

    def clear(self) -> None:
        """Forget everything (the file stays, emptied and compacted)."""
        if self.conn is not None:
            self.conn.execute("DELETE FROM entries")
            self.conn.execute("VACUUM")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
