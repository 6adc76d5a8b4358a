"""The S-curve explorer's state without widgets: its rules, its announcements, a session's round trip, the automatic
scheme the parameter panel reads."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from lshdesk.core.errors import ParamError
from lshdesk.core.explore.exact import STORE_FLOOR, build_reference
from lshdesk.core.explore.state import ExploreState, from_json
from lshdesk.core.explore.tune import Goal
from lshdesk.core.params import Banding, ScanParams, SignatureParams
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.core.scurve import optimal_banding

K = 64


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    root = tmp_path_factory.mktemp("docs")
    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(400)]
    base = [" ".join(rng.choice(words, 120)) for _ in range(6)]
    for i, text in enumerate(base):
        (root / f"a{i}.txt").write_text(text, encoding="utf-8")
        cut = text.split()
        cut[::9] = ["edit"] * len(cut[::9])
        (root / f"b{i}.txt").write_text(" ".join(cut), encoding="utf-8")
    return run(scan([str(root)], ScanParams(SignatureParams(k=K), threshold=0.6)))


def heard(state: ExploreState) -> list[frozenset[str]]:
    calls: list[frozenset[str]] = []
    state.watch(calls.append)
    return calls


def test_a_result_sets_its_scheme_threshold_and_weights_and_forgets_the_old_reference(result):
    s = ExploreState()
    calls = heard(s)
    s.show_result(result)
    assert (s.k, s.banding, s.threshold, s.scanned) == (K, result.banding, 0.6, result)
    assert s.goal.fp_weight == pytest.approx(
        result.params.fp_weight / (result.params.fp_weight + result.params.fn_weight)
    )
    assert {"k", "banding", "threshold", "scanned"} <= calls[-1]
    again = replace(result, signatures=result.signatures.copy())  # a rescan: another result, equal arrays
    assert s.show_result(again) is None and s.scanned is again
    s.show_result(None)
    assert s.scanned is None and s.reference is None


def test_bands_and_rows_give_way_to_keep_b_times_r_within_k(result):
    s = ExploreState()
    s.show_result(result)
    s.update(banding=Banding(8, 8))
    s.set_bands(32)
    assert s.banding == Banding(32, 2)
    s.set_rows(16)
    assert s.banding == Banding(4, 16)
    s.set_rows(2)
    assert s.banding == Banding(4, 2)  # lowering one never raises the other
    with pytest.raises(ParamError, match="more than the signature's k"):
        s.update(banding=Banding(65, 1))
    assert s.banding == Banding(4, 2)  # a refused change changes nothing


def test_only_what_changed_is_announced_and_a_refused_update_is_silent(result):
    s = ExploreState()
    s.show_result(result)
    calls = heard(s)
    assert s.update(threshold=s.threshold, banding=s.banding) == frozenset()
    assert s.update(threshold=0.7) == frozenset({"threshold"})
    with pytest.raises(ParamError):
        s.update(threshold=0.4, comparisons=("nonsense", ""))
    assert s.threshold == 0.7 and calls == [frozenset({"threshold"})]


def test_the_reference_sets_the_lowest_threshold_and_holds_the_threshold_above_it(result):
    s = ExploreState()
    s.show_result(result)
    ref = run(build_reference(result.signatures, result.shingles, [result.banding]))
    floored = replace(ref, floor=0.3)
    s.update(threshold=0.2)
    assert s.threshold == 0.2
    s.update(reference=floored)
    assert (s.floor, s.threshold) == (0.3, 0.3)
    s.update(threshold=0.01)
    assert s.threshold == 0.3
    s.update(reference=None)
    assert s.floor == STORE_FLOOR


def test_a_session_round_trip_restores_what_was_explored(result):
    s = ExploreState()
    s.show_result(result)
    s.update(banding=Banding(16, 3), threshold=0.42, comparisons=("strict", "loose"), follow=False)
    s.update(goal=Goal("recall", 0.3, 0.7, 0.9, 500))
    saved = json.loads(json.dumps(s.to_json()))  # as a session header holds it
    t = ExploreState()
    t.show_result(result)
    t.update(**from_json(saved, K))
    for name in ("banding", "threshold", "comparisons", "goal", "follow"):
        assert getattr(t, name) == getattr(s, name), name


@pytest.mark.parametrize(
    "damage, words",
    [
        ({"bands": 65, "rows": 1}, "more than the signature's k"),
        ({"bands": True}, "bands must be a whole number"),
        ({"rows": 2.0}, "rows must be a whole number"),
        ({"threshold": float("nan")}, "threshold must be a number"),
        ({"threshold": 1.5}, r"threshold must be in \(0, 1\]"),
        ({"comparisons": ["strict"]}, "comparisons must be two of"),
        ({"comparisons": ["strict", "__import__"]}, "comparisons must be two of"),
        ({"goal": {"kind": "eval"}}, "goal must be one of"),
        ({"goal": {"recall": 2.0}}, "target recall"),
        ({"goal": {"max_candidates": -1}}, "candidate cap"),
        ({"goal": {"fp_weight": 0, "fn_weight": 0}}, "weights"),
        ({"follow": "yes"}, "true or false"),
    ],
)
def test_a_damaged_saved_explorer_is_refused_with_what_is_wrong(result, damage, words):
    s = ExploreState()
    s.show_result(result)
    saved = s.to_json() | damage
    with pytest.raises(ParamError, match=words):
        from_json(saved, K)
    with pytest.raises(ParamError, match="table of values"):
        from_json(["not", "a", "dict"], K)


def test_the_automatic_scheme_is_the_scans_own_choice_for_the_same_parameters(result):
    s = ExploreState()
    p = result.params
    assert s.automatic(p) == (optimal_banding(p.threshold, K, p.fp_weight, p.fn_weight), "")
    s.show_result(replace(result, banding=Banding(21, 3), scheme_note="bands x rows 21 x 3 instead of ..."))
    assert s.automatic(p) == (Banding(21, 3), "bands x rows 21 x 3 instead of ...")
    other = replace(p, threshold=0.9)  # a scan at another threshold chooses afresh: the optimum is all we know
    assert s.automatic(other) == (optimal_banding(0.9, K, p.fp_weight, p.fn_weight), "")
    manual = replace(p, banding=Banding(4, 4))
    assert s.automatic(manual) == (Banding(4, 4), "")


def test_a_session_keeps_the_explorer_and_a_damaged_one_is_refused(result, tmp_path):
    from lshdesk.core.persistence.session import load_explore, save_session

    s = ExploreState()
    s.show_result(result)
    s.update(banding=Banding(8, 4), threshold=0.55)
    path = tmp_path / "s.lshdesk"
    save_session(path, result, explore=s.to_json())
    t = ExploreState()
    assert t.restore(load_explore(path)) == frozenset()  # nothing scanned shown: nothing to restore into
    t.show_result(result)
    assert t.restore(load_explore(path)) == {"banding", "threshold"}
    assert (t.banding, t.threshold) == (Banding(8, 4), 0.55)
    save_session(path, result)  # a session saved without the explorer (or before it was kept)
    assert load_explore(path) is None and t.restore(load_explore(path)) == frozenset()
    save_session(path, result, explore={"bands": 8, "rows": 9, "threshold": 0.5})  # 72 slots of 64
    with pytest.raises(ParamError, match="more than the signature's k"):
        t.restore(load_explore(path))
    assert (t.banding, t.threshold) == (Banding(8, 4), 0.55)
