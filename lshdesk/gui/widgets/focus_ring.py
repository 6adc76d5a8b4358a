"""A clearly visible keyboard focus outline: a 2-pixel ring around the focused widget, in light and dark palettes."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QColor, QPainter, QPalette, QPen, QRegion
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QWidget

from lshdesk.gui.theme import blend, contrast

WIDTH = 2
MIN_CONTRAST = 3.0  # WCAG 2.2 asks 3:1 for a focus indicator against what is around it


def ring_colour(palette: QPalette) -> QColor:
    """The palette's highlight, moved towards the text colour until it stands out 3:1 from the window."""
    window, text = palette.color(QPalette.ColorRole.Window), palette.color(QPalette.ColorRole.WindowText)
    colour = palette.color(QPalette.ColorRole.Highlight)
    for t in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0):
        candidate = blend(colour, text, t)
        if contrast(candidate, window) >= MIN_CONTRAST:
            return candidate
    return text


def shown_part(target: QWidget, rect: QRect) -> QRect:
    """The part of ``rect`` (window coordinates) that the scroll areas ``target`` lies in leave on screen: a widget
    scrolled out of a viewport keeps its place past the viewport's edge, hidden only by the viewport's clipping
    (other parents clip nothing: a ring's outer pixels past a parent's edge stay drawn)."""
    window = target.window()
    parent = target.parentWidget()
    while parent is not None and parent is not window:
        area = parent.parentWidget()
        if isinstance(area, QAbstractScrollArea) and parent is area.viewport():
            rect = rect & QRect(parent.mapTo(window, QPoint(0, 0)), parent.size())
        parent = area
    return rect


class FocusRing(QWidget):
    """Draws over the window, around whichever of its widgets has the keyboard focus (mouse clicks pass through)."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.target: QWidget | None = None
        self.hide()
        self._timer = QTimer(self)  # a scroll or a layout change moves the target without telling us
        self._timer.setInterval(150)
        self._timer.timeout.connect(self.follow)
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        app.focusChanged.connect(self._focus_changed)

    def _focus_changed(self, old, new) -> None:
        """Follow the keyboard: not a click (a mouse button is down) nor the window coming to the front (focus from
        nowhere), so the ring marks where Tab, a shortcut or the arrows went."""
        inside = new is not None and new is not self.window() and new.window() is self.window()
        by_mouse = QApplication.mouseButtons() != Qt.MouseButton.NoButton
        control = new is not None and bool(new.focusPolicy() & Qt.FocusPolicy.TabFocus)  # not a page given focus
        self.target = new if inside and control and old is not None and not by_mouse else None
        self.follow()

    def follow(self) -> None:
        """Sit around the focused widget (or hide when it is gone, hidden or in another window)."""
        t = self.target
        if t is None or not t.isVisible() or t.width() < 4:
            self.hide()
            self._timer.stop()
            return
        top_left = t.mapTo(self.window(), QPoint(0, 0))
        rect = QRect(top_left, t.size()).adjusted(-WIDTH, -WIDTH, WIDTH, WIDTH)
        seen = shown_part(t, rect)
        if seen.isEmpty():  # scrolled out of its view: no ring over the toolbar, a banner or another panel
            self.hide()
            return
        if rect != self.geometry():
            self.setGeometry(rect)
        self.setMask(QRegion(seen.translated(-rect.topLeft())))
        self.show()
        self.raise_()
        self._timer.start()
        self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(QPen(ring_colour(self.palette()), WIDTH))
        p.drawRoundedRect(self.rect().adjusted(1, 1, -1, -1), 3, 3)
        p.end()
