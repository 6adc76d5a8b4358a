"""The two experiments of the Learn view, as generators that yield progress and honour a cancel event.

- ``error_vs_k``: mean absolute error of the estimate against exact Jaccard, over N seeds, for k = 4 ... 256, with
  the theoretical value (the exact mean absolute deviation of a Binomial(k, J) / k) and the entry's measured series.
- ``banding_sweep``: recall and false-positive rate of banding schemes over N seeds, against a Jaccard cut-off,
  with the S-curve's expectation and the entry's 200-seed figures.
Each (k, seed) gets the hash functions ``make_family`` draws for it, so every figure is what a scan with those
parameters would see; the shingles are hashed once per experiment.
"""

from __future__ import annotations

import io
import math
import threading
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.compare import all_pairs
from lshdesk.core.errors import ParamError, check_cancel
from lshdesk.core.hashing import fmix32, fnv1a_utf16, fold32, sha1_hash32
from lshdesk.core.kernels import minhash as minhash_kernels
from lshdesk.core.lsh import candidate_pairs
from lshdesk.core.minhash import ARTICLE_PRIME, make_family
from lshdesk.core.params import Banding, ShingleSpec, SignatureParams
from lshdesk.core.scan.pipeline import run as run  # re-exported: run drives an experiment as a scan
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scurve import presets, probability
from lshdesk.core.shingle_kinds import hash_shingles, shingle_strings
from lshdesk.core.teaching.lessons import SENTENCES, WORDS, is_similar, jaccard_matrix

KS: tuple[int, ...] = (4, 8, 16, 32, 64, 128, 256)
ENTRY_ERROR_K: tuple[int, ...] = (4, 8, 16, 32, 64, 128)
ENTRY_ERROR_MAE: tuple[float, ...] = (0.098, 0.070, 0.049, 0.034, 0.026, 0.018)  # 100 seeds, the entry's sentences
ENTRY_SWEEP: dict[str, tuple[float, float]] = {  # scheme: (recall, false-positive rate), 200 seeds, cut-off 0.5
    "strict": (204 / 600, 0 / 5000),
    "balanced": (482 / 600, 29 / 5000),
    "loose": (600 / 600, 2954 / 5000),
}


class Signer:
    """Signs one fixed list of texts for many seeds: the shingles are hashed once, only the k functions change."""

    def __init__(self, texts: Sequence[str], spec: ShingleSpec = WORDS, family: str = "article") -> None:
        self.spec, self.family = spec, family
        if family == "fast":
            batch = hash_shingles(list(texts), spec)
            self.x, self.offsets = fold32(batch.ids), batch.offsets
            return
        sets = [sorted(shingle_strings(t, spec)) for t in texts]
        strings = [s for st in sets for s in st]
        self.offsets = np.zeros(len(sets) + 1, dtype=np.int64)
        np.cumsum([len(s) for s in sets], out=self.offsets[1:])
        if family == "article":
            self.x = fnv1a_utf16(strings).astype(np.uint64)
        elif family == "datasketch":
            self.x = fmix32(sha1_hash32(strings))
        else:
            raise ParamError(f"unknown hash family {family!r}")

    def sign(self, k: int, seed: int) -> npt.NDArray:
        """``(n_docs, k)`` signatures for this seed: equal to ``sign_texts`` with the same family, k and seed."""
        fam = make_family(SignatureParams(self.spec, self.family, k, seed))
        if self.family == "article":
            empty = np.uint64(2**64 - 1)
            return minhash_kernels.minhash_affine_mod(
                self.x, self.offsets, fam.a, fam.b, np.uint64(ARTICLE_PRIME), empty
            )
        return minhash_kernels.minhash_affine32(self.x, self.offsets, fam.a, fam.b)


def binomial_mae(j: npt.ArrayLike, k: int) -> npt.NDArray[np.float64]:
    """E|X/k - J| for X ~ Binomial(k, J), element-wise: the theoretical mean absolute error of a k-slot estimate."""
    j = np.atleast_1d(np.asarray(j, dtype=np.float64))
    x = np.arange(k + 1)
    log_c = np.array([math.lgamma(k + 1) - math.lgamma(i + 1) - math.lgamma(k - i + 1) for i in x])
    jj = np.clip(j, 1e-300, 1 - 1e-16)[:, None]
    pmf = np.exp(log_c[None, :] + x[None, :] * np.log(jj) + (k - x[None, :]) * np.log1p(-jj))
    out = (pmf * np.abs(x[None, :] / k - j[:, None])).sum(axis=1)
    return np.where((j <= 0) | (j >= 1), 0.0, out)


def _seeds(n_seeds: int, first_seed: int) -> list[int]:
    if n_seeds < 1:
        raise ParamError(f"the number of seeds must be at least 1, not {n_seeds}")
    if first_seed < 1:
        raise ParamError("seeds start at 1 or more (seed 0 makes the article family's stream all zeros)")
    return list(range(first_seed, first_seed + n_seeds))


@dataclass(frozen=True)
class ErrorVsK:
    """Mean absolute error of the estimate per k: measured (mean and spread over seeds) and theoretical."""

    ks: npt.NDArray[np.int64]
    mae: npt.NDArray[np.float64]  # mean over seeds and pairs
    mae_std: npt.NDArray[np.float64]  # standard deviation over seeds of the per-seed mean
    theory: npt.NDArray[np.float64]
    n_seeds: int
    n_pairs: int
    on_sample: bool = False  # the eight sample sentences as word sets: the entry's figures are a reference

    def to_csv(self) -> str:
        ref = dict(zip(ENTRY_ERROR_K, ENTRY_ERROR_MAE)) if self.on_sample else {}
        out = io.StringIO()
        out.write("k,mae,mae_std_over_seeds,theory,entry_reference,n_seeds,n_pairs\n")
        for i, k in enumerate(self.ks):
            r = ref.get(int(k))
            out.write(
                f"{k},{self.mae[i]:.6f},{self.mae_std[i]:.6f},{self.theory[i]:.6f},"
                f"{'' if r is None else r},{self.n_seeds},{self.n_pairs}\n"
            )
        return out.getvalue()


def error_vs_k(
    texts: Sequence[str],
    n_seeds: int = 100,
    ks: Sequence[int] = KS,
    spec: ShingleSpec = WORDS,
    family: str = "article",
    first_seed: int = 1,
    cancel: threading.Event | None = None,
) -> Generator[Progress, None, ErrorVsK]:
    """Mean |estimate - exact Jaccard| over every pair of ``texts`` and ``n_seeds`` seeds, for each k."""
    if len(texts) < 2:
        raise ParamError("the error experiment needs at least two documents")
    t0 = time.perf_counter()
    seeds, ks = _seeds(n_seeds, first_seed), sorted(int(k) for k in ks)
    signer = Signer(texts, spec, family)
    left, right = all_pairs(len(texts))
    j = jaccard_matrix(texts, spec)[left, right]
    per_seed = np.zeros((len(seeds), len(ks)))
    for s, seed in enumerate(seeds):
        check_cancel(cancel)
        for c, k in enumerate(ks):
            sig = signer.sign(k, seed)
            per_seed[s, c] = np.abs(np.count_nonzero(sig[left] == sig[right], axis=1) / k - j).mean()
        yield Progress("error vs k", s + 1, len(seeds), time.perf_counter() - t0)
    theory = np.array([binomial_mae(j, k).mean() for k in ks])
    return ErrorVsK(
        np.array(ks),
        per_seed.mean(axis=0),
        per_seed.std(axis=0),
        theory,
        len(seeds),
        len(left),
        entry_applies(texts, spec, family),
    )


@dataclass(frozen=True)
class BandingSweep:
    """Per scheme: similar pairs found (recall) and dissimilar pairs flagged (false-positive rate), over seeds."""

    names: tuple[str, ...]
    schemes: tuple[Banding, ...]
    found: npt.NDArray[np.int64]  # similar pair-instances that became candidates
    flagged: npt.NDArray[np.int64]  # dissimilar pair-instances that became candidates
    n_similar: int  # similar pairs x seeds
    n_dissimilar: int  # dissimilar pairs x seeds
    expected_recall: npt.NDArray[np.float64]  # from the S-curve, at the pairs' exact similarities
    expected_fpr: npt.NDArray[np.float64]
    cutoff: float
    n_seeds: int
    on_sample: bool = False  # the sample sentences as word sets at the entry's cut-off 0.5: its figures apply

    @property
    def recall(self) -> npt.NDArray[np.float64]:
        return self.found / self.n_similar if self.n_similar else np.full(len(self.names), np.nan)

    @property
    def fpr(self) -> npt.NDArray[np.float64]:
        return self.flagged / self.n_dissimilar if self.n_dissimilar else np.full(len(self.names), np.nan)

    def to_csv(self) -> str:
        out = io.StringIO()
        out.write(
            "scheme,bands,rows,found,n_similar,recall,flagged,n_dissimilar,false_positive_rate,"
            "expected_recall,expected_fpr,entry_recall,entry_fpr,cutoff,n_seeds\n"
        )
        for i, name in enumerate(self.names):
            er, ef = ENTRY_SWEEP.get(name, ("", "")) if self.on_sample else ("", "")
            er = "" if er == "" else f"{er:.4f}"
            ef = "" if ef == "" else f"{ef:.4f}"
            out.write(
                f"{name},{self.schemes[i].bands},{self.schemes[i].rows},{self.found[i]},{self.n_similar},"
                f"{self.recall[i]:.6f},{self.flagged[i]},{self.n_dissimilar},{self.fpr[i]:.6f},"
                f"{self.expected_recall[i]:.6f},{self.expected_fpr[i]:.6f},{er},{ef},{self.cutoff},{self.n_seeds}\n"
            )
        return out.getvalue()


def banding_sweep(
    texts: Sequence[str],
    n_seeds: int = 200,
    cutoff: float = 0.5,
    k: int = 16,
    schemes: dict[str, Banding] | None = None,
    spec: ShingleSpec = WORDS,
    family: str = "article",
    first_seed: int = 1,
    cancel: threading.Event | None = None,
) -> Generator[Progress, None, BandingSweep]:
    """For each seed, band every pair of ``texts`` with each scheme and count hits among similar and dissimilar pairs."""
    if len(texts) < 2:
        raise ParamError("the banding experiment needs at least two documents")
    if not 0.0 < cutoff <= 1.0:
        raise ParamError(f"the similarity cut-off must be in (0, 1], not {cutoff}")
    schemes = dict(schemes) if schemes is not None else presets(k)
    for b in schemes.values():
        b.check(k)
    t0 = time.perf_counter()
    seeds = _seeds(n_seeds, first_seed)
    signer = Signer(texts, spec, family)
    n = len(texts)
    left, right = all_pairs(n)
    j = jaccard_matrix(texts, spec)[left, right]
    similar = is_similar(j, cutoff)
    found = np.zeros(len(schemes), dtype=np.int64)
    flagged = np.zeros(len(schemes), dtype=np.int64)
    for s, seed in enumerate(seeds):
        check_cancel(cancel)
        sig = signer.sign(k, seed)
        for c, banding in enumerate(schemes.values()):
            cands = candidate_pairs(sig, banding)
            hit = np.zeros(n * n, dtype=bool)
            hit[cands.left * n + cands.right] = True
            hit = hit[left * n + right]
            found[c] += int((hit & similar).sum())
            flagged[c] += int((hit & ~similar).sum())
        yield Progress("banding sweep", s + 1, len(seeds), time.perf_counter() - t0)
    exp_recall = np.array(
        [probability(j[similar], b.bands, b.rows).mean() if similar.any() else np.nan for b in schemes.values()]
    )
    exp_fpr = np.array(
        [probability(j[~similar], b.bands, b.rows).mean() if (~similar).any() else np.nan for b in schemes.values()]
    )
    return BandingSweep(
        tuple(schemes),
        tuple(schemes.values()),
        found,
        flagged,
        int(similar.sum()) * len(seeds),
        int((~similar).sum()) * len(seeds),
        exp_recall,
        exp_fpr,
        cutoff,
        len(seeds),
        entry_applies(texts, spec, family) and abs(cutoff - 0.5) < 1e-12,
    )


def entry_applies(texts: Sequence[str], spec: ShingleSpec, family: str) -> bool:
    """Whether the entry's measured figures are a fair reference: the eight sample sentences, as word sets, hashed
    the entry's way (on the user's files, or other shingles, they describe something else)."""
    return tuple(texts) == SENTENCES and spec == WORDS and family == "article"
