"""Writing the HTML report or a session as generators that yield progress (the GUI runs them in a worker).

Each step is checked for cancel; the file is written atomically at the end, so a cancelled or failed write
leaves the target as it was. A failure to write is an ``OutputError`` whose message names the file and why.
"""

from __future__ import annotations

import threading
from collections.abc import Generator

import numpy as np
import numpy.typing as npt

from lshdesk.core.errors import check_cancel
from lshdesk.core.persistence.atomic import OutputError, write_atomic
from lshdesk.core.persistence.report import to_html
from lshdesk.core.persistence.session import save_session
from lshdesk.core.scan.pipeline import ScanResult
from lshdesk.core.scan.progress import Progress


def write_report(
    result: ScanResult, path: str, cancel: threading.Event | None = None
) -> Generator[Progress, None, str]:
    """Build the report's page, then write it to ``path``; returns the path."""
    yield Progress("building the report", 0, 2)
    text = to_html(result)
    check_cancel(cancel)
    yield Progress("writing the report", 1, 2)
    write_atomic(path, text)
    yield Progress("report written", 2, 2)
    return path


def write_session(
    path: str,
    result: ScanResult,
    selection: tuple[int, ...],
    folders: list[str],
    marks: npt.NDArray[np.bool_] | None = None,
    cancel: threading.Event | None = None,
    explore: dict | None = None,
) -> Generator[Progress, None, str]:
    """Save the session to ``path`` (``session.save_session``); returns the path."""
    yield Progress("saving the session", 0, 1)
    check_cancel(cancel)
    try:
        save_session(path, result, selection, folders, marks, explore)
    except OutputError:
        raise
    except OSError as e:
        raise OutputError(f"cannot write {path}: {e.strerror or e}", e.strerror) from None
    yield Progress("session saved", 1, 1)
    return path
