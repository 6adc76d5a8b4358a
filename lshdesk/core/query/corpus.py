"""The corpus a query or a containment scan works on: the scan's listing, reading, signing and cache, then their
own stage.

Both start with the scan's ``sign_stage``, so a query reuses the scan's listing, reading threads, extractors and
signature cache exactly; a query then ranks in the signed corpus, a containment scan finds its pairs by
``find_containment`` and groups them by the scan's grouping stage.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Generator, Sequence

import numpy as np

from lshdesk.core.errors import NotText, check_cancel
from lshdesk.core.minhash import make_family
from lshdesk.core.params import Banding, ScanParams
from lshdesk.core.query.containment import find_containment
from lshdesk.core.scan.cache import SignatureCache
from lshdesk.core.scan.frontend import read_and_sign_listed
from lshdesk.core.scan.pipeline import ScanResult, SignedCorpus, assemble, sign_stage
from lshdesk.core.scan.progress import Progress
from lshdesk.core.scan.stages import Found, group_stage, stopwatch
from lshdesk.core.shingling import ShingleBatch


def signed_corpus(
    roots: Sequence[str],
    params: ScanParams,
    cancel: threading.Event | None = None,
    reference: Sequence[int] = (),
    cache: SignatureCache | None = None,
) -> Generator[Progress, None, SignedCorpus]:
    """The scan's documents, signatures and shingle sets, and no pairs: what a query ranks in."""
    corpus = yield from sign_stage(roots, params, cancel, reference, cache)
    yield Progress("done", len(corpus.docs), len(corpus.docs), corpus.seconds)
    return corpus


def containment_scan(
    roots: Sequence[str],
    params: ScanParams,
    cancel: threading.Event | None = None,
    reference: Sequence[int] = (),
    cache: SignatureCache | None = None,
) -> Generator[Progress, None, ScanResult]:
    """A scan whose pairs are containment pairs at ``params.threshold`` (``ContainmentPairs``: left contained in
    right); groups link documents by them. A manual banding is refused: each pair of size classes has its own, and
    the result's ``banding`` is one band of all k rows."""
    params = dataclasses.replace(params, measure="containment")
    corpus = yield from sign_stage(roots, params, cancel, reference, cache)
    clock = stopwatch(corpus.seconds)
    yield Progress("banding", 0, 1, clock())
    weights = params.fp_weight, params.fn_weight
    candidates, pairs = find_containment(
        corpus.signatures, corpus.shingles, params.threshold, corpus.docs.root, reference, *weights
    )
    stages = {k: v for k, v in corpus.stage_seconds.items() if k in ("listing", "reading")}
    stages["banding+verifying"] = clock() - corpus.seconds
    check_cancel(cancel)
    # the scan's grouping: steps that answer cancel, each group's minimum with early exits on ranked ids
    comps, group_min = yield from group_stage(len(corpus.docs), pairs, corpus.shingles, cancel, clock)
    stages["grouping"] = clock() - corpus.seconds - stages["banding+verifying"]
    yield Progress("done", len(corpus.docs), len(corpus.docs), clock())
    found = Found(candidates=candidates, pairs=pairs, groups=comps, group_min=group_min)
    return assemble(corpus, Banding(1, params.signature.k), found, seconds=clock(), stage_seconds=stages)


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
