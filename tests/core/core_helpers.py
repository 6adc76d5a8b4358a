"""Helpers for the core tests (imported as ``core_helpers``): set pairs of known Jaccard, small folders on the fly."""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

import numpy as np

from lshdesk.core.shingling import ShingleBatch


def jaccard(a: set, b: set) -> float:
    """Plain-set Jaccard similarity (0 when both are empty): the brute-force reference."""
    u = len(a | b)
    return len(a & b) / u if u else 0.0


def split_for(j_num: int, j_den: int, union: int) -> tuple[int, int, int]:
    """(shared, only_a, only_b) sizes giving Jaccard exactly j_num / j_den over a union of ``union`` elements."""
    shared = union * j_num // j_den
    assert shared * j_den == union * j_num, "pick a union size that makes the Jaccard exact"
    only_a = (union - shared) // 2
    return shared, only_a, union - shared - only_a


def random_id_pairs(rng: np.random.Generator, n_pairs: int, shared: int, only_a: int, only_b: int) -> ShingleBatch:
    """``n_pairs`` pairs of id sets (docs 2i and 2i+1) with exactly the given overlap, fresh random ids per pair.

    The ids are distinct 64-bit random integers (drawn with replacement, then checked), so every pair has the
    exact Jaccard shared / (shared + only_a + only_b), and pairs have no ids in common with each other.
    """
    per_pair = shared + only_a + only_b
    ids = rng.integers(0, 2**63, size=(n_pairs, per_pair), dtype=np.int64).astype(np.uint64) * np.uint64(2) + (
        rng.integers(0, 2, size=(n_pairs, per_pair), dtype=np.int64).astype(np.uint64)
    )
    assert len(np.unique(ids)) == ids.size
    docs = []
    for p in range(n_pairs):
        row = ids[p]
        docs.append(np.sort(row[: shared + only_a]))
        docs.append(np.sort(np.concatenate([row[:shared], row[shared + only_a :]])))
    counts = np.array([len(d) for d in docs], dtype=np.int64)
    offsets = np.zeros(len(docs) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    return ShingleBatch(np.concatenate(docs), offsets, counts)


def random_word_pairs(rng: np.random.Generator, n_pairs: int, shared: int, only_a: int, only_b: int) -> list[list[str]]:
    """Like ``random_id_pairs`` but as sets of random synthetic words (for the string-hashing families)."""
    per_pair = shared + only_a + only_b
    raw = rng.integers(0, 2**62, size=(n_pairs, per_pair), dtype=np.int64)
    sets: list[list[str]] = []
    for p in range(n_pairs):
        words = [f"w{v:x}" for v in raw[p].tolist()]
        assert len(set(words)) == per_pair
        sets.append(words[: shared + only_a])
        sets.append(words[:shared] + words[shared + only_a :])
    return sets


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write ``{relative path: text or bytes}`` below root (folders made as needed); return root."""
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")
    return root


def tree_digest(root: Path) -> dict[str, str]:
    """sha256 of every regular file below root (symbolic links not followed): to prove a scan changed nothing."""
    out = {}
    for dirpath, _dirnames, filenames in os.walk(root):
        for name in filenames:
            p = os.path.join(dirpath, name)
            if os.path.isfile(p) and not os.path.islink(p):
                with open(p, "rb") as f:
                    out[os.path.relpath(p, root)] = hashlib.sha256(f.read()).hexdigest()
    return out


@lru_cache(maxsize=8)
def _vocabulary(size: int) -> tuple[str, ...]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return tuple("".join(letters[(i // 26**p) % 26] for p in range(4)) + "x" for i in range(size))


def make_words(rng: np.random.Generator, n: int, vocab_size: int = 5000) -> list[str]:
    """n words drawn from a synthetic vocabulary of ``vocab_size`` letter-only words."""
    vocab = _vocabulary(vocab_size)
    return [vocab[i] for i in rng.integers(0, vocab_size, n).tolist()]


def mutate(rng: np.random.Generator, words: list[str], n_changes: int) -> list[str]:
    """A copy of words with n_changes positions replaced by other (fresh) words."""
    out = list(words)
    for pos in rng.choice(len(out), size=n_changes, replace=False).tolist():
        out[pos] = f"zz{rng.integers(0, 10**9)}q"
    return out


def planted_excerpts(
    rng: np.random.Generator, n: int = 40, long_words: tuple[int, int] = (1500, 2500), edits: float = 0.02
) -> tuple[dict[str, str], dict[str, str]]:
    """``n`` long documents, ``n`` excerpts (a contiguous fifth of each, ``edits`` of its words replaced) and ``n``
    unrelated documents of assorted lengths; returns ({relative path: text}, {excerpt: its source})."""
    texts: dict[str, str] = {}
    source: dict[str, str] = {}
    for i in range(n):
        words = make_words(rng, int(rng.integers(*long_words)), vocab_size=20000)
        texts[f"long/doc{i:02d}.txt"] = " ".join(words)
        m = len(words) // 5
        start = int(rng.integers(0, len(words) - m))
        texts[f"excerpts/ex{i:02d}.txt"] = " ".join(mutate(rng, words[start : start + m], max(1, int(edits * m))))
        source[f"excerpts/ex{i:02d}.txt"] = f"long/doc{i:02d}.txt"
        texts[f"other/un{i:02d}.txt"] = " ".join(make_words(rng, int(rng.integers(100, 3000)), vocab_size=20000))
    return texts, source


def containment(a: set, b: set) -> float:
    """Plain-set containment C(a in b) = |a ∩ b| / |a| (0 for an empty a): the brute-force reference."""
    return len(a & b) / len(a) if a else 0.0


def graded_excerpts(rng: np.random.Generator, n: int = 24) -> dict[str, str]:
    """``n`` sources of 400-3,000 words, each with an excerpt (a tenth to a half of it) whose words are edited at a
    rate from 0 to 60 %, so the excerpts' containment (word 3-shingles) in their sources spreads from about 0.06 to 1."""
    texts: dict[str, str] = {}
    for i in range(n):
        words = make_words(rng, int(rng.integers(400, 3000)), vocab_size=20000)
        texts[f"src/s{i:02d}.txt"] = " ".join(words)
        m = max(30, int(len(words) * rng.uniform(0.1, 0.5)))
        start = int(rng.integers(0, len(words) - m))
        rate = 0.6 * i / max(n - 1, 1)
        texts[f"ex/e{i:02d}.txt"] = " ".join(mutate(rng, words[start : start + m], int(rate * m)))
    return texts
