"""Text to tokens to shingles: NFKC + casefold, tokens are runs of letters and digits.

Two views of the same shingles, both reached through the kinds' table: ``shingle_kinds.shingle_strings`` gives the
set of strings (the definition, used by the ``article`` and ``datasketch`` families and by teaching views),
``shingle_kinds.hash_shingles`` gives each document's set as sorted unique 32-bit ids in one flat array (the fast
path, used for exact Jaccard and the ``fast`` family), computed here by the compiled kernels from bytes
(``tokenkernels``, and ``unitext`` for text that is not ASCII).

Why 32-bit ids: a 100k-document scan keeps every document's ids for exact verification and re-banding; 64-bit
ids would take 244 MB for 30 M shingles, 32-bit ones half. The price: two distinct shingles share an id with
probability 2**-32 per pair of shingles, so a pair of 300-shingle documents is off by one shared shingle with
probability ~2e-5 (then its similarity is off by ~0.002), and a 3-million-shingle document loses ~0.03% of its
set size. Measured on the benchmark corpora (tests/benchmarks/compare.py): every verified pair is a true pair by
Python string sets, and recall is 0.995-1.0.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from lshdesk.core import unitext
from lshdesk.core.arrays import ranges
from lshdesk.core.hashing import fmix64
from lshdesk.core.kernels import tokens as tokenkernels
from lshdesk.core.kernels.pairs import take_rows

IDS_VERSION = 2  # bump whenever shingle ids change (v2: byte tokenizer ids, 32-bit windows); caches key on it
TOKEN_RE = re.compile(r"[^\W_]+")
_WS_RE = re.compile(r"\s+")
# For ASCII text, [^\W_]+ is exactly [A-Za-z0-9]+: map everything else to a space and split.
_ASCII_SEPARATORS = str.maketrans(
    {c: " " for c in map(chr, range(128)) if c not in string.ascii_letters + string.digits}
)


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


class Shingling(Protocol):
    """What this module reads of a ``params.ShingleSpec`` (the kinds' table, which params reads, sits above it)."""

    @property
    def kind(self) -> str: ...

    @property
    def n(self) -> int: ...


@dataclass(frozen=True)
class ShingleBatch:
    """Shingle sets of a batch of documents: doc i's sorted unique 32-bit ids are ``ids[offsets[i]:offsets[i+1]]``."""

    ids: npt.NDArray[np.uint32]
    offsets: npt.NDArray[np.int64]
    n_tokens: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def counts(self) -> npt.NDArray[np.int64]:
        """Number of distinct shingles of each document."""
        return np.diff(self.offsets)

    def doc(self, i: int) -> npt.NDArray[np.uint32]:
        return self.ids[self.offsets[i] : self.offsets[i + 1]]

    def take(self, docs: npt.NDArray[np.int64]) -> ShingleBatch:
        """The batch of the documents ``docs``, in that order (a copy per document, compiled, for the usual ids)."""
        docs = np.asarray(docs, dtype=np.int64)
        if self.ids.dtype in (np.uint32, np.int32, np.uint64) and self.ids.flags.c_contiguous:
            ids, offsets = take_rows(self.ids, np.ascontiguousarray(self.offsets, dtype=np.int64), docs)
            return ShingleBatch(ids, offsets, self.n_tokens[docs])
        counts = self.counts()[docs]
        offsets = np.zeros(len(docs) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        return ShingleBatch(self.ids[ranges(self.offsets[docs], counts)], offsets, self.n_tokens[docs])


def empty_batch() -> ShingleBatch:
    """A batch of no documents."""
    return ShingleBatch(np.zeros(0, np.uint32), np.zeros(1, np.int64), np.zeros(0, np.int64))


def token_bytes(text: str) -> bytes:
    """What the byte tokenizer reads for a text: ASCII as it is, the rest as its spec tokens joined by spaces."""
    if text.isascii():
        return text.encode("ascii")
    return _normalised_tokens(text)


def _normalised_tokens(text: str) -> bytes:
    """The spec's tokens of a text joined by spaces, UTF-8, in compiled code that holds no GIL (``unitext``: NFKC
    from tables of this Python's ``unicodedata``; the unicode corpus's 14 MB took 2.4 s of Python, line by line)."""
    return unitext.token_parts([text])[0]


def pack(parts: Sequence[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """Byte strings as one uint8 buffer and the offsets of each."""
    offsets = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, parts), dtype=np.int64, count=len(parts)), out=offsets[1:])
    return np.frombuffer(b"".join(parts), dtype=np.uint8), offsets


def word_batch(buf: np.ndarray, offsets: np.ndarray, n: int) -> ShingleBatch:
    """Word n-gram id sets of documents given as ``token_bytes`` packed into one buffer."""
    ids, id_off, n_tokens = tokenkernels.word_ids(buf, offsets, n, tokenkernels.TOKEN_BYTES)
    return ShingleBatch(ids, id_off, n_tokens)


def token_windows(tokens: np.ndarray, offsets: np.ndarray, n: int) -> ShingleBatch:
    """``word_batch`` of documents given as their token ids (``tokenize_bytes``' output, per-document offsets)."""
    ids, id_off = tokenkernels.window_ids(tokens, offsets, n)
    return ShingleBatch(ids, id_off, np.diff(offsets))


def char_batch(texts: Sequence[str], n: int) -> ShingleBatch:
    """Character n-gram id sets: each character of ``char_text`` hashed (its code point), then windows; the
    characters from compiled code (``unitext``: Python's char_text, then UTF-32, held the GIL throughout)."""
    units, offsets = unitext.char_batch(*unitext.encode(texts))
    return _char_windows(units, offsets, n)


def ascii_char_batch(buf: np.ndarray, offsets: np.ndarray, n: int) -> ShingleBatch:
    """``char_batch`` of ASCII documents packed in ``buf``, in compiled code (the regular expression of
    ``char_text`` held the GIL: docs6k's 28 MB took 0.1-0.2 s of Python)."""
    units, unit_off = tokenkernels.ascii_char_units(buf, offsets, tokenkernels.WHITE)
    return _char_windows(units, unit_off, n)


def _char_windows(units: np.ndarray, offsets: np.ndarray, n: int) -> ShingleBatch:
    """Each character's code point hashed, then the sorted unique ids of its n-windows."""
    units = fmix64(units + np.uint64(0x9E3779B97F4A7C15))
    ids, id_off = tokenkernels.window_ids(units, offsets, n)
    return ShingleBatch(ids, id_off, np.diff(offsets))
