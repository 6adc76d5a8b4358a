"""The lessons from Mining of Massive Datasets, ch. 3, that the article's demos lack: the characteristic matrix and the
signature-matrix algorithm on the book's own example (Figs. 3.2-3.5), and the scale argument with the expected number
of candidate pairs.

The book's example: elements 0..4 (a..e), four sets, and h1(x) = x + 1 mod 5, h2(x) = 3x + 1 mod 5 standing in for
two permutations of the rows. Its result (Fig. 3.5): SIG = [[1, 3, 0, 1], [0, 2, 0, 0]].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.scurve import probability

ELEMENTS = ("a", "b", "c", "d", "e")
SETS = ("S1", "S2", "S3", "S4")
MATRIX: tuple[tuple[int, ...], ...] = (  # Fig. 3.2: rows are the elements, columns the sets
    (1, 0, 0, 1),
    (0, 0, 1, 0),
    (0, 1, 0, 1),
    (1, 0, 1, 1),
    (0, 0, 1, 0),
)
HASHES: tuple[tuple[int, int], ...] = ((1, 1), (3, 1))  # h(x) = (a*x + b) mod 5: h1 = x + 1, h2 = 3x + 1
MODULUS = 5
INF = -1  # a slot not set yet (the book's infinity), in the arrays below


def hash_values(x: int, hashes: Sequence[tuple[int, int]] = HASHES, modulus: int = MODULUS) -> list[int]:
    return [(a * x + b) % modulus for a, b in hashes]


@dataclass(frozen=True)
class RowStep:
    """The signature matrix after row ``row`` (``-1``: before any row), and which slots that row lowered."""

    row: int
    sig: npt.NDArray[np.int64]  # hash function x set; INF where no row has set it yet
    changed: npt.NDArray[np.bool_]


def signature_steps(
    matrix: Sequence[Sequence[int]] = MATRIX, hashes: Sequence[tuple[int, int]] = HASHES, modulus: int = MODULUS
) -> list[RowStep]:
    """The book's algorithm row by row: for each row r and each column c with a 1 in row r, every slot SIG(i, c)
    becomes min(SIG(i, c), h_i(r)). Step 0 is the matrix of infinities."""
    m = np.asarray(matrix, dtype=np.int64)
    sig = np.full((len(hashes), m.shape[1]), INF, dtype=np.int64)
    steps = [RowStep(-1, sig.copy(), np.zeros_like(sig, dtype=bool))]
    for r in range(m.shape[0]):
        h = np.array(hash_values(r, hashes, modulus), dtype=np.int64)[:, None]
        cols = m[r].astype(bool)[None, :]
        lower = cols & ((sig == INF) | (h < sig))
        sig = np.where(lower, np.broadcast_to(h, sig.shape), sig)
        steps.append(RowStep(r, sig.copy(), lower))
    return steps


def permutation_signature(matrix: Sequence[Sequence[int]], order: Sequence[int]) -> list[int]:
    """MinHash by a true permutation: for each set, the first row (in ``order``) holding a 1 (Fig. 3.3's way)."""
    m = np.asarray(matrix, dtype=np.int64)
    rank = {row: i for i, row in enumerate(order)}
    return [min((rank[r] for r in range(m.shape[0]) if m[r, c]), default=INF) for c in range(m.shape[1])]


def column_jaccard(matrix: Sequence[Sequence[int]], i: int, j: int) -> float:
    m = np.asarray(matrix, dtype=bool)
    union = int((m[:, i] | m[:, j]).sum())
    return int((m[:, i] & m[:, j]).sum()) / union if union else 0.0


def signature_estimate(sig: npt.NDArray[np.int64], i: int, j: int) -> float:
    """The share of hash functions on which columns i and j agree."""
    return float(np.mean(sig[:, i] == sig[:, j]))


# --- scale ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Scale:
    """What comparing every pair of ``n`` documents costs, against keeping their signatures."""

    n: int
    pairs: int  # n (n - 1) / 2
    seconds: float  # to compare them all at ``rate`` pairs a second
    signature_bytes: int  # n x k slots of 4 bytes


def scale(n: int, k: int = 100, rate: float = 1e6) -> Scale:
    pairs = n * (n - 1) // 2
    return Scale(n, pairs, pairs / rate, n * k * 4)


def expected_candidates(similarities: npt.ArrayLike, bands: int, rows: int) -> float:
    """The expected number of candidate pairs under b x r: the sum over all pairs of P(J) = 1 - (1 - J^r)^b."""
    return float(np.sum(probability(np.asarray(similarities, dtype=np.float64), bands, rows)))


def candidate_spread(similarities: npt.ArrayLike, bands: int, rows: int) -> float:
    """The standard deviation of that number (pairs become candidates independently: a sum of Bernoulli trials)."""
    p = probability(np.asarray(similarities, dtype=np.float64), bands, rows)
    return float(np.sqrt(np.sum(p * (1 - p))))


def family_agreement(matrix: Sequence[Sequence[int]], i: int, j: int, p: int = MODULUS) -> tuple[int, int]:
    """Over every h(x) = (ax + b) mod p (1 <= a < p, 0 <= b < p; p prime, at least the number of rows: each one a
    permutation of the rows), how many give columns i and j the same minimum, and how many there are. Against all
    p! permutations the share would be exactly J; this family holds p(p - 1) of them."""
    hashes = [(a, b) for a in range(1, p) for b in range(p)]
    sig = signature_steps(matrix, hashes, p)[-1].sig
    return int(np.sum(sig[:, i] == sig[:, j])), len(hashes)
