"""A throwaway home for the test session's XDG cache, state and data folders, removed when its process exits."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

PREFIX = "lshdesk-test-"
PARTS = {"XDG_CACHE_HOME": "cache", "XDG_STATE_HOME": "state", "XDG_DATA_HOME": "data"}


def make_scratch_home() -> Path:
    """Make one temporary folder holding cache/, state/ and data/, point the XDG variables there and remove it all
    at exit. Only the process that made it removes it: a forked child (which inherits the atexit handler) or a
    sub-process (which inherits the variables, e.g. the CLI run by a test, or an xdist worker making its own) does not
    take the folders away from under the session."""
    home = Path(tempfile.mkdtemp(prefix=PREFIX))
    for var, name in PARTS.items():
        (home / name).mkdir()
        os.environ[var] = str(home / name)
    owner = os.getpid()

    def remove() -> None:
        if os.getpid() == owner:
            shutil.rmtree(home, ignore_errors=True)

    atexit.register(remove)
    return home
