"""The scan pipeline end to end on small generated folders (planted near-duplicates, brute-force truth), progress,
cancel, reference folders, skipped documents; and on the shared dev corpus against its exact truth.csv."""

from __future__ import annotations

import csv
import os
import threading
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from core_helpers import jaccard, make_words, mutate, tree_digest, write_tree

from lshdesk.core.errors import ScanCancelled
from lshdesk.core.minhash import estimate_pairs
from lshdesk.core.params import ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scan.pipeline import Progress, run, scan
from lshdesk.core.shingle_kinds import shingle_strings

STAGES = ["listing", "reading", "estimating", "banding", "verifying", "grouping", "done"]


def planted_folder(root: Path, seed: int = 3) -> dict[str, str]:
    """Five base texts with two near copies each (1 and 3 of 200 words changed: every pair of the three has a
    word:3 Jaccard above 0.85), unrelated texts, and files to skip."""
    rng = np.random.default_rng(seed)
    files: dict[str, str | bytes] = {}
    for b in range(5):
        words = make_words(rng, 200)
        files[f"base{b}/original.txt"] = " ".join(words)
        files[f"base{b}/copy_light.txt"] = " ".join(mutate(rng, words, 1))
        files[f"copies/base{b}_heavy.md"] = " ".join(mutate(rng, words, 3))
    for u in range(8):
        files[f"other/unrelated{u}.txt"] = " ".join(make_words(rng, 150))
    files["other/punctuation.txt"] = "!!! ... --- ??? *** ;;;"
    files["other/binary.txt"] = b"\x00\x01\x02\x03" * 50
    files["other/empty.txt"] = ""
    files["other/image.png"] = b"\x89PNG\r\n"
    write_tree(root, files)
    return {k: v for k, v in files.items() if isinstance(v, str)}


def truth_pairs(texts: dict[str, str], spec: ShingleSpec, threshold: float) -> dict[tuple[str, str], float]:
    sets = {k: shingle_strings(v, spec) for k, v in texts.items()}
    out = {}
    for a, b in combinations(sorted(sets), 2):
        j = jaccard(sets[a], sets[b])
        if j >= threshold and sets[a] and sets[b]:
            out[(a, b)] = j
    return out


def found_pairs(result) -> dict[tuple[str, str], float]:
    rel = result.docs.rel
    return {
        tuple(sorted((rel[l], rel[r]))): j
        for l, r, j in zip(result.pairs.left.tolist(), result.pairs.right.tolist(), result.pairs.jaccard.tolist())
    }


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    root = tmp_path_factory.mktemp("planted")
    texts = planted_folder(root)
    return root, texts


@pytest.mark.parametrize("family", ["fast", "article", "datasketch"])
def test_scan_finds_planted_near_duplicates(planted, family):
    root, texts = planted
    spec = ShingleSpec("word", 3)
    params = ScanParams(SignatureParams(spec, family, 128, 1), threshold=0.5)
    result = run(scan([str(root)], params))
    truth = truth_pairs(texts, spec, 0.5)
    found = found_pairs(result)
    # every reported pair is real, with its exact similarity
    assert set(found) <= set(truth)
    for p, j in found.items():
        assert j == pytest.approx(truth[p], abs=1e-12)
    # the 15 planted pairs are far above the threshold (J >= 0.85), where the scheme chosen for 0.5 (25 x 5 at
    # k = 128) misses a pair with probability (1 - 0.85^5)^25 < 1e-6: all of them must be found
    planted_pairs = {p for p, j in truth.items() if j >= 0.85}
    assert len(planted_pairs) == 15 and planted_pairs <= set(found)
    # the estimates are the signatures' agreement, and the groups are the five families of copies
    est = estimate_pairs(result.signatures, result.pairs.left, result.pairs.right)
    assert np.allclose(result.pairs.estimate, est)
    assert sorted(len(g) for g in result.groups) == [3] * 5


def test_scan_documents_and_skipped_cover_every_file(planted):
    root, texts = planted
    before = tree_digest(root)
    result = run(scan([str(root)], ScanParams(threshold=0.5)))
    assert tree_digest(root) == before  # not a byte changed
    skipped = {os.path.relpath(s.path, root).replace(os.sep, "/"): s.reason for s in result.skipped}
    docs = set(result.docs.rel)
    all_files = set(before)
    assert docs | set(skipped) == {p.replace(os.sep, "/") for p in all_files}
    assert not docs & set(skipped)
    assert skipped["other/punctuation.txt"].startswith("no words to compare")
    assert skipped["other/binary.txt"].startswith("binary")
    assert skipped["other/empty.txt"] == "empty file"
    assert "not a text file type" in skipped["other/image.png"]
    # per-document arrays line up with the documents
    n = len(result.docs)
    assert result.signatures.shape == (n, 128) and len(result.shingles) == n
    for i, rel in enumerate(result.docs.rel):
        assert result.shingles.counts()[i] == len(shingle_strings(texts[rel], ShingleSpec("word", 3)))
        assert result.docs.paths[i] == os.path.join(str(root), *rel.split("/"))
        assert result.docs.size[i] == len(texts[rel].encode("utf-8"))


@pytest.fixture(scope="module")
def many(tmp_path_factory):
    """1200 short files (more than one reading batch of any sensible size), near-duplicates planted far apart in
    scan order, and punctuation-only files sprinkled in."""
    root = tmp_path_factory.mktemp("many")
    rng = np.random.default_rng(8)
    texts = {f"{i:04d}.txt": " ".join(make_words(rng, 40, vocab_size=20000)) for i in range(1200)}
    for a, b in [("0000", "1199"), ("0100", "0700"), ("0513", "0514"), ("0600", "1100")]:
        texts[f"{b}.txt"] = " ".join(mutate(rng, texts[f"{a}.txt"].split(), 1))
    for i in range(50, 1200, 97):
        texts[f"{i:04d}.txt"] = "... !!! ???"
    write_tree(root, texts)
    return root, texts


def _truth_by_index(texts: dict[str, str], spec: ShingleSpec, threshold: float) -> dict[tuple[str, str], float]:
    """Brute force with plain sets, through an inverted index (only pairs sharing a shingle can have J > 0)."""
    sets = {k: shingle_strings(v, spec) for k, v in texts.items()}
    index: dict[str, list[str]] = {}
    for name in sorted(sets):
        for sh in sets[name]:
            index.setdefault(sh, []).append(name)
    pairs = {(a, b) for names in index.values() for a, b in combinations(names, 2)}
    return {p: j for p in pairs if (j := jaccard(sets[p[0]], sets[p[1]])) >= threshold}


def test_scan_across_many_batches(many):
    root, texts = many
    seen: list[Progress] = []
    result = run(scan([str(root)], ScanParams(threshold=0.7)), seen.append)
    truth = _truth_by_index(texts, ShingleSpec("word", 3), 0.7)
    assert len(truth) == 4  # the planted pairs (one word of 40 changed: J about 0.85)
    assert found_pairs(result) == pytest.approx(truth, abs=1e-12)
    punct = {k for k, v in texts.items() if v.startswith("...")}
    assert {os.path.basename(s.path) for s in result.skipped} == punct
    assert set(result.docs.rel) == set(texts) - punct and result.docs.rel == sorted(result.docs.rel)
    reading = [p for p in seen if p.stage == "reading"]  # batches read during the listing are counted at once
    assert reading and reading[-1].done == reading[-1].total == 1200
    assert [p.done for p in reading] == sorted(p.done for p in reading)


FRENCH = (
    "Voilà une très belle journée à la plage, où l'été est doux; les enfants jouent près de la mer.\n"
    "Les élèves étudient le français à l'école, puis ils goûtent une crème brûlée avec leur père.\n"
)
ASCII = "Snake_case AND CamelCase\r\nword-word\ttab,comma;SEMI\x0bvt 42x y2k __init__ end.\r\n" * 3


@pytest.mark.parametrize("shingle", ["word:3", "word", "char:5"])
def test_same_text_in_any_encoding_gives_the_same_shingles(tmp_path, shingle):
    files = {f"fr_{enc}.txt": FRENCH.encode(enc) for enc in ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "latin-1")}
    files.update({f"ascii_{enc}.txt": ASCII.encode(enc) for enc in ("ascii", "utf-8-sig", "utf-16-le", "utf-16-be")})
    write_tree(tmp_path, files)
    spec = ShingleSpec.parse(shingle)
    result = run(scan([str(tmp_path)], ScanParams(SignatureParams(spec, "fast", 64, 1), threshold=1.0)))
    assert not result.skipped and len(result.docs) == 9
    for i, rel in enumerate(result.docs.rel):
        text = FRENCH if rel.startswith("fr_") else ASCII
        assert result.shingles.counts()[i] == len(shingle_strings(text, spec)), rel
    assert sorted(len(g) for g in result.groups) == [4, 5]  # each text's encodings, all identical (J = 1)
    assert len(result.pairs) == 10 + 6 and np.all(result.pairs.jaccard == 1.0)


def test_progress_stages_in_order(planted):
    root, texts = planted
    seen: list[Progress] = []
    result = run(scan([str(root)], ScanParams(threshold=0.5)), seen.append)
    stages = [p.stage for p in seen]
    assert stages[-1] == "done" and stages.count("done") == 1
    assert [STAGES.index(s) for s in stages] == sorted(STAGES.index(s) for s in stages)
    assert {"reading", "banding", "grouping"} <= set(stages)
    reading = [p for p in seen if p.stage == "reading"]
    assert reading[0].done <= reading[-1].done == reading[-1].total > 0  # from the batches read while listing
    assert [p.done for p in reading] == sorted(p.done for p in reading)
    for p in seen:
        assert p.done >= 0 and (p.total == 0 or p.done <= p.total)
    assert [p.elapsed for p in seen] == sorted(p.elapsed for p in seen)
    assert seen[-1].done == len(result.docs)


def test_cancel_from_the_progress_callback(planted):
    root, _ = planted
    cancel = threading.Event()
    seen = []

    def on_progress(p):
        seen.append(p.stage)
        if p.stage == "reading":
            cancel.set()

    with pytest.raises(ScanCancelled):
        run(scan([str(root)], ScanParams(threshold=0.5), cancel=cancel), on_progress)
    # answered at the next check: no progress after the one that asked to cancel
    assert seen[-1] == "reading" and seen.count("reading") == 1


def test_reference_folder_reports_only_cross_pairs(tmp_path):
    rng = np.random.default_rng(9)
    x, y, z = (make_words(rng, 150) for _ in range(3))
    write_tree(
        tmp_path,
        {
            "new/x1.txt": " ".join(x),
            "new/x2.txt": " ".join(mutate(rng, x, 2)),
            "new/z1.txt": " ".join(z),
            "new/z2.txt": " ".join(mutate(rng, z, 2)),  # a pair inside the scanned folder only
            "ref/x3.txt": " ".join(mutate(rng, x, 3)),
            "ref/y1.txt": " ".join(y),
            "ref/y2.txt": " ".join(mutate(rng, y, 2)),  # a pair inside the reference folder only
        },
    )
    roots = [str(tmp_path / "new"), str(tmp_path / "ref")]
    result = run(scan(roots, ScanParams(threshold=0.5), reference=[1]))
    names = {(result.docs.root[i], result.docs.rel[i]) for i in range(len(result.docs))}
    assert len(names) == 7
    pairs = {
        tuple(sorted(((int(result.docs.root[l]), result.docs.rel[l]), (int(result.docs.root[r]), result.docs.rel[r]))))
        for l, r in zip(result.pairs.left.tolist(), result.pairs.right.tolist())
    }
    assert pairs == {((0, "x1.txt"), (1, "x3.txt")), ((0, "x2.txt"), (1, "x3.txt"))}
    cand_roots = result.docs.root[result.candidates.left] != result.docs.root[result.candidates.right]
    assert cand_roots.all()
    # without the reference flag the inner pairs are found too
    plain = run(scan(roots, ScanParams(threshold=0.5)))
    assert len(plain.pairs) == 5


def test_scan_of_an_empty_folder(tmp_path):
    result = run(scan([str(tmp_path)], ScanParams()))
    assert len(result.docs) == 0 and len(result.pairs) == 0 and result.groups == []
    assert result.signatures.shape == (0, 128)


# ------------------------------------------------------------------ the shared dev corpus


def _truth(dev_corpus: Path) -> dict[tuple[str, str], float]:
    with open(dev_corpus / "truth.csv", newline="", encoding="utf-8") as f:
        return {(r["a"], r["b"]): float(r["jaccard_3gram"]) for r in csv.DictReader(f)}


@pytest.mark.parametrize("threshold", [0.5, 0.7, 0.8])
def test_dev_corpus_against_truth(dev_corpus, threshold):
    truth = _truth(dev_corpus)
    result = run(scan([str(dev_corpus / "docs")], ScanParams(threshold=threshold)))
    assert len(result.docs) == 901 and not result.skipped
    found = found_pairs(result)
    want = {p for p, j in truth.items() if j >= threshold}
    # precision: every reported pair is a true pair at the threshold, with truth's similarity (6 decimals)
    assert set(found) <= want
    for p, j in found.items():
        assert j == pytest.approx(truth[p], abs=1e-6)
    # recall of the LSH stage (observed between 0.96 and 0.99 at 0.5 / 0.7 / 0.8 with the defaults)
    recall = len(set(found) & want) / len(want)
    assert recall >= 0.9, recall
