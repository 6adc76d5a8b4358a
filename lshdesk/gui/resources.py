"""The app's resources as Qt wants them: icons and help pages from the bundled files (``lshdesk.system.bundled``)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PySide6.QtGui import QIcon

from lshdesk.system import bundled


def resource(*parts: str) -> Path:
    """The path of a resource file (it may not exist in a stripped install: callers check)."""
    return bundled.path(*parts)


@cache
def icon(name: str) -> QIcon:
    """A toolbar icon from ``resources/icons/<name>.svg`` (an empty icon if it is missing)."""
    path = resource("icons", f"{name}.svg")
    return QIcon(str(path)) if path.is_file() else QIcon()


def sample_corpus() -> str | None:
    """The built-in sample corpus (the bundled ``resources/sample``), if it is installed."""
    folder = bundled.sample_dir()
    return str(folder) if folder else None


def help_html(view: str) -> str:
    """The help page of a view (``results``, ``side_by_side``, ``signatures``, ``scurve``, ``learn``)."""
    path = resource("help", f"{view}.html")
    return path.read_text(encoding="utf-8") if path.is_file() else f"<p>No help page for {view} yet.</p>"
