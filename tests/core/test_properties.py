"""Property-based tests of the core's invariants (hypothesis): what must hold for any input."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lshdesk.core.minhash import estimate, make_family
from lshdesk.core.params import ShingleSpec, SignatureParams
from lshdesk.core.shingle_kinds import hash_shingles, shingle_strings
from lshdesk.core.shingling import ShingleBatch, tokenize

FAMILIES = ["fast", "article", "datasketch"]
words = st.text(alphabet=st.characters(categories=["Ll", "Lu", "Nd"]), min_size=1, max_size=8)
word_sets = st.sets(words, min_size=1, max_size=40)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _sign(sets: list[set[str]], family: str, k: int = 32, seed: int = 3) -> np.ndarray:
    """Signatures of word sets under word shingling (each word one shingle)."""
    fam = make_family(SignatureParams(ShingleSpec("word", 1), family, k, seed))
    if fam.needs_strings:
        return fam.sign_strings([sorted(s) for s in sets])
    texts = [" ".join(sorted(s)) for s in sets]
    return fam.sign_ids(hash_shingles(texts, ShingleSpec("word", 1)))


def _words_ok(s: set[str]) -> set[str]:
    """Keep words that tokenise to themselves, so a text of them has exactly this word set."""
    return {w for w in s if tokenize(w) == [w]}


@SETTINGS
@given(a=word_sets, b=word_sets, family=st.sampled_from(FAMILIES))
def test_signature_of_a_union_is_the_elementwise_minimum(a, b, family):
    a, b = _words_ok(a), _words_ok(b)
    if not a or not b:
        return
    sa, sb, su = _sign([a, b, a | b], family)
    assert np.array_equal(su, np.minimum(sa, sb))


@SETTINGS
@given(a=word_sets, family=st.sampled_from(FAMILIES), seed=st.integers(0, 2**32 - 1))
def test_identical_sets_estimate_one(a, family, seed):
    a = _words_ok(a)
    if not a:
        return
    s1, s2 = _sign([a, set(a)], family, seed=seed)
    assert estimate(s1, s2) == 1.0


@SETTINGS
@given(a=word_sets, b=word_sets, family=st.sampled_from(FAMILIES))
def test_estimate_is_symmetric(a, b, family):
    a, b = _words_ok(a), _words_ok(b)
    if not a or not b:
        return
    sa, sb = _sign([a, b], family)
    assert estimate(sa, sb) == estimate(sb, sa)


def test_disjoint_sets_rarely_collide():
    # 200 pairs of disjoint 50-word sets, k = 128: the per-slot collision probability is 0 for a true
    # min-wise family; 32-bit values collide by chance with probability ~ 100 / 2**32 per slot. Allow 1 in 1000.
    rng = np.random.default_rng(11)
    for family in FAMILIES:
        agree = 0
        for i in range(200):
            ids = rng.choice(10**6, size=100, replace=False)
            a = {f"w{x}" for x in ids[:50]}
            b = {f"w{x}" for x in ids[50:]}
            sa, sb = _sign([a, b], family, k=128, seed=i)
            agree += int(np.count_nonzero(sa == sb))
        assert agree <= 200 * 128 // 1000, f"{family}: {agree} agreeing slots between disjoint sets"


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=300), spec=st.sampled_from(["word", "word:2", "word:3", "char:1", "char:4"]))
def test_shingling_never_raises_and_both_views_agree(text, spec):
    s = ShingleSpec.parse(spec)
    strings = shingle_strings(text, s)
    batch: ShingleBatch = hash_shingles([text], s)
    assert len(batch.doc(0)) == len(strings)
