"""While the window relayouts after a resize or a tab switch, the scan's reading threads step back for a moment.

A relayout is tens of milliseconds of Qt calling back into Python (models, layouts, plots). Two reading threads
running Python between files held the GIL in turns with the GUI thread, which then waited two slices in three:
a 30 ms relayout took 60-90 ms while 100,000 files were read (``tests/benchmarks/gui_stall.py --poke``). Readers
check between files and sleep while asked (``core.threads.give_way``); the scan goes on right after.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QMainWindow, QTabWidget

from lshdesk.core.threads import give_way

RELAYOUT_SECONDS = 0.1  # how long the readers step back after a resize or a tab switch


class _Resizes(QObject):
    """Sees the window's own events (not its children's) and asks for room on a resize."""

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            give_way(RELAYOUT_SECONDS)
        return False


def install(window: QMainWindow, tabs: list[QTabWidget]) -> None:
    """Ask for room whenever ``window`` is resized or one of ``tabs`` shows another page."""
    window.installEventFilter(_Resizes(window))
    for tab in tabs:
        tab.currentChanged.connect(lambda _index: give_way(RELAYOUT_SECONDS))
