"""The command line on issue 18: nested reference folders, --all-files and tool folders, the candidate warning,
an empty result explained, every folder a reference refused."""

from __future__ import annotations

import csv
import io
import random
from pathlib import Path

from lshdesk.core.scan import estimate
from tests.test_cli import _mutate, _words, _write, call


def _nest(tmp_path: Path) -> Path:
    rng = random.Random(7)
    x = _words(rng, 150)
    _write(
        tmp_path / "nest",
        {
            "a.txt": " ".join(x),
            "b.txt": " ".join(_mutate(rng, x, 2)),
            "sub/c.txt": " ".join(_mutate(rng, x, 1)),
            "sub/d.txt": " ".join(_words(rng, 150)),
        },
    )
    return tmp_path / "nest"


def _pairs(out: str) -> set[tuple[str, str]]:
    return {tuple(sorted((Path(r["a"]).name, Path(r["b"]).name))) for r in csv.DictReader(io.StringIO(out))}


def test_a_reference_folder_inside_the_scanned_folder_gives_the_cross_pairs(tmp_path, capsys):
    nest = _nest(tmp_path)
    code, out, err = call(capsys, "scan", str(nest), "--reference", str(nest / "sub"), "-t", "0.5", "-q")
    assert code == 0, err
    assert _pairs(out) == {("a.txt", "c.txt"), ("b.txt", "c.txt")}  # a~b are both outside the reference folder


def test_every_folder_a_reference_is_refused(tmp_path, capsys):
    nest = _nest(tmp_path)
    code, _, err = call(capsys, "scan", str(nest), "--reference", str(nest))
    assert code == 2 and "every folder is a reference folder" in err and "Traceback" not in err


def test_all_files_reads_tool_folders(tmp_path, capsys):
    text = "the same text kept in a package folder and in the project, word for word and line by line " * 3
    _write(tmp_path, {"p/readme.txt": text, "p/node_modules/pkg/README.txt": text})
    code, out, err = call(capsys, "scan", str(tmp_path / "p"), "--format", "json")
    assert code == 0 and _pairs_json(out) == set()
    assert "tool or version-control folder, not read (1 file); read it with --all-files" in out
    code, out, _ = call(capsys, "scan", str(tmp_path / "p"), "--all-files", "--format", "json")
    assert code == 0 and _pairs_json(out) == {("README.txt", "readme.txt")}


def _pairs_json(out: str) -> set[tuple[str, str]]:
    import json

    doc = json.loads(out)
    return {tuple(sorted((Path(p["a"]).name, Path(p["b"]).name))) for p in doc["pairs"]}


def test_the_candidate_warning_is_printed_on_stderr(tmp_path, capsys, monkeypatch):
    nest = _nest(tmp_path)
    monkeypatch.setattr(estimate, "WARN_PAIRS", 1)
    code, _, err = call(capsys, "scan", str(nest), "--shingle", "char:5", "-t", "0.3")
    assert code == 0
    assert "lshdesk: warning: about " in err and "candidate pairs" in err and "use word shingles" in err
    code, _, err = call(capsys, "scan", str(nest), "--shingle", "char:5", "-t", "0.3", "-q")
    assert code == 0 and err == ""


def test_an_empty_result_is_explained_on_stderr(tmp_path, capsys):
    nest = _nest(tmp_path)
    code, out, err = call(capsys, "scan", str(nest), "--reference", str(nest / "sub"), "-t", "0.99")
    assert code == 0 and _pairs(out) == set()
    line = [x for x in err.splitlines() if "no pair" in x][0]
    assert line.startswith("lshdesk: no pair between the reference folder and the others reaches 0.99; the most")
