"""Sessions round-trip exactly, and a damaged, foreign or newer file is refused with a clear reason."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from lshdesk.core.params import Banding, ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.persistence.export import to_json
from lshdesk.core.persistence.session import FORMAT_VERSION, SessionError, load_session, save_session
from lshdesk.core.scan.pipeline import run, scan


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    base = "the quick brown fox jumps over the lazy dog while the cat sleeps in the warm sun "
    for i in range(6):
        (root / f"a{i}.txt").write_text(base * 3 + f"variant {i} " * (i + 1))
    (root / "other.txt").write_text("completely different words appear in this unrelated note about apples")
    (root / "empty.txt").write_text("")
    params = ScanParams(SignatureParams(ShingleSpec("word", 2), "article", 64, 9), 0.5, Banding(16, 4))
    return run(scan([str(root)], params))


def test_round_trip_keeps_every_array_and_the_selection(result, tmp_path):
    path = tmp_path / "s.lshdesk"
    save_session(path, result, selection=(0, 3), folders=["/x", "/y"])
    back, selection, folders = load_session(path)
    assert selection == (0, 3) and folders == ["/x", "/y"]
    assert back.params == result.params and back.banding == result.banding
    assert np.array_equal(back.signatures, result.signatures) and back.signatures.dtype == result.signatures.dtype
    assert np.array_equal(back.shingles.ids, result.shingles.ids)
    for name in ("left", "right", "estimate", "jaccard", "bands"):
        assert np.array_equal(getattr(back.pairs, name), getattr(result.pairs, name))
        assert np.array_equal(getattr(back.candidates, name), getattr(result.candidates, name))
    assert [g.tolist() for g in back.groups] == [g.tolist() for g in result.groups]
    assert back.skipped == result.skipped and len(result.skipped) == 1
    assert to_json(back) == to_json(result)
    assert not Path(str(path) + ".part").exists()


def _rewrite_header(path: Path, change) -> None:
    with zipfile.ZipFile(path) as z:
        header = json.loads(z.read("header.json"))
        arrays = z.read("arrays.npz")
    change(header)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("header.json", json.dumps(header))
        z.writestr("arrays.npz", arrays)


def test_a_newer_format_says_to_update(result, tmp_path):
    path = tmp_path / "new.lshdesk"
    save_session(path, result)
    _rewrite_header(path, lambda h: h.update(format_version=FORMAT_VERSION + 1))
    with pytest.raises(SessionError, match="newer lshdesk.*update lshdesk"):
        load_session(path)


@pytest.mark.parametrize(
    "content, words",
    [(b"not a zip at all", "not an lshdesk session or is damaged"), (b"", "not an lshdesk session or is damaged")],
)
def test_damaged_files_are_refused_clearly(tmp_path, content, words):
    path = tmp_path / "bad.lshdesk"
    path.write_bytes(content)
    with pytest.raises(SessionError, match=words):
        load_session(path)


def test_foreign_zip_and_missing_arrays(result, tmp_path):
    foreign = tmp_path / "foreign.lshdesk"
    with zipfile.ZipFile(foreign, "w") as z:
        z.writestr("header.json", json.dumps({"magic": "something else"}))
        z.writestr("arrays.npz", b"")
    with pytest.raises(SessionError):
        load_session(foreign)
    path = tmp_path / "cut.lshdesk"
    save_session(path, result)
    _rewrite_header(path, lambda h: h.pop("paths"))
    with pytest.raises(SessionError, match="damaged"):
        load_session(path)


@pytest.mark.parametrize("change", [{"folders": None}, {"selection": 5}, {"selection": ["x"]}])
def test_a_damaged_selection_or_folder_list_is_refused(result, tmp_path, change):
    path = tmp_path / "odd.lshdesk"
    save_session(path, result)
    _rewrite_header(path, lambda h: h.update(change))
    with pytest.raises(SessionError, match="damaged"):
        load_session(path)


def test_pickled_arrays_are_never_loaded(result, tmp_path):
    path = tmp_path / "pickle.lshdesk"
    save_session(path, result)
    with zipfile.ZipFile(path) as z:
        header = z.read("header.json")
    buf = io.BytesIO()
    np.savez(buf, signatures=np.array([object()], dtype=object))
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("header.json", header)
        z.writestr("arrays.npz", buf.getvalue())
    with pytest.raises(SessionError):
        load_session(path)


def test_missing_file(tmp_path):
    with pytest.raises(SessionError, match="no such session file"):
        load_session(tmp_path / "nope.lshdesk")


def test_a_header_that_is_not_an_object_is_refused(result, tmp_path):
    path = tmp_path / "list.lshdesk"
    save_session(path, result)
    with zipfile.ZipFile(path) as z:
        arrays = z.read("arrays.npz")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("header.json", "[1, 2]")
        z.writestr("arrays.npz", arrays)
    with pytest.raises(SessionError, match="not an lshdesk session"):
        load_session(path)


def test_marks_and_file_dates_round_trip(result, tmp_path):
    from lshdesk.core.persistence.session import load_marks

    path = tmp_path / "m.lshdesk"
    marks = np.zeros(len(result.docs), dtype=bool)
    marks[[1, 4]] = True
    save_session(path, result, marks=marks)
    back, _, _ = load_session(path)
    assert np.array_equal(load_marks(path, len(back.docs)), marks)
    assert np.array_equal(back.docs.mtime, result.docs.mtime) and back.docs.mtime.dtype == np.int64


def test_marks_out_of_range_or_not_numbers_are_refused(result, tmp_path):
    from lshdesk.core.persistence.session import load_marks

    path = tmp_path / "m.lshdesk"
    save_session(path, result)
    assert not load_marks(path, len(result.docs)).any()  # a session without marks: none
    for bad in ([len(result.docs)], [-1], ["1"], [True], {"1": 1}):
        with zipfile.ZipFile(path) as z:
            header, arrays = json.loads(z.read("header.json")), z.read("arrays.npz")
        header["marks"] = bad
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("header.json", json.dumps(header))
            z.writestr("arrays.npz", arrays)
        with pytest.raises(SessionError, match="marks"):
            load_marks(path, len(result.docs))


def test_arrays_are_stored_uncompressed_and_compressed_sessions_still_open(result, tmp_path):
    # zlib packed these hash arrays by ~10 % at 6-30 MB/s: an 81 MB session took 13-29 s to save (issue 31, item 9)
    path = tmp_path / "stored.lshdesk"
    save_session(path, result, selection=(1,))
    with zipfile.ZipFile(path) as z:
        header, packed = z.read("header.json"), z.read("arrays.npz")
    inner = zipfile.ZipFile(io.BytesIO(packed)).infolist()
    assert inner and all(i.compress_type == zipfile.ZIP_STORED for i in inner)
    with np.load(io.BytesIO(packed)) as stored:
        arrays = {name: stored[name] for name in stored.files}
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)  # a session as lshdesk wrote them before
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("header.json", header)
        z.writestr("arrays.npz", buf.getvalue())
    back, selection, _ = load_session(path)
    assert selection == (1,) and np.array_equal(back.shingles.ids, result.shingles.ids)
    assert to_json(back) == to_json(result)
