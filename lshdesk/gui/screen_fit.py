"""The main window's whole frame (title bar included) inside its screen's available area, on a first run and restored."""

from __future__ import annotations

from PySide6.QtCore import QMargins, QRect, QSize, Qt
from PySide6.QtWidgets import QWidget

PREFERRED = QSize(1280, 800)  # the client size on a screen with room for it and its frame
# Before the window manager frames a window, Qt knows no margins (frameGeometry == geometry): without an allowance a
# client sized to the available height put an 825-px frame on an 800-px screen (issue 31). Openbox under Xvfb
# measured 20 px above the client and 1 px on the other sides; 40 and 8 leave room for taller themes.
FRAME_GUESS = QMargins(8, 40, 8, 8)


def frame_margins(window: QWidget) -> QMargins:
    """The window's frame margins as the window system reports them once shown, else ``FRAME_GUESS``."""
    frame, inner = window.frameGeometry(), window.geometry()
    known = QMargins(inner.left() - frame.left(), inner.top() - frame.top(), frame.right() - inner.right(),
                     frame.bottom() - inner.bottom())  # fmt: skip
    return known if window.isVisible() and not known.isNull() else FRAME_GUESS


def clamped(client: QRect, available: QRect, margins: QMargins) -> QRect:
    """``client`` shrunk and moved so that it and its frame (``margins``) lie inside ``available``."""
    room = available.marginsRemoved(margins)
    size = client.size().boundedTo(room.size())
    x = min(max(client.x(), room.left()), room.right() + 1 - size.width())
    y = min(max(client.y(), room.top()), room.bottom() + 1 - size.height())
    return QRect(x, y, size.width(), size.height())


def first_run(window: QWidget) -> None:
    """The preferred size, centred, where it fits with its frame; else maximised (its normal geometry fitted)."""
    available = window.screen().availableGeometry()
    margins = frame_margins(window)
    wanted = QRect(0, 0, PREFERRED.width(), PREFERRED.height())
    wanted.moveCenter(available.center())
    fitted = clamped(wanted, available, margins)
    window.setGeometry(fitted)
    if fitted.size() != PREFERRED:  # 1280 x 800 and smaller screens: the window manager fits a maximised frame
        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)


def keep_on_screen(window: QWidget) -> None:
    """A restored unmaximised geometry (saved on another screen, or too tall) clamped to the current screen."""
    if window.windowState() & (Qt.WindowState.WindowMaximized | Qt.WindowState.WindowFullScreen):
        return
    available = window.screen().availableGeometry()
    fitted = clamped(window.geometry(), available, frame_margins(window))
    if fitted != window.geometry():
        window.setGeometry(fitted)
