"""Where exports, reports and sessions are offered: the last folder used, else the documents folder, never inside
a scanned folder (the next scan would read the report as a document), nor beside a scanned dataset file."""

from __future__ import annotations

import os
from collections.abc import Sequence

from PySide6.QtCore import QSettings, QStandardPaths

KEY = "export/last_dir"


def inside(path: str, folders: Sequence[str]) -> bool:
    """True if ``path`` is one of ``folders`` or below one of them."""
    path = os.path.realpath(path)
    for f in folders:
        f = os.path.realpath(f)
        try:
            if os.path.commonpath([path, f]) == f:
                return True
        except ValueError:  # different drives
            continue
    return False


def suggested_path(settings: QSettings, scanned: Sequence[str], file_name: str) -> str:
    """``file_name`` in the last folder saved to, else the documents folder, else home: the first that exists and
    is not inside a scanned folder or a scanned file's folder (the temporary folder if all are)."""
    last = str(settings.value(KEY, "") or "")
    scanned = [os.path.dirname(f) if os.path.isfile(f) else f for f in scanned]  # a dataset file: not beside it
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    for folder in (last, documents, os.path.expanduser("~")):
        if folder and os.path.isdir(folder) and not inside(folder, scanned):
            return os.path.join(folder, file_name)
    return os.path.join(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.TempLocation), file_name)


def remember(settings: QSettings, path: str) -> None:
    """Remember the folder of a file just saved, for the next suggestion."""
    settings.setValue(KEY, os.path.dirname(os.path.abspath(path)))
