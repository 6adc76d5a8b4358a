"""Verification by the similarity join equals the plain merge; a group's lowest similarity with early exits equals
brute force; what a candidate left unmeasured (J = nan) means to the report, the explanation and a session."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from core_helpers import jaccard, make_words, mutate, write_tree

from lshdesk.core.arrays import unique
from lshdesk.core.clustering import exact_jaccard, group_min_similarity
from lshdesk.core.lsh import Candidates
from lshdesk.core.params import ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scan import explain, stages, verify
from lshdesk.core.scan.explain import explain_empty
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.core.shingling import ShingleBatch


def _batch(sets: list[set[int]]) -> ShingleBatch:
    ids = [np.array(sorted(s), dtype=np.uint32) for s in sets]
    offsets = np.zeros(len(sets) + 1, dtype=np.int64)
    np.cumsum([len(a) for a in ids], out=offsets[1:])
    return ShingleBatch(np.concatenate(ids) if ids else np.zeros(0, np.uint32), offsets, np.diff(offsets))


def _corpus(seed: int, n: int = 160) -> list[set[int]]:
    """Sets of 0 to 400 ids from a Zipf-like pool (common ids shared widely), a third of them copies of an earlier
    set, exact, lightly or heavily edited (similarity 0.1 to 1), a few empty and single-id sets."""
    rng = np.random.default_rng(seed)
    pool = (rng.zipf(1.3, 200_000) % 50_000).astype(np.int64) * 2_654_435_761 % (1 << 32)
    sets: list[set[int]] = [set(), {7}, {7}]
    while len(sets) < n:
        if len(sets) > 10 and rng.random() < 0.35:
            base = sorted(sets[rng.integers(3, len(sets))])
            share = rng.choice([1.0, 0.97, rng.uniform(0.3, 1.0)])
            keep = rng.random(len(base)) < share
            extra = rng.choice(pool, 0 if share == 1.0 else rng.integers(0, 60))
            sets.append({int(x) for x in np.asarray(base)[keep]} | {int(x) for x in extra})
        else:
            sets.append({int(x) for x in rng.choice(pool, rng.integers(1, 400))})
    return sets


def _verify(batch: ShingleBatch, left, right, t: float, join: bool, monkeypatch):
    monkeypatch.setattr(verify, "JOIN_MIN_WORK", 0 if join else 1 << 62)
    sigs = np.random.default_rng(1).integers(0, 1 << 32, (len(batch), 16), dtype=np.uint64).astype(np.uint32)
    cands = Candidates(left, right, np.ones(len(left), dtype=np.int64))
    gen = verify.verify_stage(cands, sigs, batch, t, None, lambda: 0.0)
    reports = []
    try:
        while True:
            reports.append(next(gen))
    except StopIteration as stop:
        scored, pairs = stop.value
    assert reports[-1].done == reports[-1].total == len(left)  # progress ends on the whole count
    return scored, pairs


@pytest.mark.parametrize("seed, t", [(1, 0.15), (2, 0.3), (3, 0.5), (4, 0.8), (5, 0.95), (6, 1.0)])
def test_the_join_verifies_exactly_the_pairs_the_merge_verifies(seed, t, monkeypatch):
    sets = _corpus(seed)
    batch = _batch(sets)
    left, right = (np.array(a, dtype=np.int64) for a in zip(*itertools.combinations(range(len(sets)), 2)))
    keep = np.random.default_rng(seed).random(len(left)) < 0.7  # candidates: most pairs, not all
    left, right = left[keep], right[keep]
    merged, want = _verify(batch, left, right, t, False, monkeypatch)
    joined, got = _verify(batch, left, right, t, True, monkeypatch)
    truth = np.array([jaccard(sets[a], sets[b]) for a, b in zip(left.tolist(), right.tolist())])
    np.testing.assert_allclose(merged.jaccard, truth, atol=1e-12)
    assert len(want) > 5  # the corpus has pairs above every threshold tested
    for f in ("left", "right", "jaccard", "estimate"):
        np.testing.assert_array_equal(getattr(got, f), getattr(want, f))
    unmeasured = np.isnan(joined.jaccard)
    assert unmeasured.any() and np.all(truth[unmeasured] < t)  # only pairs below t are left unmeasured
    np.testing.assert_allclose(joined.jaccard[~unmeasured], truth[~unmeasured], atol=1e-12)
    np.testing.assert_array_equal(joined.estimate, merged.estimate)


def test_a_pair_exactly_at_the_threshold_is_kept_by_the_join(monkeypatch):
    base = set(range(100, 130))
    sets = [base, set(range(100, 109)) | set(range(200, 221)), base | set(range(300, 320)), {1, 2, 3}]
    # J(0, 1) = 9 / 51; J(0, 2) = 30 / 50 = 0.6 exactly; J(1, 2) = 9 / 71
    batch = _batch(sets)
    left, right = np.array([0, 0, 1, 0], dtype=np.int64), np.array([1, 2, 2, 3], dtype=np.int64)
    for t in (0.6, 9 / 51):
        _, want = _verify(batch, left, right, t, False, monkeypatch)
        _, got = _verify(batch, left, right, t, True, monkeypatch)
        assert got.left.tolist() == want.left.tolist() and got.right.tolist() == want.right.tolist()
        assert len(got) >= 1


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_a_groups_lowest_similarity_with_early_exits_equals_brute_force(seed):
    sets = _corpus(seed, 90)
    batch = _batch(sets)
    rng = np.random.default_rng(seed)
    members = rng.permutation(len(sets))
    comps = [np.sort(c).astype(np.int64) for c in np.split(members, [1, 3, 40, 41, 90]) if len(c)]
    got = group_min_similarity(comps, batch)
    want = [
        min((jaccard(sets[a], sets[b]) for a, b in itertools.combinations(c.tolist(), 2)), default=1.0) for c in comps
    ]
    np.testing.assert_allclose(got, want, atol=1e-12)
    ranks = verify.RankedIds(batch)
    rare, n_distinct = ranks.rare_first(None)
    assert n_distinct == len(set().union(*sets))
    common = ranks.common_first(None)
    for d in range(len(sets)):  # each document sorted; the rarest first in one naming is last in the other
        a, b = rare[batch.offsets[d] : batch.offsets[d + 1]], common[batch.offsets[d] : batch.offsets[d + 1]]
        assert np.all(np.diff(a) > 0) and np.array_equal(np.sort(n_distinct - 1 - a), b)
    for ids in (rare, common):  # ids renamed by frequency: the same intersections, so the same minimum
        renamed = ShingleBatch(ids, batch.offsets, batch.n_tokens)
        np.testing.assert_allclose(group_min_similarity(comps, renamed), want, atol=1e-12)


def test_a_dense_scan_with_the_join_equals_the_merge_and_explains_itself(tmp_path, monkeypatch):
    rng = np.random.default_rng(3)
    texts = [" ".join(make_words(rng, 150)) for _ in range(40)]
    texts += [" ".join(mutate(rng, t.split(), 6)) for t in texts[:20]]
    write_tree(tmp_path, {f"d{i:03d}.txt": t for i, t in enumerate(texts)})
    params = ScanParams(SignatureParams(ShingleSpec.parse("char:5"), k=64), threshold=0.3)
    monkeypatch.setattr(verify, "JOIN_MIN_WORK", 1 << 62)
    merged = run(scan([str(tmp_path)], params))
    monkeypatch.setattr(verify, "JOIN_MIN_WORK", 0)
    monkeypatch.setattr(stages, "RANK_FROM", 0)  # groups measured on ids renamed common-first
    joined = run(scan([str(tmp_path)], params))
    assert len(joined.pairs) > 10 and np.isnan(joined.candidates.jaccard).any()
    np.testing.assert_array_equal(joined.pairs.jaccard, merged.pairs.jaccard)
    assert [g.tolist() for g in joined.groups] == [g.tolist() for g in merged.groups]
    np.testing.assert_array_equal(joined.group_min, merged.group_min)
    # nothing reaches 0.9: the explanation measures the candidates the join left unmeasured
    high = ScanParams(SignatureParams(ShingleSpec.parse("char:5"), k=64), threshold=0.9)
    empty = run(scan([str(tmp_path)], high))
    assert len(empty.candidates) and np.isnan(empty.candidates.jaccard).all()
    best = float(exact_jaccard(empty.shingles, empty.candidates.left, empty.candidates.right).max())
    monkeypatch.setattr(explain, "SAMPLED_PAIRS", 1000)  # fewer than all 1,770 pairs: the candidates are the source
    assert len(empty.candidates) < 1000
    assert explain_empty(empty).endswith(f"the most similar found is {best:.2f}")


def test_unique_is_numpys_unique():
    rng = np.random.default_rng(0)
    for x in (rng.integers(0, 1 << 40, 5000), rng.integers(0, 9, 500), np.zeros(0, np.int64), np.array([3])):
        np.testing.assert_array_equal(unique(x), np.unique(x))


def test_unmeasured_candidates_survive_a_session_and_are_counted_in_the_report(tmp_path, monkeypatch):
    from lshdesk.core.persistence.report import to_html
    from lshdesk.core.persistence.session import load_session, save_session

    rng = np.random.default_rng(4)
    texts = [" ".join(make_words(rng, 120)) for _ in range(30)]
    texts += [" ".join(mutate(rng, t.split(), 10)) for t in texts[:10]]
    folder = write_tree(tmp_path / "docs", {f"d{i:03d}.txt": t for i, t in enumerate(texts)})
    monkeypatch.setattr(verify, "JOIN_MIN_WORK", 0)
    result = run(scan([str(folder)], ScanParams(SignatureParams(ShingleSpec.parse("char:5"), k=64), threshold=0.5)))
    unmeasured = np.isnan(result.candidates.jaccard)
    assert unmeasured.any() and len(result.pairs)
    save_session(tmp_path / "s.lshdesk", result)
    back, _, _ = load_session(tmp_path / "s.lshdesk")
    np.testing.assert_array_equal(np.isnan(back.candidates.jaccard), unmeasured)
    np.testing.assert_array_equal(back.pairs.jaccard, result.pairs.jaccard)
    assert f"{int(unmeasured.sum()):,} more candidates proven below the threshold" in to_html(result)


def test_the_join_is_not_used_where_its_renaming_would_not_fit_in_memory(monkeypatch):
    work, n_ids = verify.JOIN_MIN_WORK, 550_000_000  # 10 M rows of ~50 words
    assert verify.rank_bytes(1000) == 2048 * 16 + 8000  # the table: the power of two at least twice the ids
    monkeypatch.setattr(verify, "available_memory", lambda: 20 << 30)
    assert verify.uses_join(work, 0.8, 1_000_000) and not verify.uses_join(work, 0.8, n_ids)
    assert not verify.uses_join(work - 1, 0.8, 1_000_000) and not verify.uses_join(work, 0.05, 1_000_000)
    monkeypatch.setattr(verify, "available_memory", lambda: None)  # unknown: as before
    assert verify.uses_join(work, 0.8, n_ids)
