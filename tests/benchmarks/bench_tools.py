"""The timed pipelines, one per tool, each run in its own interpreter by ``compare.py`` (``--worker``).

- ``scan``: a whole scan of a folder at a threshold: list, read, tokenize, word 3-grams, MinHash k = 128, LSH,
  exact check of the candidates. lshdesk: ``pipeline.scan``. datasketch and rensa: the script a user writes
  (``os.walk``, ``open().read()``, the spec's tokens with the fastest exact Python tokenizer, Python sets of
  3-gram strings, ``MinHash.bulk`` with xxhash / ``RMinHash.from_token_sets``, the library's LSH at the
  threshold, exact Jaccard of the candidates' sets).
- ``sign``: the signature stage alone, k = 128, on the same shingles (lshdesk's 32-bit ids) for every tool.
- ``floor``: reading alone, and reading + tokenizing (Python, and lshdesk's compiled front end).
"""

from __future__ import annotations

import os
import tempfile
import time

import bench_common as bc


def _user_front(root: str) -> tuple[list[str], list[set[str]]]:
    names, docs = [], []
    for p in bc.list_files(root):
        with open(p, encoding="utf-8") as f:
            sh = bc.shingles(bc.tokenize(f.read()))
        if sh:
            names.append(os.path.relpath(p, root))
            docs.append(sh)
    return names, docs


def _verify(cands: set[tuple[int, int]], docs: list[set[str]], t: float) -> list[tuple[int, int]]:
    return [(i, j) for i, j in cands if bc.jaccard(docs[i], docs[j]) >= t - 1e-12]


def rensa_bands(t: float, k: int) -> int:
    """rensa needs bands dividing k: the divisor minimising datasketch's equal-weight FP + FN area at t."""
    import numpy as np

    def area(b: int, r: int, lo: float, hi: float, fp: bool) -> float:
        x = np.linspace(lo, hi, 2001)
        p = 1 - (1 - x**r) ** b
        return float(np.trapezoid(p if fp else 1 - p, x))

    divisors = [b for b in range(1, k + 1) if k % b == 0]
    return min(divisors, key=lambda b: area(b, k // b, 0, t, True) + area(b, k // b, t, 1, False))


def scan_datasketch(root: str, t: float, k: int) -> dict:
    t0 = time.perf_counter()
    import xxhash
    from datasketch import MinHash, MinHashLSH

    imp = time.perf_counter() - t0
    base = bc.rss_mb()
    t0 = time.perf_counter()
    names, docs = _user_front(root)
    t1 = time.perf_counter()
    mhs = MinHash.bulk(([s.encode("utf-8") for s in d] for d in docs), num_perm=k, hashfunc=xxhash.xxh32_intdigest)
    t2 = time.perf_counter()
    lsh = MinHashLSH(threshold=t, num_perm=k)
    with lsh.insertion_session() as session:
        for i, m in enumerate(mhs):
            session.insert(i, m)
    cands = {(min(i, j), max(i, j)) for i, m in enumerate(mhs) for j in lsh.query(m) if j != i}
    t3 = time.perf_counter()
    pairs = _verify(cands, docs, t)
    t4 = time.perf_counter()
    stages = {"read+tokenize+shingle": t1 - t0, "minhash": t2 - t1, "lsh": t3 - t2, "verify": t4 - t3}
    return _out(imp, t4 - t0, stages, base, names, pairs, len(cands), f"{lsh.b}x{lsh.r}")


def scan_rensa(root: str, t: float, k: int) -> dict:
    t0 = time.perf_counter()
    from rensa import RMinHash, RMinHashLSH

    imp = time.perf_counter() - t0
    bands = rensa_bands(t, k)
    base = bc.rss_mb()
    t0 = time.perf_counter()
    names, docs = _user_front(root)
    t1 = time.perf_counter()
    mhs = RMinHash.from_token_sets(docs, num_perm=k, seed=42)
    t2 = time.perf_counter()
    lsh = RMinHashLSH(threshold=t, num_perm=k, num_bands=bands)
    lsh.insert_many(mhs)
    cands = {(min(i, j), max(i, j)) for i, found in enumerate(lsh.query_all(mhs)) for j in found if j != i}
    t3 = time.perf_counter()
    pairs = _verify(cands, docs, t)
    t4 = time.perf_counter()
    stages = {"read+tokenize+shingle": t1 - t0, "minhash": t2 - t1, "lsh": t3 - t2, "verify": t4 - t3}
    return _out(imp, t4 - t0, stages, base, names, pairs, len(cands), f"{bands}x{k // bands}")


def _warm_lshdesk() -> float:
    """A tiny scan before the timed one (what a first scan in a process loads), its seconds reported apart."""
    from lshdesk.core.params import ScanParams
    from lshdesk.core.scan.pipeline import run, scan

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as d:
        for i in range(3):
            with open(os.path.join(d, f"w{i}.txt"), "w", encoding="utf-8") as f:
                f.write("warm up the kernels once " * (i + 1) + "é")
        run(scan([d], ScanParams()))
    return time.perf_counter() - t0


def scan_lshdesk(root: str, t: float, k: int) -> dict:
    t0 = time.perf_counter()
    from lshdesk.core.params import ScanParams, SignatureParams
    from lshdesk.core.scan.pipeline import run, scan

    imp = time.perf_counter() - t0
    warm = _warm_lshdesk()
    base = bc.rss_mb()
    t0 = time.perf_counter()
    r = run(scan([root], ScanParams(SignatureParams(k=k), threshold=t)))
    total = time.perf_counter() - t0
    rel = r.docs.rel
    pairs = list(zip(r.pairs.left.tolist(), r.pairs.right.tolist()))
    out = _out(imp, total, dict(r.stage_seconds), base, rel, pairs, len(r.candidates), str(r.banding))
    out.update(warm_s=warm, sig_mb=r.signatures.nbytes / 2**20, ids_mb=r.shingles.ids.nbytes / 2**20)
    return out


def _out(
    imp: float, total: float, stages: dict, base: float, names: list[str], pairs: list, n_cands: int, scheme: str
) -> dict:
    return {
        "import_s": imp,
        "scan_s": total,
        "stages": stages,
        "rss_base_mb": base,
        "peak_rss_mb": bc.peak_rss_mb(),
        "mem_mb": bc.peak_rss_mb() - base,
        "n_docs": len(names),
        "n_candidates": n_cands,
        "scheme": scheme,
        "pairs": sorted(tuple(sorted((names[i], names[j]))) for i, j in pairs),
    }


def sign_stage(root: str, k: int, tool: str, max_docs: int) -> dict:
    """docs/s of the signature stage alone on lshdesk's shingle ids of the corpus's first max_docs documents."""
    import numpy as np

    from lshdesk.core.corpus.reading import read_text
    from lshdesk.core.minhash import fast_params
    from lshdesk.core.params import ShingleSpec
    from lshdesk.core.shingle_kinds import hash_shingles

    texts = [read_text(p, 1 << 30) for p in bc.list_files(root)[:max_docs]]
    batch = hash_shingles(texts, ShingleSpec("word", 3))
    ids, off = batch.ids, batch.offsets
    reps = -(-max_docs // len(batch))  # a small corpus is repeated, so each timing covers max_docs documents
    if reps > 1:
        ids = np.tile(ids, reps)
        off = np.concatenate([off[:-1] + r * off[-1] for r in range(reps)] + [np.array([reps * off[-1]])])
    n = len(off) - 1
    a, b = fast_params(k, 1)
    if tool == "lshdesk":
        from concurrent.futures import ThreadPoolExecutor

        from lshdesk.core.kernels.minhash import minhash_affine32

        minhash_affine32(ids[: off[2]], off[:3], a, b)  # untimed first call
        t0 = time.perf_counter()
        minhash_affine32(ids, off, a, b)
        one = time.perf_counter() - t0
        half = n // 2
        with ThreadPoolExecutor(2) as ex:
            list(ex.map(lambda _: None, range(2)))  # threads started before the clock
            t0 = time.perf_counter()
            parts = [
                ex.submit(minhash_affine32, ids, off[: half + 1], a, b),
                ex.submit(minhash_affine32, ids, off[half:], a, b),
            ]
            [p.result() for p in parts]
            two = time.perf_counter() - t0
        return {"docs": n, "docs_per_s": n / one, "docs_per_s_2threads": n / two}
    if tool == "rensa":
        from rensa import RMinHash

        flat, offs = ids.astype(np.uint64), off.astype(np.uint64)
        RMinHash.digest_matrix_from_flat_token_hashes(flat[: off[2]], offs[:3], k, 42)
        t0 = time.perf_counter()
        RMinHash.digest_matrix_from_flat_token_hashes(flat, offs, k, 42)
        return {"docs": n, "docs_per_s": n / (time.perf_counter() - t0)}
    from datasketch import MinHash

    lists = [ids[off[i] : off[i + 1]].tolist() for i in range(n)]
    t0 = time.perf_counter()
    MinHash.bulk(lists, num_perm=k, hashfunc=lambda x: x)  # the ids are already 32-bit hashes
    return {"docs": n, "docs_per_s": n / (time.perf_counter() - t0)}


def floor(root: str) -> dict:
    """Reading alone; reading + the spec's tokens in Python; lshdesk's reading + tokens + shingle ids (2 threads)."""
    files = bc.list_files(root)
    t0 = time.perf_counter()
    for p in files:
        with open(p, "rb") as f:
            f.read()
    read = time.perf_counter() - t0
    t0 = time.perf_counter()
    for p in files:
        with open(p, encoding="utf-8") as f:
            bc.tokenize(f.read())
    py = time.perf_counter() - t0
    from concurrent.futures import ThreadPoolExecutor

    from lshdesk.core.corpus.listing import SourceFile, walk
    from lshdesk.core.params import CorpusOptions
    from lshdesk.core.scan.frontend import index_batches, read_listed
    from lshdesk.core.scan.listed import Listing
    from lshdesk.core.shingling import word_batch

    def front(index):
        prep = read_listed(listing.paths, index, 1 << 30, False, sizes=listing.size)
        return word_batch(prep.buf, prep.offsets, 3)

    _warm_lshdesk()
    t0 = time.perf_counter()
    listing = Listing()
    for e in walk([root], CorpusOptions()):
        if isinstance(e, SourceFile):
            listing.add(e)
    listing_s = time.perf_counter() - t0
    with ThreadPoolExecutor(2) as ex:
        list(ex.map(lambda _: None, range(2)))
        t0 = time.perf_counter()
        list(ex.map(front, index_batches(listing.size)))
        ours = time.perf_counter() - t0
    return {
        "files": len(files),
        "read_s": read,
        "read_tokenize_python_s": py,
        "lshdesk_listing_s": listing_s,
        "lshdesk_read_tokenize_ids_s": ours,
    }
