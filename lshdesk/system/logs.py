"""The log file a bug report can carry: crashes and warnings, in the user's log folder (platformdirs).

``lshdesk.log`` (with two older ``.1`` and ``.2`` beside it, 1 MB each) lives in ``user_log_dir("lshdesk")``, e.g.
``~/.local/state/lshdesk/log`` on Linux. It is created only when something is written. ``--debug`` or
``LSHDESK_DEBUG=1`` also shows tracebacks on the terminal and logs at debug level.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path

LOGGER = "lshdesk"
DEBUG_ENV = "LSHDESK_DEBUG"
MAX_BYTES = 1_000_000
BACKUPS = 2


def log_path() -> Path:
    """Where the log file is (it may not exist yet)."""
    from platformdirs import user_log_dir

    return Path(user_log_dir("lshdesk", appauthor=False)) / "lshdesk.log"


def debug_wanted(flag: bool = False) -> bool:
    """True with ``--debug`` or when ``LSHDESK_DEBUG`` is set to anything but '', '0', 'no' or 'false'."""
    return flag or os.environ.get(DEBUG_ENV, "").strip().lower() not in ("", "0", "no", "false")


class _LogFile(logging.handlers.RotatingFileHandler):
    """The rotating log file, its folder made when the first record is written (not on every start)."""

    def _open(self):
        Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True)
        return super()._open()


def setup(debug: bool = False) -> logging.Logger:
    """Send the ``lshdesk`` logger and Python's warnings to the log file (once per process); return the logger.

    A log folder that cannot be written (read-only home) costs one message on standard error per record (logging's
    own ``handleError``): logging never stops the app.
    """
    logger = logging.getLogger(LOGGER)
    logger.setLevel(logging.DEBUG if debug else logging.INFO)
    if not any(getattr(h, "lshdesk_log", False) for h in logger.handlers):
        handler = _LogFile(log_path(), maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        handler.lshdesk_log = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
        logging.captureWarnings(True)
        logging.getLogger("py.warnings").addHandler(handler)
    return logger
