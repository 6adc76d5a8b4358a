"""The progress area's closing message: cut with "…" where the status bar has no room, whole in its tooltip."""

from __future__ import annotations

from lshdesk.gui.widgets.progress_area import ProgressArea

LONG = (
    "Moved 1 file back where they were. Undo again to move the other 2 files back. Cancelled: the other files "
    "were left as they were. Scan again to see them in the results."
)


def test_a_long_message_is_cut_with_an_ellipsis_and_whole_in_the_tooltip(qtbot):
    area = ProgressArea()
    qtbot.addWidget(area)
    area.resize(420, 30)
    area.show()
    qtbot.waitExposed(area)
    area.finish(LONG)
    label = area.stage
    qtbot.waitUntil(lambda: label.width() < 420)
    assert label.text() == LONG  # what the window (and its tests) read is the whole message
    assert label.shown().endswith("…") and LONG.startswith(label.shown()[:-1])
    assert label.toolTip() == LONG
    area.finish("Ready")
    assert label.shown() == "Ready" and label.toolTip() == ""
    area.resize(2000, 30)
    area.finish(LONG)
    qtbot.waitUntil(lambda: label.width() >= label.fontMetrics().horizontalAdvance(LONG))
    assert label.shown() == LONG and label.toolTip() == ""  # room enough: nothing cut, no tooltip
