"""The explorer's memory of exact similarities starts from what the scan measured, never from an unmeasured nan."""

from __future__ import annotations

import numpy as np
from core_helpers import make_words, mutate, write_tree

from lshdesk.core.clustering import exact_jaccard
from lshdesk.core.explore.known import KnownJaccard, measured_candidates
from lshdesk.core.params import ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scan import verify
from lshdesk.core.scan.pipeline import run, scan


def test_the_memory_is_seeded_with_the_measured_candidates_and_computes_the_rest(tmp_path, monkeypatch):
    rng = np.random.default_rng(9)
    texts = [" ".join(make_words(rng, 120)) for _ in range(30)]
    texts += [" ".join(mutate(rng, t.split(), 12)) for t in texts[:12]]
    write_tree(tmp_path, {f"d{i:03d}.txt": t for i, t in enumerate(texts)})
    monkeypatch.setattr(verify, "JOIN_MIN_WORK", 0)  # the join: some candidates stay unmeasured
    result = run(scan([str(tmp_path)], ScanParams(SignatureParams(ShingleSpec.parse("char:5"), k=64), threshold=0.5)))
    c, n = result.candidates, len(result.docs)
    assert np.isnan(c.jaccard).any() and (~np.isnan(c.jaccard)).any()
    codes, values = measured_candidates(result)
    assert np.all(np.diff(codes) > 0) and not np.isnan(values).any() and len(codes) == (~np.isnan(c.jaccard)).sum()
    known = KnownJaccard(result.shingles)
    known.seed(codes, values)
    assert len(known) == len(codes)
    all_codes = np.sort(c.left * n + c.right)
    np.testing.assert_allclose(known.jaccard(all_codes), exact_jaccard(result.shingles, all_codes // n, all_codes % n))
    assert len(known) == len(all_codes)  # the unmeasured ones were computed and kept
