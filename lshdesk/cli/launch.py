"""The ``lshdesk-gui`` entry point (a gui-script: on Windows no console opens behind the window)."""

from __future__ import annotations

import sys

from lshdesk.system.commands import detach_streams


def gui_main() -> int:
    """Open the window on the folders given (``lshdesk-gui [PATH...]``), as ``lshdesk gui`` does."""
    detach_streams()
    from lshdesk.cli import main

    return main(["gui", *sys.argv[1:]])
