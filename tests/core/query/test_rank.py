"""Find like this: rankings equal the brute force (Python sets) on a small corpus, by Jaccard and by containment;
the filters; and on the shared dev corpus, the brute-force top 5 of 20 random documents (>= 95 %)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from core_helpers import containment, jaccard, make_words, mutate, planted_excerpts, write_tree

from lshdesk.core.errors import ParamError
from lshdesk.core.params import ScanParams, ShingleSpec
from lshdesk.core.query.corpus import sign_files, signed_corpus
from lshdesk.core.query.rank import pool_size, rank
from lshdesk.core.scan.pipeline import run
from lshdesk.core.shingle_kinds import shingle_strings

SPEC = ShingleSpec("word", 3)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A query and 300 documents derived from it at graded edit rates (Jaccard spread over (0, 1)), 100 unrelated
    ones, and 5 excerpts: more documents than one candidate pool, so the pool must pick the right ones."""
    rng = np.random.default_rng(11)
    base = make_words(rng, 400, vocab_size=20000)
    texts = {"query.txt": " ".join(base)}
    for i in range(300):
        texts[f"near/d{i:03d}.txt"] = " ".join(mutate(rng, base, int(rng.integers(5, 200))))
    for i in range(100):
        texts[f"far/u{i:03d}.txt"] = " ".join(make_words(rng, 400, vocab_size=20000))
    for i in range(5):
        s = int(rng.integers(0, 300))
        texts[f"part/p{i}.txt"] = " ".join(base[s : s + 80])
    root = tmp_path_factory.mktemp("graded")
    write_tree(root, texts)
    result = run(signed_corpus([str(root / "near"), str(root / "far"), str(root / "part")], ScanParams()))
    return root, texts, result


def brute_force(texts, result, query: str, measure: str, top: int):
    q = shingle_strings(texts[query], SPEC)
    rows = []
    for i, rel in enumerate(result.docs.paths):
        key = next(k for k in texts if rel.endswith("/" + k))
        d = shingle_strings(texts[key], SPEC)
        j, c = jaccard(q, d), containment(q, d)
        if q & d:
            v, o = (j, c) if measure == "jaccard" else (c, j)
            rows.append((-v, -o, i, j, c))
    rows.sort()
    return [(i, j, c) for _, _, i, j, c in rows[:top]]


@pytest.mark.parametrize("measure", ["jaccard", "containment"])
@pytest.mark.parametrize("top", [1, 10, 40])
def test_ranking_equals_brute_force(graded, measure, top):
    root, texts, result = graded
    assert len(result.docs) > pool_size(top)
    batch, sigs = sign_files([str(root / "query.txt")], ScanParams())
    m = rank(result.signatures, result.shingles, sigs[0], batch.doc(0), top, measure=measure)
    want = brute_force(texts, result, "query.txt", measure, top)
    assert m.index.tolist() == [i for i, _, _ in want]
    assert m.jaccard.tolist() == pytest.approx([j for _, j, _ in want], abs=1e-9)
    assert m.containment.tolist() == pytest.approx([c for _, _, c in want], abs=1e-9)
    value = m.jaccard if measure == "jaccard" else m.containment
    assert np.all(np.diff(value) <= 0)


def test_excerpts_lead_by_containment_not_by_jaccard(graded):
    root, texts, result = graded
    batch, sigs = sign_files([str(root / "part" / "p0.txt")], ScanParams())
    here = result.docs.paths.index(str(root / "part" / "p0.txt"))
    by_c = rank(result.signatures, result.shingles, sigs[0], batch.doc(0), 5, measure="containment", exclude=[here])
    by_j = rank(result.signatures, result.shingles, sigs[0], batch.doc(0), 5, measure="jaccard", exclude=[here])
    assert here not in by_c.index.tolist()
    assert by_c.containment[0] == pytest.approx(1.0)  # the excerpt is wholly inside the lightly edited copies
    assert by_j.jaccard[0] < 0.3 and by_c.jaccard.max() < 0.3


def test_min_similarity_and_arguments(graded):
    root, _, result = graded
    batch, sigs = sign_files([str(root / "query.txt")], ScanParams())
    m = rank(result.signatures, result.shingles, sigs[0], batch.doc(0), 400, min_similarity=0.5)
    assert len(m) > 0 and m.jaccard.min() >= 0.5
    assert len(m) == int(
        np.sum(rank(result.signatures, result.shingles, sigs[0], batch.doc(0), 400, exhaustive=True).jaccard >= 0.5)
    )
    with pytest.raises(ParamError, match="jaccard or containment"):
        rank(result.signatures, result.shingles, sigs[0], batch.doc(0), 5, measure="cosine")
    with pytest.raises(ParamError, match="at least 1"):
        rank(result.signatures, result.shingles, sigs[0], batch.doc(0), 0)


def test_planted_excerpt_finds_its_source(tmp_path):
    texts, source = planted_excerpts(np.random.default_rng(4), n=10)
    write_tree(tmp_path, texts)
    result = run(signed_corpus([str(tmp_path)], ScanParams()))
    names = list(source)
    batch, sigs = sign_files([str(tmp_path / n) for n in names], ScanParams())
    for i, name in enumerate(names):
        m = rank(
            result.signatures,
            result.shingles,
            sigs[i],
            batch.doc(i),
            1,
            measure="containment",
            exclude=[result.docs.rel.index(name)],
        )
        assert result.docs.rel[int(m.index[0])] == source[name]
        assert m.containment[0] >= 0.8


def _dev_docs() -> Path:
    """The shared dev corpus's documents (beside the repository, or at the machine's shared place), else skip."""
    beside = Path(__file__).resolve().parents[3].parent / "shared" / "corpora" / "dev" / "docs"
    for docs in (beside, Path("/work/shared/corpora/dev/docs")):
        if docs.is_dir():
            return docs
    pytest.skip("the shared dev corpus (../shared/corpora/dev/docs) is not here")


def test_dev_corpus_top5_matches_brute_force():
    """Done when: the brute-force top 5 (by exact Jaccard) for >= 95 % of the neighbours of 20 random documents."""
    result = run(signed_corpus([str(_dev_docs())], ScanParams()))
    rng = np.random.default_rng(2026)
    found = expected = 0
    for d in rng.choice(len(result.docs), 20, replace=False).tolist():
        args = (result.signatures, result.shingles, result.signatures[d], result.shingles.doc(d), 5)
        want = rank(*args, exclude=[d], exhaustive=True)
        got = rank(*args, exclude=[d])
        expected += len(want)
        found += len(set(want.index.tolist()) & set(got.index.tolist()))
    assert expected >= 80
    assert found / expected >= 0.95


@pytest.mark.parametrize("q_size", [0, 1, 7, 300, 5000])
def test_query_intersections_equal_python_sets(q_size):
    """The bitmap-and-binary-search kernel against plain set intersections: empty sets, ids colliding in the
    bitmap's low bits (multiples of 2**20 share them), queries larger than the documents."""
    from lshdesk.core.kernels.pairs import query_intersection_sizes

    rng = np.random.default_rng(q_size)
    pool = np.unique(np.concatenate([rng.integers(0, 2**32, 20000), np.arange(40) * 2**20])).astype(np.uint32)
    q = np.unique(rng.choice(pool, q_size, replace=False)).astype(np.uint32) if q_size else pool[:0]
    docs = [np.unique(rng.choice(pool, int(rng.integers(0, 600)), replace=False)) for _ in range(60)]
    offsets = np.zeros(len(docs) + 1, dtype=np.int64)
    np.cumsum([len(d) for d in docs], out=offsets[1:])
    ids = np.concatenate(docs).astype(np.uint32)
    want = [len(set(q.tolist()) & set(d.tolist())) for d in docs]
    order = rng.permutation(len(docs)).astype(np.int64)
    got = query_intersection_sizes(q, ids, offsets, order)
    assert got.tolist() == [want[i] for i in order]
