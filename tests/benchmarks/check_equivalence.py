"""Check that the fast paths equal their plain definitions (seeded random inputs; exits non-zero on a mismatch).

    python tests/benchmarks/check_equivalence.py

- ``corpus.text_is_bytes`` (the scan's shortcut past decoding) only where ``file_text`` returns the bytes;
- the byte tokenizer's token ids = ``token_id`` of the spec's tokens (NFKC + casefold + ``[^\\W_]+``), for
  ASCII bytes read as they are and for other text through ``token_bytes`` (the compiled NFKC of ``unitext``);
- ``lsh.candidate_pairs`` (the banding kernels) = pairs sharing a ``band_keys_numpy`` key, by brute force; ``band_keys`` = numpy's;
- ``components`` / ``group_min_jaccard`` = plain union-find / all-pairs set Jaccard;
- the pipeline's id store = ``hash_shingles`` of the same texts, and its signatures = ``sign_ids``.
(Candidates for tests/core: each check is fast.)
"""

from __future__ import annotations

import os
import random
import re
import sys
import tempfile
import unicodedata
from itertools import combinations

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

import numpy as np  # noqa: E402

from lshdesk.core import clustering, lsh, shingle_kinds, shingling  # noqa: E402
from lshdesk.core.hashing import token_id  # noqa: E402
from lshdesk.core.kernels import tokens as tokenkernels  # noqa: E402
from lshdesk.core.minhash import make_family  # noqa: E402
from lshdesk.core.params import Banding, ScanParams, ShingleSpec  # noqa: E402
from lshdesk.core.scan.pipeline import run, scan  # noqa: E402

REF = re.compile(r"[^\W_]+")


def ref_tokens(text: str) -> list[str]:
    return REF.findall(unicodedata.normalize("NFKC", text).casefold())


def check_tokens(rng: random.Random) -> None:
    alphabet = list("abcXYZ019 Éé ﬁ\u0301\u00a0\u3000\u2028x²_-\n\t\r\x0b\x1c日本ßΣς\u00b4!.,") + [" "] * 6
    ascii_heavy = list("abcdefgXYZ0123 ,.;:-_()\n\t") + [" "] * 8 + ["\n"] * 3
    for trial in range(6000):
        pool = alphabet if trial % 2 else ascii_heavy + alphabet[:: 7 if trial % 3 else 3]
        text = "".join(rng.choice(pool) for _ in range(rng.randint(0, 300 if trial % 5 else 6000)))
        data = shingling.token_bytes(text)
        toks, _ = tokenkernels.tokenize_bytes(
            np.frombuffer(data, np.uint8), np.array([0, len(data)]), tokenkernels.TOKEN_BYTES
        )
        assert toks.tolist() == [token_id(w) for w in ref_tokens(text)], repr(text)
    for _ in range(2000):  # ASCII, every byte value below 128
        data = bytes(rng.randrange(1, 128) for _ in range(rng.randint(0, 200)))
        toks, _ = tokenkernels.tokenize_bytes(
            np.frombuffer(data, np.uint8), np.array([0, len(data)]), tokenkernels.TOKEN_BYTES
        )
        assert toks.tolist() == [token_id(w) for w in ref_tokens(data.decode("ascii"))], data
    print("tokens: byte tokenizer = spec tokens (8000 random texts, mostly-ASCII and dense non-ASCII)")


def check_fast_path(rng: random.Random) -> None:
    """``text_is_bytes`` (the scan's shortcut) only where ``file_text`` would return exactly the bytes."""
    from lshdesk.core.corpus.reading import file_text, text_is_bytes
    from lshdesk.core.errors import NotText

    for trial in range(5000):
        hi = 128 if trial % 2 else 256
        data = bytes(rng.randrange(0, hi) for _ in range(rng.randint(1, 120)))
        if trial % 3 == 0:
            data = data.replace(b"\x00", b"") or b"a"
        if text_is_bytes(data, "x.txt"):
            try:
                assert file_text(data, "x.txt") == data.decode("ascii"), data
            except NotText:
                raise AssertionError(f"the fast path reads a file that file_text refuses: {data!r}") from None
    print("fast path: text_is_bytes only where file_text returns the bytes (5000 random byte strings)")


def check_banding(rng: np.random.Generator) -> None:
    for trial in range(60):
        n, k = int(rng.integers(1, 80)), 24
        sigs = rng.integers(0, 3, size=(n, k)).astype(np.uint32)  # few values: many shared buckets
        b, r = int(rng.integers(1, 7)), int(rng.integers(1, 4))
        keys = lsh.band_keys_numpy(sigs, Banding(b, r))
        assert np.array_equal(lsh.band_keys(sigs, Banding(b, r)), keys)
        want: dict[tuple[int, int], int] = {}
        for i, j in combinations(range(n), 2):
            shared = int(np.sum(keys[i] == keys[j]))
            if shared:
                want[(i, j)] = shared
        c = lsh.candidate_pairs(sigs, Banding(b, r))
        got = {(int(i), int(j)): int(m) for i, j, m in zip(c.left, c.right, c.bands)}
        assert got == want, (trial, n, b, r)
    print("banding: candidate pairs and band counts = brute force (60 random cases)")


def check_groups(rng: np.random.Generator) -> None:
    for _ in range(100):
        n = int(rng.integers(1, 40))
        m = int(rng.integers(0, 30))
        left, right = rng.integers(0, n, m), rng.integers(0, n, m)
        parent = list(range(n))

        def find(x: int) -> int:
            while parent[x] != x:
                x = parent[x]
            return x

        for a, b in zip(left.tolist(), right.tolist()):
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
        want = {}
        for i in range(n):
            want.setdefault(find(i), []).append(i)
        want_groups = sorted((sorted(g) for g in want.values() if len(g) > 1), key=lambda g: (-len(g), g[0]))
        got = [g.tolist() for g in clustering.groups(n, left, right)]
        assert got == want_groups
    texts = [" ".join(f"w{int(x)}" for x in rng.integers(0, 30, 40)) for _ in range(12)]
    batch = shingle_kinds.hash_shingles(texts, ShingleSpec("word", 2))
    sets = [shingle_kinds.shingle_strings(t, ShingleSpec("word", 2)) for t in texts]
    comps = [np.array([0, 3, 5, 7]), np.array([1, 2]), np.array([4, 6, 8, 9, 10, 11])]
    got = clustering.group_min_similarity(comps, batch)
    for g, v in zip(comps, got):
        want = min(len(sets[a] & sets[b]) / len(sets[a] | sets[b]) for a, b in combinations(g.tolist(), 2))
        assert abs(v - want) < 1e-12
    print("groups: components and lowest similarity in each group = plain Python (100 + 3 cases)")


def check_pipeline(rng: np.random.Generator) -> None:
    words = [f"w{i}" for i in range(60)] + ["café", "Straße", "ﬁle"]
    with tempfile.TemporaryDirectory() as d:
        texts = []
        for i in range(700):
            t = " ".join(rng.choice(words, int(rng.integers(0, 60))).tolist())
            texts.append(t)
            with open(os.path.join(d, f"f{i:04d}.txt"), "w", encoding="utf-8") as f:
                f.write(t if t else "...")
        result = run(scan([d], ScanParams(threshold=0.5)))
        kept = [texts[int(os.path.basename(p)[1:5])] for p in result.docs.paths]
        batch = shingle_kinds.hash_shingles(kept, ShingleSpec("word", 3))
        assert np.array_equal(batch.ids, result.shingles.ids) and np.array_equal(batch.offsets, result.shingles.offsets)
        assert np.array_equal(make_family(result.params.signature).sign_ids(batch), result.signatures)
    print(f"pipeline: store = hash_shingles, signatures = sign_ids ({len(kept)} documents, 2 threads)")


def main() -> None:
    import argparse

    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    check_tokens(random.Random(11))
    check_fast_path(random.Random(15))
    check_banding(np.random.default_rng(12))
    check_groups(np.random.default_rng(13))
    check_pipeline(np.random.default_rng(14))
    print("all equal")


if __name__ == "__main__":
    main()
