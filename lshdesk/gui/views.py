"""What the window asks of its parts: each stops its workers before closing; each tab also shows a scan's result."""

from __future__ import annotations

from typing import Protocol

from lshdesk.core.scan.pipeline import ScanResult


class Part(Protocol):
    """A part of the window that may run work in threads: the scan, the actions, a view."""

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel its work (a file being written is finished) and wait for its threads; True if none is left."""


class View(Part, Protocol):
    """A tab of the main window; a new tab is a widget with these methods and one line in the window's table."""

    def set_result(self, result: ScanResult | None, names: list[str]) -> None:
        """Show ``result`` (None: no result) whose documents are called ``names`` on screen."""
