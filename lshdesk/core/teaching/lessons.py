"""The lessons' models: the article's token-toggle demo, our eight sample sentences, and a signature step by step.

- The demo (``seeds/000``): 20 tokens, token x = its index in the universe, K = 20 hash functions
  ``(a_i*x + b_i) mod 1048583`` with a_i = (i*2654435761 + 1) mod 2**32, b_i = (i*2246822519 + 7) mod 2**32,
  B = 10 bands of R = 2 rows; band keys are the demo's own strings ``'b<band>:<v1>,<v2>'``, an empty set's slots
  are ``Infinity`` (so two empty sets share every bucket, as in the demo).
- The entry's pairwise demo (``seeds/001``): our own eight sentences (an exact repeat and a paraphrase, so three
  related pairs 0-1, 0-6, 1-6, among unrelated ones), word sets, the ``article`` family, k = 16, seed 12345.
- A step-through: one document signed hash function by hash function, with the running minimum and its shingle.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.clustering import exact_jaccard
from lshdesk.core.compare import all_pairs
from lshdesk.core.hashing import fnv1a_utf16
from lshdesk.core.lsh import candidate_pairs
from lshdesk.core.minhash import ARTICLE_PRIME, sign_texts, xorshift32_params
from lshdesk.core.params import Banding, ShingleSpec, SignatureParams
from lshdesk.core.shingle_kinds import hash_shingles, kind_of, shingle_strings

# --- the article's token-toggle demo -------------------------------------------------------------------------------
UNIVERSE: tuple[str, ...] = (
    "cat", "dog", "fish", "bird", "fox", "ant", "bee", "cow", "elk", "gnu",
    "hat", "cup", "pen", "key", "box", "jar", "rug", "map", "gem", "nut",
)  # fmt: skip
INIT_SETS: tuple[tuple[str, ...], ...] = (
    ("cat", "dog", "fish", "bird", "fox"),
    ("cat", "dog", "fish", "ant", "bee"),
    ("hat", "cup", "pen", "key", "box"),
)
DEMO_K, DEMO_B, DEMO_R = 20, 10, 2
DEMO_P = 1048583  # 2**20 + 7, prime
INFINITY = np.uint64(2**64 - 1)  # an empty set's slot (the demo's Infinity)


def demo_constants(k: int = DEMO_K) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The demo's a_i and b_i: ``(i*2654435761 + 1) >>> 0`` and ``(i*2246822519 + 7) >>> 0`` (not reduced mod P)."""
    i = np.arange(k, dtype=np.int64)
    return (i * 2654435761 + 1) % 2**32, (i * 2246822519 + 7) % 2**32


def demo_hash_table(k: int = DEMO_K) -> npt.NDArray[np.int64]:
    """``table[i, x] = (a_i*x + b_i) mod P`` for every hash function i and token index x (a*x + b < 2**37)."""
    a, b = demo_constants(k)
    x = np.arange(len(UNIVERSE), dtype=np.int64)
    return (a[:, None] * x[None, :] + b[:, None]) % DEMO_P


def demo_signature(tokens: Iterable[str]) -> npt.NDArray[np.uint64]:
    """The demo's ``minhashSig``: per hash function, the least value over the set's tokens (unknown tokens dropped)."""
    idx = [UNIVERSE.index(t) for t in tokens if t in UNIVERSE]
    if not idx:
        return np.full(DEMO_K, INFINITY, dtype=np.uint64)
    return demo_hash_table()[:, idx].min(axis=1).astype(np.uint64)


def slot_text(v: int | np.integer) -> str:
    """A slot value as the demo writes it (``Infinity`` for an empty set)."""
    return "Infinity" if np.uint64(v) == INFINITY else str(int(v))


def demo_band_keys(sig: npt.NDArray[np.uint64]) -> list[str]:
    """The demo's ``lshBuckets``: ``'b' + band + ':' + slice.join(',')`` for each of the B bands."""
    return [
        f"b{band}:" + ",".join(slot_text(v) for v in sig[band * DEMO_R : (band + 1) * DEMO_R]) for band in range(DEMO_B)
    ]


def jaccard(a: Iterable[Hashable], b: Iterable[Hashable]) -> float:
    """Exact Jaccard of two sets; NaN when both are empty (0/0, as the demo's status line shows it)."""
    sa, sb = set(a), set(b)
    union = len(sa | sb)
    return len(sa & sb) / union if union else math.nan


@dataclass(frozen=True)
class DemoRun:
    """What the demo's Run computes: signatures, band keys, every bucket, the shared ones, and candidate pairs."""

    signatures: npt.NDArray[np.uint64]  # (n_sets, K)
    band_keys: list[list[str]]  # [set][band]
    buckets: dict[str, list[int]]  # key -> set indices, in the demo's insertion order
    candidates: list[tuple[int, int]]  # (i, j), i < j, sorted

    @property
    def shared(self) -> list[tuple[str, list[int]]]:
        """The buckets the demo draws: those with two or more sets, in insertion order."""
        return [(key, members) for key, members in self.buckets.items() if len(members) > 1]

    def shared_mask(self) -> npt.NDArray[np.bool_]:
        """``(n_sets, B)``: True where a set's band lands in a bucket it shares with another set."""
        return np.array([[len(self.buckets[key]) > 1 for key in keys] for keys in self.band_keys], dtype=bool)


def band_label(key: str) -> str:
    """The demo's bucket label: ``'Band ' + key.split(':')[0].toUpperCase()``, e.g. ``Band B5``."""
    return "Band " + key.split(":")[0].upper()


def run_demo(sets: Sequence[Iterable[str]]) -> DemoRun:
    """The demo's ``run()``: sign each set, key each band, fill one bucket map, and list the candidate pairs."""
    sigs = np.array([demo_signature(s) for s in sets], dtype=np.uint64).reshape(len(sets), DEMO_K)
    keys = [demo_band_keys(sig) for sig in sigs]
    buckets: dict[str, list[int]] = {}
    for i, row in enumerate(keys):
        for key in row:
            buckets.setdefault(key, []).append(i)
    pairs = {(m[a], m[b]) for m in buckets.values() for a in range(len(m)) for b in range(a + 1, len(m))}
    return DemoRun(sigs, keys, buckets, sorted(pairs))


# --- the entry's eight sentences -------------------------------------------------------------------------------------
SENTENCES: tuple[str, ...] = (
    "Every evening the old keeper climbed the winding stairs to light the great lamp.",
    "Every night the old keeper climbed the winding steps to light the great lamp.",
    "Fresh bread from the village bakery is sold out by nine on a market day.",
    "A sudden storm in the night knocked out the power across half of the city.",
    "She planted tomatoes and basil in a sunny corner of the small garden.",
    "Our team finally fixed the bug that crashed the server on a Monday morning.",
    "Every evening the old keeper climbed the winding stairs to light the great lamp.",
    "Geese fly south in a long line when the first cold winds of autumn arrive.",
)
SIMILAR_PAIRS: tuple[tuple[int, int], ...] = ((0, 1), (0, 6), (1, 6))  # 6 repeats 0; 1 paraphrases 0
WORDS = ShingleSpec("word", 1)
LESSON_PARAMS = SignatureParams(WORDS, "article", 16, 12345)
SIMILAR_CUTOFF = 0.5


def is_similar(j: npt.ArrayLike, cutoff: float = SIMILAR_CUTOFF) -> npt.NDArray[np.bool_]:
    """What the lessons call similar: exact Jaccard at or above the user's cut-off t (never the S-curve's
    (1/b)^(1/r), which only approximates where a scheme starts making candidates). The one definition every
    lesson and experiment uses: a candidate that is not similar is a false positive (the exact check drops it),
    a similar pair that is no candidate is missed."""
    return np.asarray(j, dtype=np.float64) >= cutoff - 1e-12


def verdict(candidate: bool, similar: bool) -> str:
    """'found', 'missed', 'false positive' or '' (neither similar nor a candidate)."""
    return "found" if candidate and similar else "missed" if similar else "false positive" if candidate else ""


def lesson_signatures(texts: Sequence[str] = SENTENCES, params: SignatureParams = LESSON_PARAMS) -> npt.NDArray:
    """Signatures of the lesson's documents (the eight sentences by default) with the lesson's parameters."""
    return sign_texts(list(texts), params)


def jaccard_matrix(texts: Sequence[str], spec: ShingleSpec = WORDS) -> npt.NDArray[np.float64]:
    """``(n, n)`` exact Jaccard of every pair's shingle sets (1 on the diagonal)."""
    batch = hash_shingles(list(texts), spec)
    left, right = all_pairs(len(texts))
    out = np.eye(len(texts))
    out[left, right] = out[right, left] = exact_jaccard(batch, left, right)
    return out


@dataclass(frozen=True)
class BandingOutcome:
    """One scheme on a set of documents: every pair's similarity and estimate, and which became candidates."""

    left: npt.NDArray[np.int64]
    right: npt.NDArray[np.int64]
    jaccard: npt.NDArray[np.float64]
    estimate: npt.NDArray[np.float64]
    candidate: npt.NDArray[np.bool_]
    similar: npt.NDArray[np.bool_]  # is_similar(jaccard, cutoff)

    def counts(self) -> dict[str, int]:
        """found (similar candidates), missed (similar, not candidates), false (candidates, not similar)."""
        c, s = self.candidate, self.similar
        return {"found": int((c & s).sum()), "missed": int((~c & s).sum()), "false": int((c & ~s).sum())}


def banding_outcome(
    sigs: npt.NDArray, jac: npt.NDArray, banding: Banding, cutoff: float = SIMILAR_CUTOFF
) -> BandingOutcome:
    """Every pair of the documents, flagged candidate (shares a bucket in some band) and similar (J >= cutoff)."""
    n = len(sigs)
    left, right = all_pairs(n)
    cands = candidate_pairs(sigs, banding)
    flag = np.zeros(n * n, dtype=bool)
    flag[cands.left * n + cands.right] = True
    est = np.count_nonzero(sigs[left] == sigs[right], axis=1) / sigs.shape[1]
    j = jac[left, right]
    return BandingOutcome(left, right, j, est, flag[left * n + right], is_similar(j, cutoff))


# --- one signature, step by step -----------------------------------------------------------------------------------
def ordered_shingles(text: str, spec: ShingleSpec) -> list[str]:
    """The document's shingles in order of first appearance (the same set as ``shingle_strings``)."""
    return list(dict.fromkeys(kind_of(spec.kind).strings(text, spec.n)))


@dataclass(frozen=True)
class StepThrough:
    """A document signed with the ``article`` family: every h_i(x) of every shingle, and the running minimum."""

    shingles: tuple[str, ...]
    x: npt.NDArray[np.uint64]  # FNV-1a of each shingle
    a: npt.NDArray[np.uint64]
    b: npt.NDArray[np.uint64]
    values: npt.NDArray[np.uint64]  # (n_shingles, k): h_i(x_s) = (a_i*x_s + b_i) mod P
    running_min: npt.NDArray[np.uint64]  # (n_shingles, k): min over the first s+1 shingles
    argmin: npt.NDArray[np.int64]  # (k,): the first shingle giving the final minimum

    prime: int = ARTICLE_PRIME

    @property
    def k(self) -> int:
        return len(self.a)

    @property
    def signature(self) -> npt.NDArray[np.uint64]:
        return self.running_min[-1] if len(self.shingles) else np.full(self.k, INFINITY, dtype=np.uint64)

    def holder(self, step: int, slot: int) -> int:
        """Index of the shingle holding slot's minimum after shingles 0..step have been seen."""
        return int(np.argmin(self.values[: step + 1, slot]))


def step_through(text: str, params: SignatureParams = LESSON_PARAMS) -> StepThrough:
    """Sign one document the ``article`` way, keeping every intermediate value for a learner to step through."""
    shingles = ordered_shingles(text, params.shingle)
    a, b = xorshift32_params(params.k, params.seed)
    x = fnv1a_utf16(shingles).astype(np.uint64)
    values = (x[:, None] * a[None, :] + b[None, :]) % np.uint64(ARTICLE_PRIME)  # < 2**64: no wrap (see kernels)
    running = np.minimum.accumulate(values, axis=0) if len(shingles) else values
    argmin = values.argmin(axis=0).astype(np.int64) if len(shingles) else np.full(params.k, -1, dtype=np.int64)
    return StepThrough(tuple(shingles), x, a, b, values, running, argmin)


def word_set(text: str, spec: ShingleSpec = WORDS) -> set[str]:
    """A document's shingle set (words by default), as the lessons show it."""
    return shingle_strings(text, spec)
