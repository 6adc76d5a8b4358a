"""A document's entries in a row menu: open it or show its folder; a dataset's row, which is no file, said as such."""

from __future__ import annotations

import os

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMenu

from lshdesk.core.corpus.datasets import parse_row_ref
from lshdesk.gui.models.names import short_name


def _show_folder(path: str) -> None:
    QDesktopServices.openUrl(QUrl.fromLocalFile(os.path.dirname(path)))


def add_file_entries(menu: QMenu, path: str, named: bool = True) -> None:
    """Open ``path`` and show it in its folder (``named``: the file's name in the entries); for a dataset's row,
    a disabled entry saying it is a row (read side by side) and its dataset file shown in its folder instead."""
    row = parse_row_ref(path)
    if row is None:
        name = f" {os.path.basename(path)}" if named else " file"
        menu.addAction(f"Open{name}", lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(path)))
        menu.addAction(f"Show{name if named else ''} in {'its ' if named else ''}folder", lambda: _show_folder(path))
        return
    told = menu.addAction(f"{short_name(path)[:1].upper()}{short_name(path)[1:]}: a row, not a file to open")
    told.setEnabled(False)
    menu.addAction(f"Show the dataset {os.path.basename(row[0])} in its folder", lambda: _show_folder(row[0]))
