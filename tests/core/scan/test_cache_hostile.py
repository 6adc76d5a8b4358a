"""The signature cache under hostile input: names that are not UTF-8, damaged rows, a newer cache format, an
edit that keeps size and time, an older format; the scan always goes on and always gives the uncached result."""

from __future__ import annotations

import os
import sqlite3

import numpy as np
import pytest

from lshdesk.cli import main
from lshdesk.core.params import ScanParams
from lshdesk.core.persistence.export import to_json
from lshdesk.core.scan.cache import FORMAT_VERSION, SignatureCache
from lshdesk.core.scan.pipeline import run, scan

BAD = b"caf\xff\xfe.html"
PARAMS = ScanParams(threshold=0.5)


def _html(words: str) -> bytes:
    return f"<html><body><p>{words}</p></body></html>".encode()


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "docs"
    root.mkdir()
    text = "the quick brown fox jumps over the lazy dog while the cat sleeps in the warm sun " * 4
    with open(os.path.join(os.fsencode(root), BAD), "wb") as f:
        f.write(_html(text))
    (root / "copy.html").write_bytes(_html(text + " again"))
    (root / "other.html").write_bytes(_html("nothing in common with the rest of this folder at all " * 4))
    return root


def _scan(folder, cache, warnings: int = 0):
    result = run(scan([str(folder)], PARAMS, cache=cache))
    assert len(cache.warnings) == warnings, cache.warnings
    return result


def test_a_name_that_is_not_utf8_is_cached_and_read_back(folder, tmp_path, reads):
    cache = SignatureCache.open(tmp_path / "c.sqlite3")
    cold = _scan(folder, cache)
    assert len(cold.docs) == 3 and len(cold.pairs) == 1 and reads
    reads.clear()
    warm = _scan(folder, cache)
    assert warm.cached == 3 and reads == []
    assert to_json(warm) == to_json(cold)
    assert {p for (p,) in cache.conn.execute("SELECT path FROM entries")} >= {os.path.join(os.fsencode(folder), BAD)}


@pytest.mark.parametrize(
    "column, value",
    [
        ("sig", b"\x01\x02\x03"),  # not a whole number of values
        ("sig", bytes(8)),  # whole values, but not k of them
        ("ids", b"\x01\x02\x03"),  # odd length
        ("ids", np.array([5, 3, 1], dtype=np.uint32).tobytes()),  # not sorted
        ("n_tokens", -4),
        ("n_tokens", "many"),
    ],
)
def test_a_damaged_row_is_dropped_and_its_file_read_again(folder, tmp_path, reads, column, value):
    cache = SignatureCache.open(tmp_path / "c.sqlite3")
    cold = _scan(folder, cache)
    target = os.fsencode(folder / "copy.html")
    cache.conn.execute(f"UPDATE entries SET {column} = ? WHERE path = ?", (value, target))
    reads.clear()
    again = _scan(folder, cache, warnings=1)  # its checksum no longer matches
    assert reads == ["copy.html"] and again.cached == 2
    assert to_json(again) == to_json(cold)
    reads.clear()
    assert _scan(folder, cache, warnings=1).cached == 3 and reads == []  # the row was written anew, no new warning


def test_zeroed_signatures_that_fit_are_caught_by_the_checksum_and_warned_of_once(tmp_path, reads):
    """A torn page: signatures overwritten with zeros of the right length still fit; the checksum drops them, the
    files are read again, the pairs are those of a scan without the cache, and one warning says so."""
    root = tmp_path / "many"
    root.mkdir()
    base = "the quick brown fox jumps over the lazy dog while the cat sleeps in the warm sun by the river "
    for i in range(12):
        (root / f"d{i:02d}.html").write_bytes(_html(base * 3 + f"variant {i // 2} " * (1 + i % 2)))
    uncached = run(scan([str(root)], PARAMS))
    assert len(uncached.pairs) >= 6
    path = tmp_path / "c.sqlite3"
    _scan(root, SignatureCache.open(path))
    conn = sqlite3.connect(path)
    for name in ("d03.html", "d08.html"):
        (sig,) = conn.execute("SELECT sig FROM entries WHERE path = ?", (os.fsencode(root / name),)).fetchone()
        conn.execute("UPDATE entries SET sig = ? WHERE path = ?", (bytes(len(sig)), os.fsencode(root / name)))
    conn.commit()
    conn.close()
    reads.clear()
    cache = SignatureCache.open(path)
    again = _scan(root, cache, warnings=1)
    assert sorted(reads) == ["d03.html", "d08.html"] and again.cached == 10
    assert to_json(again) == to_json(uncached)
    assert "checksum" in cache.warnings[0] and cache.damaged == 2


def test_a_newer_cache_format_is_left_alone_with_a_warning_even_when_quiet(folder, tmp_path, capsys):
    path = tmp_path / "signatures.sqlite3"
    SignatureCache.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'format_version'", (str(FORMAT_VERSION + 1),))
    conn.execute("CREATE TABLE future (x)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    cache = SignatureCache.open(path)
    assert not cache.enabled and any("newer lshdesk" in w for w in cache.warnings)
    cache.close()
    assert main(["scan", str(folder), "-t", "0.5", "--cache-dir", str(tmp_path), "-q"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "newer lshdesk" in err[0] and "left alone" in err[0]
    assert path.read_bytes() == before and not [p for p in tmp_path.iterdir() if "damaged" in p.name]


def test_an_edit_that_keeps_size_and_time_is_seen(folder, tmp_path):
    cache = SignatureCache.open(tmp_path / "c.sqlite3")
    _scan(folder, cache)
    f = folder / "other.html"
    st = os.stat(f)
    f.write_bytes(f.read_bytes().replace(b"nothing", b"NOTHING"))  # same size
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))  # same modification time
    assert os.stat(f).st_size == st.st_size and os.stat(f).st_mtime_ns == st.st_mtime_ns
    again = _scan(folder, cache)
    assert again.cached == 2
    assert to_json(again) == to_json(run(scan([str(folder)], PARAMS)))
    i = [os.path.basename(p) for p in again.docs.paths].index("other.html")
    assert np.array_equal(again.signatures[i], run(scan([str(f)], PARAMS)).signatures[0])


def test_an_older_cache_format_is_rebuilt_in_place(folder, tmp_path):
    path = tmp_path / "c.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        "INSERT INTO meta VALUES ('app', 'lshdesk'), ('format_version', '1');"
        "CREATE TABLE entries (params TEXT, path TEXT, size INTEGER, mtime_ns INTEGER, n_tokens INTEGER, sig BLOB,"
        " ids BLOB, PRIMARY KEY (params, path)) WITHOUT ROWID;"
    )
    conn.close()
    cache = SignatureCache.open(path)
    assert cache.enabled and not cache.warnings
    _scan(folder, cache)
    assert _scan(folder, cache).cached == 3
