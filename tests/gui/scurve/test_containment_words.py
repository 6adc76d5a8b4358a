"""A containment scan's words agree and fit (issue 31, item 14): the combo's first entry is not cut at a 1024-px
window, and the plot's title, the caption and the combo count the same size-class pairs."""

from __future__ import annotations

import re

import numpy as np
import pytest
from core_helpers import graded_excerpts, write_tree
from PySide6.QtWidgets import QStyle, QStyleOptionComboBox

from lshdesk.core.params import ScanParams
from lshdesk.core.persistence import export
from lshdesk.core.query.corpus import containment_scan
from lshdesk.core.scan.pipeline import run
from lshdesk.gui.scurve.view import ScurveView


@pytest.fixture(scope="module")
def cont(tmp_path_factory):
    root = tmp_path_factory.mktemp("graded")
    write_tree(root, graded_excerpts(np.random.default_rng(5)))
    return run(containment_scan([str(root)], ScanParams(threshold=0.7)))


def test_the_combo_fits_and_every_count_agrees(qtbot, cont):
    view = ScurveView()
    qtbot.addWidget(view)
    view.resize(1024 - 300, 640 - 140)  # the view's room in a 1024 x 640 window beside the parameters
    view.show()
    view.set_result(cont, export.display_paths(cont))
    qtbot.waitUntil(lambda: view.containment.curves is not None, timeout=20000)
    cc, pick = view.containment.curves, view.containment.panel.pick
    opt = QStyleOptionComboBox()
    pick.initStyleOption(opt)
    field = pick.style().subControlRect(
        QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, pick
    )
    assert pick.fontMetrics().horizontalAdvance(pick.itemText(0)) <= field.width(), pick.itemText(0)
    drawn, total = len(cc.used()), len(cc.curves)
    assert re.findall(r"\d+", pick.itemText(0)) == [str(drawn), str(total)]
    title = view.plot.plot_item.titleLabel.text
    assert re.search(rf"\b{drawn} size-class pairs? drawn\b", title), title
    caption = view.source.text()
    assert f"{total} size-class pairs" in caption and f"{drawn} of them drawn" in caption
    assert view.shutdown(5000)
