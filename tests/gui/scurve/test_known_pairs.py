"""The S-curve view keeps the similarities it computed for a result: a scheme seen again costs no exact comparison,
and its figures are the same; a new result starts afresh."""

from __future__ import annotations

import functools

from test_scurve_view import scanned, set_scheme, view  # noqa: F401 - the fixtures

from lshdesk.core.params import Banding


def test_a_scheme_seen_again_is_not_computed_again(qtbot, view, scanned):  # noqa: F811
    view.workers.warming = False  # only what the schemes shown compute
    known = view.workers.known
    assert known is not None and len(known) >= len(view.ref.codes)  # the reference's pairs are known
    set_scheme(qtbot, view, 32, 2)
    first = view.figures
    after_first = known.computed
    set_scheme(qtbot, view, 8, 4)
    set_scheme(qtbot, view, 32, 2)
    assert known.computed == after_first
    assert view.figures is not first and view.figures.banding == Banding(32, 2)
    assert view.figures.jaccard.tolist() == first.jaccard.tolist()
    assert view.figures_panel.values["candidates"].text() == f"{first.n_candidates:,}"
    view.set_result(scanned[0], scanned[1])
    assert view.workers.known is not known  # a new result, new pairs


def test_the_next_step_is_scored_while_the_user_looks(qtbot, scanned, monkeypatch):  # noqa: F811
    from lshdesk.gui.scurve import workers as scurve_workers
    from lshdesk.gui.scurve.view import ScurveView

    monkeypatch.setattr(  # a sampled reference: most candidates' similarity is not known beforehand
        scurve_workers,
        "build_reference",
        functools.partial(scurve_workers.build_reference, max_work=0, sample_size=20),
    )
    v = ScurveView()
    qtbot.addWidget(v)
    v.set_result(scanned[0], scanned[1])
    qtbot.waitUntil(lambda: v.ref is not None and v.figures is not None and v.workers.idle(), timeout=20000)
    try:
        set_scheme(qtbot, v, 32, 2)
        qtbot.waitUntil(lambda: not v.workers.warm.running, timeout=20000)  # b +- 1, r +- 1 scored meanwhile
        known, before = v.workers.known, v.workers.known.computed
        v.scheme.b_spin.setValue(33)  # one step (to 33 x 1, far looser): its candidates are known already
        qtbot.waitUntil(lambda: v.figures.banding == Banding(33, 1) and v.workers.idle(), timeout=10000)
        assert known.computed == before  # (with ExploreWorkers.warming off, this step scores its new pairs)
    finally:
        assert v.shutdown()
