"""Export: the CSV and JSON that ``lshdesk scan`` prints, checked against brute-force similarities of the files."""

from __future__ import annotations

import csv
import io
import json
import os
from itertools import combinations

import numpy as np
import pytest
from core_helpers import jaccard, make_words, mutate, write_tree

from lshdesk.core.params import ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.persistence.export import display_paths, pair_rows, to_csv, to_json
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.core.shingle_kinds import shingle_strings

SPEC = ShingleSpec("word", 3)


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    root = tmp_path_factory.mktemp("export") / "docs"
    rng = np.random.default_rng(31)
    a, b = make_words(rng, 120), make_words(rng, 120)
    texts = {
        "z_first.txt": " ".join(a),
        "sub/a_copy.txt": " ".join(mutate(rng, a, 2)),
        "sub/deep/a_more.txt": " ".join(mutate(rng, a, 5)),
        "b1.md": " ".join(b),
        "b2.md": " ".join(mutate(rng, b, 1)),
        "alone.txt": " ".join(make_words(rng, 80)),
    }
    dup = " ".join(make_words(rng, 50))
    texts.update({"dup/c.txt": dup, "dup/a.txt": dup, "dup/b.txt": dup})  # three ties at 1.0
    write_tree(root, {**texts, "skip/image.bin": b"\x00\x01", "skip/punct.txt": "?!?! ..."})
    return root, texts


def brute_force(texts: dict[str, str], threshold: float) -> dict[tuple[str, str], float]:
    sets = {k: shingle_strings(v, SPEC) for k, v in texts.items()}
    out = {}
    for x, y in combinations(sorted(sets), 2):
        j = jaccard(sets[x], sets[y])
        if j >= threshold:
            out[(x, y)] = j
    return out


@pytest.fixture(scope="module")
def result(folder):
    root, _ = folder
    return run(scan([str(root)], ScanParams(SignatureParams(SPEC, "fast", 128, 1), threshold=0.6)))


def test_csv(folder, result):
    _, texts = folder
    text = to_csv(result)
    assert text.splitlines()[0] == "a,b,estimate,jaccard"
    rows = list(csv.DictReader(io.StringIO(text)))
    truth = brute_force(texts, 0.6)
    assert len(truth) == 7  # three a-copies pair up, b1-b2, three identical dups
    assert {(r["a"], r["b"]) for r in rows} == set(truth)
    for r in rows:
        assert r["a"] < r["b"]
        assert "\\" not in r["a"] + r["b"] and not os.path.isabs(r["a"])
        for col in ("estimate", "jaccard"):
            assert len(r[col].split(".")[1]) == 6  # 6 decimals
        assert float(r["jaccard"]) == pytest.approx(truth[(r["a"], r["b"])], abs=5e-7)
        assert 0.0 <= float(r["estimate"]) <= 1.0
    # similarity descending, ties by names
    keys = [(-float(r["jaccard"]), r["a"], r["b"]) for r in rows]
    assert keys == sorted(keys)
    assert [(r["a"], r["b"]) for r in rows[:3]] == [
        ("dup/a.txt", "dup/b.txt"),
        ("dup/a.txt", "dup/c.txt"),
        ("dup/b.txt", "dup/c.txt"),
    ]


def test_json(folder, result):
    root, texts = folder
    doc = json.loads(to_json(result))
    assert set(doc) == {"params", "documents", "skipped", "pairs", "groups", "group_lowest_similarity"}
    assert doc["params"] == {
        "threshold": 0.6,
        "num_perm": 128,
        "seed": 1,
        "family": "fast",
        "shingle": "word:3",
        "bands": result.banding.bands,
        "rows": result.banding.rows,
        "scheme": result.scheme_note,
    }
    assert result.banding.bands * result.banding.rows <= 128 and doc["params"]["scheme"].startswith("bands x rows")
    assert sorted(d["path"] for d in doc["documents"]) == sorted(texts)
    for d in doc["documents"]:
        assert set(d) == {"path", "shingles"} and d["shingles"] == len(shingle_strings(texts[d["path"]], SPEC))
    skipped = {s["path"]: s["reason"] for s in doc["skipped"]}
    assert set(skipped) == {"skip/image.bin", "skip/punct.txt"}
    assert all(isinstance(r, str) and r for r in skipped.values())
    truth = brute_force(texts, 0.6)
    assert [(p["a"], p["b"]) for p in doc["pairs"]] == [(a, b) for a, b, *_ in pair_rows(result)]
    for p in doc["pairs"]:
        assert set(p) == {"a", "b", "estimate", "jaccard", "bands"}
        assert p["jaccard"] == pytest.approx(truth[(p["a"], p["b"])], abs=5e-7)
        assert isinstance(p["bands"], int) and 1 <= p["bands"] <= result.banding.bands
    assert sorted(doc["groups"]) == sorted(
        [
            ["sub/a_copy.txt", "sub/deep/a_more.txt", "z_first.txt"],
            ["b1.md", "b2.md"],
            ["dup/a.txt", "dup/b.txt", "dup/c.txt"],
        ]
    )
    assert [len(g) for g in doc["groups"]] == [3, 3, 2]  # largest first
    assert all(g == sorted(g) for g in doc["groups"])
    lows = doc["group_lowest_similarity"]  # each group's least similar two members, exactly
    assert len(lows) == len(doc["groups"])
    for g, low in zip(doc["groups"], lows):
        sims = [brute_force({a: texts[a], b: texts[b]}, 0.0)[(a, b)] for i, a in enumerate(g) for b in g[i + 1 :]]
        assert low == pytest.approx(min(sims), abs=5e-7)


def test_csv_and_json_agree(result):
    rows = list(csv.DictReader(io.StringIO(to_csv(result))))
    pairs = json.loads(to_json(result))["pairs"]
    assert [(r["a"], r["b"], float(r["jaccard"])) for r in rows] == [(p["a"], p["b"], p["jaccard"]) for p in pairs]


def test_paths_for_several_roots(folder):
    root, _ = folder
    roots = [str(root / "sub"), str(root / "b1.md"), str(root / "b2.md")]
    res = run(scan(roots, ScanParams(SignatureParams(SPEC, "fast", 128, 1), threshold=0.6)))
    names = display_paths(res)
    base = os.path.normpath(str(root)).replace(os.sep, "/")
    assert sorted(names) == sorted(
        [f"{base}/sub/a_copy.txt", f"{base}/sub/deep/a_more.txt", f"{base}/b1.md", f"{base}/b2.md"]
    )
    rows = list(csv.DictReader(io.StringIO(to_csv(res))))
    assert {(r["a"], r["b"]) for r in rows} == {
        (f"{base}/b1.md", f"{base}/b2.md"),
        (f"{base}/sub/a_copy.txt", f"{base}/sub/deep/a_more.txt"),
    }


def test_empty_result_has_the_header_only(tmp_path):
    res = run(scan([str(tmp_path)], ScanParams()))
    assert to_csv(res) == "a,b,estimate,jaccard\n"
    doc = json.loads(to_json(res))
    assert doc["documents"] == doc["pairs"] == doc["groups"] == doc["group_lowest_similarity"] == doc["skipped"] == []


@pytest.mark.parametrize("spreadsheet", [False, True])
def test_pair_rows_with_awkward_names_are_written_as_the_csv_module_writes_them(tmp_path, spreadsheet):
    from lshdesk.core.persistence import export

    rng = np.random.default_rng(3)
    words = make_words(rng, 60, vocab_size=3000)
    names = ["a,b.txt", 'say "hi".txt', "cr\rname.txt", "=SUM(A1).txt", "-minus.txt", "new\nline.txt", "plain.txt"]
    names += ["@at.txt", "+plus.txt", "\ttab.txt"]
    for i, name in enumerate(names):  # near-copies of one text: every pair verified, at several similarities
        (tmp_path / name).write_text(" ".join(mutate(rng, words, i % 3)))
    result = run(scan([str(tmp_path)], ScanParams(threshold=0.5)))
    assert len(result.pairs) >= 30
    out = io.StringIO()
    oracle = export._Writer(out, spreadsheet)  # row by row through the csv module: what to_csv wrote before
    oracle.writerow(["a", "b", "estimate", "jaccard"])
    for a, b, e, j, _ in pair_rows(result):
        oracle.writerow([a, b, f"{e:.6f}", f"{j:.6f}"])
    assert to_csv(result, spreadsheet) == out.getvalue()
    rows = list(csv.reader(io.StringIO(to_csv(result, spreadsheet))))[1:]
    assert {r[0].removeprefix("'") for r in rows} | {r[1].removeprefix("'") for r in rows} == set(display_paths(result))
