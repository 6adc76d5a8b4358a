"""Text to tokens to shingles: NFKC + casefold, tokens are runs of letters and digits.

Two views of the same shingles: ``shingle_strings`` gives the set of strings (the definition, used by the
``article`` and ``datasketch`` families and by teaching views), ``hash_shingles`` gives each document's set as
sorted unique 64-bit ids in one flat array (the fast path, used for exact Jaccard and the ``fast`` family).
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.arrays import ranges
from lshdesk.core.hashing import TokenHasher, combine_windows, fmix64
from lshdesk.core.params import ShingleSpec

TOKEN_RE = re.compile(r"[^\W_]+")
_WS_RE = re.compile(r"\s+")
# For ASCII text, [^\W_]+ is exactly [A-Za-z0-9]+: map everything else to a space and split.
_ASCII_SEPARATORS = str.maketrans({c: " " for c in map(chr, range(128)) if c not in string.ascii_letters + string.digits})


def normalize(text: str) -> str:
    """NFKC-normalise and casefold (ASCII text takes the equivalent, faster ``lower``)."""
    if text.isascii():
        return text.lower()
    return unicodedata.normalize("NFKC", text).casefold()


def tokenize(text: str) -> list[str]:
    """The document's tokens: maximal runs of Unicode letters and digits of the normalised text."""
    if text.isascii():
        return text.lower().translate(_ASCII_SEPARATORS).split()
    return TOKEN_RE.findall(unicodedata.normalize("NFKC", text).casefold())


def char_text(text: str) -> str:
    """The normalised text with every whitespace run collapsed to one space, trimmed: what char:N windows read."""
    return _WS_RE.sub(" ", normalize(text)).strip()


def shingle_strings(text: str, spec: ShingleSpec) -> set[str]:
    """The document's shingle set as strings (empty for a document with no tokens or characters)."""
    if spec.kind == "char":
        s = char_text(text)
        if len(s) <= spec.n:
            return {s} if s else set()
        return {s[i : i + spec.n] for i in range(len(s) - spec.n + 1)}
    tokens = tokenize(text)
    n = spec.n
    if len(tokens) <= n:
        return {" ".join(tokens)} if tokens else set()
    if n == 1:
        return set(tokens)
    return {" ".join(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}


@dataclass(frozen=True)
class ShingleBatch:
    """Shingle sets of a batch of documents: doc i's sorted unique ids are ``ids[offsets[i]:offsets[i+1]]``."""

    ids: npt.NDArray[np.uint64]
    offsets: npt.NDArray[np.int64]
    n_tokens: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def counts(self) -> npt.NDArray[np.int64]:
        """Number of distinct shingles of each document."""
        return np.diff(self.offsets)

    def doc(self, i: int) -> npt.NDArray[np.uint64]:
        return self.ids[self.offsets[i] : self.offsets[i + 1]]


def _unique_per_doc(h: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sort each document's ids and drop repeats, all documents at once."""
    doc = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    order = np.lexsort((h, doc))
    h, doc = h[order], doc[order]
    keep = np.ones(len(h), dtype=bool)
    keep[1:] = (h[1:] != h[:-1]) | (doc[1:] != doc[:-1])
    h, doc = h[keep], doc[keep]
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(np.bincount(doc, minlength=len(counts)), out=offsets[1:])
    return h, offsets


def _windows(units: np.ndarray, counts: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Hash every n-window of each document's units; a shorter non-empty document gives one window of all."""
    starts = np.cumsum(counts) - counts
    n_win = np.maximum(counts - n + 1, 0)
    short = np.flatnonzero((counts > 0) & (counts < n))
    out_counts = n_win.copy()
    out_counts[short] = 1
    out = np.empty(int(out_counts.sum()), dtype=np.uint64)
    out_starts = np.cumsum(out_counts) - out_counts
    if len(units) >= n:
        full = combine_windows(units, n)  # the window starting at each global position
        out[ranges(out_starts, n_win)] = full[ranges(starts, n_win)]
    for d in short:  # rare: fewer tokens than N
        out[out_starts[d]] = combine_windows(units[starts[d] : starts[d] + counts[d]], int(counts[d]))[0]
    return out, out_counts


def hash_shingles(texts: Sequence[str], spec: ShingleSpec, hasher: TokenHasher | None = None) -> ShingleBatch:
    """Each text's shingle set as sorted unique 64-bit ids, the whole batch in one pass of array operations."""
    hasher = hasher if hasher is not None else TokenHasher()
    counts = np.empty(len(texts), dtype=np.int64)
    if spec.kind == "word":
        tokens: list[str] = []
        for i, t in enumerate(texts):
            toks = tokenize(t)
            counts[i] = len(toks)
            tokens += toks
        units = np.fromiter(map(hasher.__getitem__, tokens), dtype=np.uint64, count=len(tokens))
    else:
        parts = []
        for i, t in enumerate(texts):
            s = char_text(t)
            counts[i] = len(s)
            parts.append(s)
        units = np.frombuffer("".join(parts).encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
        units = fmix64(units + np.uint64(0x9E3779B97F4A7C15))
    h, shingle_counts = _windows(units, counts, spec.n)
    ids, offsets = _unique_per_doc(h, shingle_counts)
    return ShingleBatch(ids, offsets, counts)
