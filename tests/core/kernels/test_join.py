"""The join's compiled loops against plain Python: document frequencies, prefix postings, candidates listed by their
later document, and the join itself (exactly the candidates at or above t get their intersection size)."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from lshdesk.core.kernels import join


def _batch(rng, n: int) -> tuple[list[list[int]], np.ndarray, np.ndarray]:
    """n sorted sets of ranked ids (0 rarest) from a skewed pool; a third are near-copies of an earlier set."""
    sets: list[list[int]] = []
    for d in range(n):
        if d and d % 3 == 0:
            base = set(sets[int(rng.integers(d))])
            base ^= set(rng.integers(0, 400, int(rng.integers(0, 6))).tolist())
        else:
            base = set((rng.zipf(1.3, int(rng.integers(0, 80))) % 400).tolist())
        sets.append(sorted(base))
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum([len(s) for s in sets], out=offsets[1:])
    return sets, np.array([x for s in sets for x in s], dtype=np.int32), offsets


def _prefix(size: int, share: float) -> int:
    return 0 if size == 0 else min(size, size - math.ceil(share * size) + 1)


def test_count_ids_counts_document_frequencies_in_steps():
    rng = np.random.default_rng(0)
    ids = rng.integers(0, 2**32, 5000, dtype=np.uint64)[rng.integers(0, 5000, 20000)].astype(np.uint32)
    keys, df, slot = join.rank_table(len(ids))
    for lo in range(0, len(ids), 3001):
        join.count_ids(ids, lo, min(len(ids), lo + 3001), keys, df, slot)
    assert np.array_equal(keys[slot], ids)  # each id's slot holds it ...
    assert {int(k): int(c) for k, c in zip(keys[df > 0], df[df > 0])} == Counter(ids.tolist())  # ... counted once each


def test_build_index_lists_each_documents_prefix_under_its_tokens_in_processing_order():
    rng = np.random.default_rng(1)
    sets, tok, offsets = _batch(rng, 120)
    order = rng.permutation(len(sets)).astype(np.int64)
    t = 0.6
    start, doc, pos = join.build_index(tok, offsets, order, 400, t)
    want: dict[int, list[tuple[int, int]]] = {}
    for d in order.tolist():
        for i in range(_prefix(len(sets[d]), 2 * t / (1 + t))):
            want.setdefault(sets[d][i], []).append((d, i))
    assert start.dtype == np.int64 and doc.dtype == np.int32 and pos.dtype == np.int32
    for w in range(400):
        got = list(zip(doc[start[w] : start[w + 1]].tolist(), pos[start[w] : start[w + 1]].tolist()))
        assert got == want.get(w, [])


def test_partner_lists_group_candidates_by_later_document():
    rng = np.random.default_rng(2)
    later, earlier = rng.integers(0, 50, 700), rng.integers(0, 50, 700)
    start, partner, index = join.partner_lists(later, earlier, 50)
    for d in range(50):
        ks = [k for k in range(700) if later[k] == d]
        assert index[start[d] : start[d + 1]].tolist() == ks
        assert partner[start[d] : start[d + 1]].tolist() == earlier[ks].tolist()


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.8, 1.0])
def test_the_join_measures_exactly_the_candidates_at_or_above_t(threshold):
    rng = np.random.default_rng(3)
    sets, tok, offsets = _batch(rng, 200)
    n = len(sets)
    counts = np.diff(offsets)
    order = np.lexsort((np.arange(n), counts)).astype(np.int64)
    pos_of = np.empty(n, dtype=np.int64)
    pos_of[order] = np.arange(n)
    left, right = (a.astype(np.int64) for a in np.triu_indices(n, k=1))
    t = threshold - 1e-9
    post = join.build_index(tok, offsets, order, 400, t)
    later_is_left = pos_of[left] > pos_of[right]
    adj = join.partner_lists(np.where(later_is_left, left, right), np.where(later_is_left, right, left), n)
    out = np.full(len(left), -1, dtype=np.int64)
    for lo, hi in ((0, 77), (77, n)):
        assert join.join_rows(tok, offsets, order, pos_of, *post, *adj, t, lo, hi, out) is out
    inter = np.array([len(set(sets[a]) & set(sets[b])) for a, b in zip(left.tolist(), right.tolist())])
    union = counts[left] + counts[right] - inter
    at_or_above = (union > 0) & (inter >= threshold * union - 1e-9)
    assert at_or_above.sum() > 10  # 19 pairs at 1.0, 66-255 below
    assert np.array_equal(out, np.where(at_or_above, inter, -1))


def test_frequency_ranks_order_used_slots_by_frequency_then_slot():
    rng = np.random.default_rng(3)
    df = rng.integers(0, 6, 3000).astype(np.int32) * (rng.random(3000) < 0.4)
    rank = df.copy()
    used = join.frequency_ranks(rank)
    slots = [s for s in range(len(df)) if df[s] > 0]
    want = sorted(slots, key=lambda s: (df[s], s))
    assert used == len(slots)
    assert [int(rank[s]) for s in want] == list(range(used))
    assert join.frequency_ranks(np.zeros(8, dtype=np.int32)) == 0


@pytest.mark.parametrize("n_ranks", [40, 300, 70_000, 20_000_000])  # one to four 8-bit passes
def test_ranked_rows_sorts_each_documents_ranks_and_reversed_rows_renames_common_first(n_ranks):
    rng = np.random.default_rng(n_ranks)
    sizes = rng.integers(0, min(400, n_ranks), 60)
    sizes[::7] = 0
    slot_of = [rng.choice(n_ranks, int(s), replace=False) for s in sizes]  # distinct within a document
    offsets = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    slot = np.concatenate(slot_of).astype(np.int32)
    rank = rng.permutation(n_ranks).astype(np.int32)
    out = np.full(len(slot), -1, dtype=np.int32)
    for lo, hi in [(0, 25), (25, 26), (26, 60)]:
        join.ranked_rows(slot, rank, offsets, n_ranks, lo, hi, out)
    back = np.empty_like(out)
    join.reversed_rows(out, offsets, n_ranks, 0, 60, back)
    for d, s in enumerate(slot_of):
        got = out[offsets[d] : offsets[d + 1]].tolist()
        assert got == sorted(rank[s].tolist())
        assert back[offsets[d] : offsets[d + 1]].tolist() == [n_ranks - 1 - x for x in reversed(got)]
