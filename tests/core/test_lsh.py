"""LSH banding: candidate pairs against brute-force banding, against the article's JS (reference and demo), and the
measured candidate rate against the S-curve P(J) = 1 - (1 - J^r)^b."""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from core_helpers import random_id_pairs, split_for

from lshdesk.core.errors import ParamError
from lshdesk.core.kernels import minhash as minhash_kernels
from lshdesk.core.lsh import band_keys, bucket_sizes, candidate_pairs
from lshdesk.core.minhash import make_family
from lshdesk.core.params import Banding, SignatureParams

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
REF = json.loads((FIXTURES / "article_reference.json").read_text(encoding="utf-8"))
DEMO = json.loads((FIXTURES / "article_demo.json").read_text(encoding="utf-8"))
INF = 2**64 - 1  # lshdesk's stand-in for JS Infinity (an empty set's signature slot)


def brute_force_banding(sigs: np.ndarray, b: int, r: int) -> tuple[dict[tuple[int, int], int], list[int]]:
    """{(i, j): bands in which i and j share a bucket} and the sizes of buckets with 2+ members, by dicts."""
    counts: Counter = Counter()
    sizes = []
    for band in range(b):
        buckets: dict[tuple, list[int]] = defaultdict(list)
        for d in range(len(sigs)):
            buckets[tuple(sigs[d, band * r : (band + 1) * r].tolist())].append(d)
        for members in buckets.values():
            if len(members) > 1:
                sizes.append(len(members))
            for i, j in combinations(members, 2):
                counts[(i, j)] += 1
    return dict(counts), sizes


def as_dict(c) -> dict[tuple[int, int], int]:
    return {(int(i), int(j)): int(n) for i, j, n in zip(c.left, c.right, c.bands)}


@pytest.mark.parametrize(
    "k, b, r", [(12, 3, 4), (12, 4, 3), (12, 12, 1), (12, 1, 12), (12, 5, 2), (16, 3, 5), (9, 2, 2), (20, 6, 3)]
)
@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_candidate_pairs_equal_brute_force(k, b, r, dtype):
    rng = np.random.default_rng(k * 100 + b * 10 + r)
    # a small alphabet makes many collisions; a few duplicated rows make full matches
    sigs = rng.integers(0, 3, size=(40, k)).astype(dtype)
    sigs[5] = sigs[6]
    sigs[7, : k // 2] = sigs[8, : k // 2]
    cands = candidate_pairs(sigs, Banding(b, r))
    want, sizes = brute_force_banding(sigs, b, r)
    assert as_dict(cands) == want
    # sorted, left < right, no repeats
    codes = cands.left * len(sigs) + cands.right
    assert np.all(cands.left < cands.right) and np.all(np.diff(codes) > 0)
    assert sorted(bucket_sizes(sigs, Banding(b, r)).tolist()) == sorted(sizes)


def test_slots_after_b_times_r_are_ignored():
    rng = np.random.default_rng(5)
    sigs = rng.integers(0, 2**32, size=(6, 10), dtype=np.uint64).astype(np.uint32)
    sigs[1, :8] = sigs[0, :8]  # equal in the first 8 slots only
    cands = candidate_pairs(sigs, Banding(2, 4))
    assert as_dict(cands) == {(0, 1): 2}
    assert len(candidate_pairs(sigs, Banding(1, 9))) == 0


def test_no_documents_or_one():
    for n in (0, 1):
        c = candidate_pairs(np.zeros((n, 8), dtype=np.uint32), Banding(2, 4))
        assert len(c) == 0


def test_band_keys_depend_on_the_slice():
    sigs = np.array([[1, 2, 3, 4], [1, 2, 4, 3], [1, 2, 3, 4], [2, 1, 3, 4]], dtype=np.uint32)
    keys = band_keys(sigs, Banding(2, 2))
    assert keys.shape == (4, 2)
    assert keys[0, 0] == keys[1, 0] == keys[2, 0] != keys[3, 0]  # order within a band matters
    assert keys[0, 1] == keys[2, 1] == keys[3, 1] != keys[1, 1]


@pytest.mark.parametrize("b, r, k", [(5, 4, 16), (17, 1, 16), (1, 17, 16), (3, 3, 8)])
def test_banding_longer_than_signature_is_refused_with_the_fix(b, r, k):
    with pytest.raises(ParamError) as e:
        Banding(b, r).check(k)
    msg = str(e.value)
    assert f"{b} bands x {r} rows" in msg and f"k = {k}" in msg and "lower bands or rows, or raise k" in msg
    with pytest.raises(ParamError):
        candidate_pairs(np.zeros((3, k), dtype=np.uint32), Banding(b, r))
    assert Banding(b, r).check(b * r) == Banding(b, r)


@pytest.mark.parametrize("b, r", [(0, 4), (4, 0), (-1, 1)])
def test_banding_needs_positive_sizes(b, r):
    with pytest.raises(ParamError):
        Banding(b, r)


# ------------------------------------------------------------------ the article's JS


@pytest.mark.parametrize("scheme", REF["candidates"]["schemes"], ids=lambda s: f"{s['b']}x{s['r']}")
def test_candidates_equal_js_reference(scheme):
    c = REF["candidates"]
    sigs = np.array(c["signatures"], dtype=np.uint64)
    assert scheme["b"] * scheme["r"] <= c["k"]
    cands = candidate_pairs(sigs, Banding(scheme["b"], scheme["r"]))
    assert list(zip(cands.left.tolist(), cands.right.tolist())) == [tuple(p) for p in scheme["pairs"]]
    assert sorted(scheme["pairs"]) == sorted(sorted(map(int, p.split("-"))) for p in scheme["pairs_js_order"])


def test_js_overlong_banding_is_refused_not_all_pairs():
    # the JS makes every pair a candidate when b*r > k (empty trailing slices); lshdesk refuses such a scheme
    edge = REF["edge_cases"]["overlong_banding"]
    sigs = np.array(REF["candidates"]["signatures"], dtype=np.uint64)
    with pytest.raises(ParamError, match="raise k"):
        candidate_pairs(sigs, Banding(edge["b"], edge["r"]))


def test_two_empty_sets_are_candidates_like_js():
    edge = REF["edge_cases"]["empty_set"]
    sentence0 = REF["candidates"]["docs"][0]["set"]
    fam = make_family(SignatureParams(family="article", k=edge["k"], seed=edge["seed"]))
    sigs = fam.sign_strings([[], [], sentence0])
    cands = candidate_pairs(sigs, Banding(4, 4))
    want = [tuple(map(int, p.split("-"))) for p in edge["candidates_empty_empty_sentence0_b4_r4"]]
    assert list(zip(cands.left.tolist(), cands.right.tolist())) == want


def _demo_sigs(config) -> np.ndarray:
    return np.array([[INF if v == "Infinity" else v for v in row] for row in config["signatures"]], dtype=np.uint64)


@pytest.mark.parametrize("config", DEMO["configurations"], ids=lambda c: c["name"])
def test_demo_signatures_from_the_generic_kernel(config):
    # the demo's own hash: (a_i x + b_i) mod 1048583 over universe indices, no seed; empty set -> Infinity
    a = np.array(DEMO["a"], dtype=np.uint64)
    b = np.array(DEMO["b"], dtype=np.uint64)
    xs = [np.array(t, dtype=np.uint64) for t in config["token_x"]]
    offsets = np.zeros(len(xs) + 1, dtype=np.int64)
    np.cumsum([len(t) for t in xs], out=offsets[1:])
    x = np.concatenate(xs) if offsets[-1] else np.zeros(0, np.uint64)
    out = minhash_kernels.minhash_affine_mod(x, offsets, a, b, np.uint64(DEMO["P"]), np.uint64(INF))
    assert np.array_equal(out, _demo_sigs(config))


@pytest.mark.parametrize("config", DEMO["configurations"], ids=lambda c: c["name"])
def test_demo_candidates_and_buckets_equal_js(config):
    sigs = _demo_sigs(config)
    banding = Banding(DEMO["B"], DEMO["R"])
    assert DEMO["B"] * DEMO["R"] == DEMO["K"] == sigs.shape[1]
    cands = candidate_pairs(sigs, banding)
    assert [list(p) for p in zip(cands.left.tolist(), cands.right.tolist())] == config["candidate_pairs"]
    shared = sorted(len(m) for m in config["bucket_map"].values() if len(m) > 1)
    assert sorted(bucket_sizes(sigs, banding).tolist()) == shared
    # how many bands each pair shares, from the JS bucket map
    per_pair: Counter = Counter()
    for members in config["bucket_map"].values():
        for i, j in combinations(sorted(members), 2):
            per_pair[(i, j)] += 1
    assert as_dict(cands) == dict(per_pair)


# ------------------------------------------------------------------ the S-curve, measured


def s_curve(j: float, b: int, r: int) -> float:
    return 1.0 - (1.0 - j**r) ** b


@pytest.mark.parametrize("j_num, j_den", [(3, 10), (1, 2), (7, 10)])
def test_candidate_rate_follows_the_s_curve(j_num, j_den):
    # 1000 pairs of exact Jaccard J (fresh random elements each, 10 hash seeds x 100 pairs), fast family, k = 64.
    # Each slot agrees with probability exactly J (see test_minhash) and slots are independent, so a pair is a
    # candidate with probability P(J) = 1 - (1 - J^r)^b; the measured rate over 1000 pairs has binomial
    # SE = sqrt(P(1-P)/1000) <= 0.016. Tolerance: 4.5 SE, plus 0.002 for schemes where P is within 1e-3 of 0 or 1.
    k, seeds, per_seed = 64, 10, 100
    shared, only_a, only_b = split_for(j_num, j_den, 100)
    j = j_num / j_den
    schemes = [Banding(16, 4), Banding(8, 8), Banding(32, 2), Banding(4, 16), Banding(5, 12)]  # the last: 60 < k
    hits = {s: 0 for s in schemes}
    rng = np.random.default_rng(77 + j_num)
    for seed in range(seeds):
        sigs = make_family(SignatureParams(family="fast", k=k, seed=1000 + seed)).sign_ids(
            random_id_pairs(rng, per_seed, shared, only_a, only_b)
        )
        for s in schemes:
            c = candidate_pairs(sigs, s)
            planted = (c.left % 2 == 0) & (c.right == c.left + 1)
            hits[s] += int(planted.sum())
    n = seeds * per_seed
    for s in schemes:
        p = s_curve(j, s.bands, s.rows)
        se = math.sqrt(p * (1 - p) / n)
        assert abs(hits[s] / n - p) <= 4.5 * se + 0.002, (s, j, hits[s] / n, p)
