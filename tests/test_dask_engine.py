"""The Dask engine: its tasks checked against brute force (no dask needed), then whole scans on a 2-worker
LocalCluster checked against the local engine (identical documents, skipped files, signatures, candidates, pairs,
groups, JSON output) and against plain Python sets; cancel, the command line and connection errors."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from lshdesk.core.corpus.listing import SourceFile
from lshdesk.core.errors import ScanCancelled
from lshdesk.core.params import Banding, ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.persistence import export
from lshdesk.core.scan import pipeline
from lshdesk.core.shingle_kinds import hash_shingles, shingle_strings
from lshdesk.distributed import tasks
from lshdesk.distributed.engine import plan_partitions
from lshdesk.system import bundled

SAMPLE = bundled.sample_dir()


def _jaccard(a: set, b: set) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def _words(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 8))) for _ in range(n)]


def _edit(rng: random.Random, words: list[str], n: int) -> list[str]:
    out = list(words)
    for i in rng.sample(range(len(out)), n):
        out[i] = f"edit{rng.randrange(10**9)}"
    return out


def _write_corpus(root: Path, seed: int = 8) -> list[list[str]]:
    """Families of near-copies spread over folders a/, b/, c/, unrelated documents and files that are skipped.
    Returns each family's files (relative paths); a chain of edits of edits is not among them."""
    rng = random.Random(seed)
    families = []
    for f in range(7):
        base = _words(rng, 150)
        members = [f"{'abc'[f % 3]}/fam{f}-orig.txt"] + [f"{'abc'[(f + i) % 3]}/fam{f}-copy{i}.txt" for i in (1, 2)]
        texts = [base, _edit(rng, base, 1), _edit(rng, base, 1)]
        for rel, words in zip(members, texts):
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(" ".join(words), encoding="utf-8")
        families.append(members)
    chain = [_words(rng, 150)]
    for _ in range(7):  # each link ~0.8 like the one before, the ends ~0.3: a long group, its lowest pair far below
        chain.append(_edit(rng, chain[-1], 5))
    for i, words in enumerate(chain):
        (root / "abca"[i % 4] / f"chain{i}.txt").write_text(" ".join(words), encoding="utf-8")
    for i in range(15):
        (root / "abc"[i % 3] / f"other{i:02d}.md").write_text(" ".join(_words(rng, 80)), encoding="utf-8")
    (root / "b" / "binary.txt").write_bytes(b"\x00\x01\x02 not text \x00" * 20)
    (root / "b" / "punctuation.txt").write_text("!!! ... ??? --- ;;;\n", encoding="utf-8")
    (root / "c" / "empty.txt").write_bytes(b"")
    (root / "c" / "picture.png").write_bytes(b"\x89PNG\r\n")
    return families


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, list[list[str]]]:
    root = tmp_path_factory.mktemp("dask") / "docs"
    return root, _write_corpus(root)


# ---- the tasks, run in this process (no dask needed) ----------------------------------------------------------


def _parts_of(sigs: np.ndarray, bounds: list[int]) -> list[tasks.SignedPart]:
    empty = tasks.empty_batch()
    return [tasks.SignedPart(empty, sigs[a:b], np.ones(b - a, bool), []) for a, b in zip(bounds[:-1], bounds[1:])]


def _shuffle(sigs: np.ndarray, bounds: list[int], banding: Banding, n_red: int, reference=None):
    parts, b = _parts_of(sigs, bounds), np.asarray(bounds, dtype=np.int64)
    maps = [tasks.band_map(p, bounds[i], banding, n_red) for i, p in enumerate(parts)]
    reds = [tasks.band_reduce(b, *[m[j] for m in maps]) for j in range(n_red)]
    return [tasks.pair_reduce(len(sigs), reference, *[r[c] for r in reds]) for c in range(len(parts))]


def _brute_force_bands(sigs: np.ndarray, banding: Banding) -> dict[tuple[int, int], int]:
    """For every pair of rows, in how many bands all r slots are equal (a pair-by-pair comparison)."""
    r = banding.rows
    hits: dict[tuple[int, int], int] = {}
    for i, j in combinations(range(len(sigs)), 2):
        n = sum(
            bool(np.array_equal(sigs[i, s * r : (s + 1) * r], sigs[j, s * r : (s + 1) * r]))
            for s in range(banding.bands)
        )
        if n:
            hits[(i, j)] = n
    return hits


def test_banding_shuffle_finds_every_colliding_pair_and_counts_its_bands():
    rng = np.random.default_rng(3)
    sigs = rng.integers(0, 3, size=(90, 24)).astype(np.uint32)  # 3 values, 3 rows: 1 in 27 bands collide by chance
    banding = Banding(8, 3)
    cands = _shuffle(sigs, [0, 17, 17, 60, 90], banding, n_red=3)  # uneven partitions, one of them empty
    truth = _brute_force_bands(sigs, banding)
    assert len(truth) > 150
    got = {(int(l), int(r)): int(n) for c in cands for l, r, n in zip(c.left, c.right, c.bands)}
    assert got == truth
    bounds = np.array([0, 17, 17, 60, 90])
    for p, c in enumerate(cands):  # each pair sits with its left document, sorted
        assert np.all(tasks.part_of(c.left, bounds) == p)
        assert np.all(np.diff(c.left * 90 + c.right) > 0)


def test_reference_runs_keep_only_pairs_across_reference_and_others():
    rng = np.random.default_rng(4)
    sigs = rng.integers(0, 3, size=(60, 12)).astype(np.uint32)
    banding = Banding(4, 3)
    ref = (np.array([10, 40]), np.array([25, 45]))  # documents 10..24 and 40..44 are reference documents
    cands = _shuffle(sigs, [0, 30, 60], banding, n_red=2, reference=ref)
    is_ref = lambda d: 10 <= d < 25 or 40 <= d < 45  # noqa: E731
    truth = {p: n for p, n in _brute_force_bands(sigs, banding).items() if is_ref(p[0]) != is_ref(p[1])}
    assert truth
    assert {(int(l), int(r)): int(n) for c in cands for l, r, n in zip(c.left, c.right, c.bands)} == truth


def test_join_scores_pairs_whose_documents_live_in_other_partitions():
    rng = random.Random(5)
    base = _words(rng, 60)
    texts = [" ".join(_edit(rng, base, rng.randint(0, 30))) for _ in range(40)]
    spec = ShingleSpec("word", 2)
    batch = hash_shingles(texts, spec)
    sigs = np.random.default_rng(5).integers(0, 4, size=(40, 16)).astype(np.uint32)
    bounds = np.array([0, 9, 25, 40])
    parts = [
        tasks.SignedPart(batch.take(np.arange(a, b)), sigs[a:b], np.ones(b - a, bool), [])
        for a, b in zip(bounds[:-1], bounds[1:])
    ]
    left = np.array([0, 3, 8, 8, 5], dtype=np.int64)  # all in partition 0, partners everywhere
    right = np.array([1, 30, 9, 39, 24], dtype=np.int64)
    cands = tasks.Candidates(left, right, np.ones(5, np.int64))
    req = tasks.requests(cands, bounds)
    assert tasks.needed_parts(req) == [0, 1, 2]
    assert req[1].tolist() == [9, 24] and req[2].tolist() == [30, 39]  # only the documents needed, not the partition
    slices = [tasks.take_docs(parts[d], int(bounds[d]), req[d]) for d in tasks.needed_parts(req)]
    scored = tasks.score(cands, *slices)
    sets = [shingle_strings(t, spec) for t in texts]
    assert scored.jaccard == pytest.approx([_jaccard(sets[a], sets[b]) for a, b in zip(left, right)], abs=1e-12)
    assert scored.estimate.tolist() == [np.count_nonzero(sigs[a] == sigs[b]) / 16 for a, b in zip(left, right)]


def test_sign_part_matches_sign_texts_and_sorts_out_unreadable_and_empty_files(tmp_path):
    names = ["a.txt", "bin.txt", "b.txt", "punct.txt", "c.txt"]
    contents = [
        b"one two three four",
        b"\x00\x00bin\x00ary\x00",
        b"five six seven",
        b"... !!! ???",
        "caf\u00e9 au lait".encode(),
    ]
    for n, c in zip(names, contents):
        (tmp_path / n).write_bytes(c)
    params = ScanParams(SignatureParams(k=16, seed=7))
    files = [SourceFile(str(tmp_path / n), 0, n, len(c)) for n, c in zip(names, contents)]
    told: list[int] = []
    part = tasks.sign_part(tasks.FileSlice.of(files, 1000), params, told.append)  # as files 1000..1004 of a scan
    assert told == [5]  # files done, after each batch
    assert part.kept.tolist() == [True, False, True, False, True]
    assert [(i, kind) for i, kind, _ in part.skips] == [(1001, tasks.UNREADABLE), (1003, tasks.NO_WORDS)]
    from lshdesk.core.minhash import sign_texts

    expected = sign_texts(["one two three four", "five six seven", "caf\u00e9 au lait"], params.signature)
    assert np.array_equal(part.sigs, expected)
    assert [set(part.shingles.doc(i).tolist()) for i in range(3)] == [
        set(hash_shingles([t], params.signature.shingle).ids.tolist())
        for t in ("one two three four", "five six seven", "caf\u00e9 au lait")
    ]


@pytest.mark.parametrize("n_files,threads", [(1, 2), (255, 2), (10_000, 2), (1_000_003, 3)])
def test_partitions_cover_the_files_in_order(n_files, threads):
    parts = plan_partitions(n_files, threads)
    assert parts[0][0] == 0 and parts[-1][1] == n_files
    assert all(a < b and b == c for (a, b), (c, _) in zip(parts, parts[1:] + [(n_files, None)]))
    assert len(parts) <= max(4 * threads, -(-n_files // 250_000))
    assert max(b - a for a, b in parts) <= 250_000


# ---- whole scans on a 2-worker LocalCluster ------------------------------------------------------------------


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install 'lshdesk[cluster]')")
    from distributed import Client, LocalCluster

    # dashboard_address=None would still bind the HTTP server to 8787 (and warn when another cluster holds it)
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address="127.0.0.1:0") as cluster:
        with Client(cluster, set_as_default=False) as cl:
            yield cl


def _both(client, roots, params, reference=(), **kw):
    from lshdesk.distributed import scan as dask_scan

    local = pipeline.run(pipeline.scan(roots, params, reference=reference))
    progress: list = []
    remote = pipeline.run(dask_scan(roots, params, reference=reference, client=client, **kw), progress.append)
    return local, remote, progress


def _assert_same(local, remote, signatures: bool = True):
    assert remote.docs.paths == local.docs.paths and remote.docs.rel == local.docs.rel
    for f in ("root", "size", "n_tokens"):
        assert np.array_equal(getattr(remote.docs, f), getattr(local.docs, f)), f
    assert remote.skipped == local.skipped
    assert remote.banding == local.banding and remote.scheme_note == local.scheme_note  # the same automatic choice
    assert np.array_equal(remote.shingles.counts(), local.shingles.counts())
    if signatures:
        assert remote.signatures.dtype == local.signatures.dtype
        assert np.array_equal(remote.signatures, local.signatures)  # bit-identical
        assert np.array_equal(remote.shingles.ids, local.shingles.ids)
    for name in ("candidates", "pairs"):
        a, b = getattr(local, name), getattr(remote, name)
        for f in ("left", "right", "estimate", "jaccard", "bands"):
            assert np.array_equal(getattr(a, f), getattr(b, f)), (name, f)
    assert [g.tolist() for g in remote.groups] == [g.tolist() for g in local.groups]
    assert np.array_equal(remote.group_min, local.group_min)


def _scheduler_keys(client) -> list[str]:
    return client.run_on_scheduler(lambda dask_scheduler: [str(k) for k in dask_scheduler.tasks if "lshdesk" in str(k)])


def _wait_forgotten(client, seconds: float = 10.0) -> list[str]:
    deadline = time.monotonic() + seconds
    while (left := _scheduler_keys(client)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


@pytest.mark.parametrize("family,shingle", [("fast", "word:3"), ("article", "char:5")])
def test_same_scan_as_local_engine_on_two_workers(client, corpus, family, shingle):
    root, families = corpus
    params = ScanParams(SignatureParams(ShingleSpec.parse(shingle), family, 64, 3), threshold=0.7)
    local, remote, progress = _both(client, [str(SAMPLE), str(root)], params, partition_files=4)  # ~20 partitions
    _assert_same(local, remote)
    assert len(remote.pairs) >= 21 and len(remote.groups) >= 7
    assert {s.reason.split(" (")[0] for s in remote.skipped} >= {"binary file", "empty file"}
    stages = [p.stage for p in progress]
    assert stages[0] == "connecting" and stages[-1] == "done"
    assert stages.index("reading") < stages.index("banding") < stages.index("grouping")
    reading = [p for p in progress if p.stage == "reading"]
    assert [p.done for p in reading] == sorted(p.done for p in reading) and reading[-1].done == reading[-1].total > 40
    assert _wait_forgotten(client) == []  # the workers keep nothing of a finished scan


def test_pairs_and_groups_agree_with_python_sets(client, corpus):
    root, families = corpus
    # 32 bands of 4 rows: a pair at J >= 0.9 collides in no band with probability (1 - 0.9**4)**32 < 1e-14
    params = ScanParams(SignatureParams(k=128, seed=1), threshold=0.8, banding=Banding(32, 4))
    local, remote, _ = _both(client, [str(root)], params, partition_files=3)
    _assert_same(local, remote)
    texts = {rel: (root / rel).read_text(encoding="utf-8") for rel in remote.docs.rel}
    sets = {rel: shingle_strings(t, params.signature.shingle) for rel, t in texts.items()}
    found = set()
    for l, r, j in zip(remote.pairs.left, remote.pairs.right, remote.pairs.jaccard):
        a, b = remote.docs.rel[l], remote.docs.rel[r]
        assert j == pytest.approx(_jaccard(sets[a], sets[b]), abs=1e-12) and j >= 0.8
        found.add(frozenset((a, b)))
    planted = {frozenset(p) for fam in families for p in combinations(fam, 2)}
    assert all(_jaccard(sets[a], sets[b]) >= 0.9 for a, b in map(tuple, planted))  # the copies really are near
    # 32 x 4 misses a pair at J >= 0.8 with probability (1 - 0.8**4)**32 < 1e-6: brute force is the truth here
    truth = {frozenset((a, b)) for a, b in combinations(sets, 2) if _jaccard(sets[a], sets[b]) >= 0.8}
    assert planted <= truth and found == truth  # every pair at 0.8 found (the copies are at >= 0.9), no other
    assert {frozenset(f) for f in families} <= {frozenset(remote.docs.rel[i] for i in g) for g in remote.groups}
    for gr, low in zip(remote.groups, remote.group_min):
        rels = [remote.docs.rel[i] for i in gr]
        assert low == pytest.approx(min(_jaccard(sets[a], sets[b]) for a, b in combinations(rels, 2)), abs=1e-12)


def test_reference_folder_same_as_local(client, corpus):
    root, _ = corpus
    params = ScanParams(threshold=0.7)
    roots = [str(root / "a"), str(root / "b"), str(root / "c")]
    local, remote, _ = _both(client, roots, params, reference=[1], partition_files=5)
    _assert_same(local, remote)
    ref = remote.docs.root == 1
    assert len(remote.pairs) > 0 and np.all(ref[remote.pairs.left] != ref[remote.pairs.right])
    # a family has one copy in b/ and two elsewhere: the pair of those two is no candidate, but it is in the group,
    # so the group's lowest similarity needed it scored on the workers
    cand = set(zip(remote.candidates.left.tolist(), remote.candidates.right.tolist()))
    assert [(a, b) for gr in remote.groups for a, b in combinations(gr.tolist(), 2) if (a, b) not in cand]


def test_without_gathering_the_json_is_byte_identical(client, corpus):
    root, _ = corpus
    params = ScanParams(threshold=0.6)
    local, remote, _ = _both(client, [str(root)], params, gather=False)
    _assert_same(local, remote, signatures=False)
    assert remote.signatures.shape == (len(local.docs), 0) and len(remote.shingles.ids) == 0
    assert export.to_json(remote) == export.to_json(local)
    assert export.to_csv(remote) == export.to_csv(local)


@pytest.mark.parametrize("files", [{}, {"a.txt": b"\x00\x01\x00", "b.txt": b"!!!"}, {"x.txt": b"one two three four"}])
def test_folders_with_nothing_to_compare(client, tmp_path, files):
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    local, remote, progress = _both(client, [str(tmp_path)], ScanParams())
    _assert_same(local, remote)
    assert len(remote.skipped) == len(files) - len(remote.docs) and len(remote.pairs) == 0
    assert progress[-1].stage == "done"


def test_skipped_files_are_listed_in_the_local_order_across_batches(client, tmp_path):
    rng = random.Random(9)
    for i in range(1100):  # three of the local engine's batches, cut into partitions that do not line up with them
        name = tmp_path / f"d{i // 100}" / f"f{i:04d}.txt"
        name.parent.mkdir(exist_ok=True)
        kind = rng.random()
        if kind < 0.05:
            name.write_bytes(b"\x00\xff\x00 binary \x00")
        elif kind < 0.10:
            name.write_text("... !!! ---", encoding="utf-8")
        else:
            name.write_text(" ".join(_words(rng, 12)), encoding="utf-8")
    local, remote, _ = _both(
        client, [str(tmp_path)], ScanParams(SignatureParams(k=16)), partition_files=300, gather=False
    )
    reasons = [s.reason for s in local.skipped]
    assert len(reasons) > 60 and {r.split(" (")[0] for r in reasons} == {"binary file", "no words to compare"}
    assert remote.skipped == local.skipped
    assert remote.docs.paths == local.docs.paths


def test_cancel_stops_the_scan_and_frees_the_workers(client, corpus):
    from lshdesk.distributed import scan as dask_scan

    root, _ = corpus
    cancel = threading.Event()
    gen = dask_scan([str(root)], ScanParams(), cancel, client=client, partition_files=2)
    stages = []
    with pytest.raises(ScanCancelled):
        for p in gen:
            stages.append(p.stage)
            if p.stage == "reading":
                cancel.set()
    assert stages[-1] == "reading" and "banding" not in stages
    assert _wait_forgotten(client) == []


def test_cli_engine_dask_prints_the_same_json_as_local(client, corpus, capsys):
    from lshdesk.cli import main

    root, _ = corpus
    args = ["scan", str(root), str(SAMPLE), "--format", "json", "-q", "-t", "0.6"]
    assert main(args) == 0
    local = capsys.readouterr().out
    assert main(args + ["--engine", "dask", "--scheduler", client.scheduler.address]) == 0
    remote = json.loads(capsys.readouterr().out)
    here = json.loads(local)
    for side in ("a", "b"):  # the shingle sets stay on the workers: the overlap's text share is not measured there
        assert remote["overlap"][side].pop("contained") is None and remote["overlap"][side].pop("shingles") == 0
        assert here["overlap"][side].pop("contained") is not None and here["overlap"][side].pop("shingles") > 0
    assert remote == here
    assert '"pairs": [' in local and local.count('"a":') >= 21


def test_cli_engine_dask_starts_its_own_worker_processes(corpus, capsys):
    pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install 'lshdesk[cluster]')")
    from lshdesk.cli import main

    root, _ = corpus
    assert main(["scan", str(root), "--format", "csv", "-q"]) == 0
    local = capsys.readouterr().out
    # a real process: the LocalCluster's workers are spawned from `python -m lshdesk`, which must not re-run the scan
    cmd = [sys.executable, "-m", "lshdesk", "scan", str(root), "--format", "csv", "-q", "--engine", "dask"]
    remote = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert remote.returncode == 0, remote.stderr
    assert remote.stdout == local and local.count("\n") > 20
    assert remote.stderr == ""  # no worker chatter on the user's terminal


def test_cli_without_dask_says_what_to_install(monkeypatch, capsys):
    import importlib.util

    from lshdesk.cli import main

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "distributed" else real(name, *a))
    assert main(["scan", str(SAMPLE), "--engine", "dask"]) == 2
    assert "pip install 'lshdesk[cluster]'" in capsys.readouterr().err


def test_cli_refuses_a_scheduler_for_the_local_engine(capsys):
    from lshdesk.cli import main

    assert main(["scan", str(SAMPLE), "--engine", "local", "--scheduler", "tcp://127.0.0.1:8786"]) == 2
    assert "--scheduler goes with --engine dask" in capsys.readouterr().err


def test_connection_describes_the_cluster_or_says_why_not(client):
    from lshdesk.distributed import ClusterError, test_connection

    info = test_connection(client.scheduler.address)
    assert (info.workers, info.threads) == (2, 2) and info.address == client.scheduler.address
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler"):
        test_connection("tcp://127.0.0.1:9", timeout=1.0)  # port 9 (discard): nothing listens here


def test_the_core_and_the_engine_package_load_no_dask():
    code = (
        "import sys, lshdesk.core.scan.pipeline, lshdesk.core.persistence.export, lshdesk.cli, lshdesk.distributed\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_a_cluster_whose_workers_cannot_see_the_files_is_refused():
    from lshdesk.distributed import ClusterError
    from lshdesk.distributed.engine import _check_visible

    class Workers:  # what Client.run answers: one result per worker
        def run(self, fn, path):
            return {"tcp://10.0.0.1:1": fn(path), "tcp://10.0.0.2:1": False}

    with pytest.raises(ClusterError, match="1 of 2 workers .* cannot see .*same paths"):
        _check_visible(Workers(), str(SAMPLE))
    _check_visible(type("All", (), {"run": lambda self, fn, p: {"w": fn(p)}})(), str(SAMPLE))  # all see it: no error


def test_the_automatic_scheme_spent_on_recall_is_the_same_on_the_cluster(client, tmp_path):
    # 80 pairs at word:3 Jaccard 141/255 = 0.553, just above t = 0.5, and 80 unrelated documents: the S-curve optimum
    # is still rising there, so the scan trades a bounded verification time for recall (scan.scheme)
    rng = random.Random(7)

    def words(n: int) -> list[str]:
        return ["".join(rng.choice("abcdefghij") for _ in range(8)) for _ in range(n)]

    for i in range(80):
        a = words(200)
        (tmp_path / f"p{i:02d}a.txt").write_text(" ".join(a))
        (tmp_path / f"p{i:02d}b.txt").write_text(" ".join(a[:143] + words(57)))
        (tmp_path / f"u{i:02d}.txt").write_text(" ".join(words(200)))
    params = ScanParams(SignatureParams(k=128, seed=1), threshold=0.5)
    local, remote, _ = _both(client, [str(tmp_path)], params, partition_files=40)
    from lshdesk.core.scurve import scan_banding

    assert local.banding != scan_banding(params) and "instead of the S-curve optimum" in local.scheme_note
    _assert_same(local, remote)
