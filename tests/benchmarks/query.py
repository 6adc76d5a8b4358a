"""Benchmark: query latency on 100k signed documents (full signature pass vs multi-probe over bands), and
containment scans next to datasketch's ``MinHashLSHEnsemble`` on the same planted excerpts, in one run.

Not collected by pytest. Run::

    .venv/bin/python tests/benchmarks/query.py [--corpus DIR] [--queries 200] [--contain-n 500]

``--corpus`` is a folder of documents (default: /tmp/lshdesk-bench/synth100k, made by gen_corpus.py when absent).
It is signed once as a scan signs it (word 3-grams, ``fast`` family, k = 128), then each query document (drawn
from the corpus, itself left out) is ranked top 10 by exact Jaccard and by containment; latency is the ranking
(signature pass, candidate pool, exact scores), the query's own reading and signing is timed apart. Recall: of the
brute-force top 10 (every document scored exactly), for random documents and for documents with a planted edited
copy (gen_corpus.py's list), wall-clock and CPU time. The multi-probe alternative keeps each band's keys sorted
(schemes 32x4, then 64x2 when the first finds fewer than the pool), looks the query's keys up and scores those.

Containment: ``--contain-n`` long documents (1500-2500 words), an excerpt of each (a contiguous fifth, 2 % of its
words replaced) and as many unrelated documents, threshold 0.8. lshdesk runs ``scan --measure containment``'s
pipeline on the folder (reading included; every pair verified exactly); datasketch gets the same shingle sets
(strings), ``MinHash.bulk`` (k = 128), ``MinHashLSHEnsemble(threshold=0.8, num_part=16)``, one query per
document, then the exact check of its candidates in Python. Recall is over the planted excerpt -> source pairs.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "core"))
sys.path.insert(0, str(HERE.parents[1]))

from bench_common import machine, shingles, tokenize  # noqa: E402

from lshdesk.core.lsh import band_keys  # noqa: E402
from lshdesk.core.params import Banding, ScanParams  # noqa: E402
from lshdesk.core.query.containment import containment_schemes, find_containment  # noqa: E402
from lshdesk.core.query.corpus import containment_scan, sign_files, signed_corpus  # noqa: E402
from lshdesk.core.query.rank import (  # noqa: E402
    Matches,
    candidate_pool,
    containment_from_jaccard,
    jaccard_estimates,
    pool_size,
    rank,
    score,
)
from lshdesk.core.scan.pipeline import run  # noqa: E402

DEFAULT_CORPUS = "/tmp/lshdesk-bench/synth100k"
TOP = 10


def _ms(xs: list[float]) -> str:
    return f"p50 {np.percentile(xs, 50) * 1e3:7.2f} ms   p99 {np.percentile(xs, 99) * 1e3:7.2f} ms"


class BandIndex:
    """Each band's keys sorted, for a few schemes: the multi-probe alternative to a full signature pass."""

    def __init__(self, sigs: np.ndarray, schemes: list[Banding]) -> None:
        self.schemes = schemes
        self.levels = []
        for b in schemes:
            keys = band_keys(sigs, b)  # (n, bands)
            order = np.argsort(keys, axis=0, kind="stable")
            self.levels.append((order, np.take_along_axis(keys, order, axis=0)))

    def probe(self, q_sig: np.ndarray, want: int) -> np.ndarray:
        found: list[np.ndarray] = []
        total = 0
        for b, (order, sorted_keys) in zip(self.schemes, self.levels):
            qk = band_keys(q_sig[None, :], b)[0]
            for band in range(b.bands):
                col = sorted_keys[:, band]
                lo, hi = np.searchsorted(col, qk[band], "left"), np.searchsorted(col, qk[band], "right")
                if hi > lo:
                    found.append(order[lo:hi, band])
                    total += hi - lo
            if total >= want:
                break
        return np.unique(np.concatenate(found)) if found else np.zeros(0, np.int64)


def probe_rank(index: BandIndex, result, q_sig, q_ids, exclude: int) -> Matches:
    cand = index.probe(q_sig, pool_size(TOP))
    cand = cand[cand != exclude]
    jac, cont, inter = score(result.shingles, q_ids, cand)
    keep = np.flatnonzero(inter > 0)
    order = keep[np.lexsort((cand[keep], -cont[keep], -jac[keep]))][:TOP]
    return Matches(cand[order], jac[order], jac[order], cont[order])


def _recall(got: Matches, want: Matches) -> tuple[int, int]:
    return len(set(got.index.tolist()) & set(want.index.tolist())), len(want)


def _planted(corpus: str, rel: list[str]) -> list[int]:
    """Documents that are edited copies of another (gen_corpus.py's planted.csv beside the folder), if listed."""
    listing = os.path.join(os.path.dirname(corpus.rstrip("/")), os.path.basename(corpus.rstrip("/")) + ".planted.csv")
    if not os.path.isfile(listing):
        return []
    where = {r: i for i, r in enumerate(rel)}
    with open(listing) as f:
        next(f)
        return [where[line.split(",")[0]] for line in f if line.split(",")[0] in where]


class Timer:
    """Wall-clock and CPU (all threads) seconds of each call: on a shared machine the CPU time shows the work."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __call__(self, fn, *args, **kwargs):
        w, c = time.perf_counter(), time.process_time()
        out = fn(*args, **kwargs)
        self.wall.append(time.perf_counter() - w)
        self.cpu.append(time.process_time() - c)
        return out

    def __str__(self) -> str:
        return f"wall {_ms(self.wall)} | cpu {_ms(self.cpu)}"


def _ranking(result, picks: list[int], label: str, index: BandIndex) -> None:
    """Latency and recall of the full pass (both measures) and of multi-probe, for the query documents ``picks``."""
    k = result.signatures.shape[1]
    counts = result.shingles.counts()
    for measure in ("jaccard", "containment"):
        timer, hit, tot, pools = Timer(), 0, 0, []
        for d in picks:
            args = (result.signatures, result.shingles, result.signatures[d], result.shingles.doc(d), TOP)
            m = timer(rank, *args, measure=measure, exclude=[d])
            h, n = _recall(m, rank(*args, measure=measure, exclude=[d], exhaustive=True))
            hit, tot = hit + h, tot + n
            j = jaccard_estimates(result.signatures, result.signatures[d])
            j[d] = -1.0
            size = len(result.shingles.doc(d))
            pools.append(
                len(
                    candidate_pool(
                        j, TOP, k, lambda x: x if measure == "jaccard" else containment_from_jaccard(x, size, counts)
                    )
                )
            )
        print(
            f"{label}: full pass, top {TOP} by {measure:11s} {timer}  recall {hit / max(tot, 1):.3f}, "
            f"documents scored exactly: median {int(np.median(pools))}"
        )
    timer, hit, tot = Timer(), 0, 0
    for d in picks:
        m = timer(probe_rank, index, result, result.signatures[d], result.shingles.doc(d), d)
        args = (result.signatures, result.shingles, result.signatures[d], result.shingles.doc(d), TOP)
        h, n = _recall(m, rank(*args, exclude=[d], exhaustive=True))
        hit, tot = hit + h, tot + n
    print(f"{label}: multi-probe, top {TOP} by jaccard     {timer}  recall {hit / max(tot, 1):.3f}")
    timer = Timer()
    for d in picks[:20]:
        timer(
            rank,
            result.signatures,
            result.shingles,
            result.signatures[d],
            result.shingles.doc(d),
            TOP,
            exclude=[d],
            exhaustive=True,
        )
    print(f"{label}: brute force (every document scored exactly) {timer}")


def query_latency(corpus: str, n_queries: int):
    t = time.perf_counter()
    result = run(signed_corpus([corpus], ScanParams()))
    print(f"\n== queries: {len(result.docs)} documents signed in {time.perf_counter() - t:.1f} s (k = 128, word:3)")
    rng = np.random.default_rng(22)
    picks = rng.choice(len(result.docs), n_queries, replace=False).tolist()
    sign_files([result.docs.paths[picks[0]]], ScanParams())  # load the kernels before timing
    rank(result.signatures, result.shingles, result.signatures[0], result.shingles.doc(0), TOP)
    BandIndex(result.signatures[:10], [Banding(32, 4), Banding(64, 2)])
    timer = Timer()
    for d in picks[:50]:
        timer(sign_files, [result.docs.paths[d]], ScanParams())
    print(f"reading + signing a query file: {timer}")
    t = time.perf_counter()
    index = BandIndex(result.signatures, [Banding(32, 4), Banding(64, 2)])
    print(f"multi-probe index (32x4 and 64x2 keys, sorted): built in {time.perf_counter() - t:.2f} s")
    _ranking(result, picks, "any document ", index)
    copies = _planted(corpus, result.docs.rel)
    if copies:
        _ranking(
            result, rng.choice(copies, min(n_queries, len(copies)), replace=False).tolist(), "with a copy  ", index
        )
    return result


def containment_at_scale(result) -> None:
    """The containment pair stage alone on the signed corpus: candidates per pair of size classes, exact check."""
    counts = result.shingles.counts()
    schemes = containment_schemes(counts, 0.8, result.signatures.shape[1])
    t = time.perf_counter()
    cands, pairs = find_containment(result.signatures, result.shingles, 0.8, result.docs.root)
    print(
        f"containment scan stage at 0.8 on the same {len(result.docs)} documents: {time.perf_counter() - t:.2f} s, "
        f"{len(schemes)} size-class schemes, {len(cands)} candidates, {len(pairs)} pairs (set sizes {counts.min()}-{counts.max()})"
    )


def containment_vs_datasketch(n: int) -> None:
    from core_helpers import planted_excerpts, write_tree

    texts, source = planted_excerpts(np.random.default_rng(9), n=n)
    names = sorted(texts)
    with tempfile.TemporaryDirectory(prefix="lshdesk-contain-") as tmp:
        write_tree(Path(tmp), texts)
        t = time.perf_counter()
        result = run(containment_scan([tmp], ScanParams(threshold=0.8)))
        wall = time.perf_counter() - t
    rel = result.docs.rel
    got = {(rel[l], rel[r]) for l, r in zip(result.pairs.left.tolist(), result.pairs.right.tolist())}
    sets = {k: shingles(tokenize(v)) for k, v in texts.items()}
    wrong = sum(len(sets[a] & sets[b]) < 0.8 * len(sets[a]) for a, b in got)
    found = len(set(source.items()) & got)
    print(f"\n== containment at 0.8: {len(texts)} documents ({n} long, {n} excerpts, {n} unrelated)")
    print(
        f"lshdesk    : recall {found / n:.3f}, {len(got)} pairs reported, {wrong} below 0.8 by Python sets, "
        f"{len(result.candidates)} candidates; {wall:.2f} s in all (reading + signing {result.stage_seconds.get('reading', 0):.2f} s, "
        f"containment candidates + exact check {result.stage_seconds.get('banding+verifying', 0):.2f} s)"
    )
    from datasketch import MinHash, MinHashLSHEnsemble

    t0 = time.perf_counter()
    mins = MinHash.bulk([[s.encode("utf-8") for s in sets[k]] for k in names], num_perm=128, seed=1)
    t1 = time.perf_counter()
    print(f"datasketch : MinHash.bulk of the same shingle sets (strings), k = 128: {t1 - t0:.2f} s")
    for weights in ((0.5, 0.5), (0.05, 0.95)):  # its default, and lshdesk's weighting of misses
        t1 = time.perf_counter()
        ens = MinHashLSHEnsemble(threshold=0.8, num_perm=128, num_part=16, weights=weights)
        ens.index((k, m, len(sets[k])) for k, m in zip(names, mins))
        t2 = time.perf_counter()
        cands = {(k, x) for k, m in zip(names, mins) for x in ens.query(m, len(sets[k])) if x != k}
        t3 = time.perf_counter()
        verified = {(a, b) for a, b in cands if len(sets[a] & sets[b]) >= 0.8 * len(sets[a])}
        t4 = time.perf_counter()
        ds_found = len(set(source.items()) & verified)
        print(
            f"  weights {weights}: recall {ds_found / n:.3f}, {len(verified)} pairs after the exact check, "
            f"{len(cands)} candidates; index {t2 - t1:.2f} s, queries {t3 - t2:.2f} s, exact check {t4 - t3:.2f} s"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=DEFAULT_CORPUS, help=f"folder of documents (default {DEFAULT_CORPUS})")
    ap.add_argument("--queries", type=int, default=200, help="query documents (default 200)")
    ap.add_argument("--contain-n", type=int, default=500, help="long documents in the containment corpus (default 500)")
    args = ap.parse_args()
    print(machine())
    if not os.path.isdir(args.corpus):
        from gen_corpus import generate

        print(f"generating {args.corpus} (100,000 documents) ...")
        generate(args.corpus, 100_000, 300, 0.1, 7)
    containment_at_scale(query_latency(args.corpus, args.queries))
    containment_vs_datasketch(args.contain_n)


if __name__ == "__main__":
    main()
