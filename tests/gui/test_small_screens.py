"""A 1024 x 640 screen: the tour folds to one line, the S-curve plot keeps its height, no number box is clipped, and
the Documents columns are sized to their content."""

from __future__ import annotations

from gui_helpers import scan_and_wait, set_test_params
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QAbstractSpinBox

from lshdesk.gui.plots.fit import MIN_PLOT_HEIGHT
from lshdesk.gui.widgets.result_tables import REASON_MAX


def _inside(widget, area) -> bool:
    """The widget's whole rectangle lies inside ``area``'s (both mapped to the window)."""
    top_left = widget.mapTo(widget.window(), QPoint(0, 0))
    mine = QRect(top_left, widget.size())
    theirs = QRect(area.mapTo(area.window(), QPoint(0, 0)), area.size())
    return theirs.contains(mine)


def test_a_small_window_keeps_the_plot_tall_and_every_number_box_whole(qtbot, window, corpus_dir):
    root, _ = corpus_dir
    set_test_params(window)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window)
    window.tour.show()
    window.resize(1024, 640)
    window.show()
    qtbot.waitExposed(window)
    window.tabs.setCurrentWidget(window.scurve_view)
    qtbot.waitUntil(lambda: window.tour.collapsed() and not window.tour.details.isVisible(), timeout=2000)
    one_line = 2 * window.tour.close_button.sizeHint().height()
    qtbot.waitUntil(lambda: window.tour.height() <= one_line, timeout=2000)
    plot = window.scurve_view.plot
    qtbot.waitUntil(lambda: plot.plot_item.vb.height() >= MIN_PLOT_HEIGHT - 60, timeout=2000)
    scheme = window.scurve_view.scheme
    side = scheme.parentWidget().parentWidget()  # the side panel's scroll viewport
    for box in (scheme.b_spin, scheme.r_spin, scheme.threshold):
        assert _inside(box, side), box.accessibleName()
    for size in ((1024, 640), (1024, 768)):  # the plot's whole width is in view (at 1024 x 768 its legend cut it)
        window.resize(*size)
        qtbot.wait(50)
        right = plot.plot_item.mapRectToScene(plot.plot_item.boundingRect()).right()
        assert right <= plot.viewport().width() + 1, (size, right, plot.viewport().width())
    window.resize(1024, 640)
    params = window.params_panel
    viewport = params.parentWidget()
    for box in params.findChildren(QAbstractSpinBox):
        if box.isVisible():
            assert box.mapTo(viewport, QPoint(box.width(), 0)).x() <= viewport.width(), box.accessibleName()

    window.resize(1280, 800)  # a taller window unfolds the tour again, until the user chooses
    qtbot.waitUntil(lambda: not window.tour.collapsed(), timeout=2000)
    qtbot.mouseClick(window.tour.details_button, Qt.MouseButton.LeftButton)
    window.resize(1024, 640)
    window.resize(1280, 800)
    assert window.tour.collapsed()


def test_the_documents_columns_fit_their_content(qtbot, window, corpus_dir):
    root, _ = corpus_dir
    set_test_params(window)
    window.folders.open([str(root)], scan_now=False)
    scan_and_wait(qtbot, window)
    window.resize(1024, 640)
    window.show()
    window.results.tabs.setCurrentWidget(window.results.documents)
    qtbot.waitExposed(window)
    view = window.results.documents
    reason = view.horizontalHeader()
    assert not view.isColumnHidden(5)
    assert view.columnWidth(5) <= REASON_MAX
    assert view.columnWidth(5) >= min(REASON_MAX, view.sizeHintForColumn(5))  # cut only past REASON_MAX
    for col in range(1, 5):  # every figure and its title shows whole (as wide as Qt would size it to its content)
        assert view.columnWidth(col) >= reason.sectionSizeHint(col)
        assert view.columnWidth(col) >= view.sizeHintForColumn(col)
    assert view.columnWidth(0) >= 200 and view.columnWidth(0) > view.columnWidth(5)  # the names get the room
