"""The S-curve plot keeps its height on a short view: the tables below it fold away, and come back (issue 31, 11)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from lshdesk.gui.scurve.fold import PLOT_MIN, TABLES_MIN
from lshdesk.gui.scurve.view import ScurveView


def test_the_tables_fold_on_a_short_view_and_open_again(qtbot):
    v = ScurveView()
    qtbot.addWidget(v)
    v.resize(720, 440)  # the S-curve tab of a 1024 x 640 screen
    v.show()
    qtbot.waitExposed(v)
    qtbot.waitUntil(lambda: v.fold.split.sizes()[1] == 0, timeout=2000)
    assert v.plot.plot_item.vb.height() >= PLOT_MIN and not v.tables_button.isChecked()
    v.resize(1000, 760)  # a taller window: they come back by themselves
    qtbot.waitUntil(lambda: v.fold.split.sizes()[1] >= TABLES_MIN, timeout=2000)
    assert v.plot.plot_item.vb.height() >= PLOT_MIN and v.tables_button.isChecked()
    v.resize(720, 440)
    qtbot.waitUntil(lambda: v.fold.split.sizes()[1] == 0, timeout=2000)
    qtbot.mouseClick(v.tables_button, Qt.MouseButton.LeftButton)  # the user wants them anyway
    assert v.fold.split.sizes()[1] > 0 and v.tables_button.isChecked()
    qtbot.wait(50)
    assert v.fold.split.sizes()[1] > 0  # the user's choice stands
    assert v.shutdown()
