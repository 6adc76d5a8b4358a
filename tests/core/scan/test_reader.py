"""The reading stage: batches start while the listing goes on, and the result does not depend on when they run;
the store grows as batches arrive and keeps them in order."""

from __future__ import annotations

import time

import numpy as np
import pytest
from core_helpers import make_words, mutate, write_tree

from lshdesk.core.corpus.listing import FileRun
from lshdesk.core.params import ScanParams
from lshdesk.core.persistence.export import to_json
from lshdesk.core.scan import pipeline, reader
from lshdesk.core.scan.frontend import Prepared
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.core.scan.store import ScanStore
from lshdesk.core.shingling import ShingleBatch


@pytest.fixture
def folder(tmp_path):
    rng = np.random.default_rng(5)
    texts = {f"{i:03d}.txt": " ".join(make_words(rng, 30, vocab_size=5000)) for i in range(240)}
    texts["239.txt"] = " ".join(mutate(rng, texts["000.txt"].split(), 1))  # a pair far apart in listing order
    texts["120.txt"] = "?!?! ..."  # skipped when read (no words), in the middle of the listing
    write_tree(tmp_path, texts)
    return tmp_path


def test_reading_starts_while_the_listing_goes_on_and_gives_the_same_result(folder, monkeypatch):
    alone = run(scan([str(folder)], ScanParams(threshold=0.7)))
    events: list[tuple[str, float]] = []
    real_walk, real_read = pipeline.walk, reader.read_and_sign_listed

    def slow_walk(*args, **kwargs):
        for entry in real_walk(*args, **kwargs):
            one_by_one = [FileRun(entry.root, [p], entry.cut) for p in getattr(entry, "paths", ())]
            for one in one_by_one if isinstance(entry, FileRun) else [entry]:
                time.sleep(0.002)  # a slow disk, a file at a time: the listing takes about half a second
                yield one
        events.append(("listed", time.perf_counter()))

    def spy_read(*args, **kwargs):
        events.append(("read", time.perf_counter()))
        return real_read(*args, **kwargs)

    monkeypatch.setattr(pipeline, "walk", slow_walk)
    monkeypatch.setattr(reader, "read_and_sign_listed", spy_read)
    monkeypatch.setattr(reader, "BATCH_FILES", 16)
    overlapped = run(scan([str(folder)], ScanParams(threshold=0.7)))
    listed = next(t for what, t in events if what == "listed")
    reads = [t for what, t in events if what == "read"]
    assert len(reads) == 15 and sum(t < listed for t in reads) >= 10  # most batches were read during the listing
    assert to_json(overlapped) == to_json(alone)  # same documents, skipped files, pairs and groups, in order
    assert len(alone.pairs) == 1 and [s.path for s in alone.skipped] == [str(folder / "120.txt")]


def test_the_store_grows_and_keeps_batches_in_order():
    rng = np.random.default_rng(1)
    store = ScanStore(4, np.dtype(np.uint32), first_bytes=24)  # room for one signature and six ids at first
    docs, kept = [], []
    for b in range(6):
        n = int(rng.integers(1, 5))
        sets = [np.unique(rng.integers(0, 1000, int(rng.integers(0, 6)))).astype(np.uint32) for _ in range(n)]
        offsets = np.concatenate([[0], np.cumsum([len(s) for s in sets])]).astype(np.int64)
        batch = ShingleBatch(np.concatenate(sets).astype(np.uint32), offsets, np.arange(n, dtype=np.int64) + 7)
        sigs = rng.integers(0, 2**32, (n, 4), dtype=np.uint64).astype(np.uint32)
        ok = list(range(10 * b, 10 * b + n))
        skipped: list = []
        empty = np.zeros(1, dtype=np.int64)
        kept += store.add(Prepared(ok, [], np.zeros(0, np.uint8), empty, None), batch, sigs, [""] * 100, skipped)
        docs += [(i, s, g) for i, s, g in zip(ok, sets, sigs) if len(s)]
        assert len(skipped) == sum(1 for s in sets if not len(s))  # no shingles: skipped with a reason
    shingles, sigs = store.finish()
    assert kept == [i for i, _, _ in docs]
    assert [shingles.doc(j).tolist() for j in range(len(docs))] == [s.tolist() for _, s, _ in docs]
    assert np.array_equal(sigs, np.array([g for _, _, g in docs]).reshape(-1, 4))


def test_the_store_grows_no_further_than_the_room_it_is_told_of():
    store = ScanStore(4, np.dtype(np.uint32))  # would grow to 32 MB at first, unbounded
    sets = [np.array([1, 2, 3], dtype=np.uint32), np.array([4, 5], dtype=np.uint32)]
    batch = ShingleBatch(np.concatenate(sets), np.array([0, 3, 5], dtype=np.int64), np.array([3, 2], dtype=np.int64))
    prep = Prepared([0, 1], [], np.zeros(0, np.uint8), np.zeros(1, dtype=np.int64), None)
    sigs = np.ones((2, 4), dtype=np.uint32)
    store.add(prep, batch, sigs, ["a", "b"], [], room=(7, 40))
    assert len(store.counts) == len(store.sigs) == 7 and len(store.ids) == 40  # resize writes zeros: no more
    store.add(Prepared([2, 3], [], prep.buf, prep.offsets, None), batch, sigs, ["a", "b", "c", "d"], [], room=(3, 8))
    assert (
        len(store.counts) == 7 and store.n_docs == 4 and store.n_ids == 10
    )  # room fits; a smaller bound shrinks nothing
    shingles, kept_sigs = store.finish()
    assert len(kept_sigs) == 4 and shingles.ids.tolist() == [1, 2, 3, 4, 5] * 2
