"""Before verifying: the number of candidate pairs and the time to verify them, estimated from a sample."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from lshdesk.core.errors import LshdeskError
from lshdesk.core.humanize import human_count, human_seconds, human_size
from lshdesk.core.kernels.probe import probe_intersection_sizes
from lshdesk.core.lsh import Candidates, candidate_pairs
from lshdesk.core.params import Banding, ShingleSpec
from lshdesk.core.scan.verify import available_memory as available_memory  # where it was (its callers)
from lshdesk.core.scan.verify import join_seconds, uses_join
from lshdesk.core.shingle_kinds import kind_of
from lshdesk.core.shingling import ShingleBatch

SAMPLE_DOCS = 1500  # documents whose signatures are banded for the estimate (exact below this many)
TIMED_PAIRS = 2000  # sampled candidates verified to time one comparison
JOIN_DOCS = 800  # sampled documents whose candidates the join verifies to time it
WARN_PAIRS = 1_000_000  # a scan expected to verify this many candidates, or to take WARN_SECONDS, is warned of
WARN_SECONDS = 15.0
BYTES_PER_CANDIDATE = 128  # peak memory per candidate pair (measured ~84 B: 6.3 M candidates, 530 MB over the scan)
MEMORY_SHARE = 0.8  # a scan may plan to use this share of the free memory
THREADS = 2  # verification runs on two threads (scan.verify)
# the cost model of verification (scan.scheme, scan.plan): one exact comparison costs about this per id of the two
# sets (the probe kernel, one thread: 1.33 ns on the unicode corpus's 200,906 candidates at 42 x 3, 2.13 ns on the
# dev corpus's 614; AMD EPYC 2026-12-01). A model, not a timing: the same corpus and seed choose the same scheme on
# every machine and every run.
SECONDS_PER_ID = 1.5e-9
QUICK_SECONDS = 0.5  # verification the cost model puts below this (a thirtieth of WARN_SECONDS) is not timed


@dataclass(frozen=True)
class Estimate:
    """Expected candidate pairs and seconds to verify them; ``sampled`` documents of ``n_docs`` were banded."""

    pairs: float
    seconds: float
    sampled: int
    n_docs: int
    candidates: Candidates | None = None  # every candidate, when every document was sampled (the banding's own)

    def warning(self, shingle: ShingleSpec) -> str:
        """A sentence for the user when the scan will be slow ("" when it will not)."""
        if self.pairs < WARN_PAIRS and self.seconds < WARN_SECONDS:
            return ""
        took = "under a second" if self.seconds < 1 else f"~{human_seconds(self.seconds)}"
        return f"about {human_count(self.pairs)} candidate pairs, {took}; {_fewer(shingle)} to go faster"

    def check_memory(self, shingle: ShingleSpec, available: int | None) -> None:
        """Refuse a scan whose candidates would not fit in ``available`` bytes (None: unknown, not checked):
        banding and verifying them would exhaust the memory and the system would end lshdesk."""
        need = self.pairs * BYTES_PER_CANDIDATE
        if available is not None and need > MEMORY_SHARE * available:
            raise TooManyCandidates(
                f"about {human_count(self.pairs)} candidate pairs would need about {human_size(need)} of memory and "
                f"{human_size(available)} is free: {_fewer(shingle)}"
            )


class TooManyCandidates(LshdeskError):
    """The banding would bring more candidate pairs than the memory holds; the message says how to get fewer."""


def _fewer(shingle: ShingleSpec) -> str:
    """How to get fewer candidates with these shingles."""
    return kind_of(shingle.kind).advice(shingle.n)


def estimate_candidates(
    sigs: npt.NDArray,
    shingles: ShingleBatch,
    banding: Banding,
    is_ref: npt.NDArray | None = None,
    seed: int = 0,
    threshold: float | None = None,
) -> Estimate:
    """Band a random sample of the signatures, scale its candidate count to all pairs (cross pairs only, with
    reference folders), and time the verification of the sample's candidates: the exact comparison of some of
    them, or, when the scan will verify by the join (``threshold`` given and ``verify.uses_join``), the join on
    the candidates among ``JOIN_DOCS`` of the sampled documents (timing the measuring of each candidate instead
    said ~6 s for docs6k's dense scan, which the join verifies in under a second; this says ~1 s)."""
    n = len(sigs)
    from lshdesk.core.pcg64 import choices  # (an empty folder's scan estimates nothing)

    rng = choices(seed)  # numpy.random.default_rng(seed)'s draws, without loading it (~17 ms) if not loaded
    sample = np.sort(rng.choice(n, SAMPLE_DOCS)) if n > SAMPLE_DOCS else np.arange(n)
    m = len(sample)
    cands = candidate_pairs(sigs[sample], banding)
    local_l, local_r = cands.left, cands.right  # into the sample
    if is_ref is not None:
        keep = is_ref[sample[local_l]] != is_ref[sample[local_r]]
        local_l, local_r = local_l[keep], local_r[keep]
        n_ref, m_ref = int(is_ref.sum()), int(is_ref[sample].sum())
        all_pairs, sample_pairs = n_ref * (n - n_ref), m_ref * (m - m_ref)
    else:
        all_pairs, sample_pairs = n * (n - 1) // 2, m * (m - 1) // 2
    left, right = sample[local_l], sample[local_r]
    pairs = len(left) * all_pairs / sample_pairs if sample_pairs else 0.0
    exact = None
    if m == n:  # the sample is every document: its candidates are the scan's (the banding is not done again)
        exact = cands if is_ref is None else Candidates(local_l, local_r, cands.bands[keep])
    if not len(left):
        return Estimate(pairs, 0.0, m, n, exact)
    quick = pairs * 2 * float(shingles.counts().mean()) * SECONDS_PER_ID / THREADS
    if quick < QUICK_SECONDS:  # far below a warning by the cost model: not worth timing (~5 ms of a small scan)
        return Estimate(pairs, quick, m, n, exact)
    if threshold is not None and uses_join(int(2 * pairs * shingles.counts().mean()), threshold, len(shingles.ids)):
        sub = np.sort(rng.choice(m, min(m, JOIN_DOCS)))  # positions in the sample
        pos = np.full(m, -1, dtype=np.int64)
        pos[sub] = np.arange(len(sub))
        both = (pos[local_l] >= 0) & (pos[local_r] >= 0)
        if both.any():
            chosen = sample[sub]
            took = join_seconds(shingles.take(chosen), sigs[chosen], pos[local_l[both]], pos[local_r[both]], threshold)
            return Estimate(pairs, took * pairs / int(both.sum()) / THREADS, m, n, exact)
    pick = rng.choice(len(left), min(len(left), TIMED_PAIRS))
    t0 = time.perf_counter()
    probe_intersection_sizes(shingles.ids, shingles.offsets, left[pick], right[pick])
    seconds = (time.perf_counter() - t0) / len(pick) * pairs / THREADS
    return Estimate(pairs, seconds, m, n, exact)
