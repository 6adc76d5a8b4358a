"""The exceptions the core raises; the CLI and the GUI turn them into one clear message."""

from __future__ import annotations

import threading


class LshdeskError(Exception):
    """Base class of every error lshdesk reports to a user."""


class ParamError(LshdeskError, ValueError):
    """A parameter is out of range or malformed; the message says how to fix it."""


class NotText(LshdeskError):
    """A file's bytes are not readable text; the message is the reason shown to the user."""


class ScanCancelled(LshdeskError):
    """The user cancelled a scan; nothing of it is kept."""


def check_cancel(cancel: threading.Event | None) -> None:
    """Raise ScanCancelled if the cancel flag (a ``threading.Event`` or None) is set: long work calls this between steps."""
    if cancel is not None and cancel.is_set():
        raise ScanCancelled("cancelled")
