"""The scheme for datatrove, NeMo Curator and text-dedup: the scan's, or one chosen in the S-curve explorer with what
the explorer measured for it (re-banded by ``scheme_job`` when no figures of that scheme are at hand)."""

from __future__ import annotations

import json

import pytest
from dataset_samples import planted_texts, write_formats

from lshdesk.core.explore.exact import build_reference
from lshdesk.core.explore.figures import reband
from lshdesk.core.explore.state import ExploreState
from lshdesk.core.params import Banding, CorpusOptions, ScanParams, SignatureParams
from lshdesk.core.persistence.scheme_export import scheme_for_tools, scheme_job
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.core.scurve import probability


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    root = tmp_path_factory.mktemp("data")
    path = write_formats(root, planted_texts(150, seed=8))["parquet"]
    opts = CorpusOptions(text_column="content")
    r = run(scan([str(path)], ScanParams(SignatureParams(k=64), 0.6, Banding(16, 4), corpus=opts)))
    ref = run(build_reference(r.signatures, r.shingles, [r.banding]))
    return r, ref


def test_the_scans_scheme_is_measured_by_the_scan(scanned):
    r, _ = scanned
    s = scheme_for_tools(r)
    assert (s["lshdesk"]["bands"], s["lshdesk"]["rows"], s["lshdesk"]["threshold"]) == (16, 4, 0.6)
    assert s["measured"]["measured_by"] == "the scan" and s["measured"]["candidate_pairs"] == len(r.candidates)


def test_an_explored_scheme_is_exported_with_the_explorers_figures(scanned):
    r, ref = scanned
    f = reband(r.signatures, r.shingles, Banding(4, 8), 0.7, ref)
    s = scheme_for_tools(r, f)
    assert (s["lshdesk"]["bands"], s["lshdesk"]["rows"], s["lshdesk"]["threshold"]) == (4, 8, 0.7)
    assert (
        s["datatrove"]["MinhashConfig"]["num_buckets"] == 4
        and "--threshold 0.7 --b 4 --r 8" in s["text_dedup"]["command"]
    )
    m, n = s["measured"], len(r.docs)
    assert m["candidate_pairs"] == f.n_candidates and m["pairs_at_threshold"] == f.n_verified
    assert m["candidate_rate"] == pytest.approx(f.n_candidates / (n * (n - 1) / 2))
    assert m["recall_at_threshold"] == pytest.approx(f.recall) and 0 < f.recall <= 1
    assert m["s_curve_at_threshold"] == pytest.approx(float(probability(0.7, 4, 8)))
    assert m["scheme_note"] == "chosen in the S-curve explorer"


def test_the_job_rebands_when_it_has_no_figures_of_the_scheme(scanned, tmp_path):
    r, ref = scanned
    chosen = (Banding(8, 6), 0.65)
    given = reband(r.signatures, r.shingles, *chosen, ref)
    run(scheme_job(r, str(tmp_path / "given.json"), chosen, given, ref))
    other = reband(r.signatures, r.shingles, Banding(2, 2), 0.65, ref)  # another scheme's figures: not used
    run(scheme_job(r, str(tmp_path / "made.json"), chosen, other, ref))
    a, b = (json.loads((tmp_path / n).read_text()) for n in ("given.json", "made.json"))
    assert a == b and a["lshdesk"]["bands"] == 8 and a["measured"]["candidate_pairs"] == given.n_candidates
    run(scheme_job(r, str(tmp_path / "scan.json")))  # nothing chosen: the scan's, as the CLI writes it
    assert json.loads((tmp_path / "scan.json").read_text()) == json.loads(json.dumps(scheme_for_tools(r)))


def test_the_explorer_says_whether_its_scheme_moved_from_the_scans(scanned):
    r, _ = scanned
    st = ExploreState()
    assert st.moved_from(r) is None  # nothing shown
    st.show_result(r)
    assert st.moved_from(r) is None
    st.update(threshold=0.7)
    assert st.moved_from(r) == (Banding(16, 4), 0.7)
    st.update(threshold=0.6, banding=Banding(4, 8))
    assert st.moved_from(r) == (Banding(4, 8), 0.6)
    st.update(banding=Banding(16, 4))
    assert st.moved_from(r) is None
    assert st.moved_from(run(scan([r.roots[0]], r.params))) is None  # another result than the one shown


def test_figures_measured_before_the_exact_similarities_are_measured_again(scanned, tmp_path):
    r, ref = scanned
    early = reband(r.signatures, r.shingles, r.banding, 0.6)  # the explorer's first figures: no reference yet
    run(scheme_job(r, str(tmp_path / "s.json"), None, early, ref))
    m = json.loads((tmp_path / "s.json").read_text())["measured"]
    assert m["measured_by"].startswith("the S-curve explorer") and 0 < m["recall_at_threshold"] <= 1
    assert m["pairs_at_threshold"] == len(r.pairs) and m["scheme_note"] == r.scheme_note
