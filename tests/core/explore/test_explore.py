"""The S-curve explorer's core: re-banding figures, exact references (all pairs and sampled), auto-tune goals.

Every expected value comes from an independent computation: Python sets and plain loops over the signature slots,
exact fractions for the similarity bins, datasketch's own optimal-parameter search.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter, defaultdict
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from lshdesk.core.explore.exact import (
    FINE_BINS,
    STORE_FLOOR,
    all_pairs,
    build_reference,
    sample_pairs,
)
from lshdesk.core.explore.figures import RATE_BINS, reband, wilson
from lshdesk.core.explore.tune import Goal, all_schemes, tune
from lshdesk.core.lsh import candidate_pairs
from lshdesk.core.minhash import make_family
from lshdesk.core.params import Banding, SignatureParams
from lshdesk.core.scan.pipeline import run
from lshdesk.core.shingling import ShingleBatch

K = 32


def block_corpus(seed: int = 7, n_docs: int = 40, n_blocks: int = 24, block: int = 12):
    """Documents made of random blocks of ids: pairs share 0..several blocks, so similarities spread over [0, 1]."""
    rng = np.random.default_rng(seed)
    blocks = rng.choice(2**62, size=(n_blocks, block), replace=False).astype(np.uint64)
    sets, prev = [], []
    for d in range(n_docs):
        if d % 4 == 3:  # a near-copy of the previous document: one block swapped
            chosen = list(prev[:-1]) + [int(rng.integers(n_blocks))]
        else:
            chosen = list(rng.choice(n_blocks, size=int(rng.integers(2, 7)), replace=False))
        prev = chosen
        sets.append({int(x) for b in chosen for x in blocks[b]})
    docs = [np.array(sorted(s), dtype=np.uint64) for s in sets]
    offsets = np.zeros(n_docs + 1, dtype=np.int64)
    np.cumsum([len(d) for d in docs], out=offsets[1:])
    batch = ShingleBatch(np.concatenate(docs), offsets, np.array([len(d) for d in docs], dtype=np.int64))
    sigs = make_family(SignatureParams(k=K, seed=3)).sign_ids(batch)
    return sets, batch, sigs


@pytest.fixture(scope="module")
def corpus():
    return block_corpus()


def brute_jaccard(sets):
    return {
        (i, j): Fraction(len(sets[i] & sets[j]), len(sets[i] | sets[j])) for i, j in combinations(range(len(sets)), 2)
    }


def brute_buckets(sigs, b, r):
    """Buckets by plain loops: a dict from each band's tuple of slot values to its documents."""
    out = []
    for band in range(b):
        table = defaultdict(list)
        for d in range(len(sigs)):
            table[tuple(int(v) for v in sigs[d, band * r : (band + 1) * r])].append(d)
        out += [(band, m) for m in table.values() if len(m) > 1]
    return out


def brute_candidates(sigs, b, r):
    """{(i, j): bands collided} from the buckets."""
    cands = Counter()
    for _, members in brute_buckets(sigs, b, r):
        for i, j in combinations(members, 2):
            cands[(i, j)] += 1
    return cands


def brute_agreement(sigs, i, j, b, r):
    return max(sum(int(sigs[i, x] == sigs[j, x]) for x in range(band * r, band * r + r)) for band in range(b))


# ---------------------------------------------------------------- re-banding against brute force


@pytest.mark.parametrize(
    "b, r, t", [(8, 4, 0.5), (16, 2, 0.3), (32, 1, 0.6), (1, 32, 0.8), (5, 5, 0.45), (10, 3, 0.25)]
)
def test_reband_equals_brute_force(corpus, b, r, t):
    sets, batch, sigs = corpus
    jac = brute_jaccard(sets)
    ref = run(all_pairs(batch))
    f = reband(sigs, batch, Banding(b, r), t, ref)

    cands = brute_candidates(sigs, b, r)
    got = dict(zip(zip(f.left.tolist(), f.right.tolist()), f.bands.tolist()))
    assert got == dict(cands)
    assert f.jaccard.tolist() == pytest.approx(
        [float(jac[p]) for p in zip(f.left.tolist(), f.right.tolist())], abs=1e-15
    )

    positives = {p for p, j in jac.items() if j >= Fraction(t).limit_denominator(1000)}
    verified = positives & set(cands)
    assert f.n_verified == len(verified)
    assert f.precision == pytest.approx(len(verified) / len(cands) if cands else float("nan"), nan_ok=True)
    assert f.recall == pytest.approx(len(verified) / len(positives) if positives else float("nan"), nan_ok=True)
    assert f.positives == len(positives)

    missed = positives - set(cands)
    got_missed = list(zip(f.missed_left.tolist(), f.missed_right.tolist()))
    assert set(got_missed) == missed and f.missed_total == len(missed)
    assert [float(jac[p]) for p in got_missed] == sorted((float(jac[p]) for p in missed), reverse=True)
    assert f.missed_agreement.tolist() == [brute_agreement(sigs, i, j, b, r) for i, j in got_missed]
    assert all(a < r for a in f.missed_agreement.tolist())

    buckets = brute_buckets(sigs, b, r)
    assert sorted(f.bucket_sizes.tolist()) == sorted(len(m) for _, m in buckets)
    biggest = max(len(m) for _, m in buckets) if buckets else 0
    if biggest:
        assert len(f.largest[0].members) == biggest
        assert (f.largest[0].band, f.largest[0].members.tolist()) in [(bd, m) for bd, m in buckets]
    assert f.n_pairs == len(sets) * (len(sets) - 1) // 2 and f.n_candidates == len(cands)


def test_candidates_match_the_core_banding_on_planted_duplicates():
    rng = np.random.default_rng(5)
    for dtype, n, k in ((np.uint32, 3000, 64), (np.uint64, 1500, 48)):
        sigs = rng.integers(0, 2**31, size=(n, k)).astype(dtype)
        for s, d in zip(rng.integers(0, n, n // 3), rng.integers(0, n, n // 3)):
            keep = rng.random(k) < rng.uniform(0.2, 1.0)
            sigs[d, keep] = sigs[s, keep]
        sigs[:40, :] = sigs[0]  # one big bucket in every band
        for b, r in ((k // 4, 4), (k, 1), (1, k), (7, 3)):
            f = reband(
                sigs,
                ShingleBatch(np.zeros(0, np.uint64), np.zeros(n + 1, np.int64), np.zeros(n, np.int64)),
                Banding(b, r),
                0.5,
            )
            c = candidate_pairs(sigs, Banding(b, r))
            assert (
                np.array_equal(f.left, c.left) and np.array_equal(f.right, c.right) and np.array_equal(f.bands, c.bands)
            )
            assert len(f.largest[0].members) >= 40


# ---------------------------------------------------------------- exact references


def test_all_pairs_reference_is_exact(corpus):
    sets, batch, _ = corpus
    jac = brute_jaccard(sets)
    ref = run(all_pairs(batch))
    assert ref.mode == "all" and not ref.sampled and ref.n_pairs == len(jac)
    stored = {(int(a), int(b)): j for a, b, j in zip(ref.left, ref.right, ref.jaccard)}
    assert set(stored) == {p for p, j in jac.items() if j >= STORE_FLOOR}
    assert all(stored[p] == pytest.approx(float(jac[p]), abs=1e-15) for p in stored)
    hist = Counter(min(FINE_BINS - 1, int(j * FINE_BINS)) for j in jac.values())  # Fraction: exact floor
    assert ref.hist.tolist() == [hist.get(i, 0) for i in range(FINE_BINS)]
    assert ref.n_zero == sum(1 for j in jac.values() if j == 0) > 0


def test_reference_folders_only_compare_across(corpus):
    sets, batch, sigs = corpus
    is_ref = np.arange(len(sets)) % 3 == 0
    jac = {p: j for p, j in brute_jaccard(sets).items() if is_ref[p[0]] != is_ref[p[1]]}
    ref = run(all_pairs(batch, is_ref))
    assert ref.n_pairs == len(jac) == int(is_ref.sum()) * int((~is_ref).sum())
    assert {(int(a), int(b)) for a, b in zip(ref.left, ref.right)} == {p for p, j in jac.items() if j >= STORE_FLOOR}
    f = reband(sigs, batch, Banding(8, 4), 0.4, ref, is_ref)
    cands = {p for p in brute_candidates(sigs, 8, 4) if is_ref[p[0]] != is_ref[p[1]]}
    assert set(zip(f.left.tolist(), f.right.tolist())) == cands
    positives = {p for p, j in jac.items() if j >= Fraction(2, 5)}
    assert f.recall == pytest.approx(len(positives & cands) / len(positives))


def test_sampled_reference_flags_itself_and_keeps_the_pool(corpus):
    sets, batch, sigs = corpus
    jac = brute_jaccard(sets)
    loose, strict = Banding(16, 2), Banding(2, 16)
    ref = run(build_reference(sigs, batch, [strict, loose], max_work=0, sample_size=50, seed=1))
    assert ref.sampled and ref.mode == "sampled" and ref.sample_size == 50
    assert "Sampled" in ref.describe() and "50" in ref.describe()
    assert ref.pool == loose  # the loosest scheme shown
    pool = set(brute_candidates(sigs, 16, 2))
    listed = {(int(a), int(b)) for a, b in zip(ref.left, ref.right)}
    assert pool <= listed and len(listed) == len(pool) + 50 and ref.pool_size == len(pool)
    assert ref.weight.sum() == pytest.approx(len(jac))  # the sample stands for every pair outside the pool
    assert ref.hist.sum() == pytest.approx(len(jac))
    for a, b, j in zip(ref.left.tolist(), ref.right.tolist(), ref.jaccard.tolist()):
        assert j == pytest.approx(float(jac[(a, b)]), abs=1e-15)
    f = reband(sigs, batch, Banding(8, 4), 0.5, ref)
    assert f.sampled


def test_sampled_reference_with_every_pair_sampled_is_exact(corpus):
    sets, batch, sigs = corpus
    exact = run(all_pairs(batch))
    sampled = run(build_reference(sigs, batch, [Banding(4, 8)], max_work=0, sample_size=10**6))
    for b, r, t in ((8, 4, 0.5), (4, 8, 0.3), (32, 1, 0.7)):
        fe, fs = reband(sigs, batch, Banding(b, r), t, exact), reband(sigs, batch, Banding(b, r), t, sampled)
        assert fs.sampled and not fe.sampled
        assert fs.recall == pytest.approx(fe.recall) and fs.precision == fe.precision
        assert fs.missed_total == pytest.approx(fe.missed_total)


def test_sample_of_pairs_is_uniform_and_avoids_the_pool():
    n, size = 30, 60
    exclude = np.sort(np.array([0 * n + 1, 2 * n + 7, 5 * n + 29], dtype=np.int64))
    counts = Counter()
    for seed in range(400):
        s = sample_pairs(n, size, exclude, np.random.default_rng(seed))
        assert len(s) == size == len(set(s.tolist())) and not set(s.tolist()) & set(exclude.tolist())
        assert np.all(s // n < s % n)
        counts.update(s.tolist())
    eligible = n * (n - 1) // 2 - len(exclude)
    assert len(counts) == eligible
    expected = 400 * size / eligible  # 55.8 draws per pair
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < eligible + 5 * np.sqrt(2 * eligible)  # chi-square with ~432 dof: mean 432, sd 29


# ---------------------------------------------------------------- rate bins and the interval


def test_rate_bins_count_all_pairs_and_candidates(corpus):
    sets, batch, sigs = corpus
    jac = brute_jaccard(sets)
    f = reband(sigs, batch, Banding(8, 4), 0.5, run(all_pairs(batch)))
    cands = brute_candidates(sigs, 8, 4)
    pairs = Counter(min(RATE_BINS - 1, int(j * RATE_BINS)) for j in jac.values())
    caught = Counter(min(RATE_BINS - 1, int(jac[p] * RATE_BINS)) for p in cands)
    assert f.bins.pairs.tolist() == [pairs.get(i, 0) for i in range(RATE_BINS)]
    assert f.bins.caught.tolist() == [caught.get(i, 0) for i in range(RATE_BINS)]
    assert np.all((f.bins.low <= f.bins.rate + 1e-12) | np.isnan(f.bins.rate))


def test_wilson_interval_values_and_coverage():
    lo, hi = wilson(0, 10)
    z2 = 1.959963984540054**2
    assert lo == 0 and hi == pytest.approx(z2 / (10 + z2))
    rng = np.random.default_rng(11)
    p, n = 0.3, 50
    k = rng.binomial(n, p, size=4000)
    lo, hi = wilson(k, np.full(len(k), n))
    assert 0.93 <= np.mean((lo <= p) & (p <= hi)) <= 0.97  # nominal 95 %


# ---------------------------------------------------------------- auto-tune


@pytest.mark.parametrize("t, fp", [(0.5, 0.5), (0.8, 0.5), (0.3, 0.2), (0.9, 0.8)])
def test_weights_goal_matches_datasketch(corpus, t, fp):
    from datasketch.lsh import _optimal_param

    _, batch, sigs = corpus
    tu = tune(sigs, None, t, Goal("weights", fp, 1 - fp))
    assert (tu.banding.bands, tu.banding.rows) == _optimal_param(t, K, fp, 1 - fp)
    assert tu.met and tu.p_at_threshold == pytest.approx(1 - (1 - t**tu.banding.rows) ** tu.banding.bands)
    assert any("FP area" in line for line in tu.reasons)


def brute_recall(sigs, jac, b, r, t):
    positives = {p for p, j in jac.items() if j >= t}
    return len(positives & set(brute_candidates(sigs, b, r))) / len(positives)


@pytest.mark.parametrize("target", [0.8, 0.95, 1.0])
def test_recall_goal_reaches_its_target(corpus, target):
    sets, batch, sigs = corpus
    jac = brute_jaccard(sets)
    ref = run(all_pairs(batch))
    tu = tune(sigs, ref, 0.5, Goal("recall", recall=target))
    assert tu.met
    assert brute_recall(sigs, jac, tu.banding.bands, tu.banding.rows, Fraction(1, 2)) >= target
    assert tu.measured_recall == pytest.approx(
        brute_recall(sigs, jac, tu.banding.bands, tu.banding.rows, Fraction(1, 2))
    )


def test_measured_recall_of_every_scheme_is_exact(corpus):
    from lshdesk.core.explore.tune import measured_recall

    sets, batch, sigs = corpus
    jac = brute_jaccard(sets)
    ref = run(all_pairs(batch))
    bands, rows = all_schemes(K)
    got = measured_recall(sigs, ref, 0.6, bands, rows)
    pick = np.random.default_rng(0).choice(len(bands), 15, replace=False)
    for i in pick.tolist():
        assert got[i] == pytest.approx(brute_recall(sigs, jac, int(bands[i]), int(rows[i]), Fraction(3, 5)))


def test_recall_goal_out_of_reach_says_so(corpus):
    sets, batch, sigs = corpus
    jac = brute_jaccard(sets)
    t = Fraction(1, 10)
    best = brute_recall(sigs, jac, K, 1, t)  # k x 1 catches every pair any scheme catches
    assert best < 1.0  # the corpus has pairs near 0.1 that share no slot
    tu = tune(sigs, run(all_pairs(batch)), 0.1, Goal("recall", recall=1.0))
    assert not tu.met and "No scheme" in tu.reasons[0]
    assert brute_recall(sigs, jac, tu.banding.bands, tu.banding.rows, t) == pytest.approx(best)


@pytest.mark.parametrize("cap", [0, 25, 60, 200])
def test_candidate_cap_goal_respects_the_cap(corpus, cap):
    _, batch, sigs = corpus
    ref = run(all_pairs(batch))
    tu = tune(sigs, ref, 0.5, Goal("candidates", max_candidates=cap))
    count = len(brute_candidates(sigs, tu.banding.bands, tu.banding.rows))
    assert tu.candidates == count
    if tu.met:
        assert count <= cap
    else:
        assert "No scheme" in tu.reasons[0]
    assert cap == 0 or tu.met  # our corpus has schemes within these caps (1 x 32 brings a handful)


def test_goal_and_threshold_validation(corpus):
    from lshdesk.core.errors import ParamError

    _, batch, sigs = corpus
    with pytest.raises(ParamError, match="at least"):
        reband(sigs, batch, Banding(8, 4), STORE_FLOOR / 2, run(all_pairs(batch)))  # pairs below the floor are unlisted

    with pytest.raises(ParamError):
        Goal("speed")
    with pytest.raises(ParamError):
        Goal("recall", recall=1.5)


def test_core_explorer_imports_no_qt():
    code = (
        "import sys, lshdesk.core.explore.figures, lshdesk.core.explore.exact, lshdesk.core.explore.tune; "
        "sys.exit(any(m.startswith(('PySide6', 'pyqtgraph')) for m in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_two_thread_banding_gives_the_same_candidates(corpus, monkeypatch):
    from lshdesk.core import lsh

    sets, batch, sigs = corpus
    monkeypatch.setattr(lsh, "PARALLEL_WORK", 0)
    for b, r in ((8, 4), (32, 1), (3, 5)):
        f = reband(sigs, batch, Banding(b, r), 0.5)
        assert dict(zip(zip(f.left.tolist(), f.right.tolist()), f.bands.tolist())) == dict(brute_candidates(sigs, b, r))
        assert sorted(f.bucket_sizes.tolist()) == sorted(len(m) for _, m in brute_buckets(sigs, b, r))
