"""The ``lshdesk`` command line: ``scan`` (CSV / JSON, --output, reference folders, filters), ``signature``, and
bad usage (exit 2, one line on standard error, never a traceback). One test runs the installed console script."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

from lshdesk.cli import main
from lshdesk.core.minhash import sign_texts
from lshdesk.core.params import ShingleSpec, SignatureParams
from lshdesk.core.shingle_kinds import shingle_strings


def _words(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 8))) for _ in range(n)]


def _mutate(rng: random.Random, words: list[str], n: int) -> list[str]:
    out = list(words)
    for i in rng.sample(range(len(out)), n):
        out[i] = f"changed{rng.randrange(10**9)}"
    return out


def _write(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(content) if isinstance(content, bytes) else p.write_text(content, encoding="utf-8")


def _jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A folder with near-duplicates (in subfolders), an unrelated file and files that are skipped."""
    root = tmp_path_factory.mktemp("cli") / "docs"
    rng = random.Random(12)
    a, b = _words(rng, 150), _words(rng, 150)
    texts = {
        "a.txt": " ".join(a),
        "copies/a_copy.txt": " ".join(_mutate(rng, a, 2)),
        "copies/deeper/a_again.md": " ".join(_mutate(rng, a, 4)),
        "b.txt": " ".join(b),
        "b_copy.txt": " ".join(_mutate(rng, b, 1)),
        "lonely.txt": " ".join(_words(rng, 100)),
    }
    junk = {
        "junk/blob.txt": b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(range(256)),  # a zip header and bytes
        "junk/photo.jpg": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00",
        "junk/dots.txt": "...",
    }
    _write(root, {**texts, **junk})
    return root, texts


def truth(texts: dict[str, str], threshold: float, spec=ShingleSpec("word", 3)) -> dict[tuple[str, str], float]:
    sets = {k: shingle_strings(v, spec) for k, v in texts.items()}
    out = {}
    for x, y in combinations(sorted(sets), 2):
        j = _jaccard(sets[x], sets[y])
        if j >= threshold:
            out[(x, y)] = j
    return out


def call(capsys, *argv: str) -> tuple[int, str, str]:
    """Run main(argv); argparse's errors exit via SystemExit, ours return the code: both give (code, out, err)."""
    try:
        code = main(list(argv))
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ scan


def test_scan_csv(corpus, capsys):
    root, texts = corpus
    code, out, err = call(capsys, "scan", str(root), "--threshold", "0.6")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "a,b,estimate,jaccard"
    rows = list(csv.DictReader(io.StringIO(out)))
    want = truth(texts, 0.6)
    assert len(want) == 4
    assert {(r["a"], r["b"]) for r in rows} == set(want)
    for r in rows:
        assert r["a"] < r["b"]
        assert not os.path.isabs(r["a"]) and "\\" not in r["a"] + r["b"]
        assert all(len(r[c].split(".")[1]) == 6 for c in ("estimate", "jaccard"))
        assert float(r["jaccard"]) == pytest.approx(want[(r["a"], r["b"])], abs=5e-7)
    jac = [float(r["jaccard"]) for r in rows]
    assert jac == sorted(jac, reverse=True)
    # a one-line summary on standard error (not a terminal here, so no progress lines)
    assert len(err.splitlines()) == 1 and "documents" in err and "3 skipped" in err


def test_scan_json(corpus, capsys):
    root, texts = corpus
    code, out, err = call(
        capsys,
        "scan",
        str(root),
        "-t",
        "0.6",
        "--format",
        "json",
        "-k",
        "64",
        "--seed",
        "9",
        "--family",
        "datasketch",
        "--shingle",
        "word:2",
        "--quiet",
    )
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert set(doc) == {"params", "documents", "skipped", "pairs", "groups", "group_lowest_similarity"}
    p = doc["params"]
    assert (p["threshold"], p["num_perm"], p["seed"], p["family"], p["shingle"]) == (0.6, 64, 9, "datasketch", "word:2")
    assert p["bands"] * p["rows"] <= 64
    spec = ShingleSpec("word", 2)
    assert {d["path"]: d["shingles"] for d in doc["documents"]} == {
        k: len(shingle_strings(v, spec)) for k, v in texts.items()
    }
    assert {s["path"] for s in doc["skipped"]} == {"junk/blob.txt", "junk/photo.jpg", "junk/dots.txt"}
    assert all(s["reason"] for s in doc["skipped"])
    want = truth(texts, 0.6, spec)
    assert {(q["a"], q["b"]) for q in doc["pairs"]} == set(want)
    for q in doc["pairs"]:
        assert set(q) == {"a", "b", "estimate", "jaccard", "bands"}
        assert q["jaccard"] == pytest.approx(want[(q["a"], q["b"])], abs=5e-7)
    assert sorted(map(sorted, doc["groups"])) == [
        ["a.txt", "copies/a_copy.txt", "copies/deeper/a_again.md"],
        ["b.txt", "b_copy.txt"],
    ]


def test_scan_output_file(corpus, capsys, tmp_path):
    root, _ = corpus
    code, expected, _ = call(capsys, "scan", str(root), "-t", "0.6", "-q")
    assert code == 0
    target = tmp_path / "out.csv"
    code, out, err = call(capsys, "scan", str(root), "-t", "0.6", "-q", "--output", str(target))
    assert code == 0 and out == "" and err == ""
    assert target.read_text(encoding="utf-8") == expected and expected.count("\n") == 5


def test_scan_manual_banding(corpus, capsys):
    root, _ = corpus
    code, out, _ = call(capsys, "scan", str(root), "--bands", "10", "--rows", "3", "-k", "32", "--format", "json", "-q")
    assert code == 0
    p = json.loads(out)["params"]
    assert (p["bands"], p["rows"], p["num_perm"]) == (10, 3, 32)


def test_scan_reference_folder(tmp_path, capsys):
    rng = random.Random(4)
    x, y = _words(rng, 120), _words(rng, 120)
    _write(
        tmp_path,
        {
            "new/x1.txt": " ".join(x),
            "new/x2.txt": " ".join(_mutate(rng, x, 1)),
            "ref/x3.txt": " ".join(_mutate(rng, x, 2)),
            "ref/y1.txt": " ".join(y),
            "ref/y2.txt": " ".join(_mutate(rng, y, 1)),
        },
    )
    new, ref = str(tmp_path / "new"), str(tmp_path / "ref")
    code, out, _ = call(capsys, "scan", new, "--reference", ref, "-t", "0.5", "-q")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    pairs = {(Path(r["a"]).name, Path(r["b"]).name) for r in rows}
    assert pairs == {("x1.txt", "x3.txt"), ("x2.txt", "x3.txt")}  # only new-vs-reference pairs


def test_scan_filters(corpus, capsys):
    root, _ = corpus
    code, out, _ = call(capsys, "scan", str(root), "--include", "*.md", "--format", "json", "-q")
    assert code == 0
    assert [d["path"] for d in json.loads(out)["documents"]] == ["copies/deeper/a_again.md"]
    code, out, _ = call(capsys, "scan", str(root), "--exclude", "copies/*", "--format", "json", "-q")
    docs = {d["path"] for d in json.loads(out)["documents"]}
    assert code == 0 and docs == {"a.txt", "b.txt", "b_copy.txt", "lonely.txt"}
    code, out, _ = call(capsys, "scan", str(root), "--all-files", "--format", "json", "-q")
    skipped = {s["path"]: s["reason"] for s in json.loads(out)["skipped"]}
    assert code == 0 and skipped["junk/photo.jpg"].startswith("binary")  # read this time, then refused
    code, out, _ = call(capsys, "scan", str(root), "--max-size", "0.0001", "--format", "json", "-q")  # ~100 bytes
    doc = json.loads(out)
    assert code == 0 and doc["documents"] == [] and any("size cap" in s["reason"] for s in doc["skipped"])


def test_folder_links_are_skipped_unless_followed_and_never_outside(corpus, tmp_path, capsys):
    root, _ = corpus
    outside = tmp_path / "mine"
    outside.mkdir()
    (outside / "own.txt").write_text("the user's own words, outside the scanned folder " * 5)
    os.symlink(root / "copies", root / "view")
    os.symlink(outside, root / "mine")
    try:
        code, out, _ = call(capsys, "scan", str(root), "--format", "json", "-q")
        doc = json.loads(out)
        skipped = {s["path"]: s["reason"] for s in doc["skipped"]}
        assert code == 0 and skipped["view"].startswith("link to a folder, not followed")
        assert skipped["mine"].startswith("link to a folder outside the scanned folder")
        code, out, _ = call(capsys, "scan", str(root), "--follow-links", "--format", "json", "-q")
        doc = json.loads(out)
        skipped = {s["path"]: s["reason"] for s in doc["skipped"]}
        paths = {d["path"] for d in doc["documents"]}
        assert code == 0 and "copies/deeper/a_again.md" in paths  # read once: copies/ sorts before view/
        assert skipped["view"].startswith("folder already visited")
        assert not any(p.startswith("mine/") for p in paths) and "outside" in skipped["mine"]
    finally:
        os.unlink(root / "view")
        os.unlink(root / "mine")


def test_skipped_files_still_exit_0(tmp_path, capsys):
    _write(tmp_path, {"bin.txt": b"\x00\x01\x02\xff" * 10, "empty.txt": "", "ok.txt": "just some words here"})
    code, out, err = call(capsys, "scan", str(tmp_path))
    assert code == 0 and out == "a,b,estimate,jaccard\n"
    assert "2 skipped" in err


# ------------------------------------------------------------------ signature


@pytest.mark.parametrize(
    "opts, params",
    [
        ([], SignatureParams()),
        (
            ["-k", "16", "--seed", "12345", "--family", "article", "--shingle", "word"],
            SignatureParams(ShingleSpec("word", 1), "article", 16, 12345),
        ),
        (
            ["--num-perm", "40", "--seed", "0", "--family", "datasketch", "--shingle", "char:4"],
            SignatureParams(ShingleSpec("char", 4), "datasketch", 40, 0),
        ),
    ],
    ids=["defaults", "article", "datasketch"],
)
def test_signature_json(tmp_path, capsys, opts, params):
    texts = {"one.txt": "The cat sat on the mat, said the Café.", "two.md": "a dog sat on a log\nand the cat too"}
    _write(tmp_path, texts)
    paths = [str(tmp_path / n) for n in texts]
    code, out, err = call(capsys, "signature", *paths, *opts, "--format", "json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert list(doc) == ["signatures"]
    assert [s["path"] for s in doc["signatures"]] == paths
    want = sign_texts(list(texts.values()), params)
    for s, row in zip(doc["signatures"], want):
        assert set(s) == {"path", "values"}
        assert s["values"] == row.tolist() and len(s["values"]) == params.k


def test_signature_of_a_binary_file_fails_with_one_line(tmp_path, capsys):
    _write(tmp_path, {"bin.dat": b"\x00\x01\xfe\xff" * 30})
    code, out, err = call(capsys, "signature", str(tmp_path / "bin.dat"))
    assert code == 1 and out == "" and len(err.splitlines()) == 1 and "binary" in err


# ------------------------------------------------------------------ bad usage


@pytest.mark.parametrize(
    "argv",
    [
        ["scan", "{root}", "--threshold", "1.5"],
        ["scan", "{root}", "--threshold", "0"],
        ["scan", "{root}", "-t", "abc"],
        ["scan", "{root}", "--bands", "4"],
        ["scan", "{root}", "--rows", "4"],
        ["scan", "{root}", "--bands", "40", "--rows", "4"],  # 160 > k = 128
        ["scan", "{root}", "-k", "8", "-b", "3", "-r", "3"],
        ["scan", "{root}/does-not-exist"],
        ["scan", "{root}", "--family", "md5"],
        ["scan", "{root}", "-k", "0"],
        ["scan", "{root}", "-k", "5000"],
        ["scan", "{root}", "--seed", "-1"],
        ["scan", "{root}", "--shingle", "char"],
        ["scan", "{root}", "--format", "xml"],
        ["scan"],
        ["signature", "{root}/missing.txt"],
        ["signature", "{root}/a.txt", "--family", "nope"],
        ["frobnicate"],
    ],
    ids=lambda a: " ".join(a[1:]) or a[0],
)
def test_bad_usage_exits_2_with_one_line(corpus, capsys, argv):
    root, _ = corpus
    code, out, err = call(capsys, *[a.replace("{root}", str(root)) for a in argv])
    assert code == 2
    assert out == ""
    assert len(err.splitlines()) == 1 and err.endswith("\n"), err
    assert "Traceback" not in err and "error" in err


def test_bands_times_rows_message_says_how_to_fix(corpus, capsys):
    root, _ = corpus
    code, _, err = call(capsys, "scan", str(root), "--bands", "40", "--rows", "4")
    assert code == 2 and "160" in err and "128" in err and "lower bands or rows, or raise k" in err


def test_version(capsys):
    code, out, _ = call(capsys, "--version")
    assert code == 0 and out.startswith("lshdesk ")


def test_a_frozen_build_lets_a_spawned_process_run_its_job_first(capsys, monkeypatch):
    import multiprocessing

    calls: list[int] = []
    monkeypatch.setattr(multiprocessing, "freeze_support", lambda: calls.append(1))
    call(capsys, "--version")
    assert calls == []  # not frozen: nothing to do
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    code, out, _ = call(capsys, "--version")
    assert calls == [1] and code == 0 and out.startswith("lshdesk ")


# ------------------------------------------------------------------ the installed command


def test_console_script_runs_a_scan(corpus):
    root, texts = corpus
    script = Path(sys.executable).with_name("lshdesk")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "lshdesk"]
    r = subprocess.run(
        [*cmd, "scan", str(root), "-t", "0.6", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert {(p["a"], p["b"]) for p in doc["pairs"]} == set(truth(texts, 0.6))
    assert len(r.stderr.splitlines()) == 1 and "Traceback" not in r.stderr
    bad = subprocess.run(
        [*cmd, "scan", str(root), "-t", "2"], capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL
    )
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1 and bad.stdout == ""


def test_formats_option_limits_what_is_read_and_rejects_unknown_formats(tmp_path, capsys):
    from lshdesk.cli import main

    text = "the same words in a plain file and in a web page make a near duplicate pair " * 4
    (tmp_path / "a.txt").write_text(text)
    (tmp_path / "b.html").write_text(f"<html><head><script>var x;</script></head><body><p>{text}</p></body></html>")
    assert main(["scan", str(tmp_path), "--format", "json", "-q"]) == 0
    both = json.loads(capsys.readouterr().out)
    assert [(p["a"], p["b"]) for p in both["pairs"]] == [("a.txt", "b.html")] and both["pairs"][0]["jaccard"] == 1.0
    assert main(["scan", str(tmp_path), "--format", "json", "-q", "--formats", "txt"]) == 0
    only = json.loads(capsys.readouterr().out)
    assert [d["path"] for d in only["documents"]] == ["a.txt"]
    assert only["skipped"] == [{"path": "b.html", "reason": "format not selected: html"}]
    with pytest.raises(SystemExit) as bad:
        main(["scan", str(tmp_path), "--formats", "xls"])
    assert bad.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "xls" in err[0]


@pytest.mark.parametrize("cap", ["0", "inf", "nan", "-inf", "1e300"])
def test_a_size_cap_of_zero_or_no_number_is_refused(tmp_path, capsys, cap):
    from lshdesk.cli import main

    with pytest.raises(SystemExit) as bad:
        main(["scan", str(tmp_path), f"--max-size={cap}"])
    assert bad.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "more than 0 MB" in err[0] and "Traceback" not in err[0]


def test_cache_dir_and_no_cache(tmp_path, capsys):
    from lshdesk.cli import main

    docs = tmp_path / "docs"
    docs.mkdir()
    page = "<html><body><p>" + "a page of words that repeat in two copies of it " * 5 + "</p></body></html>"
    (docs / "a.html").write_text(page)
    (docs / "b.html").write_text(page)
    cache_dir = tmp_path / "cache"
    assert main(["scan", str(docs), "--cache-dir", str(cache_dir)]) == 0
    assert (cache_dir / "signatures.sqlite3").is_file()
    first = capsys.readouterr().out
    assert main(["scan", str(docs), "--cache-dir", str(cache_dir)]) == 0
    assert capsys.readouterr().out == first
    other = tmp_path / "other"
    assert main(["scan", str(docs), "--no-cache", "--cache-dir", str(other)]) == 0
    assert not other.exists()


def test_reference_folder_named_with_a_trailing_slash(tmp_path, capsys):
    from lshdesk.cli import main

    text = "a report that was copied from the reference folder into the new one, word for word " * 3
    for folder in ("new", "ref"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "doc.txt").write_text(text)
    (tmp_path / "new" / "other.txt").write_text(text)  # a pair inside the new folder: not reported
    outs = []
    for ref in ("ref", "ref/", "./ref"):
        assert (
            main(
                [
                    "scan",
                    str(tmp_path / "new"),
                    os.path.join(str(tmp_path), ref),
                    "--reference",
                    os.path.join(str(tmp_path), ref),
                    "--format",
                    "json",
                    "-q",
                ]
            )
            == 0
        )
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0]["pairs"] and all(o["pairs"] == outs[0]["pairs"] for o in outs)
    assert all(("ref/" in p["a"]) != ("ref/" in p["b"]) for p in outs[0]["pairs"])
    assert len(outs[0]["pairs"]) == 2


def test_names_do_not_depend_on_the_disk_after_the_scan(tmp_path):
    import shutil

    from lshdesk.core.params import ScanParams
    from lshdesk.core.persistence.export import display_paths
    from lshdesk.core.scan.pipeline import run, scan

    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "x.txt").write_text("the same few words in two folders " * 5)
    single = tmp_path / "single.txt"
    single.write_text("a single file given on its own " * 5)
    result = run(scan([str(tmp_path / "a"), str(tmp_path / "b"), str(single)], ScanParams(threshold=0.5)))
    before = display_paths(result)
    shutil.rmtree(tmp_path / "b")
    single.unlink()
    assert display_paths(result) == before
    assert before == [f"{tmp_path}/a/x.txt", f"{tmp_path}/b/x.txt", str(single)]
