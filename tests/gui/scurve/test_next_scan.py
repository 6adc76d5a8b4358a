"""The S-curve explorer's scheme carried into the next scan (with a preview the scan then confirms), sliders that
step by one, and bucket-size labels that never overlap."""

from __future__ import annotations

import numpy as np
from gui_helpers import scan_and_wait, set_test_params
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

from lshdesk.core.params import Banding
from lshdesk.gui.plots.bucket_plot import BucketPlot


def test_use_scheme_sets_the_panel_and_the_next_scan_reports_what_the_preview_said(qtbot, window, corpus_dir):
    root, _ = corpus_dir
    set_test_params(window)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window)
    before = len(window.state.result.pairs)
    view = window.scurve_view
    window.tabs.setCurrentWidget(view)
    qtbot.waitUntil(lambda: view.ref is not None and view.figures is not None and view.workers.idle(), timeout=20000)
    assert "last scan's scheme" in view.use_scheme.preview.text()
    view.tune_panel.follow.setChecked(False)  # the threshold moves without re-tuning the scheme
    view.scheme.r_spin.setValue(4)
    view.scheme.b_spin.setValue(8)
    view.scheme.threshold.setValue(0.5)
    want = Banding(8, 4)
    qtbot.waitUntil(
        lambda: view.figures.banding == want and view.figures.threshold == 0.5 and view.workers.idle(), timeout=10000
    )
    preview = view.figures.n_verified
    assert view.use_scheme.button.text() == "Use 8 x 4 for the next scan"
    assert f"would report {preview:,} pairs" in view.use_scheme.preview.text()
    assert f"reported {before:,}" in view.use_scheme.preview.text()
    qtbot.mouseClick(view.use_scheme.button, Qt.MouseButton.LeftButton)
    panel = window.params_panel
    assert not panel.auto.isChecked() and (panel.bands.value(), panel.rows.value()) == (8, 4)
    assert panel.params().banding == want and panel.params().threshold == 0.5
    assert window.state.params.banding == want
    scan_and_wait(qtbot, window)
    assert window.state.result.banding == want
    assert len(window.state.result.pairs) == preview != before


def test_the_scheme_sliders_step_by_one(qtbot):
    from lshdesk.gui.scurve.scheme import SchemeControls

    scheme = SchemeControls()
    qtbot.addWidget(scheme)
    scheme.set_k(128, {})
    scheme.set_banding(Banding(41, 3))
    for key in (Qt.Key.Key_PageUp, Qt.Key.Key_Right, Qt.Key.Key_PageDown, Qt.Key.Key_Left):
        before = scheme.b_spin.value()
        qtbot.keyClick(scheme.b_slider, key)
        assert abs(scheme.b_spin.value() - before) == 1
    assert scheme.b_slider.pageStep() == scheme.b_spin.singleStep() == 1


def test_bucket_size_labels_never_overlap(qtbot):
    plot = BucketPlot()
    qtbot.addWidget(plot)
    rng = np.random.default_rng(5)
    plot.set_sizes(np.concatenate([rng.integers(2, 40, 500), rng.integers(40, 20000, 60)]))
    widest = max(QFontMetrics(plot.font()).horizontalAdvance(t) for t in plot.labels)
    for width in (260, 420, 1400):
        plot.resize(width, 240)
        plot.show()
        qtbot.waitExposed(plot)
        step = plot.label_step()
        spacing = plot.getPlotItem().getViewBox().width() / len(plot.labels)  # pixels between two bars
        assert widest < step * spacing  # two written labels are further apart than the widest is long
        assert step == 1 or (step - 1) * spacing < widest + 10  # and no more are left out than needed
    assert len(plot.labels) > 12
