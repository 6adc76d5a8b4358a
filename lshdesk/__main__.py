"""Entry point for ``python -m lshdesk`` (and the ``lshdesk`` script): Ctrl+C while the command line loads ends it
as quietly as one during a scan (exit 130, one line), not with a traceback of the import it interrupted."""

from __future__ import annotations

import os
import sys


def run() -> int:
    """Load the command line and run it; return the exit code."""
    # lshdesk calls no BLAS: numpy's OpenBLAS need not start a thread and a buffer per core when numpy loads (it
    # refused to load at all under a 100-200 MB address space, with only its own message)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        from lshdesk.cli import main
    except KeyboardInterrupt:
        sys.stderr.write("lshdesk: error: interrupted\n")
        return 130
    return main()


if __name__ == "__main__":
    raise SystemExit(run())
