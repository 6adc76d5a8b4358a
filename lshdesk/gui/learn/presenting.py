"""Presentation mode's helpers: the window's chrome folded away around one widget, keys that controls keep, zoom."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFontInfo, QKeyEvent
from PySide6.QtWidgets import QWidget

BODY_SHARE = 0.035  # presentation text: its pixel height at least 3.5 % of the screen's (38 px at 1080, 28 at 800)
PRESENT_STEPS = (0.8, 0.9, 1.0, 1.1, 1.2)  # Ctrl+- / Ctrl+= in presentation mode, times the presentation zoom
STEP_KEYS = (Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Home, Qt.Key.Key_End, Qt.Key.Key_Up, Qt.Key.Key_Down)


def presentation_zoom(base_px: int, screen_height: int) -> float:
    """The zoom that makes text of ``base_px`` pixels at least ``BODY_SHARE`` of the screen's height."""
    if base_px <= 0 or screen_height <= 0:
        return 1.0
    return max(1.0, BODY_SHARE * screen_height / base_px * 1.01)  # 1 % over: Qt rounds pixel sizes down


def pixel_size(widget: QWidget) -> int:
    """The pixel height of the widget's font as drawn (QFontInfo: what the font system gave, not what was asked)."""
    return QFontInfo(widget.font()).pixelSize()


class Chrome:
    """Hides everything of the window around one widget (menu, toolbars, banners, tab bars, status bar, docks) and
    shows exactly that again afterwards: every visible sibling of the widget and of each of its ancestors."""

    def __init__(self) -> None:
        self.hidden: list[QWidget] = []

    def fold(self, widget: QWidget) -> None:
        w = widget
        while not w.isWindow() and (parent := w.parentWidget()) is not None:
            for sibling in parent.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
                overlay = sibling.testAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)  # a focus ring
                if sibling is not w and not sibling.isWindow() and sibling.isVisible() and not overlay:
                    sibling.hide()
                    self.hidden.append(sibling)
            w = parent

    def unfold(self) -> None:
        for w in reversed(self.hidden):
            w.show()
        self.hidden.clear()


class KeepKeys(QObject):
    """Lets a control keep the arrow keys and Home that the lesson's shortcuts would otherwise take (a slider moves,
    a drop-down list changes): it claims them in the shortcut-override step, as text fields do."""

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.key() in STEP_KEYS
            and not event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            event.accept()
        return False
