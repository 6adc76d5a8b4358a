"""Known similarities: lookups and inserts against exact Jaccard, the cap, and the explorer's figures with them equal
to a brute-force recomputation while schemes are visited back and forth."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from test_explore import block_corpus, brute_agreement, brute_candidates, brute_jaccard

from lshdesk.core.clustering import exact_jaccard
from lshdesk.core.explore.exact import all_pairs, sampled
from lshdesk.core.explore.figures import reband
from lshdesk.core.explore.known import KnownJaccard
from lshdesk.core.params import Banding
from lshdesk.core.scan.pipeline import run


@pytest.fixture(scope="module")
def corpus():
    return block_corpus(seed=11, n_docs=48)


def _codes(rng, n: int, m: int) -> np.ndarray:
    i, j = np.triu_indices(n, k=1)
    return np.sort(rng.choice(i * n + j, m, replace=False))


def test_lookups_equal_exact_jaccard_and_compute_each_pair_once(corpus):
    _, batch, _ = corpus
    n = len(batch)
    rng = np.random.default_rng(0)
    known = KnownJaccard(batch)
    seen: set[int] = set()
    for m in (100, 300, 50, 300, 500):
        codes = _codes(rng, n, m)
        want = exact_jaccard(batch, codes // n, codes % n)
        before = known.computed
        assert known.jaccard(codes).tolist() == want.tolist()  # identical, not approximately equal
        assert known.computed - before == len(set(codes.tolist()) - seen)
        seen |= set(codes.tolist())
        assert np.all(np.diff(known.codes) > 0) and set(known.codes.tolist()) == seen
    assert known.jaccard(np.zeros(0, np.int64)).tolist() == []


def test_seeded_pairs_are_not_computed_and_a_reference_seeds_once(corpus):
    _, batch, _ = corpus
    n = len(batch)
    ref = run(all_pairs(batch))
    known = KnownJaccard(batch)
    known.seed(ref.codes, ref.jaccard, key=ref)
    known.seed(ref.codes, ref.jaccard, key=ref)
    assert len(known) == len(ref.codes) and known.computed == 0
    got = known.jaccard(ref.codes[::3])
    assert (
        known.computed == 0 and got.tolist() == exact_jaccard(batch, ref.codes[::3] // n, ref.codes[::3] % n).tolist()
    )


def test_past_the_cap_only_the_latest_scheme_is_kept_unless_it_alone_is_too_big(corpus):
    _, batch, _ = corpus
    n = len(batch)
    rng = np.random.default_rng(1)
    known = KnownJaccard(batch, max_known=400)
    first, second, big = _codes(rng, n, 300), _codes(rng, n, 350), _codes(rng, n, 500)
    known.jaccard(first)
    got = known.jaccard(second)
    assert known.codes.tolist() == second.tolist() and known.values.tolist() == got.tolist()
    assert got.tolist() == exact_jaccard(batch, second // n, second % n).tolist()
    assert known.jaccard(big).tolist() == exact_jaccard(batch, big // n, big % n).tolist()
    assert known.codes.tolist() == second.tolist()  # 500 pairs cannot be kept: the 350 known stay


FIELDS = ("left", "right", "bands", "jaccard", "missed_left", "missed_right", "missed_jaccard", "missed_agreement")


@pytest.mark.parametrize("mode", ["all", "sampled"])
def test_figures_with_known_pairs_equal_brute_force_back_and_forth(corpus, mode):
    sets, batch, sigs = corpus
    if mode == "all":
        ref = run(all_pairs(batch))
    else:
        ref = run(sampled(sigs, batch, [Banding(8, 4)], sample_size=300, seed=2))
    jac = brute_jaccard(sets)
    known = KnownJaccard(batch)
    schemes = [(8, 4), (16, 2), (8, 4), (32, 1), (16, 2), (5, 5), (8, 4)]
    for b, r in schemes:
        before = known.computed
        f = reband(sigs, batch, Banding(b, r), 0.3, ref, known=known)
        plain = reband(sigs, batch, Banding(b, r), 0.3, ref)
        for name in FIELDS:
            assert getattr(f, name).tolist() == getattr(plain, name).tolist(), name
        for name in ("n_verified", "precision", "recall", "positives", "missed_total", "n_pairs"):
            assert getattr(f, name) == pytest.approx(getattr(plain, name), nan_ok=True, rel=0, abs=0), name
        cands = brute_candidates(sigs, b, r)
        assert dict(zip(zip(f.left.tolist(), f.right.tolist()), f.bands.tolist())) == dict(cands)
        assert f.jaccard.tolist() == [float(jac[p]) for p in zip(f.left.tolist(), f.right.tolist())]
        if mode == "all":
            above = {p for p, j in jac.items() if j >= Fraction(3, 10)}
            assert f.n_verified == len(above & set(cands))
            missed = list(zip(f.missed_left.tolist(), f.missed_right.tolist()))
            assert set(missed) == above - set(cands)
            assert f.missed_agreement.tolist() == [brute_agreement(sigs, i, j, b, r) for i, j in missed]
        if (b, r) in schemes[: schemes.index((b, r))]:  # a scheme seen before: nothing computed again
            assert known.computed == before


def test_warming_scores_the_next_steps_candidates_and_stops_when_cancelled(corpus, monkeypatch):
    import threading

    from lshdesk.core.errors import ScanCancelled
    from lshdesk.core.explore import tune
    from lshdesk.core.explore.figures import band_candidates

    _, batch, sigs = corpus
    k = sigs.shape[1]
    assert tune.neighbours(Banding(2, 4), k) == [Banding(3, 4), Banding(1, 4), Banding(2, 5), Banding(2, 3)]
    b = k // 4  # b x 4 uses every slot: one more band or row, and the other gives way
    assert tune.neighbours(Banding(b, 4), k)[::2] == [Banding(b + 1, k // (b + 1)), Banding(k // 5, 5)]
    assert tune.neighbours(Banding(k, 1), k) == [Banding(k - 1, 1), Banding(k // 2, 2)]  # no k+1 bands, no 0 rows
    known = KnownJaccard(batch)
    scored = run(tune.warm(sigs, known, [Banding(16, 2), Banding(8, 2)]))
    assert scored == known.computed > 0
    codes = band_candidates(sigs, Banding(16, 2))[0]
    assert known.jaccard(codes).tolist() == exact_jaccard(batch, codes // len(batch), codes % len(batch)).tolist()
    assert known.computed == scored  # nothing left to score for those schemes
    monkeypatch.setattr(tune, "WARM_CHUNK", 1)
    cancel = threading.Event()
    cancel.set()
    fresh = KnownJaccard(batch)
    with pytest.raises(ScanCancelled):
        run(tune.warm(sigs, fresh, [Banding(16, 2)], cancel=cancel))
    assert fresh.computed == 0
