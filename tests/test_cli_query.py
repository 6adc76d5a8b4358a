"""``lshdesk query`` (CSV / JSON, ranking equal to brute force, --measure, --min-similarity, --top, the query itself
left out) and ``lshdesk scan --measure containment`` (a = contained, b = container; refusals), on planted excerpts."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest
from core_helpers import containment, jaccard, planted_excerpts, write_tree

from lshdesk.core.params import ShingleSpec
from lshdesk.core.shingle_kinds import shingle_strings
from tests.test_cli import call

SPEC = ShingleSpec("word", 3)


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    root = tmp_path_factory.mktemp("cliq") / "docs"
    texts, source = planted_excerpts(np.random.default_rng(31), n=8)
    write_tree(root, texts)
    return root, texts, source


def brute(texts: dict[str, str], query: str, measure: str) -> list[tuple[str, float, float]]:
    q = shingle_strings(texts[query], SPEC)
    rows = []
    for name, text in texts.items():
        d = shingle_strings(text, SPEC)
        if name != query and q & d:
            j, c = jaccard(q, d), containment(q, d)
            rows.append((-(j if measure == "jaccard" else c), -(c if measure == "jaccard" else j), name, j, c))
    return [(n, j, c) for *_, n, j, c in sorted(rows)]


@pytest.mark.parametrize("measure", ["jaccard", "containment"])
def test_query_csv_equals_brute_force(planted, capsys, measure):
    root, texts, _ = planted
    q = "excerpts/ex03.txt"
    code, out, err = call(capsys, "query", str(root / q), "--in", str(root), "--top", "3", "--measure", measure)
    assert code == 0, err
    assert out.splitlines()[0] == "query,path,estimate,jaccard,containment"
    rows = list(csv.DictReader(io.StringIO(out)))
    want = brute(texts, q, measure)[:3]
    assert [r["path"] for r in rows] == [n for n, _, _ in want]  # the query itself (inside --in) is left out
    for r, (_, j, c) in zip(rows, want):
        assert r["query"] == str(root / q)
        assert float(r["jaccard"]) == pytest.approx(j, abs=5e-7)
        assert float(r["containment"]) == pytest.approx(c, abs=5e-7)
    assert "1 query against 24 documents" in err


def test_query_json_two_files_and_min_similarity(planted, capsys, tmp_path):
    root, texts, source = planted
    queries = ["excerpts/ex01.txt", "long/doc05.txt"]
    outfile = tmp_path / "q.json"
    code, _, err = call(
        capsys,
        "query",
        *(str(root / q) for q in queries),
        "--in",
        str(root),
        "--format",
        "json",
        "--measure",
        "containment",
        "--min-similarity",
        "0.5",
        "-o",
        str(outfile),
        "-q",
    )
    assert code == 0 and err == ""
    doc = json.loads(outfile.read_text(encoding="utf-8"))
    assert set(doc) == {"params", "documents", "queries"}
    assert doc["params"]["measure"] == "containment" and doc["params"]["num_perm"] == 128
    assert [q["path"] for q in doc["queries"]] == [str(root / q) for q in queries]
    ex, long = doc["queries"]
    assert [m["path"] for m in ex["matches"]] == [source["excerpts/ex01.txt"]]
    assert set(ex["matches"][0]) == {"path", "estimate", "jaccard", "containment"}
    assert ex["matches"][0]["containment"] >= 0.8
    assert long["matches"] == []  # a long document is not half inside anything


def test_query_errors(planted, capsys):
    root, _, _ = planted
    code, _, err = call(capsys, "query", str(root / "nope.txt"), "--in", str(root))
    assert code == 2 and "no such file" in err
    code, _, err = call(capsys, "query", str(root / "long/doc00.txt"))
    assert code == 2 and "--in" in err
    code, _, err = call(capsys, "query", str(root / "long/doc00.txt"), "--in", str(root), "--min-similarity", "2")
    assert code == 2 and "[0, 1]" in err and len(err.splitlines()) == 1


def test_scan_containment_csv_and_json(planted, capsys):
    root, _, source = planted
    code, out, err = call(capsys, "scan", str(root), "--measure", "containment", "-t", "0.8")
    assert code == 0, err
    assert out.splitlines()[0] == "a,b,estimate,containment"
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {(r["a"], r["b"]) for r in rows} == set(source.items())
    assert all(float(r["containment"]) >= 0.8 for r in rows)
    assert "8 pairs with containment >= 0.8" in err
    code, out, _ = call(capsys, "scan", str(root), "--measure", "containment", "-t", "0.8", "--format", "json", "-q")
    doc = json.loads(out)
    assert doc["params"]["measure"] == "containment" and doc["params"]["schemes"]
    assert {(p["a"], p["b"]) for p in doc["pairs"]} == set(source.items())
    assert all(p["containment"] >= 0.8 and p["jaccard"] < 0.3 for p in doc["pairs"])


def test_scan_containment_refusals(planted, capsys):
    root, _, _ = planted
    for extra, words in (
        (["--bands", "16", "--rows", "8"], "leave them out"),
        (["--format", "html"], "csv or json"),
        (["--engine", "dask"], "this machine only"),
    ):
        code, out, err = call(capsys, "scan", str(root), "--measure", "containment", *extra)
        assert code == 2 and out == "" and words in err
