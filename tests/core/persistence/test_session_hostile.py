"""Sessions are untrusted input: crafted files (indices past the documents, zip bombs, lying sizes, wrong types,
deep JSON, bad versions) are refused with a SessionError saying what is wrong; names that are not UTF-8 round-trip."""

from __future__ import annotations

import io
import json
import os
import zipfile

import numpy as np
import pytest
import session_craft as crafted

from lshdesk.core.params import Banding, ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.persistence.export import to_json
from lshdesk.core.persistence.session import load_session, save_session
from lshdesk.core.persistence.session_read import LIMITS, SessionError
from lshdesk.core.scan.pipeline import run, scan

BAD = b"caf\xff\xfe.txt"


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A real session of a folder holding a name that is not UTF-8."""
    root = tmp_path_factory.mktemp("corpus")
    base = "the quick brown fox jumps over the lazy dog while the cat sleeps in the warm sun "
    for i in range(5):
        (root / f"a{i}.txt").write_text(base * 3 + f"variant {i} " * (i + 1))
    with open(os.path.join(os.fsencode(root), BAD), "wb") as f:
        f.write((base * 3).encode())
    params = ScanParams(SignatureParams(ShingleSpec("word", 2), "article", 64, 9), 0.5, Banding(16, 4))
    result = run(scan([str(root)], params))
    path = tmp_path_factory.mktemp("s") / "good.lshdesk"
    save_session(path, result, selection=(0, 1))
    return result, path


def test_a_name_that_is_not_utf8_round_trips_exactly(saved):
    result, path = saved
    back, selection, folders = load_session(path)
    assert os.fsencode(os.path.basename(back.docs.paths[0])) == BAD or BAD in [os.fsencode(r) for r in back.docs.rel]
    assert back.docs.paths == result.docs.paths and back.docs.rel == result.docs.rel
    assert to_json(back) == to_json(result) and selection == (0, 1)
    with zipfile.ZipFile(path) as z:
        z.read("header.json").decode("utf-8")  # strict UTF-8


def _refused(path, *words):
    with pytest.raises(SessionError) as e:
        load_session(path)
    for w in words:
        assert w in str(e.value), str(e.value)
    return str(e.value)


@pytest.mark.parametrize(
    "name, change, words",
    [
        ("left", lambda a: a["pairs.left"].__setitem__(0, 10**6), ["pairs.left", "outside"]),
        ("right", lambda a: a["candidates.right"].__setitem__(0, -1), ["candidates.right", "outside"]),
        ("members", lambda a: a.__setitem__("groups.members", a["groups.members"] + 100), ["groups.members"]),
        ("root", lambda a: a["docs.root"].__setitem__(0, 7), ["docs.root"]),
        ("offsets", lambda a: a["shingles.offsets"].__setitem__(-1, 10**9), ["shingles.offsets"]),
        ("unsorted", lambda a: a.__setitem__("shingles.ids", a["shingles.ids"][::-1].copy()), ["not sorted"]),
        ("sig dtype", lambda a: a.__setitem__("signatures", a["signatures"].astype(np.uint32)), ["signatures", "type"]),
        ("sig shape", lambda a: a.__setitem__("signatures", a["signatures"][:, :10].copy()), ["signatures", "shape"]),
        ("short", lambda a: a.__setitem__("docs.size", a["docs.size"][:-1].copy()), ["docs.size", "shape"]),
        ("missing", lambda a: a.pop("pairs.bands"), ["pairs.bands", "missing"]),
        ("nan", lambda a: a["pairs.jaccard"].__setitem__(0, np.nan), ["pairs.jaccard"]),
        ("2d", lambda a: a.__setitem__("pairs.left", a["pairs.left"][:, None].copy()), ["pairs.left"]),
        ("float idx", lambda a: a.__setitem__("pairs.left", a["pairs.left"].astype(float)), ["pairs.left", "type"]),
        ("object", lambda a: a.__setitem__("docs.size", np.array([None] * 6, dtype=object)), ["docs.size"]),
    ],
)
def test_arrays_that_do_not_fit_the_header_are_refused(saved, tmp_path, name, change, words):
    assert len(saved[0].pairs) > 0 and len(saved[0].groups) > 0
    _refused(crafted.changed(saved[1], tmp_path / "x.lshdesk", arrays=change), "damaged", *words)


@pytest.mark.parametrize(
    "key, value, words",
    [
        ("selection", 5, ["selection", "must be list, not int"]),
        ("selection", [0, 99], ["selection"]),
        ("folders", 5, ["folders"]),
        ("folders", [5], ["folders"]),
        ("paths", [{"bytes": "***"}] * 6, ["paths"]),
        ("roots", "abc", ["roots"]),
        ("reference", [3], ["reference"]),
        ("skipped", [{"path": "x"}], ["skipped"]),
        ("seconds", "slow", ["seconds"]),
        ("seconds", float("inf"), ["seconds"]),
        ("banding", {"bands": 64, "rows": 64}, ["banding"]),
        ("banding", {"bands": True, "rows": 4}, ["bands"]),
        ("params", 5, ["params"]),
        ("params", {"threshold": 0.5}, ["parameters"]),
        ("format_version", -5, ["format_version", "-5"]),
        ("format_version", True, ["format_version", "True"]),
        ("format_version", 1.5, ["format_version"]),
        ("format_version", "1", ["format_version"]),
    ],
)
def test_header_fields_of_the_wrong_kind_are_refused(saved, tmp_path, key, value, words):
    _refused(crafted.changed(saved[1], tmp_path / "x.lshdesk", header=lambda h: h.update({key: value})), *words)


def test_deeply_nested_json_is_refused(saved, tmp_path):
    _, arrays = crafted.parts(saved[1])
    deep = b'{"magic": "lshdesk-session", "format_version": 1, "params": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"
    _refused(crafted.write(tmp_path / "deep.lshdesk", deep, arrays), "nests too deeply")


def test_a_zip_bomb_header_is_refused_before_it_is_read(saved, tmp_path):
    header_bomb = crafted.bomb(64 * 2**20)  # 64 MB of zeros in about 64 KB
    _, arrays = crafted.parts(saved[1])
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    data = crafted.zip_with_deflated({"header.json": (header_bomb, 64 * 2**20), "arrays.npz": (b"", 0)})
    (tmp_path / "bomb.lshdesk").write_bytes(data)
    _refused(tmp_path / "bomb.lshdesk", "header.json", "zip bomb")
    lying = crafted.zip_with_deflated({"header.json": (header_bomb, 3 * 2**30)})  # says 3 GB, holds 64 KB
    (tmp_path / "lying.lshdesk").write_bytes(lying)
    _refused(tmp_path / "lying.lshdesk", "header.json", "limit")


def test_a_zip_bomb_array_is_refused_before_it_is_read(saved, tmp_path):
    header, arrays = crafted.parts(saved[1])
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for k, v in arrays.items():
            inner = io.BytesIO()
            np.save(inner, np.zeros(8 * 2**20, dtype=np.float64) if k == "groups.min" else v)
            z.writestr(f"{k}.npy", inner.getvalue())
    _refused(crafted.write(tmp_path / "npy-bomb.lshdesk", header, buf.getvalue()), "groups.min.npy", "zip bomb")


def test_an_npy_header_declaring_a_huge_shape_is_refused(saved, tmp_path):
    def huge(a):
        a["signatures"] = a["signatures"]  # rewritten below with a lying shape

    header, arrays = crafted.parts(saved[1])
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for k, v in arrays.items():
            inner = io.BytesIO()
            np.save(inner, v)
            raw = inner.getvalue()
            if k == "signatures":
                raw = raw.replace(f"'shape': {v.shape}".encode(), f"'shape': (1000000000, {v.shape[1]})".encode())
            z.writestr(f"{k}.npy", raw)
    msg = _refused(crafted.write(tmp_path / "shape.lshdesk", header, buf.getvalue()), "signatures", "shape")
    assert "1000000000" in msg


def test_limits_live_in_one_place():
    assert LIMITS.ratio < 1000 and LIMITS.header_bytes < 3 * 2**30 and LIMITS.member_bytes <= LIMITS.total_bytes


def test_a_version_one_session_is_still_read(saved, tmp_path):
    result, path = saved

    def as_v1(h):
        h["format_version"] = 1
        for key in ("paths", "rel"):
            h[key] = [p if isinstance(p, str) else "x" for p in h[key]]

    back, _, _ = load_session(crafted.changed(path, tmp_path / "v1.lshdesk", header=as_v1))
    assert len(back.docs) == len(result.docs)
    json.dumps(to_json(back))
