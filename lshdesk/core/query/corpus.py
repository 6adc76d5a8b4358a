"""The corpus a query or a containment scan works on: the scan's reading, signing and cache, then their own stage.

``signed_corpus`` drives the scan pipeline with its cheapest pair stage (one band of all k rows: only documents
with identical signatures become candidates), so a query reuses the scan's listing, reading threads, extractors
and signature cache exactly, and pays next to nothing for pairs it does not want.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Generator, Sequence

import numpy as np

from lshdesk.core.errors import NotText, check_cancel
from lshdesk.core.minhash import make_family
from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.query.containment import find_containment
from lshdesk.core.scan.cache import SignatureCache
from lshdesk.core.scan.frontend import read_and_sign_listed
from lshdesk.core.scan.pipeline import Progress, ScanResult, scan
from lshdesk.core.scan.stages import group_stage
from lshdesk.core.shingling import ShingleBatch


def signed_corpus(
    roots: Sequence[str],
    params: ScanParams,
    cancel: threading.Event | None = None,
    reference: Sequence[int] = (),
    cache: SignatureCache | None = None,
) -> Generator[Progress, None, ScanResult]:
    """The scan's documents, signatures and shingle sets (its pairs: only identical signatures, to be replaced)."""
    cheap = dataclasses.replace(params, threshold=1.0, banding=Banding(1, params.signature.k), measure="jaccard")
    return (yield from scan(roots, cheap, cancel, reference, cache))


def containment_scan(
    roots: Sequence[str],
    params: ScanParams,
    cancel: threading.Event | None = None,
    reference: Sequence[int] = (),
    cache: SignatureCache | None = None,
) -> Generator[Progress, None, ScanResult]:
    """A scan whose pairs are containment pairs at ``params.threshold`` (``ContainmentPairs``: left contained in
    right); groups link documents by them. A manual banding is refused: each pair of size classes has its own."""
    params = dataclasses.replace(params, measure="containment")
    signed = yield from signed_corpus(roots, params, cancel, reference, cache)
    t1 = time.perf_counter()

    def clock() -> float:
        return signed.seconds + time.perf_counter() - t1

    yield Progress("banding", 0, 1, clock())
    candidates, pairs = find_containment(
        signed.signatures,
        signed.shingles,
        params.threshold,
        signed.docs.root,
        reference,
        params.fp_weight,
        params.fn_weight,
    )
    stages = {k: v for k, v in signed.stage_seconds.items() if k in ("listing", "reading")}
    stages["banding+verifying"] = time.perf_counter() - t1
    check_cancel(cancel)
    # the scan's grouping: steps that answer cancel, each group's minimum with early exits on ranked ids
    comps, group_min = yield from group_stage(len(signed.docs), pairs, signed.shingles, cancel, clock)
    stages["grouping"] = clock() - signed.seconds - stages["banding+verifying"]
    yield Progress("done", len(signed.docs), len(signed.docs), clock())
    return dataclasses.replace(
        signed,
        params=params,
        candidates=candidates,
        pairs=pairs,
        groups=comps,
        group_min=group_min,
        seconds=clock(),
        stage_seconds=stages,
    )


def sign_files(paths: Sequence[str], params: ScanParams) -> tuple[ShingleBatch, np.ndarray]:
    """Shingle sets and signatures of query files, read and signed exactly as a scan reads and signs them;
    a file that cannot be read raises ``NotText`` naming it."""
    sp = params.signature
    prep, batch, sigs = read_and_sign_listed(
        list(paths), range(len(paths)), params.corpus.max_bytes, sp, make_family(sp), params.corpus.formats
    )
    if prep.skipped:
        bad = prep.skipped[0]
        raise NotText(f"{bad.path}: {bad.reason}")
    return batch, sigs
