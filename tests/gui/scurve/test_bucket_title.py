"""The Buckets tab's title fits its plot (issue 31, item 14: at 1024 px "… largest 11" was cut to "largest 1")."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtGui import QFont, QFontMetrics

from lshdesk.gui.plots.bucket_plot import TITLE_POINTS, BucketPlot


@pytest.mark.parametrize("width", [200, 265, 330, 600])
def test_the_title_shown_fits_and_keeps_the_largest_size_whole(qtbot, width):
    plot = BucketPlot()
    qtbot.addWidget(plot)
    plot.resize(width, 160)
    plot.show()
    qtbot.waitExposed(plot)
    plot.set_sizes(np.array([2] * 3000 + [3] * 700 + [11] * 23, dtype=np.int64))
    shown = plot.title_shown()
    font = QFont(plot.font())
    font.setPointSize(TITLE_POINTS)
    title_room = plot.getPlotItem().titleLabel.boundingRect().width()
    assert shown.endswith("largest 11")
    assert QFontMetrics(font).horizontalAdvance(shown) <= title_room  # what the title item has to draw in
    if width >= 600:
        assert shown == "3,723 buckets of 2+ documents, largest 11"
    plot.resize(600, 160)  # wider again: the whole title comes back
    qtbot.waitUntil(lambda: plot.title_shown() == "3,723 buckets of 2+ documents, largest 11", timeout=2000)
