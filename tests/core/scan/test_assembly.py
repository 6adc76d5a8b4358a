"""The scan's two stages and its one assembly: results built by keyword only, every field of the signed corpus and
of the pair stage carried over, a query that signs without looking for pairs."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.query.corpus import containment_scan, signed_corpus
from lshdesk.core.scan.pipeline import Documents, ScanResult, SignedCorpus, assemble, run, scan
from lshdesk.core.scan.stages import Found


@pytest.fixture
def folder(tmp_path):
    base = " ".join(f"w{i * 7919 % 1000}" for i in range(200))
    texts = {"a.txt": base, "b.txt": base + " and a tail", "c.txt": base[: len(base) // 2], "d.txt": "other words"}
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return str(tmp_path)


def _names(cls) -> set[str]:
    return {f.name for f in fields(cls)}


def test_results_and_documents_are_built_by_keyword_only():
    with pytest.raises(TypeError):
        Documents([], [], np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64))  # type: ignore[misc]
    with pytest.raises(TypeError):
        ScanResult((), ScanParams())  # type: ignore[misc]


def test_a_result_is_the_signed_corpus_the_scheme_and_what_the_pair_stage_found():
    assert _names(ScanResult) == _names(SignedCorpus) | _names(Found) | {"banding", "scheme_note"}


def test_the_assembly_carries_every_field_over(folder):
    corpus = run(signed_corpus([folder], ScanParams()))
    z = np.zeros(0, np.int64)
    found = Found(candidates=object(), pairs=object(), groups=[z], group_min=np.ones(1))  # type: ignore[arg-type]
    result = assemble(corpus, Banding(2, 3), found, seconds=9.0, stage_seconds={"x": 1.0}, scheme_note="why")
    for name in _names(SignedCorpus) - {"seconds", "stage_seconds"}:
        assert getattr(result, name) is getattr(corpus, name), name
    for name in _names(Found):
        assert getattr(result, name) is getattr(found, name), name
    assert (result.banding, result.seconds, result.stage_seconds) == (Banding(2, 3), 9.0, {"x": 1.0})
    assert result.scheme_note == "why"


def test_a_query_signs_the_corpus_and_looks_for_no_pairs(folder):
    seen = []
    corpus = run(signed_corpus([folder], ScanParams()), seen.append)
    assert type(corpus) is SignedCorpus and {p.stage for p in seen} <= {"listing", "compiling", "reading", "done"}
    result = run(scan([folder], ScanParams(threshold=0.5)))
    assert len(result.pairs) >= 1
    assert corpus.docs.paths == result.docs.paths and np.array_equal(corpus.signatures, result.signatures)
    assert np.array_equal(corpus.shingles.ids, result.shingles.ids)


def test_a_containment_scan_is_the_signed_corpus_and_its_own_pairs(folder):
    corpus = run(signed_corpus([folder], ScanParams(threshold=0.5)))
    result = run(containment_scan([folder], ScanParams(threshold=0.5)))
    assert result.params.measure == "containment" and result.banding == Banding(1, result.params.signature.k)
    assert np.array_equal(corpus.signatures, result.signatures) and corpus.docs.rel == result.docs.rel
    assert set(result.stage_seconds) == {"listing", "reading", "banding+verifying", "grouping"}
    contained = {(result.docs.rel[l], result.docs.rel[r]) for l, r in zip(result.pairs.left, result.pairs.right)}
    assert ("c.txt", "a.txt") in contained  # the first half of a is inside a
