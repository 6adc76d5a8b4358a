"""The S-curve view over the explorer's state: the user's edits land in the state, a state restored from a session
redraws the widgets and the figures follow it, and the parameter panel shows the scheme the state says a scan uses."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from test_scurve_view import K, scanned  # noqa: F401 - the fixture

from lshdesk.core.explore.state import ExploreState
from lshdesk.core.explore.tune import Goal
from lshdesk.core.params import Banding
from lshdesk.core.scurve import probability
from lshdesk.gui.scurve.view import ScurveView
from lshdesk.gui.widgets.params_panel import ParamsPanel


def ready(v: ScurveView, banding: Banding, t: float):
    return lambda: (
        (v.ref is not None and v.figures is not None and v.figures.banding == banding and v.figures.threshold == t)
        and v.workers.idle()
    )


def test_the_view_shows_its_state_and_writes_the_users_edits_to_it(qtbot, scanned):  # noqa: F811
    result, names, _ = scanned
    state = ExploreState()
    v = ScurveView(state)
    qtbot.addWidget(v)
    v.resize(1280, 800)
    v.show()
    v.set_result(result, names)
    qtbot.waitUntil(ready(v, result.banding, result.params.threshold), timeout=20000)
    assert state.scanned is result and state.reference is v.ref
    v.scheme.r_spin.setValue(2)
    v.scheme.b_spin.setValue(40)  # 40 x 2 fits in 64 slots; then 40 x 3 would not: the rows give way
    v.scheme.r_spin.setValue(3)
    assert state.banding == Banding(21, 3) and v.scheme.banding() == state.banding
    qtbot.waitUntil(ready(v, Banding(21, 3), state.threshold), timeout=10000)

    saved = json.loads(json.dumps(replace_saved(state.to_json())))  # as a session's header brings it back
    state.restore(saved)
    assert (v.scheme.b_spin.value(), v.scheme.r_spin.value(), v.scheme.threshold.value()) == (8, 4, 0.45)
    assert v.plot.line.value() == pytest.approx(0.45) and not v.tune_panel.follow.isChecked()
    assert v.scheme.comparisons() == ("strict", "loose") and v.tune_panel.goal() == Goal("recall", 0.5, 0.5, 0.9, 7)
    qtbot.waitUntil(ready(v, Banding(8, 4), 0.45), timeout=10000)  # the saved scheme, not re-tuned
    x, y = v.plot.curve.getData()
    assert np.allclose(y, probability(x, 8, 4))
    assert v.figures_panel.values["verified"].text().endswith("J ≥ 0.45")
    qtbot.waitUntil(lambda: "ms after the change" in v.figures_panel.note.text(), timeout=5000)  # once painted
    assert v.shutdown()


def replace_saved(saved: dict) -> dict:
    goal = {"kind": "recall", "fp_weight": 0.5, "fn_weight": 0.5, "recall": 0.9, "max_candidates": 7}
    return (
        saved
        | {"bands": 8, "rows": 4, "threshold": 0.45, "follow": False, "comparisons": ["strict", "loose"]}
        | {"goal": goal}
    )


def test_the_parameter_panel_shows_the_scheme_the_last_scan_chose(qtbot, scanned):  # noqa: F811
    result = replace(scanned[0], banding=Banding(20, 3), scheme_note="bands x rows 20 x 3 instead of the optimum")
    state = ExploreState()
    panel = ParamsPanel(result.params, state)
    qtbot.addWidget(panel)
    optimum = (panel.bands.value(), panel.rows.value())
    assert panel.auto.isChecked() and optimum != (20, 3)
    state.show_result(result)  # what the S-curve view does with the window's result
    assert (panel.bands.value(), panel.rows.value()) == (20, 3)
    assert "chose bands x rows 20 x 3 instead of the optimum" in panel.scheme_note.text()
    panel.threshold.setValue(0.9)  # another threshold: the scan will choose afresh, the optimum is shown
    assert (panel.bands.value(), panel.rows.value()) != (20, 3) and "chose" not in panel.scheme_note.text()
    assert panel.params().banding is None and panel.params().signature.k == K


def test_a_saved_session_brings_back_the_scheme_explored(qtbot, window, corpus_dir, tmp_path, monkeypatch):
    from gui_helpers import scan_and_wait, set_test_params, wait_written
    from PySide6.QtWidgets import QFileDialog

    root, _ = corpus_dir
    set_test_params(window)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window)
    view, explore = window.scurve_view, window.state.explore
    window.tabs.setCurrentWidget(view)
    view.tune_panel.follow.setChecked(False)
    view.scheme.threshold.setValue(0.4)
    view.scheme.r_spin.setValue(5)
    view.scheme.b_spin.setValue(6)
    qtbot.waitUntil(ready(view, Banding(6, 5), 0.4), timeout=20000)
    path = tmp_path / "explored.lshdesk"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    window.menu_actions.save_session.trigger()
    wait_written(qtbot, window)
    window.state.set_result(None)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.menu_actions.open_session.trigger()
    assert (explore.banding, explore.threshold, explore.follow) == (Banding(6, 5), 0.4, False)
    qtbot.waitUntil(ready(view, Banding(6, 5), 0.4), timeout=20000)
    assert (view.scheme.b_spin.value(), view.scheme.r_spin.value()) == (6, 5)


def test_the_note_says_the_wait_from_the_edit_until_the_figures_are_painted(qtbot, scanned, monkeypatch):  # noqa: F811
    import time

    result, names, _ = scanned
    v = ScurveView()
    qtbot.addWidget(v)
    v.resize(1280, 800)
    v.show()
    v.set_result(result, names)
    qtbot.waitUntil(ready(v, result.banding, result.params.threshold), timeout=20000)
    qtbot.waitUntil(lambda: "ms after the change" in v.figures_panel.note.text(), timeout=20000)  # seen
    qtbot.waitUntil(lambda: not v.workers.warm.running, timeout=20000)
    events: list[tuple[str, float]] = []
    v.plot.painted.connect(lambda when: events.append(("painted", when)))
    shown, waited, warmed = v.figures_panel.show_figures, v.figures_panel.show_waited, v.workers.warm_around
    monkeypatch.setattr(v.figures_panel, "show_figures", lambda f: (shown(f), events.append(("shown", 0.0))))
    monkeypatch.setattr(v.figures_panel, "show_waited", lambda f, s: (waited(f, s), events.append(("waited", s))))
    monkeypatch.setattr(v.workers, "warm_around", lambda f: (events.append(("warm", 0.0)), warmed(f)))
    b = v.scheme.b_spin.value()
    edited = time.perf_counter()
    v.scheme.b_spin.setValue(b - 1 if b > 1 else b + 1)  # one step, as the slider's
    qtbot.waitUntil(lambda: any(e == "warm" for e, _ in events), timeout=10000)
    kinds = [e for e, _ in events]
    first_shown = kinds.index("shown")
    painted = [when for e, when in events[first_shown:] if e == "painted"]
    assert painted and kinds.index("waited") > first_shown and kinds.index("warm") > kinds.index("waited")
    wait = dict(events)["waited"]
    assert painted[0] - edited >= wait > v.figures.seconds  # from the edit (not the request) to the paint
    assert f"shown {wait * 1000:.0f} ms after the change" in v.figures_panel.note.text()
    assert v.shutdown()
