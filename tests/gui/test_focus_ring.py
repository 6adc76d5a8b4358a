"""The keyboard focus outline: a ring around the focused widget that follows it and stands out 3:1, light and dark."""

from __future__ import annotations

import pytest
from gui_helpers import wcag_contrast
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QPalette, QRegion
from PySide6.QtWidgets import QApplication, QToolBar

from lshdesk.gui.widgets.focus_ring import MIN_CONTRAST, WIDTH, ring_colour


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_ring_surrounds_the_focused_widget_and_stands_out(qtbot, window, scheme, request):
    palette = request.getfixturevalue("dark") if scheme == "dark" else QApplication.palette()
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    window.activateWindow()
    ring = window.focus_ring
    window.params_panel.k.setFocus()  # the window's first focus (coming to the front) draws no ring
    qtbot.waitUntil(lambda: window.params_panel.k.hasFocus(), timeout=2000)
    for target in (window.params_panel.threshold, window.results.filter, window.params_panel.scan_button):
        target.setFocus(Qt.FocusReason.TabFocusReason)
        qtbot.waitUntil(lambda: ring.isVisible() and ring.target is target, timeout=2000)
        where = QRect(target.mapTo(window, QPoint(0, 0)), target.size())
        assert ring.geometry() == where.adjusted(-WIDTH, -WIDTH, WIDTH, WIDTH)
        image = window.grab().toImage()
        drawn = image.pixelColor(ring.geometry().center().x(), ring.geometry().top() + 1)
        window_colour = palette.color(QPalette.ColorRole.Window)
        assert wcag_contrast(drawn, window_colour) >= MIN_CONTRAST - 0.3  # as drawn (antialiased edge)
    assert wcag_contrast(ring_colour(palette), palette.color(QPalette.ColorRole.Window)) >= MIN_CONTRAST
    qtbot.mouseClick(window.params_panel.seed, Qt.MouseButton.LeftButton)  # a click draws no ring
    assert window.params_panel.seed.hasFocus() and not ring.isVisible()
    window.params_panel.scan_button.setFocus()
    window.params_panel.scan_button.hide()  # the focused widget goes away: the ring goes with the focus
    qtbot.waitUntil(lambda: ring.target is not window.params_panel.scan_button, timeout=2000)
    now = QApplication.focusWidget()
    assert ring.target is now and (now is None or ring.geometry().contains(now.mapTo(window, QPoint(0, 0))))


def test_a_focused_control_scrolled_out_of_its_panel_draws_no_ring_over_the_toolbar(qtbot, window):
    """Issue 31, item 14: the ring stayed where the control went, over the toolbar and the banner."""
    window.resize(1024, 500)  # the parameters scroll
    ring, panel = window.focus_ring, window.params_panel
    area = panel.parentWidget().parentWidget()  # the scroll area around the panel
    viewport = QRect(area.viewport().mapTo(window, QPoint(0, 0)), area.viewport().size())
    toolbar = window.findChild(QToolBar)
    window.params_panel.seed.setFocus()
    for target, end in ((panel.k, area.verticalScrollBar().maximum()), (panel.scan_button, 0)):
        area.verticalScrollBar().setValue(0 if end else area.verticalScrollBar().maximum())
        target.setFocus(Qt.FocusReason.TabFocusReason)
        area.ensureWidgetVisible(target)
        qtbot.waitUntil(lambda t=target: ring.isVisible() and ring.target is t, timeout=2000)
        area.verticalScrollBar().setValue(end)  # the control goes past the viewport's top (bottom)
        where = QRect(target.mapTo(window, QPoint(0, 0)), target.size())
        assert not viewport.intersects(where) and area.verticalScrollBar().maximum() > 0
        ring.follow()
        mask = ring.mask() if not ring.mask().isEmpty() else QRegion(ring.rect())  # where the ring can paint
        drawn = mask.translated(ring.geometry().topLeft()) if ring.isVisible() else None
        assert drawn is None or viewport.contains(drawn.boundingRect())
        assert drawn is None or not drawn.intersects(QRect(toolbar.mapTo(window, QPoint(0, 0)), toolbar.size()))
