"""Before verifying: the number of candidate pairs and the time to verify them, estimated from a sample."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.humanize import human_count, human_seconds
from lshdesk.core.kernels import pairs as pair_kernels
from lshdesk.core.lsh import candidate_pairs
from lshdesk.core.params import Banding, ShingleSpec
from lshdesk.core.shingling import ShingleBatch

SAMPLE_DOCS = 1500  # documents whose signatures are banded for the estimate (exact below this many)
TIMED_PAIRS = 2000  # sampled candidates verified to time one comparison
WARN_PAIRS = 1_000_000  # a scan expected to verify this many candidates, or to take WARN_SECONDS, is warned of
WARN_SECONDS = 15.0
THREADS = 2  # verification runs on two threads (scan.verify)


@dataclass(frozen=True)
class Estimate:
    """Expected candidate pairs and seconds to verify them; ``sampled`` documents of ``n_docs`` were banded."""

    pairs: float
    seconds: float
    sampled: int
    n_docs: int

    def warning(self, shingle: ShingleSpec) -> str:
        """A sentence for the user when the scan will be slow ("" when it will not)."""
        if self.pairs < WARN_PAIRS and self.seconds < WARN_SECONDS:
            return ""
        faster = "raise the threshold"
        if shingle.kind == "char":
            faster += " or use word shingles"
        elif shingle.n < 3:
            faster += " or use longer word shingles (word:3)"
        took = "under a second" if self.seconds < 1 else f"~{human_seconds(self.seconds)}"
        return f"about {human_count(self.pairs)} candidate pairs, {took}; {faster} to go faster"


def estimate_candidates(
    sigs: npt.NDArray, shingles: ShingleBatch, banding: Banding, is_ref: npt.NDArray | None = None, seed: int = 0
) -> Estimate:
    """Band a random sample of the signatures, scale its candidate count to all pairs (cross pairs only, with
    reference folders), and time the exact comparison of some of the sample's candidates."""
    n = len(sigs)
    rng = np.random.default_rng(seed)
    sample = np.sort(rng.choice(n, SAMPLE_DOCS, replace=False)) if n > SAMPLE_DOCS else np.arange(n)
    m = len(sample)
    cands = candidate_pairs(sigs[sample], banding)
    left, right = sample[cands.left], sample[cands.right]
    if is_ref is not None:
        keep = is_ref[left] != is_ref[right]
        left, right = left[keep], right[keep]
        n_ref, m_ref = int(is_ref.sum()), int(is_ref[sample].sum())
        all_pairs, sample_pairs = n_ref * (n - n_ref), m_ref * (m - m_ref)
    else:
        all_pairs, sample_pairs = n * (n - 1) // 2, m * (m - 1) // 2
    pairs = len(left) * all_pairs / sample_pairs if sample_pairs else 0.0
    seconds = 0.0
    if len(left):
        pick = rng.choice(len(left), min(len(left), TIMED_PAIRS), replace=False)
        t0 = time.perf_counter()
        pair_kernels.intersection_sizes(shingles.ids, shingles.offsets, left[pick], right[pick])
        seconds = (time.perf_counter() - t0) / len(pick) * pairs / THREADS
    return Estimate(pairs, seconds, m, n)
