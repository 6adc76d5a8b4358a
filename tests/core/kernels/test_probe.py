"""The probing intersection kernel against the merge kernel and Python sets: random sets (fixed seeds), empty,
identical and disjoint sets, id 0, crowded tables, pairs in any order, read-only arrays."""

from __future__ import annotations

import numpy as np
import pytest

from lshdesk.core.kernels.pairs import intersection_sizes as merge_sizes
from lshdesk.core.kernels.probe import probe_intersection_sizes


def _batch(sets: list[np.ndarray], dtype=np.uint32) -> tuple[np.ndarray, np.ndarray]:
    """Flat sorted unique ids and offsets, as a ShingleBatch holds them."""
    sets = [np.unique(np.asarray(s, dtype=dtype)) for s in sets]
    offsets = np.zeros(len(sets) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in sets], out=offsets[1:])
    ids = np.concatenate(sets) if sets else np.zeros(0, dtype)
    return ids.astype(dtype), offsets


def _python(sets, left, right) -> list[int]:
    py = [set(np.unique(s).tolist()) for s in sets]
    return [len(py[a] & py[b]) for a, b in zip(left.tolist(), right.tolist())]


def _random_sets(rng, n: int, sizes: tuple[int, int], pool: int, dtype) -> list[np.ndarray]:
    """n sets drawn from a shared pool of uniform ids (so pairs overlap), sizes in the given range."""
    info = np.iinfo(dtype)
    shared = rng.integers(0, info.max, pool, dtype=dtype, endpoint=True)
    return [rng.choice(shared, int(rng.integers(*sizes)), replace=False) for _ in range(n)]


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("sizes", [(0, 40), (100, 300), (500, 3000)], ids=["tiny", "word", "char"])
def test_probe_equals_merge_and_sets_on_random_sets(dtype, seed, sizes):
    rng = np.random.default_rng(seed)
    sets = _random_sets(rng, 60, sizes, pool=4 * sizes[1] + 10, dtype=dtype)
    ids, offsets = _batch(sets, dtype)
    left, right = (a.astype(np.int64) for a in np.triu_indices(len(sets), k=1))  # grouped by left, as candidates are
    got = probe_intersection_sizes(ids, offsets, left, right)
    assert got.tolist() == merge_sizes(ids, offsets, left, right).tolist()
    assert got.tolist() == _python(sets, left, right)
    shuffled = rng.permutation(len(left))  # any order: a table per pair
    assert probe_intersection_sizes(ids, offsets, left[shuffled], right[shuffled]).tolist() == got[shuffled].tolist()


def test_empty_identical_and_disjoint_sets():
    a = np.array([3, 17, 2**31 + 5, 2**32 - 1], dtype=np.uint32)
    sets = [np.zeros(0), a, a.copy(), np.array([4, 18, 2**31 + 6]), np.zeros(0)]
    ids, offsets = _batch(sets)
    left = np.array([0, 0, 1, 1, 1, 2, 3, 4, 1], dtype=np.int64)
    right = np.array([4, 1, 2, 3, 0, 1, 1, 0, 1], dtype=np.int64)
    got = probe_intersection_sizes(ids, offsets, left, right)
    assert got.tolist() == [0, 0, 4, 0, 0, 4, 0, 0, 4]
    assert got.tolist() == merge_sizes(ids, offsets, left, right).tolist()


def test_id_zero_counts_only_when_both_hold_it():
    sets = [[0, 5, 9], [0, 9], [5, 9], [0], [7]]  # 0 is the empty-slot mark inside the table
    ids, offsets = _batch(sets)
    left, right = (a.astype(np.int64) for a in np.triu_indices(len(sets), k=1))
    left, right = np.concatenate([left, right]), np.concatenate([right, left])  # both sides hold the table
    got = probe_intersection_sizes(ids, offsets, left, right)
    assert got.tolist() == _python(sets, left, right)


def test_ids_sharing_low_bits_walk_the_table():
    """Ids equal in their low 20 bits all want one slot: every lookup walks past the others (and misses stop)."""
    rng = np.random.default_rng(7)
    crowd = (np.arange(1, 200, dtype=np.uint64) << np.uint64(20)) | np.uint64(12345)
    sets = [crowd[:150], crowd[50:], rng.choice(crowd, 80, replace=False), crowd[::2] + np.uint64(1)]
    ids, offsets = _batch(sets, np.uint64)
    left, right = (a.astype(np.int64) for a in np.triu_indices(len(sets), k=1))
    got = probe_intersection_sizes(ids, offsets, left, right)
    assert got.tolist() == _python(sets, left, right)


def test_no_pairs():
    ids, offsets = _batch([[1, 2], [2, 3]])
    none = np.zeros(0, dtype=np.int64)
    assert probe_intersection_sizes(ids, offsets, none, none).tolist() == []


def test_many_pairs_split_over_two_threads_equal_the_merge():
    """``clustering.intersection_sizes`` splits 20,000+ pairs by work between two threads: same sizes, same order."""
    from lshdesk.core.clustering import intersection_sizes
    from lshdesk.core.shingling import ShingleBatch

    rng = np.random.default_rng(4)
    sets = _random_sets(rng, 400, (1, 900), pool=3000, dtype=np.uint32)  # sizes vary: the work is uneven
    ids, offsets = _batch(sets)
    left, right = (a.astype(np.int64) for a in np.triu_indices(len(sets), k=1))
    assert len(left) > 20000
    got = intersection_sizes(ShingleBatch(ids, offsets, np.diff(offsets)), left, right)
    assert got.tolist() == merge_sizes(ids, offsets, left, right).tolist()


def test_read_only_ids_and_offsets():
    """A loaded session's arrays can be read-only (np.frombuffer): the kernel takes them."""
    ids, offsets = _batch([[1, 2, 3, 9], [2, 3, 4]])
    frozen = np.frombuffer(ids.tobytes(), dtype=np.uint32), np.frombuffer(offsets.tobytes(), dtype=np.int64)
    one = np.zeros(1, dtype=np.int64)
    assert probe_intersection_sizes(*frozen, one, one + 1).tolist() == [2]
