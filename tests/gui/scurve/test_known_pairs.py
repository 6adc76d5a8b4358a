"""The S-curve view keeps the similarities it computed for a result: a scheme seen again costs no exact comparison,
and its figures are the same; a new result starts afresh."""

from __future__ import annotations

from test_scurve_view import scanned, set_scheme, view  # noqa: F401 - the fixtures

from lshdesk.core.params import Banding


def test_a_scheme_seen_again_is_not_computed_again(qtbot, view, scanned):  # noqa: F811
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
