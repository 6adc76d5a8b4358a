"""The first-run tour: shown once, its buttons lead to the three uses, 'Got it' hides it for good."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from lshdesk.gui.mainwindow import MainWindow


def test_tour_leads_to_the_three_uses_and_is_dismissed_for_good(qtbot, window, settings, monkeypatch):
    assert window.tour.isVisible()
    qtbot.mouseClick(window.tour.buttons["learn"], Qt.MouseButton.LeftButton)
    assert window.tabs.currentWidget() is window.learn
    qtbot.mouseClick(window.tour.buttons["scurve"], Qt.MouseButton.LeftButton)
    assert window.tabs.currentWidget() is window.scurve_view
    asked = []
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: asked.append(a) or "")
    qtbot.mouseClick(window.tour.buttons["open"], Qt.MouseButton.LeftButton)
    assert asked
    qtbot.mouseClick(window.tour.close_button, Qt.MouseButton.LeftButton)
    assert not window.tour.isVisible()
    again = MainWindow(settings)
    qtbot.addWidget(again)
    again.show()
    assert not again.tour.isVisible()
    again.menu_actions.tour.trigger()
    assert again.tour.isVisible()
    assert again.shutdown()
