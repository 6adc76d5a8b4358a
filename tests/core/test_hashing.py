"""Hashing: FNV-1a over UTF-16 (the article's JS), MurmurHash3 finalisers and SHA-1 (datasketch's), determinism."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import datasketch.hashfunc
import datasketch.minhash
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from lshdesk.core.hashing import fmix32, fmix64, fnv1a_utf16, fold32, sha1_hash32

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

REFERENCE = json.loads((FIXTURES / "article_reference.json").read_text(encoding="utf-8"))


def fnv1a_utf16_python(s: str) -> int:
    """FNV-1a, 32 bits, over UTF-16 code units: the published algorithm in plain Python integers."""
    h = 0x811C9DC5
    units = s.encode("utf-16-le")
    for i in range(0, len(units), 2):
        h ^= units[i] | (units[i + 1] << 8)
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def test_fnv1a_equals_js_reference():
    cases = REFERENCE["fnv1a"]
    got = fnv1a_utf16([c["s"] for c in cases])
    assert got.dtype == np.uint32
    assert got.tolist() == [c["h"] for c in cases]
    # the fixture's code-unit counts are the JS string lengths: astral characters count twice
    for c in cases:
        assert len(c["s"].encode("utf-16-le")) // 2 == c["utf16_units"]


def test_fnv1a_one_at_a_time_equals_batch():
    cases = [c["s"] for c in REFERENCE["fnv1a"]]
    assert [int(fnv1a_utf16([s])[0]) for s in cases] == fnv1a_utf16(cases).tolist()
    assert fnv1a_utf16([]).tolist() == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(), max_size=6))
def test_fnv1a_equals_plain_python(strings):
    assert fnv1a_utf16(strings).tolist() == [fnv1a_utf16_python(s) for s in strings]


def test_fmix_equal_datasketch_finaliser():
    rng = np.random.default_rng(7)
    x64 = np.concatenate(
        [
            rng.integers(0, 2**63, 2000, dtype=np.int64).astype(np.uint64) * np.uint64(2),
            np.array([0, 1, 2**64 - 1, 2**63], dtype=np.uint64),
        ]
    )
    assert np.array_equal(fmix64(x64), datasketch.minhash._fmix(x64, 64))
    x32 = (x64 & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    assert np.array_equal(fmix32(x32), datasketch.minhash._fmix(x32, 32))


def test_fmix64_is_a_bijection_on_a_sample():
    x = np.arange(200_000, dtype=np.uint64)
    assert len(np.unique(fmix64(x))) == len(x)


def test_fold32_plain_python():
    vals = [0, 1, 2**32, 2**32 + 1, 2**64 - 1, 0xDEADBEEF_CAFEBABE]
    got = fold32(np.array(vals, dtype=np.uint64))
    assert got.dtype == np.uint32
    assert got.tolist() == [(v ^ (v >> 32)) & 0xFFFFFFFF for v in vals]


def test_sha1_hash32_equals_datasketch():
    strings = ["", "a", "hello world", "café", "日本語", "🙂"]
    want = [datasketch.hashfunc.sha1_hash32(s.encode("utf-8")) for s in strings]
    assert sha1_hash32(strings).tolist() == want


_SNIPPET = (
    "from lshdesk.core.shingle_kinds import hash_shingles; from lshdesk.core.params import ShingleSpec; "
    "b = hash_shingles(['the cat sat on the mat', 'Caf\\u00e9 au lait'], ShingleSpec('word', 2)); "
    "print(b.ids.tolist())"
)


def test_ids_do_not_depend_on_python_hash_seed():
    outs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        r = subprocess.run([sys.executable, "-c", _SNIPPET], capture_output=True, text=True, env=env, timeout=120)
        assert r.returncode == 0, r.stderr
        outs.append(r.stdout)
    assert outs[0] == outs[1] and len(outs[0]) > 10
