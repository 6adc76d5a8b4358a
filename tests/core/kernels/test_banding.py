"""The one banding kernel: its keys are the numpy reference's, its pairs and bucket report are the brute force's,
and the scan (no report) and the explorer (report, blocks, two threads) find the same pairs; the merge of counted
runs is numpy's."""

from __future__ import annotations

from collections import Counter, defaultdict
from itertools import combinations

import numpy as np
import pytest

from lshdesk.core import lsh
from lshdesk.core.kernels.banding import band_buckets, band_keys, merge_counted
from lshdesk.core.params import Banding

SCHEMES = ((8, 4), (32, 1), (3, 5), (1, 1), (16, 2))


def signatures(seed: int, n: int, k: int, values: int, dtype) -> np.ndarray:
    """Random signatures with few distinct slot values, so that many documents share buckets."""
    return np.random.default_rng(seed).integers(0, values, size=(n, k)).astype(dtype)


def buckets(keys: np.ndarray, band_lo: int, report: bool) -> tuple[np.ndarray, ...]:
    """The kernel on a fresh array of codes: (codes, band, size, first)."""
    codes, n_codes, *found = band_buckets(keys, band_lo, int(report), np.empty(16, np.int64), 0)
    return (codes[:n_codes], *found)


def brute(keys: np.ndarray, band_lo: int) -> tuple[Counter, list[tuple[int, int, int]]]:
    """From an ``(n, bands)`` key array, by dicts: pair codes with the number of bands shared, and every bucket of
    two or more as (band, size, lowest member)."""
    n = len(keys)
    pairs: Counter = Counter()
    buckets = []
    for t in range(keys.shape[1]):
        members: dict[int, list[int]] = defaultdict(list)
        for d in range(n):
            members[int(keys[d, t])].append(d)
        for docs in members.values():
            if len(docs) > 1:
                buckets.append((band_lo + t, len(docs), docs[0]))
            pairs.update(i * n + j for i, j in combinations(docs, 2))
    return pairs, buckets


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
@pytest.mark.parametrize(("b", "r"), SCHEMES)
def test_kernel_keys_are_the_numpy_reference(dtype, b, r):
    sigs = signatures(1, 60, 32, 1 << 30, dtype)
    assert np.array_equal(lsh.band_keys(sigs, Banding(b, r)), lsh.band_keys_numpy(sigs, Banding(b, r)))
    assert np.array_equal(band_keys(sigs, b, r).T, lsh.band_keys_numpy(sigs, Banding(b, r)))


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
@pytest.mark.parametrize(("b", "r"), SCHEMES)
def test_buckets_are_the_brute_force_over_the_reference_keys(dtype, b, r):
    sigs = signatures(2, 90, 32, 3, dtype)
    want_pairs, want_buckets = brute(lsh.band_keys_numpy(sigs, Banding(b, r)), 0)
    codes, band, size, first = buckets(band_keys(sigs, b, r), 0, True)
    assert Counter(codes.tolist()) == want_pairs
    assert sorted(zip(band.tolist(), size.tolist(), first.tolist())) == sorted(want_buckets)
    plain = buckets(band_keys(sigs, b, r), 0, False)
    assert np.array_equal(np.sort(plain[0]), np.sort(codes))
    assert all(len(x) == 0 for x in plain[1:])


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 61])
def test_keys_of_any_number_of_documents_read_only(n):
    """Documents are keyed eight at a time: the last n % 8 apart; read-only signatures (np.frombuffer) are taken."""
    sigs = signatures(6, n, 12, 1 << 30, np.uint64)
    frozen = np.frombuffer(sigs.tobytes(), dtype=np.uint64).reshape(n, 12)
    assert np.array_equal(band_keys(frozen, 4, 3).T, lsh.band_keys_numpy(sigs, Banding(4, 3)))


def test_more_slots_than_the_signatures_hold_are_refused():
    with pytest.raises(ValueError, match="5 bands x 2 rows"):
        band_keys(np.zeros((3, 8), np.uint32), 5, 2)


def test_the_keys_of_a_column_slice_are_those_bands_numbered_from_band_lo():
    sigs = signatures(3, 70, 40, 4, np.uint32)
    keys = lsh.band_keys_numpy(sigs, Banding(10, 4))
    want_pairs, want_buckets = brute(keys[:, 3:7], 3)
    codes, band, size, first = buckets(band_keys(np.ascontiguousarray(sigs[:, 12:28]), 4, 4), 3, True)
    assert Counter(codes.tolist()) == want_pairs
    assert sorted(zip(band.tolist(), size.tolist(), first.tolist())) == sorted(want_buckets)


def test_blocks_of_bands_append_to_one_array_of_codes():
    sigs = signatures(5, 80, 24, 3, np.uint32)
    whole = buckets(band_keys(sigs, 12, 2), 0, False)[0]
    codes, n_codes, *_ = band_buckets(
        band_keys(np.ascontiguousarray(sigs[:, :10]), 5, 2), 0, False, np.empty(1, np.int64), 0
    )
    codes, n_codes, *_ = band_buckets(band_keys(np.ascontiguousarray(sigs[:, 10:]), 7, 2), 5, 0, codes, n_codes)
    assert np.array_equal(codes[:n_codes], whole)


def test_unique_documents_share_no_bucket():
    sigs = np.arange(200 * 16, dtype=np.uint64).reshape(200, 16)
    codes, band, _, _ = buckets(band_keys(sigs, 8, 2), 0, True)
    assert len(codes) == 0 and len(band) == 0


def test_scan_and_explorer_find_the_same_pairs(monkeypatch):
    sigs = signatures(4, 120, 64, 5, np.uint32)
    for threads in (False, True):
        if threads:
            monkeypatch.setattr(lsh, "PARALLEL_WORK", 0)  # blocks of bands over two threads
        for b, r in ((40, 1), (20, 3), (64, 1)):
            scan = lsh.candidate_pairs(sigs, Banding(b, r))
            uniq, counts = lsh.unique_codes(lsh.band_codes(sigs, Banding(b, r))[0])
            assert np.array_equal(uniq, scan.left * len(sigs) + scan.right)
            assert np.array_equal(counts, scan.bands)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_merge_counted_is_the_union_with_counts_added(seed):
    rng = np.random.default_rng(seed)
    a, b = (np.unique(rng.integers(0, 300, int(rng.integers(0, 200)))) for _ in range(2))
    ca, cb = rng.integers(1, 9, len(a)), rng.integers(1, 9, len(b))
    keys, counts = merge_counted(a, ca, b, cb)
    want, at = np.unique(np.concatenate([a, b]), return_inverse=True)
    assert keys.tolist() == want.tolist()
    assert counts.tolist() == np.bincount(at, weights=np.concatenate([ca, cb])).astype(np.int64).tolist()
