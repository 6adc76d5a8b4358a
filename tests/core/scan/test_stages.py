"""The scan's late stages: progress in each stage's own unit, cancel answered at once and no CPU used after it,
the candidate estimate before verifying, and the explanation of an empty result."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest
from core_helpers import make_words, mutate, write_tree

from lshdesk.core.clustering import exact_jaccard
from lshdesk.core.errors import ParamError, ScanCancelled
from lshdesk.core.lsh import candidate_pairs
from lshdesk.core.minhash import sign_texts
from lshdesk.core.params import ScanParams, ShingleSpec, SignatureParams
from lshdesk.core.scan import estimate
from lshdesk.core.scan.explain import explain_empty
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.core.scurve import optimal_banding

CHAR5 = SignatureParams(ShingleSpec("char", 5))


def _texts(n: int, seed: int = 5) -> list[str]:
    """n documents of 200 words from one vocabulary of 150: at char:5 nearly every pair is a candidate."""
    rng = np.random.default_rng(seed)
    vocab = ["".join(chr(97 + c) for c in rng.integers(0, 26, rng.integers(3, 8))) for _ in range(150)]
    return [" ".join(vocab[j] for j in rng.integers(0, 150, 200)) for _ in range(n)]


@pytest.fixture(scope="module")
def crowded(tmp_path_factory) -> Path:
    """2,000 such documents: char:5 at 0.3 gives more than a million candidate pairs."""
    root = tmp_path_factory.mktemp("crowded")
    write_tree(root, {f"d{i:05d}.txt": t for i, t in enumerate(_texts(2000))})
    return root


@pytest.mark.timeout(120)
@pytest.mark.parametrize("stage, threshold", [("verifying", 0.3), ("grouping", 0.15)])
def test_cancel_answers_at_once_and_leaves_no_cpu_in_use(crowded, stage, threshold):
    cancel, started, reports = threading.Event(), threading.Event(), []
    ended: list = []

    def on_progress(p) -> None:
        reports.append(p)
        if p.stage == stage and p.total > 0:
            started.set()

    def work() -> None:
        try:
            run(scan([str(crowded)], ScanParams(CHAR5, threshold), cancel=cancel), on_progress)
            ended.append("finished")
        except ScanCancelled:
            ended.append("cancelled")
        ended.append(time.perf_counter())

    thread = threading.Thread(target=work)
    thread.start()
    assert started.wait(90), [p.stage for p in reports[-3:]]
    time.sleep(0.3)  # well inside the stage (verifying > 1 M candidates takes seconds)
    if stage == "verifying":
        assert reports[-1].total > 1_000_000 and reports[-1].unit == "candidate pairs"
    asked = time.perf_counter()
    cancel.set()
    thread.join(5)
    # cancelled mid-stage, not finished; 0.01-0.05 s when quiet, 1.26 s seen beside three CI runs and four CPU
    # burners (load 9-10 on 2 cores): a step in flight finishes first, so the bound is the loaded machine's
    assert ended[0] == "cancelled" and ended[1] - asked < 3.0, ended[1] - asked
    cpu = time.process_time()
    time.sleep(0.5)
    assert time.process_time() - cpu < 0.05  # nothing keeps computing after the cancel


def test_each_stage_reports_its_own_unit_with_a_real_total(tmp_path):
    write_tree(tmp_path, {f"d{i}.txt": t for i, t in enumerate(_texts(60))})
    seen = []
    run(scan([str(tmp_path)], ScanParams(CHAR5, 0.3)), seen.append)
    by_stage: dict = {}
    for p in seen:
        by_stage.setdefault(p.stage, []).append(p)
    assert by_stage["reading"][-1].unit == "files" and by_stage["reading"][-1].total == 60
    bands = by_stage["banding"]
    done = [p.done for p in bands]
    assert bands[-1].unit == "bands" and done == sorted(set(done)) and done[-1] == bands[-1].total > 1
    verifying = by_stage["verifying"]
    assert verifying[-1].unit == "candidate pairs" and verifying[-1].done == verifying[-1].total > 0
    assert by_stage["estimating"][0].done == verifying[-1].total  # 60 documents: the sample is all of them
    assert by_stage["grouping"][-1].unit == "groups"


def test_the_candidate_estimate_from_a_sample_is_close(monkeypatch):
    texts = _texts(1600, seed=8)
    sigs = sign_texts(texts, CHAR5)
    from lshdesk.core.shingle_kinds import hash_shingles

    shingles = hash_shingles(texts, CHAR5.shingle)
    banding = optimal_banding(0.3, 128, 0.05, 0.95)
    actual = len(candidate_pairs(sigs, banding))
    monkeypatch.setattr(estimate, "SAMPLE_DOCS", 400)
    est = estimate.estimate_candidates(sigs, shingles, banding)
    assert est.sampled == 400 and abs(est.pairs - actual) / actual < 0.1  # sampled pairs: 80k of 1.28 M
    assert est.seconds > 0
    is_ref = np.arange(1600) % 4 == 0  # a quarter of the documents in a reference folder: only cross pairs
    cands = candidate_pairs(sigs, banding)
    cross = int(np.count_nonzero(is_ref[cands.left] != is_ref[cands.right]))
    est = estimate.estimate_candidates(sigs, shingles, banding, is_ref)
    assert abs(est.pairs - cross) / cross < 0.1


def test_a_corpus_sampled_whole_is_banded_once_and_a_quick_verification_is_not_timed(monkeypatch):
    from lshdesk.core.scan import stages
    from lshdesk.core.shingle_kinds import hash_shingles

    rng = np.random.default_rng(4)
    base = [make_words(rng, 150) for _ in range(150)]
    texts = [" ".join(w) for w in base] + [" ".join(mutate(rng, w, int(rng.integers(5, 40)))) for w in base]
    sigs = sign_texts(texts, SignatureParams())
    shingles = hash_shingles(texts, ShingleSpec("word", 3))
    banding = optimal_banding(0.5, 128, 0.05, 0.95)
    timed = []
    monkeypatch.setattr(estimate, "probe_intersection_sizes", lambda *a: timed.append(a))
    want = candidate_pairs(sigs, banding)
    assert len(want) > 0
    est = estimate.estimate_candidates(sigs, shingles, banding)
    assert est.sampled == est.n_docs == 300 and est.pairs == len(want) and timed == []  # 300 docs: a quick model
    assert est.seconds == pytest.approx(len(want) * 2 * shingles.counts().mean() * estimate.SECONDS_PER_ID / 2)
    assert [np.array_equal(a, b) for a, b in zip(
        (est.candidates.left, est.candidates.right, est.candidates.bands), (want.left, want.right, want.bands))
    ] == [True] * 3  # fmt: skip
    is_ref = np.arange(300) % 3 == 0
    cross = estimate.estimate_candidates(sigs, shingles, banding, is_ref).candidates
    keep = is_ref[want.left] != is_ref[want.right]
    assert np.array_equal(cross.left, want.left[keep]) and np.array_equal(cross.bands, want.bands[keep])
    banded = []  # the scan takes those candidates: no banding stage of its own
    monkeypatch.setattr(stages, "band_stage", lambda *a: banded.append(a) or iter(()))
    found = run(stages.pair_stages(sigs, shingles, banding, 0.5, None, ShingleSpec("word", 3), None, lambda: 0.0, {}))
    assert banded == [] and np.array_equal(found.candidates.left, want.left)
    monkeypatch.setattr(estimate, "SAMPLE_DOCS", 200)  # sampled: its candidates are not every candidate
    assert estimate.estimate_candidates(sigs, shingles, banding).candidates is None


def test_a_scan_the_join_will_verify_is_timed_by_the_join(monkeypatch):
    texts = _texts(1600, seed=8)
    sigs = sign_texts(texts, CHAR5)
    from lshdesk.core.shingle_kinds import hash_shingles

    shingles = hash_shingles(texts, CHAR5.shingle)
    banding = optimal_banding(0.3, 128, 0.05, 0.95)
    monkeypatch.setattr(estimate, "SAMPLE_DOCS", 400)
    monkeypatch.setattr(estimate, "JOIN_DOCS", 200)  # the join is timed on the candidates of 200 of the 400
    calls = []

    def timed(sub, sub_sigs, left, right, threshold):
        calls.append((sub, sub_sigs, left, right, threshold))
        return 0.5

    monkeypatch.setattr(estimate, "join_seconds", timed)
    est = estimate.estimate_candidates(sigs, shingles, banding, threshold=0.3)
    ((sub, sub_sigs, left, right, t),) = calls
    assert len(sub) == len(sub_sigs) == 200 and t == 0.3 and left.max() < 200 and right.max() < 200
    sample = [i for i in range(1600) if any(np.array_equal(sigs[i], row) for row in sub_sigs[:3])]
    assert len(sample) >= 3 and np.array_equal(sub.doc(0), shingles.doc(sample[0]))  # the sampled documents' sets
    assert est.seconds == pytest.approx(0.5 * est.pairs / len(left) / estimate.THREADS)
    calls.clear()
    estimate.estimate_candidates(sigs, shingles, banding, threshold=0.05)  # below the join's least threshold
    estimate.estimate_candidates(sigs, shingles, banding)
    assert calls == []


def test_the_warning_names_the_count_the_time_and_the_way_out():
    big = estimate.Estimate(1.44e6, 20.4, 1500, 6220)
    assert big.warning(ShingleSpec("char", 5)) == (
        "about 1.4 M candidate pairs, ~20 s; raise the threshold or use word shingles to go faster"
    )
    assert "word shingles" not in big.warning(ShingleSpec("word", 3))
    assert estimate.Estimate(2e4, 0.3, 100, 100).warning(ShingleSpec("char", 5)) == ""


def test_the_scan_reports_the_estimate_with_a_warning_when_large(tmp_path, monkeypatch):
    write_tree(tmp_path, {f"d{i}.txt": t for i, t in enumerate(_texts(80))})
    monkeypatch.setattr(estimate, "WARN_PAIRS", 1000)
    seen = []
    run(scan([str(tmp_path)], ScanParams(CHAR5, 0.3)), seen.append)
    (est,) = [p for p in seen if p.stage == "estimating"]
    assert est.warning.startswith("about ") and "word shingles" in est.warning
    cancel, stages = threading.Event(), []

    def stop_at_the_warning(p) -> None:
        stages.append(p.stage)
        if p.warning:
            cancel.set()  # "Stop": nothing is verified

    with pytest.raises(ScanCancelled):
        run(scan([str(tmp_path)], ScanParams(CHAR5, 0.3), cancel=cancel), stop_at_the_warning)
    assert stages[-1] == "estimating"


def _ref_tree(tmp_path: Path) -> Path:
    rng = np.random.default_rng(2)
    x, y = make_words(rng, 150), make_words(rng, 150)
    return write_tree(
        tmp_path / "nest",
        {
            "a.txt": " ".join(x),
            "b.txt": " ".join(mutate(rng, x, 3)),
            "sub/c.txt": " ".join(mutate(rng, x, 2)),
            "sub/d.txt": " ".join(y),
        },
    )


def test_a_reference_folder_inside_the_scanned_folder_is_compared_with_the_rest(tmp_path):
    nest = _ref_tree(tmp_path)
    result = run(scan([str(nest), str(nest / "sub")], ScanParams(threshold=0.5), reference=[1]))
    assert sorted(result.docs.rel) == ["a.txt", "b.txt", "c.txt", "d.txt"]  # each file once
    pairs = {(result.docs.rel[a], result.docs.rel[b]) for a, b in zip(result.pairs.left, result.pairs.right)}
    assert {tuple(sorted(p)) for p in pairs} == {("a.txt", "c.txt"), ("b.txt", "c.txt")}  # a~b is not a cross pair


def test_every_folder_a_reference_is_refused(tmp_path):
    nest = _ref_tree(tmp_path)
    with pytest.raises(ParamError, match="every folder is a reference folder"):
        run(scan([str(nest), str(nest / "sub")], ScanParams(), reference=[0, 1]))


def test_an_empty_result_is_explained(tmp_path):
    nest = _ref_tree(tmp_path)
    result = run(scan([str(nest), str(nest / "sub")], ScanParams(threshold=0.99), reference=[1]))
    ref = result.docs.root == 1
    left, right = np.nonzero(~ref[:, None] & ref[None, :])
    best = float(exact_jaccard(result.shingles, left, right).max())  # over every cross pair
    text = explain_empty(result)
    assert text.startswith("no pair between the reference folder and the others reaches 0.99; the most similar is ")
    shown = float(text.rsplit(" ", 1)[1])
    assert shown == round(best, 2) and 0.5 < shown < 0.99
    plain = run(scan([str(nest / "sub")], ScanParams(threshold=0.5)))
    assert explain_empty(plain).startswith("no pair of documents reaches 0.50; the most similar is 0.")
    found = run(scan([str(nest)], ScanParams(threshold=0.5)))
    assert len(found.pairs) and explain_empty(found) == ""


def test_the_warning_says_under_a_second_rather_than_a_tilde_before_less_than():
    quick = estimate.Estimate(2e6, 0.4, 1500, 6220)
    assert (
        quick.warning(ShingleSpec("word", 3))
        == "about 2.0 M candidate pairs, under a second; raise the threshold to go faster"
    )


def test_banding_in_steps_finds_the_same_candidates_as_one_call():
    from lshdesk.core.scan.stages import band_stage, stopwatch

    texts = _texts(300, seed=3)
    sigs = sign_texts(texts, CHAR5)
    banding = optimal_banding(0.3, 128, 0.05, 0.95)
    whole = candidate_pairs(sigs, banding)
    stepped = run(band_stage(sigs, banding, None, None, stopwatch()))
    for a, b in ((whole.left, stepped.left), (whole.right, stepped.right), (whole.bands, stepped.bands)):
        assert np.array_equal(a, b)
    is_ref = np.arange(300) % 3 == 0
    cross = run(band_stage(sigs, banding, is_ref, None, stopwatch()))
    keep = is_ref[whole.left] != is_ref[whole.right]
    assert np.array_equal(cross.left, whole.left[keep]) and np.array_equal(cross.bands, whole.bands[keep])


def test_a_scan_whose_candidates_would_not_fit_in_memory_is_refused_before_banding(tmp_path, monkeypatch):
    from lshdesk.core.scan import stages
    from lshdesk.core.scan.estimate import BYTES_PER_CANDIDATE, MEMORY_SHARE, Estimate, TooManyCandidates

    est = Estimate(2.4e9, 100.0, 1500, 100_000)
    with pytest.raises(
        TooManyCandidates, match=r"about 2\.4 billion candidate pairs would need about 286\.1 GB .* use word"
    ):
        est.check_memory(ShingleSpec.parse("char:5"), 20 * 2**30)
    est.check_memory(ShingleSpec.parse("char:5"), None)  # unknown free memory: not checked
    est.check_memory(ShingleSpec.parse("char:5"), int(2.4e9 * BYTES_PER_CANDIDATE / MEMORY_SHARE) + 1)

    write_tree(tmp_path, {f"d{i:04d}.txt": t for i, t in enumerate(_texts(60))})
    banded = []
    monkeypatch.setattr(stages, "band_stage", lambda *a: banded.append(1))
    monkeypatch.setattr(stages, "available_memory", lambda: 1000)  # a kilobyte free: any candidate is too many
    with pytest.raises(TooManyCandidates, match="raise the threshold or use word shingles"):
        run(scan([str(tmp_path)], ScanParams(CHAR5, 0.3)))
    assert not banded
