"""b-bit MinHash: the corrected estimate is unbiased over seeds on sets of known J, its spread is the binomial one,
at equal memory it beats the classic signature at high J, and the raw low bits of the fast family would not do."""

from __future__ import annotations

import numpy as np
import pytest

from lshdesk.core.minhash import HashFamily, fast_params
from lshdesk.core.shingling import ShingleBatch
from lshdesk.core.teaching import bbit
from lshdesk.core.teaching import lessons as t

SEEDS = 200


def _pair(shared: int, only: int, seed: int = 7, ids: np.ndarray | None = None) -> tuple[ShingleBatch, float]:
    """Two sets sharing ``shared`` random ids, each with ``only`` of its own: J = shared / (shared + 2 only)."""
    if ids is None:
        ids = np.random.default_rng(seed).choice(2**32, shared + 2 * only, replace=False).astype(np.uint32)
    a = np.sort(ids[: shared + only])
    b = np.sort(np.concatenate([ids[:shared], ids[shared + only :]]))
    batch = ShingleBatch(
        np.concatenate([a, b]), np.array([0, len(a), len(a) + len(b)], dtype=np.int64), np.array([len(a), len(b)])
    )
    return batch, shared / (shared + 2 * only)


def _estimates(batch: ShingleBatch, scheme: bbit.Scheme) -> np.ndarray:
    one = np.array([0]), np.array([1])
    return np.array([bbit.pair_estimates(batch, scheme, s, *one)[0] for s in range(SEEDS)])


@pytest.mark.parametrize("shared,only", [(10, 45), (50, 25), (90, 5), (0, 30)])
@pytest.mark.parametrize("b", bbit.BITS)
def test_the_corrected_estimate_is_unbiased_over_seeds(shared, only, b):
    """Mean over 200 seeds within 4 standard errors of the exact J (J = 0.1, 0.5, 0.9 and 0), and the spread
    over seeds within 25 % of the binomial √(P(1 − P)/k)/(1 − C)."""
    batch, j = _pair(shared, only)
    scheme = bbit.Scheme(b, 64)
    est = _estimates(batch, scheme)
    se = float(bbit.bbit_std(j, b, scheme.slots))
    assert abs(est.mean() - j) < 4 * se / np.sqrt(SEEDS), (b, j, est.mean())
    assert est.std() == pytest.approx(se, rel=0.25), (b, j)


def test_without_the_correction_the_share_overstates_j_by_c():
    """The raw share of agreeing 1-bit slots at J = 0.5 is about C + (1 − C) J = 0.75, not 0.5."""
    batch, j = _pair(50, 25)
    one = np.array([0]), np.array([1])
    shares = [
        float(np.mean(np.diff(bbit.low_bits(HashFamily("fast", 64, s).sign_ids(batch), 1), axis=0) == 0))
        for s in range(SEEDS)
    ]
    assert np.mean(shares) == pytest.approx(0.5 + 0.5 * j, abs=0.01)
    assert np.mean(_estimates(batch, bbit.Scheme(1, 64))) == pytest.approx(j, abs=0.02)
    assert bbit.pair_estimates(batch, bbit.Scheme(32, 64), 0, *one)[0] == pytest.approx(
        np.mean(np.diff(HashFamily("fast", 64, 0).sign_ids(batch), axis=0) == 0)
    )


def test_the_raw_low_bits_of_the_fast_family_agree_whenever_the_ids_do():
    """Why the bits are cut after fmix32: if every id the two sets do not share is even, the raw low bit of
    a*x + b (a odd) is b's low bit for both minima, so every slot agrees and the estimate is 1 at J = 0.5."""
    ids = (np.random.default_rng(3).choice(2**31, 100, replace=False) * 2).astype(np.uint32)
    batch, j = _pair(50, 25, ids=ids)
    for s in range(20):
        sigs = HashFamily("fast", 64, s).sign_ids(batch)
        assert ((sigs[0] & 1) == (sigs[1] & 1)).all()
    assert np.mean(_estimates(batch, bbit.Scheme(1, 64))) == pytest.approx(j, abs=0.02)


def test_at_equal_memory_b_bit_wins_at_high_similarity():
    """k = 16 classic slots against b = 1 with 512 slots (the same 512 bits): at J = 0.9 the error over seeds is
    several times smaller, as the binomial spreads say; at J = 0 the classic signature is exact and b = 1 is not."""
    schemes = bbit.equal_memory(16)
    assert [(s.bits, s.slots) for s in schemes] == [(32, 16), (1, 512), (2, 256), (4, 128), (8, 64), (32, 16)]
    for shared, only in ((90, 5), (0, 30)):
        batch, j = _pair(shared, only)
        classic, one = (np.mean(np.abs(_estimates(batch, s) - j)) for s in (schemes[0], schemes[1]))
        if j > 0.5:
            assert one < classic / 2
        else:
            assert classic == 0 and one > 0.01


def test_the_measurement_of_the_sentences():
    texts = list(t.SENTENCES)
    m = bbit.measure(texts, t.WORDS, bbit.equal_memory(16), 30, t.jaccard_matrix(texts))
    assert m.abs_error.shape == m.mean.shape == (6, 28) and m.seeds == 30
    assert np.isnan(m.mae(np.zeros(28, dtype=bool))).all()
    assert (m.mae() > 0).all()


def _oph_reference(ids: list[int], bins: int, seed: int) -> list[int | None]:
    """One-permutation hashing with rotation, written out with Python integers, one document at a time."""
    a, b = (int(x[0]) for x in fast_params(1, seed))
    mins: list[int | None] = [None] * bins
    for x in ids:
        v = (a * x + b) % 2**32
        j = v * bins >> 32
        mins[j] = v if mins[j] is None or v < mins[j] else mins[j]
    out: list[int | None] = []
    for j in range(bins):
        d = next((d for d in range(bins) if mins[(j + d) % bins] is not None), None)
        out.append(None if d is None else mins[(j + d) % bins])
    return out


def test_one_permutation_hashing_matches_a_plain_reference():
    batch, _ = _pair(3, 2)  # 5 ids a set in 16 bins: most bins empty, filled by rotation
    for seed in range(20):
        sigs = bbit.one_permutation(batch, 16, seed)
        for i in range(2):
            want = _oph_reference([int(x) for x in batch.doc(i)], 16, seed)
            assert [None if v == 2**64 - 1 else int(v) for v in sigs[i]] == want


@pytest.mark.parametrize("shared,only", [(10, 45), (50, 25), (90, 5), (3, 2), (1, 4)])
def test_one_permutation_hashing_is_unbiased_over_seeds(shared, only):
    """Over 200 seeds, the share of agreeing densified bins is within 4 standard errors of J, also when most of the
    16 bins are empty (5 or 7 ids in a set)."""
    batch, j = _pair(shared, only)
    est = _estimates(batch, bbit.Scheme(32, 16, True))
    assert abs(est.mean() - j) < 4 * max(est.std(), 0.02) / np.sqrt(SEEDS), (j, est.mean())
