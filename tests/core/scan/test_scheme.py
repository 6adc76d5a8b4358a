"""The automatic scheme spends its time budget on recall: pairs crowded just above the threshold are found."""

from __future__ import annotations

import numpy as np
import pytest

from lshdesk.core.lsh import candidate_pairs
from lshdesk.core.minhash import make_family
from lshdesk.core.params import SignatureParams
from lshdesk.core.scan.scheme import choose_scheme
from lshdesk.core.scurve import optimal_banding
from lshdesk.core.shingling import ShingleBatch

N_PAIRS, N_OTHER, UNION, SHARED = 300, 300, 200, 110  # pairs at J = 0.55, just above t = 0.5


def _corpus(seed: int = 3) -> ShingleBatch:
    """Docs 2i, 2i+1 (i < N_PAIRS) share SHARED of UNION ids (J = 0.55); the others share nothing."""
    rng = np.random.default_rng(seed)
    pool = rng.choice(2**32, size=N_PAIRS * UNION + N_OTHER * 120, replace=False).astype(np.uint32)
    docs, at = [], 0
    for _ in range(N_PAIRS):
        row = pool[at : at + UNION]
        at += UNION
        half = SHARED + (UNION - SHARED) // 2
        docs += [np.sort(row[:half]), np.sort(np.concatenate([row[:SHARED], row[half:]]))]
    for _ in range(N_OTHER):
        docs.append(np.sort(pool[at : at + 120]))
        at += 120
    counts = np.array([len(d) for d in docs], dtype=np.int64)
    offsets = np.zeros(len(docs) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return ShingleBatch(np.concatenate(docs), offsets, counts)


def _found(sigs, banding) -> int:
    c = candidate_pairs(sigs, banding)
    return int(np.count_nonzero((c.left % 2 == 0) & (c.right == c.left + 1) & (c.left < 2 * N_PAIRS)))


@pytest.fixture(scope="module")
def signed():
    batch = _corpus()
    return batch, make_family(SignatureParams()).sign_ids(batch)


def test_pairs_just_above_the_threshold_get_a_more_recall_friendly_scheme(signed):
    batch, sigs = signed
    optimum = optimal_banding(0.5, 128, 0.05, 0.95)
    choice = choose_scheme(sigs, batch, 0.5, optimum)
    assert choice.banding != optimum and choice.banding.bands * choice.banding.rows <= 128
    assert choice.true_pairs > 50  # the sample's pairs at J = 0.55 (600 of 900 documents sampled)
    assert choice.recall > choice.optimum_recall and choice.recall >= 0.995
    # measured on the whole corpus, not only expected: the chosen scheme misses fewer of the 300 pairs
    assert _found(sigs, choice.banding) > _found(sigs, optimum)
    assert _found(sigs, choice.banding) >= 0.98 * N_PAIRS
    assert "instead of the S-curve optimum" in choice.reason()


def test_no_budget_keeps_the_optimum(signed):
    batch, sigs = signed
    optimum = optimal_banding(0.5, 128, 0.05, 0.95)
    choice = choose_scheme(sigs, batch, 0.5, optimum, budget=0.0)
    assert choice.banding == optimum
    assert "S-curve optimum" in choice.reason()


def test_a_low_threshold_keeps_the_optimum_without_a_pool_of_every_pair(signed):
    batch, sigs = signed
    optimum = optimal_banding(0.3, 128, 0.05, 0.95)
    assert choose_scheme(sigs, batch, 0.3, optimum).banding == optimum


def test_reference_folders_count_only_cross_pairs(signed):
    batch, sigs = signed
    is_ref = np.zeros(len(sigs), dtype=bool)
    is_ref[0 : 2 * N_PAIRS : 2] = True  # the first document of every pair is a reference document
    optimum = optimal_banding(0.5, 128, 0.05, 0.95)
    cross = choose_scheme(sigs, batch, 0.5, optimum, is_ref=is_ref)
    assert cross.true_pairs > 50 and cross.recall >= 0.995
    is_ref[:] = False
    is_ref[2 * N_PAIRS :] = True  # only unrelated documents are references: no cross pair is near
    assert choose_scheme(sigs, batch, 0.5, optimum, is_ref=is_ref).true_pairs == 0
