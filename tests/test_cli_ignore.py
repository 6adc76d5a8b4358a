"""scan --ignore-list: the pairs the window marked as not duplicates stay out of the CLI's output too."""

from __future__ import annotations

import csv
import io

from lshdesk.core.ignore import IgnoreList
from lshdesk.core.params import ScanParams
from lshdesk.core.scan.pipeline import run, scan
from tests.test_cli import call

TEXT = " ".join(f"word{i}" for i in range(200))


def _folder(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, extra in (("a.txt", ""), ("b.txt", " one"), ("c.txt", " two words")):
        (docs / name).write_text(TEXT + extra, encoding="utf-8")
    return docs


def _pairs(out: str) -> set[tuple[str, str]]:
    return {tuple(sorted((r["a"].split("/")[-1], r["b"].split("/")[-1]))) for r in csv.DictReader(io.StringIO(out))}


def test_the_listed_pair_is_left_out_and_said(capsys, tmp_path):
    docs = _folder(tmp_path)
    result = run(scan([str(docs)], ScanParams()))
    names = [p.split("/")[-1] for p in result.docs.paths]
    lst = IgnoreList()
    lst.add(result, [(names.index("a.txt"), names.index("c.txt"))])
    lst.save(str(tmp_path / "ignore.json"))
    code, out, err = call(capsys, "scan", str(docs), "--ignore-list", str(tmp_path / "ignore.json"))
    assert code == 0 and _pairs(out) == {("a.txt", "b.txt"), ("b.txt", "c.txt")}
    assert f"1 pair left out: not duplicates by {tmp_path / 'ignore.json'}" in err
    code, out, err = call(capsys, "scan", str(docs))
    assert code == 0 and len(_pairs(out)) == 3 and "left out" not in err


def test_a_damaged_list_is_one_line_before_any_scan(capsys, tmp_path):
    (tmp_path / "bad.json").write_text('{"format": "something else"}', encoding="utf-8")
    code, out, err = call(capsys, "scan", str(_folder(tmp_path)), "--ignore-list", str(tmp_path / "bad.json"))
    assert code == 2 and out == "" and err.count("\n") == 1 and "not an lshdesk ignore list" in err
    code, out, err = call(capsys, "scan", str(tmp_path / "docs"), "--ignore-list", str(tmp_path / "none.json"))
    assert code == 2 and "none.json: no such file" in err
