"""MinHash: the article family bit for bit against the JS reference, datasketch against datasketch, the fast
family's statistics against the maths, and the compiled kernels against plain numpy / Python integers."""

from __future__ import annotations

import json
import math
from pathlib import Path

import datasketch
import numpy as np
import pytest
from core_helpers import random_id_pairs, random_word_pairs, split_for

from lshdesk.core.errors import ParamError
from lshdesk.core.kernels import minhash as minhash_kernels
from lshdesk.core.minhash import (
    ARTICLE_PRIME,
    estimate,
    estimate_pairs,
    make_family,
    sign_texts,
    xorshift32_params,
)
from lshdesk.core.params import ShingleSpec, SignatureParams
from lshdesk.core.shingle_kinds import hash_shingles, shingle_strings
from lshdesk.core.shingling import ShingleBatch

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
REF = json.loads((FIXTURES / "article_reference.json").read_text(encoding="utf-8"))
EMPTY_ARTICLE = 2**64 - 1  # lshdesk's stand-in for the reference's Infinity
U32_MAX = 2**32 - 1


def article(k: int, seed: int):
    return make_family(SignatureParams(family="article", k=k, seed=seed))


def js_values(values: list) -> list[int]:
    """The fixture's numbers, with its "Infinity" (empty set) mapped to lshdesk's stand-in."""
    return [EMPTY_ARTICLE if v == "Infinity" else int(v) for v in values]


# ------------------------------------------------------------------ article family vs the JS reference


def test_prime_is_the_references():
    assert ARTICLE_PRIME == int(REF["P"])


@pytest.mark.parametrize("case", REF["hash_params"], ids=lambda c: f"k{c['k']}-seed{c['seed']}")
def test_xorshift32_params_equal_js(case):
    a, b = xorshift32_params(case["k"], case["seed"])
    assert a.tolist() == [int(p["a"]) for p in case["params"]]
    assert b.tolist() == [int(p["b"]) for p in case["params"]]


@pytest.mark.parametrize("case", REF["hash_params"], ids=lambda c: f"k{c['k']}-seed{c['seed']}")
def test_hash_function_values_equal_js(case):
    # h_i(x) = (a_i x + b_i) mod P for single-element sets, including x = 2**32 - 1 (the largest product)
    a, b = xorshift32_params(case["k"], case["seed"])
    xs = np.array([s["x"] for s in case["samples"]], dtype=np.uint64)
    offsets = np.arange(len(xs) + 1, dtype=np.int64)
    out = minhash_kernels.minhash_affine_mod(xs, offsets, a, b, np.uint64(ARTICLE_PRIME), np.uint64(EMPTY_ARTICLE))
    assert out.tolist() == [s["values"] for s in case["samples"]]


def test_seed_zero_edge_case():
    edge = REF["edge_cases"]["seed_zero"]
    a, b = xorshift32_params(32, 0)
    assert set(a.tolist()) == {1} and set(b.tolist()) == {0}
    assert a[:4].tolist() == [int(p["a"]) for p in edge["params_first_4"]]
    cat_sat = next(s["set"] for s in REF["signatures"] if s["name"] == "cat_sat")
    assert article(4, 0).sign_strings([cat_sat])[0].tolist() == edge["signature_k4_of_cat_sat"]
    assert edge["min_fnv1a_of_cat_sat"] == edge["signature_k4_of_cat_sat"][0]


@pytest.mark.parametrize("case", REF["edge_cases"]["modulo_wrap"]["cases"], ids=lambda c: str(c["seed"]))
def test_modulo_wrap_edge_cases(case):
    a, b = xorshift32_params(1, case["seed"])
    assert (int(a[0]), int(b[0])) == (int(case["params_first_1"][0]["a"]), int(case["params_first_1"][0]["b"]))
    cat_sat = next(s["set"] for s in REF["signatures"] if s["name"] == "cat_sat")
    assert article(1, case["seed"]).sign_strings([cat_sat])[0].tolist() == case["signature_k1_of_cat_sat"]


# (the fixture's fractional seed 1.5 is a JS-only input: lshdesk seeds are integers)
@pytest.mark.parametrize(
    "case",
    [c for c in REF["edge_cases"]["seed_normalisation"] if isinstance(c["seed"], int)],
    ids=lambda c: str(c["seed"]),
)
def test_seed_normalisation(case):
    a, b = xorshift32_params(1, case["seed"])
    assert (int(a[0]), int(b[0])) == (int(case["params_first_1"][0]["a"]), int(case["params_first_1"][0]["b"]))


@pytest.mark.parametrize("case", REF["signatures"], ids=lambda c: f"{c['name']}-k{c['k']}-seed{c['seed']}")
def test_article_signatures_equal_js(case):
    fam = article(case["k"], case["seed"])
    sig = fam.sign_strings([case["set"]])
    assert sig.dtype == np.uint64 and sig.shape == (1, case["k"])
    assert sig[0].tolist() == js_values(case["values"])


def test_article_signatures_batch_equals_one_at_a_time():
    cases = [c for c in REF["signatures"] if (c["k"], c["seed"]) == (16, 12345)]
    sig = article(16, 12345).sign_strings([c["set"] for c in cases])
    assert sig.tolist() == [js_values(c["values"]) for c in cases]


def test_article_empty_set_signature():
    edge = REF["edge_cases"]["empty_set"]
    sig = article(edge["k"], edge["seed"]).sign_strings([[], ["the"], []])
    assert sig[0].tolist() == js_values(edge["values"])
    assert sig[2].tolist() == sig[0].tolist()
    assert sig[1].max() < ARTICLE_PRIME


def test_article_estimates_equal_js():
    c = REF["candidates"]
    sig = article(c["k"], c["seed"]).sign_strings([d["set"] for d in c["docs"]])
    assert sig.tolist() == c["signatures"]
    for e in c["estimates"]:
        assert estimate(sig[e["i"]], sig[e["j"]]) == e["estimate"]


def test_article_sign_texts_uses_the_shingle_strings():
    texts = ["The cat sat on the mat.", "the CAT sat, on the mat"]
    sig = sign_texts(texts, SignatureParams(ShingleSpec("word", 1), "article", 16, 12345))
    cat_sat = next(s for s in REF["signatures"] if s["name"] == "cat_sat" and s["k"] == 16)
    assert sig[0].tolist() == sig[1].tolist() == js_values(cat_sat["values"])


# ------------------------------------------------------------------ datasketch family vs datasketch


def datasketch_signature(shingles: set[str], k: int, seed: int) -> list[int]:
    m = datasketch.MinHash(num_perm=k, seed=seed)
    for s in shingles:
        m.update(s.encode("utf-8"))
    return m.hashvalues.tolist()


TEXTS = [
    "The quick brown fox jumps over the lazy dog.",
    "the quick brown fox jumped over the lazy dogs!",
    "Café-au-lait ﬁle_2 naïve résumé 日本語のテキスト 🙂",
    "one",
    "",
    "a b",
]


@pytest.mark.parametrize("spec", [ShingleSpec("word", 1), ShingleSpec("word", 3), ShingleSpec("char", 4)], ids=str)
@pytest.mark.parametrize("k, seed", [(1, 1), (16, 0), (128, 1), (64, 42), (200, 2**32 - 1)])
def test_datasketch_family_equals_datasketch(spec, k, seed):
    sig = sign_texts(TEXTS, SignatureParams(spec, "datasketch", k, seed))
    assert sig.dtype == np.uint32 and sig.shape == (len(TEXTS), k)
    for text, row in zip(TEXTS, sig):
        assert row.tolist() == datasketch_signature(shingle_strings(text, spec), k, seed), text


# ------------------------------------------------------------------ kernels vs plain references


def test_affine32_kernel_equals_numpy_reference():
    rng = np.random.default_rng(11)
    counts = np.array([5, 0, 1, 40, 3, 0, 17], dtype=np.int64)
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    x = rng.integers(0, 2**32, offsets[-1], dtype=np.uint64).astype(np.uint32)
    k = 37
    a = rng.integers(0, 2**32, k, dtype=np.uint64).astype(np.uint32) | np.uint32(1)
    b = rng.integers(0, 2**32, k, dtype=np.uint64).astype(np.uint32)
    out = minhash_kernels.minhash_affine32(x, offsets, a, b)
    assert out.dtype == np.uint32 and out.shape == (len(counts), k)
    full = (a.astype(np.uint64)[None, :] * x.astype(np.uint64)[:, None] + b.astype(np.uint64)) % np.uint64(2**32)
    for d in range(len(counts)):
        seg = full[offsets[d] : offsets[d + 1]]
        want = seg.min(axis=0) if len(seg) else np.full(k, U32_MAX, dtype=np.uint64)
        assert out[d].tolist() == want.tolist()


def test_affine_mod_kernel_equals_python_integers():
    rng = np.random.default_rng(12)
    a, b = xorshift32_params(9, 777)
    x = np.concatenate([rng.integers(0, 2**32, 30, dtype=np.uint64), np.array([0, 2**32 - 1], dtype=np.uint64)])
    offsets = np.array([0, 10, 10, 32], dtype=np.int64)
    out = minhash_kernels.minhash_affine_mod(x, offsets, a, b, np.uint64(ARTICLE_PRIME), np.uint64(EMPTY_ARTICLE))
    for d in range(3):
        xs = [int(v) for v in x[offsets[d] : offsets[d + 1]]]
        want = [
            min(((int(ai) * xi + int(bi)) % ARTICLE_PRIME for xi in xs), default=EMPTY_ARTICLE) for ai, bi in zip(a, b)
        ]
        assert out[d].tolist() == want


def test_fast_family_equals_numpy_reference_on_folded_ids():
    rng = np.random.default_rng(13)
    batch = random_id_pairs(rng, 4, 10, 5, 7)
    fam = make_family(SignatureParams(family="fast", k=24, seed=5))
    sig = fam.sign_ids(batch)
    a, b = fam.a.astype(np.uint64), fam.b.astype(np.uint64)
    for d in range(len(batch)):
        ids = batch.doc(d)
        x = (ids ^ (ids >> np.uint64(32))) & np.uint64(0xFFFFFFFF)  # fold 64 -> 32 bits
        want = ((a[None, :] * x[:, None] + b[None, :]) % np.uint64(2**32)).min(axis=0)
        assert sig[d].tolist() == want.tolist()


def test_fast_family_adds_no_collisions():
    # each slot is a bijection of 32-bit values: distinct inputs stay distinct in every slot
    rng = np.random.default_rng(14)
    low = rng.integers(0, 2**31, 1500, dtype=np.uint64)
    # x and x + 2**31 collide under any even multiplier (and x, x + 2**28 under multiples of 16)
    x = np.unique(np.concatenate([low, low + np.uint64(2**31), low[:100] + np.uint64(2**28)]))
    batch_ids = x.astype(np.uint32)  # 32-bit ids, as hash_shingles gives them
    offsets = np.arange(len(x) + 1, dtype=np.int64)
    fam = make_family(SignatureParams(family="fast", k=64, seed=99))
    sig = fam.sign_ids(ShingleBatch(batch_ids, offsets, np.ones(len(x), np.int64)))
    for j in range(sig.shape[1]):
        assert len(np.unique(sig[:, j])) == len(x)


# ------------------------------------------------------------------ determinism and API


@pytest.mark.parametrize("family", ["fast", "article", "datasketch"])
def test_same_seed_same_signatures_other_seed_different(family):
    texts = ["the cat sat on the mat with a hat", "a completely different sentence about dogs and logs"]
    p = SignatureParams(ShingleSpec("word", 2), family, 64, 7)
    s1, s2 = sign_texts(texts, p), sign_texts(texts, p)
    assert np.array_equal(s1, s2)
    s3 = sign_texts(texts, SignatureParams(ShingleSpec("word", 2), family, 64, 8))
    assert not np.array_equal(s1[0], s3[0]) and not np.array_equal(s1[1], s3[1])
    # the seed changes the hash functions, not the similarity being estimated: both estimate the same thing
    assert s1.shape == s3.shape == (2, 64)


def test_fast_family_sign_texts_equals_sign_ids():
    texts = ["alpha beta gamma delta", "beta gamma delta epsilon", ""]
    p = SignatureParams(ShingleSpec("word", 2), "fast", 32, 3)
    fam = make_family(p)
    assert np.array_equal(sign_texts(texts, p), fam.sign_ids(hash_shingles(texts, p.shingle)))
    assert sign_texts(texts, p)[2].tolist() == [U32_MAX] * 32  # no shingles: every slot at its maximum


def test_family_refuses_the_wrong_input():
    with pytest.raises(ValueError, match="sign_strings"):
        make_family(SignatureParams(family="article", k=4)).sign_ids(hash_shingles(["a b"], ShingleSpec("word", 1)))
    with pytest.raises(ValueError, match="sign_ids"):
        make_family(SignatureParams(family="fast", k=4)).sign_strings([["a"]])


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(family="md5"), "hash family"),
        (dict(k=0), "between 1 and"),
        (dict(k=4097), "between 1 and"),
        (dict(seed=-1), "seed"),
        (dict(seed=2**32), "seed"),
    ],
)
def test_signature_params_refused(kwargs, words):
    with pytest.raises(ParamError, match=words):
        SignatureParams(**kwargs)


def test_estimate_and_estimate_pairs():
    rng = np.random.default_rng(15)
    sigs = rng.integers(0, 3, size=(9, 20)).astype(np.uint32)
    left, right = np.triu_indices(9, k=1)
    got = estimate_pairs(sigs, left, right, chunk=4)  # several chunks
    want = [np.mean(sigs[i] == sigs[j]) for i, j in zip(left, right)]
    assert np.allclose(got, want, rtol=0, atol=1e-15)
    assert [estimate(sigs[i], sigs[j]) for i, j in zip(left, right)] == pytest.approx(want, abs=1e-15)
    with pytest.raises(ValueError, match="different lengths"):
        estimate(sigs[0], sigs[1, :10])


# ------------------------------------------------------------------ statistics (fixed seeds, stated tolerances)

# Pairs of sets with an exact Jaccard, fresh random elements for every pair, several hash seeds.
# For the fast family each slot is a bijection applied to random distinct inputs, so the slot's minimum is equally
# likely to come from any element of the union: P(slot agrees) = J exactly. The article family's slots are injective
# maps of pseudo-random FNV-1a values, the same argument up to FNV's quality on random words.


@pytest.mark.parametrize("j_num, j_den", [(1, 5), (1, 2), (4, 5)])
def test_fast_collision_rate_equals_jaccard(j_num, j_den):
    k, seeds, pairs_per_seed = 128, 8, 40
    shared, only_a, only_b = split_for(j_num, j_den, 100)
    j = j_num / j_den
    rng = np.random.default_rng(1000 + j_num)
    agree = []  # (pairs, k) booleans
    for seed in range(1, seeds + 1):
        batch = random_id_pairs(rng, pairs_per_seed, shared, only_a, only_b)
        sig = make_family(SignatureParams(family="fast", k=k, seed=seed)).sign_ids(batch)
        agree.append(sig[0::2] == sig[1::2])
    agree = np.concatenate(agree)
    n_pairs = agree.shape[0]
    # Overall rate: N = 320 pairs x 128 slots = 40960 Bernoulli(J) trials, SE = sqrt(J(1-J)/N) <= 0.0025;
    # tolerance 5 SE (a slightly wider margin for the weak dependence between slots that share a pair's elements).
    se = math.sqrt(j * (1 - j) / agree.size)
    assert abs(agree.mean() - j) < 5 * se
    # Per slot position: 320 trials each, SE = sqrt(J(1-J)/320) <= 0.028; with 128 slots, 4.5 SE bounds the largest
    # deviation (two-sided tail 6.8e-6 per slot, < 1e-3 for all 128): catches one broken slot.
    se_slot = math.sqrt(j * (1 - j) / n_pairs)
    assert np.max(np.abs(agree.mean(axis=0) - j)) < 4.5 * se_slot
    # Slots independent: the per-pair estimate's variance is the binomial J(1-J)/k. The sample variance of 320
    # near-normal values has a relative SE of sqrt(2/319) = 0.079; accept 0.72 .. 1.32 (about 3.5-4 SE).
    ratio = agree.mean(axis=1).var(ddof=1) / (j * (1 - j) / k)
    assert 0.72 < ratio < 1.32


def _expected_mae(k: int, j: float) -> float:
    """E|X/k - J| for X ~ Binomial(k, J): the mean absolute error of an estimate from k independent slots."""
    return sum(math.comb(k, x) * j**x * (1 - j) ** (k - x) * abs(x / k - j) for x in range(k + 1))


@pytest.mark.parametrize("family", ["fast", "article"])
def test_estimator_error_shrinks_like_one_over_sqrt_k(family):
    shared, only_a, only_b = split_for(1, 2, 100)
    j, n_pairs, seeds = 0.5, 600, 6
    rng = np.random.default_rng(2024 if family == "fast" else 2025)
    errors = {16: [], 256: []}
    for seed in range(seeds):
        if family == "fast":
            batch = random_id_pairs(rng, n_pairs // seeds, shared, only_a, only_b)
        else:
            sets = random_word_pairs(rng, n_pairs // seeds, shared, only_a, only_b)
        for k in errors:
            fam = make_family(SignatureParams(family=family, k=k, seed=seed * 7 + 1))
            sig = fam.sign_ids(batch) if family == "fast" else fam.sign_strings(sets)
            errors[k].append(np.abs((sig[0::2] == sig[1::2]).mean(axis=1) - j))
    mae = {k: float(np.concatenate(e).mean()) for k, e in errors.items()}
    # Each MAE is a mean of 600 |errors| whose sd/mean is about 0.76 (half-normal: sqrt(pi/2 - 1)), so its relative
    # SE is 0.76 / sqrt(600) = 0.031: accept 4 SE (12.5 %) around the exact binomial value, and for the ratio
    # (relative SE sqrt(2) * 0.031 = 0.044) 4 SE = 18 % around the exact ratio 3.94 (= about sqrt(256/16) = 4).
    for k in (16, 256):
        assert mae[k] == pytest.approx(_expected_mae(k, j), rel=0.125), (k, mae)
    expected_ratio = _expected_mae(16, j) / _expected_mae(256, j)
    assert mae[16] / mae[256] == pytest.approx(expected_ratio, rel=0.18)
