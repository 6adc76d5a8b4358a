"""The S-curve view of a containment scan: its size-class curves and pairs at their containment, the Jaccard-only
controls disabled with the reason, and the Jaccard view back after a Jaccard scan."""

from __future__ import annotations

import numpy as np
import pytest
from core_helpers import graded_excerpts, write_tree
from PySide6.QtCore import QThread
from PySide6.QtGui import QAccessible

from lshdesk.core.params import ScanParams
from lshdesk.core.persistence import export
from lshdesk.core.query.corpus import containment_scan
from lshdesk.core.scan.pipeline import run, scan
from lshdesk.gui.plots.scurve_containment import CONTAINMENT_X, JACCARD_X
from lshdesk.gui.plots.scurve_pairs import KIND_CAUGHT
from lshdesk.gui.scurve.containment import JACCARD_ONLY
from lshdesk.gui.scurve.view import ScurveView

T = 0.7


@pytest.fixture(scope="module")
def scans(tmp_path_factory):
    root = tmp_path_factory.mktemp("graded")
    write_tree(root, graded_excerpts(np.random.default_rng(5)))
    cont = run(containment_scan([str(root)], ScanParams(threshold=T)))
    jac = run(scan([str(root)], ScanParams(threshold=0.3)))
    return cont, jac


@pytest.fixture
def view(qtbot):
    v = ScurveView()
    qtbot.addWidget(v)
    v.resize(1280, 800)
    v.show()
    yield v
    assert v.shutdown(5000)
    assert not [t for t in v.findChildren(QThread) if t.isRunning()]


def _bottom_label(v: ScurveView) -> str:
    return v.plot.plot_item.getAxis("bottom").labelText


def test_a_containment_scan_shows_its_size_class_curves_and_pairs(qtbot, view, scans):
    cont, jac = scans
    view.set_result(cont, export.display_paths(cont))
    qtbot.waitUntil(lambda: view.containment.curves is not None, timeout=20000)
    cc = view.containment.curves
    layer = view.containment.layer
    assert _bottom_label(view) == CONTAINMENT_X and "containment" in view.source.text().lower()
    assert layer.family.isVisible() and not view.plot.curve.isVisible() and not view.plot.star.isVisible()
    # the family holds one curve per size-class pair with pairs, each its scheme's P(candidate | C)
    x, y = layer.family.getData()
    used = cc.used()
    assert np.count_nonzero(np.isnan(x)) == len(used)
    for part, i in zip(np.split(y, np.flatnonzero(np.isnan(y)) + 1), used):
        assert part[:-1] == pytest.approx(cc.curves[i].lowest(x[: len(part) - 1]), abs=1e-12)
    # the pairs are drawn at their exact containment: every verified pair caught, above y = 1
    caught = view.plot.scatter[KIND_CAUGHT].getData()
    assert len(caught[0]) == int(cc.caught.sum()) and np.all(caught[1] > 1)
    assert set(np.round(cont.pairs.containment, 9)) <= set(np.round(caught[0], 9))
    assert view.plot.pairs.jaccard.min() < T <= view.plot.pairs.jaccard.max()
    # the Jaccard-only controls are disabled and say why
    for w in (view.scheme.b_slider, view.scheme.r_spin, view.use_scheme.button, view.tune_panel.button):
        assert not w.isEnabled() and w.toolTip() == JACCARD_ONLY
    for w in (view.scheme.b_slider, view.tune_panel.recall, view.tune_panel.button):  # a screen reader hears it too
        assert QAccessible.queryAccessibleInterface(w).text(QAccessible.Text.Description).startswith(JACCARD_ONLY)
    assert not view.plot.line.movable and view.figures_panel.isHidden() and view.tables.isHidden()
    # one size-class pair: its guaranteed curve, its spread, and its pairs only
    pick = view.containment.panel.pick
    pick.setCurrentIndex(1)
    i = pick.currentData()
    assert layer.low.isVisible() and layer.high.isVisible() and not layer.family.isVisible()
    lx, ly = layer.low.getData()
    assert ly == pytest.approx(cc.curves[i].lowest(lx), abs=1e-12)
    assert len(view.plot.pairs.left) == int(np.count_nonzero(cc.curve == i)) > 0
    assert view.scheme.banding() == cc.curves[i].banding  # the (disabled) controls show the class pair's scheme

    # a Jaccard scan restores the normal view
    view.set_result(jac, export.display_paths(jac))
    qtbot.waitUntil(lambda: view.figures is not None and view.workers.idle(), timeout=20000)
    assert _bottom_label(view) == JACCARD_X and view.plot.curve.isVisible() and not layer.family.isVisible()
    for w in (view.scheme.b_slider, view.use_scheme.button, view.tune_panel.button):
        assert w.isEnabled() and w.toolTip() != JACCARD_ONLY
        assert JACCARD_ONLY not in QAccessible.queryAccessibleInterface(w).text(QAccessible.Text.Description)
    assert view.plot.line.movable and view.figures_panel.isVisible() and view.containment.panel.isHidden()
    assert view.plot.legend.getLabel(view.plot.curve) is not None
