"""Where the bundled files are: ``resources/`` of the repository, installed as the package ``lshdesk.resources``.

A wheel and an editable install both find it with ``importlib.resources``; a source tree put on ``sys.path`` by
hand (no install) has it beside the package. The files are real files on disk in every case (setuptools installs
packages unzipped), so Qt and the scanner can open them by path.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

import lshdesk

PACKAGE = "lshdesk.resources"


@cache
def root() -> Path:
    """The folder of the bundled files (it may lack some in a stripped install: callers check)."""
    try:
        return Path(str(resources.files(PACKAGE)))
    except ModuleNotFoundError:  # a source tree on sys.path without an install
        return Path(lshdesk.__file__).resolve().parents[1] / "resources"


def path(*parts: str) -> Path:
    """The path of a bundled file or folder, e.g. ``path("icons", "app.svg")``."""
    return root().joinpath(*parts)


def sample_dir() -> Path | None:
    """The sample corpus folder (``resources/sample``), or None when it is not installed."""
    folder = path("sample")
    return folder if folder.is_dir() else None
