"""The ignore list: an ignored pair stays out of a new scan, comes back when a file changes; the file is validated."""

from __future__ import annotations

import os

import pytest

from lshdesk.core import ignore
from lshdesk.core.ignore import IgnoreList, IgnoreListError
from lshdesk.core.params import ScanParams
from lshdesk.core.scan.pipeline import run, scan

TEXT = " ".join(f"word{i}" for i in range(200))


def _folder(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.txt").write_text(TEXT, encoding="utf-8")
    (docs / "b.txt").write_text(TEXT + " one more", encoding="utf-8")
    (docs / "c.txt").write_text(TEXT + " two more words", encoding="utf-8")
    (docs / "x.txt").write_text(" ".join(f"other{i}" for i in range(200)), encoding="utf-8")
    return docs


def _scan(docs):
    return run(scan([str(docs)], ScanParams(threshold=0.8)))


def _names(result):
    return {
        tuple(sorted(os.path.basename(result.docs.paths[i]) for i in (a, b)))
        for a, b in zip(result.pairs.left, result.pairs.right)
    }


def _index(result, name):
    return next(i for i, p in enumerate(result.docs.paths) if p.endswith(name))


def test_an_ignored_pair_stays_out_of_a_new_scan_and_comes_back_when_a_file_changes(tmp_path):
    docs = _folder(tmp_path)
    first = _scan(docs)
    assert _names(first) == {("a.txt", "b.txt"), ("a.txt", "c.txt"), ("b.txt", "c.txt")}
    lst = IgnoreList()
    assert lst.add(first, [(_index(first, "a.txt"), _index(first, "b.txt"))]) == 1
    path = tmp_path / "state" / "ignore.json"
    lst.save(str(path))
    again, gone = ignore.load(str(path)).apply(_scan(docs))  # a new scan of unchanged files
    assert gone == 1 and _names(again) == {("a.txt", "c.txt"), ("b.txt", "c.txt")}
    assert [len(g) for g in again.groups] == [3]  # a~c~b still one group
    st = (docs / "b.txt").stat()
    os.utime(docs / "b.txt", ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))  # b edited (its time moved)
    back, gone = ignore.load(str(path)).apply(_scan(docs))
    assert gone == 0 and ("a.txt", "b.txt") in _names(back)


def test_ignoring_a_whole_group_removes_it(tmp_path):
    result = _scan(_folder(tmp_path))
    lst = IgnoreList()
    members = result.groups[0].tolist()
    assert lst.add(result, [(a, b) for a in members for b in members if a < b]) == 3
    kept, gone = lst.apply(result)
    assert gone == 3 and len(kept.pairs) == 0 and kept.groups == [] and len(kept.docs) == len(result.docs)


def test_the_file_round_trips_names_that_are_not_utf8(tmp_path):
    odd = tmp_path / os.fsdecode(b"caf\xe9")
    odd.mkdir()
    for name in ("p.txt", "q.txt"):
        (odd / name).write_text(TEXT, encoding="utf-8")
    result = _scan(odd)
    lst = IgnoreList()
    lst.add(result, [(0, 1)])
    lst.save(str(tmp_path / "l.json"))
    assert ignore.load(str(tmp_path / "l.json")).pairs == lst.pairs and lst.apply(result)[1] == 1


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"[1, 2]", "not an lshdesk ignore list"),
        (b'{"format": "lshdesk-ignore-list", "version": 9, "pairs": []}', "version 9, this lshdesk reads version 1"),
        (b'{"format": "lshdesk-ignore-list", "version": 1, "pairs": {}}', '"pairs" is not a list'),
        (b'{"format": "lshdesk-ignore-list", "version": 1, "pairs": [[["a", 1, 2]]]}', "a pair is not [file, file]"),
        (b'{"format": "lshdesk-ignore-list", "version": 1, "pairs": [[["a", 1, -2], ["b", 1, 2]]]}', "not [path, size"),
        (b'{"format": "lshdesk-ignore-list", "version": 1, "pairs": [[["a", true, 2], ["b", 1, 2]]]}', "not [path"),
        (b"\xff\xfe not text", "not UTF-8 text"),
        (b"{" * 100_000, "ignore.json: "),
    ],
)
def test_a_damaged_file_is_refused_with_what_is_wrong(tmp_path, content, said):
    path = tmp_path / "ignore.json"
    path.write_bytes(content)
    with pytest.raises(IgnoreListError, match=None) as e:
        ignore.load(str(path))
    assert said in str(e.value) and str(path) in str(e.value)


def test_a_missing_file_is_an_empty_list_only_when_allowed(tmp_path):
    assert len(ignore.load(str(tmp_path / "none.json"), missing_ok=True)) == 0
    with pytest.raises(IgnoreListError, match="no such file"):
        ignore.load(str(tmp_path / "none.json"))


def test_a_failed_save_leaves_the_old_list_whole(tmp_path, monkeypatch):
    from lshdesk.core.persistence import atomic

    path = tmp_path / "l.json"
    IgnoreList({(ignore.FileKey("/a", 1, 2), ignore.FileKey("/b", 1, 2))}).save(str(path))
    before = path.read_bytes()

    def full_disk(stream, data):
        stream.write(data[:10])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(atomic, "write_all", full_disk)  # the disk fills up while the new list is written
    with pytest.raises(atomic.OutputError, match="No space left on device"):
        IgnoreList().save(str(path))
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["l.json"]


def test_one_file_per_folder_set_in_any_order_and_spelling(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    here = str(tmp_path / "data")
    one = ignore.default_path([str(a), str(b)], here)
    assert one == ignore.default_path([str(b) + "/", str(tmp_path / "b" / ".." / "a")], here)
    assert one != ignore.default_path([str(a)], here) and one.startswith(os.path.join(here, "ignore"))
