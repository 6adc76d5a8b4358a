"""The log file a bug report can carry: crashes and warnings, in the user's log folder (platformdirs).

``lshdesk.log`` (with two older ``.1`` and ``.2`` beside it, 1 MB each) lives in ``user_log_dir("lshdesk")``, e.g.
``~/.local/state/lshdesk/log`` on Linux. It is created only when something is written. ``--debug`` or
``LSHDESK_DEBUG=1`` also shows tracebacks on the terminal and logs at debug level.

A command (``arm``) sets the log up at its first record or warning, not at its start: ``logging.handlers`` and what
it loads (socket, queue) cost ~10 ms of CPU after numpy, a third of what an empty folder's scan may spend above
``import numpy`` (issue 29's target).
"""

from __future__ import annotations

import os
import warnings
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import logging
    from pathlib import Path

LOGGER = "lshdesk"
DEBUG_ENV = "LSHDESK_DEBUG"
MAX_BYTES = 1_000_000
BACKUPS = 2
_armed = {"debug": False}  # the level a log set up later (``logger``) takes: that of the command being run
_PYTHONS_SHOWWARNING = warnings.showwarning


def log_path() -> Path:
    """Where the log file is (it may not exist yet)."""
    from pathlib import Path

    from platformdirs import user_log_dir

    return Path(user_log_dir("lshdesk", appauthor=False)) / "lshdesk.log"


def debug_wanted(flag: bool = False) -> bool:
    """True with ``--debug`` or when ``LSHDESK_DEBUG`` is set to anything but '', '0', 'no' or 'false'."""
    return flag or os.environ.get(DEBUG_ENV, "").strip().lower() not in ("", "0", "no", "false")


def _log_file(path: Path) -> logging.Handler:
    """The rotating log file, its folder made when the first record is written (not on every start)."""
    import logging.handlers

    class LogFile(logging.handlers.RotatingFileHandler):
        def _open(self):
            path.parent.mkdir(parents=True, exist_ok=True)
            return super()._open()

    return LogFile(path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True)


def setup(debug: bool = False) -> logging.Logger:
    """Send the ``lshdesk`` logger and Python's warnings to the log file (once per process); return the logger.

    A log folder that cannot be written (read-only home) costs one message on standard error per record (logging's
    own ``handleError``): logging never stops the app.
    """
    import logging

    logger = logging.getLogger(LOGGER)
    logger.setLevel(logging.DEBUG if debug else logging.INFO)
    if not any(getattr(h, "lshdesk_log", False) for h in logger.handlers):
        handler = _log_file(log_path())
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        handler.lshdesk_log = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
        logging.captureWarnings(True)
        logging.getLogger("py.warnings").addHandler(handler)
    return logger


def arm(debug: bool = False) -> None:
    """Set the log up at its first use: ``logger()``, or a Python warning (then sent to the log as ``setup``
    sends them)."""
    _armed["debug"] = debug
    if warnings.showwarning is _PYTHONS_SHOWWARNING:
        warnings.showwarning = _first_warning


def logger() -> logging.Logger:
    """The ``lshdesk`` logger, its log file set up (at the level ``arm`` was given)."""
    return setup(_armed["debug"])


def _first_warning(*args, **kwargs) -> None:
    warnings.showwarning = _PYTHONS_SHOWWARNING  # what logging.captureWarnings keeps and gives back
    logger()
    warnings.showwarning(*args, **kwargs)
