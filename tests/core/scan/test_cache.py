"""The signature cache: hits, misses, invalidation, dropping removed files, and recovery from bad cache files."""

from __future__ import annotations

import sqlite3

import numpy as np

from lshdesk.core.params import ShingleSpec, SignatureParams
from lshdesk.core.scan.cache import SignatureCache, params_key

U32, SIG = np.dtype(np.uint32), np.dtype(np.uint32)
KEY = params_key(SignatureParams(), U32, SIG)


def _row(path: str, size: int = 10, mtime: int = 5, seed: int = 0):
    rng = np.random.default_rng(seed)
    return (
        path,
        (size, mtime, 1, 1),
        7,
        np.sort(rng.integers(0, 2**32, 20, dtype=np.uint64).astype(np.uint32)),
        rng.integers(0, 2**32, 128, dtype=np.uint64).astype(np.uint32),
    )


def test_hit_returns_exactly_what_was_stored(tmp_path):
    cache = SignatureCache.open(tmp_path / "c.sqlite3")
    assert cache.enabled and not cache.warnings
    rows = [_row(f"/d/f{i}.txt", seed=i) for i in range(5)]
    cache.store(KEY, rows)
    hits = cache.lookup(KEY, [(p, st) for p, st, *_ in rows], U32, SIG)
    assert sorted(hits) == list(range(5))
    for i, (_, _, n, ids, sig) in enumerate(rows):
        assert np.array_equal(hits[i].ids, ids) and np.array_equal(hits[i].sig, sig) and hits[i].n_tokens == n
    cache.close()
    reopened = SignatureCache.open(tmp_path / "c.sqlite3")
    assert len(reopened.lookup(KEY, [(p, st) for p, st, *_ in rows], U32, SIG)) == 5


def test_changed_size_or_time_or_params_is_a_miss(tmp_path):
    cache = SignatureCache.open(tmp_path / "c.sqlite3")
    cache.store(KEY, [_row("/d/a.txt", size=10, mtime=5)])
    assert cache.lookup(KEY, [("/d/a.txt", (11, 5, 1, 1))], U32, SIG) == {}
    assert cache.lookup(KEY, [("/d/a.txt", (10, 6, 1, 1))], U32, SIG) == {}
    other = params_key(SignatureParams(ShingleSpec("word", 2)), U32, SIG)
    assert other != KEY and cache.lookup(other, [("/d/a.txt", (10, 5, 1, 1))], U32, SIG) == {}
    for changed in (SignatureParams(seed=2), SignatureParams(k=64), SignatureParams(family="article")):
        assert params_key(changed, U32, SIG) != KEY
    assert list(cache.lookup(KEY, [("/d/b.txt", (1, 1, 1, 1)), ("/d/a.txt", (10, 5, 1, 1))], U32, SIG)) == [1]


def test_removed_files_drop_out_only_below_the_scanned_folder(tmp_path):
    cache = SignatureCache.open(tmp_path / "c.sqlite3")
    d = tmp_path / "d"
    (d / "sub").mkdir(parents=True)
    kept_but_unlisted = d / "filtered.pdf"  # exists, only filtered out of this scan: its row stays
    kept_but_unlisted.write_text("x")
    cache.store(
        KEY,
        [
            _row(f"{d}/a.txt"),
            _row(f"{d}/sub/b.txt"),
            _row(str(kept_but_unlisted)),
            _row("/e/c.txt"),
            _row(f"{d}x/d.txt"),
        ],
    )
    assert cache.forget_missing(KEY, [str(d)], present={f"{d}/a.txt"}) == 1
    files = [
        (f"{d}/a.txt", (10, 5, 1, 1)),
        (f"{d}/sub/b.txt", (10, 5, 1, 1)),
        (str(kept_but_unlisted), (10, 5, 1, 1)),
        ("/e/c.txt", (10, 5, 1, 1)),
        (f"{d}x/d.txt", (10, 5, 1, 1)),
    ]
    assert sorted(cache.lookup(KEY, files, U32, SIG)) == [0, 2, 3, 4]


def test_a_damaged_cache_file_is_set_aside_and_rebuilt(tmp_path):
    path = tmp_path / "c.sqlite3"
    path.write_bytes(b"this is not a database, just garbage " * 100)
    cache = SignatureCache.open(path)
    assert cache.enabled
    assert any("set aside" in w for w in cache.warnings)
    aside = [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not a database")
    cache.store(KEY, [_row("/d/a.txt")])
    assert cache.lookup(KEY, [("/d/a.txt", (10, 5, 1, 1))], U32, SIG)


def test_a_foreign_database_is_left_alone(tmp_path):
    path = tmp_path / "c.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE photos (name TEXT)")
    conn.execute("INSERT INTO photos VALUES ('holiday.jpg')")
    conn.commit()
    cache = SignatureCache.open(path)
    assert not cache.enabled and any("not an lshdesk signature cache" in w for w in cache.warnings)
    assert not [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
    conn.close()
    assert sqlite3.connect(path).execute("SELECT name FROM photos").fetchone() == ("holiday.jpg",)


def test_a_locked_cache_is_left_alone_and_the_scan_goes_on_without_it(tmp_path):
    path = tmp_path / "c.sqlite3"
    SignatureCache.open(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        cache = SignatureCache.open(path, timeout=0.1)
        assert not cache.enabled
        assert any("in use by another lshdesk" in w for w in cache.warnings)
        assert cache.lookup(KEY, [("/d/a.txt", (10, 5, 1, 1))], U32, SIG) == {}
        cache.store(KEY, [_row("/d/a.txt")])  # a no-op, no error
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert not [p for p in tmp_path.iterdir() if ".damaged-" in p.name]


def test_clear_and_size(tmp_path):
    cache = SignatureCache.open(tmp_path / "c.sqlite3")
    cache.store(KEY, [_row(f"/d/{i}.txt", seed=i) for i in range(50)])
    assert cache.size_bytes() > 0
    cache.clear()
    assert cache.lookup(KEY, [("/d/1.txt", (10, 5, 1, 1))], U32, SIG) == {}
