"""Files dropped on a view: which dropped URLs are local files, and the drag handlers that take only those."""

from __future__ import annotations

import os

from PySide6.QtGui import QDragEnterEvent, QDropEvent


def dropped_files(urls: list) -> list[str]:
    """The local files among dropped URLs, or none if a folder is among them (folders are opened, not queried)."""
    local = [u.toLocalFile() for u in urls if u.isLocalFile()]
    if any(os.path.isdir(p) for p in local):
        return []
    return [p for p in local if os.path.isfile(p)]


def accept_files(event: QDragEnterEvent) -> bool:
    """Accept a drag that carries files only; ignore any other (a folder goes on to the window, which opens it)."""
    if dropped_files(event.mimeData().urls()):
        event.acceptProposedAction()
        return True
    event.ignore()
    return False


def take_files(event: QDropEvent) -> list[str]:
    """The files of a drop that carries files only (the drop accepted), else [] (the drop ignored)."""
    files = dropped_files(event.mimeData().urls())
    if files:
        event.acceptProposedAction()
    else:
        event.ignore()
    return files
