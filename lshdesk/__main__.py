"""Entry point for ``python -m lshdesk`` (and the ``lshdesk`` script): Ctrl+C while the command line loads ends it
as quietly as one during a scan (exit 130, one line), not with a traceback of the import it interrupted."""

from __future__ import annotations

import gc
import os
import sys

NEEDED_MB = 256  # address space a small scan needs (it ran at 200-250 MB; numpy's OpenBLAS exits in C below ~150)


def too_little_address_space() -> str | None:
    """What to say when ``ulimit -v`` leaves less address space than lshdesk needs to start, else None: below
    ~150 MB numpy's OpenBLAS ends the process with a line of its own, so the limit is read before numpy loads."""
    try:
        import resource
    except ImportError:  # not POSIX: no such limit
        return None
    soft = resource.getrlimit(resource.RLIMIT_AS)[0]
    if soft == resource.RLIM_INFINITY or soft >= NEEDED_MB << 20:
        return None
    return (
        f"out of memory: the address space is limited to {soft >> 20} MB (ulimit -v) and lshdesk needs about "
        f"{NEEDED_MB} MB: raise the limit and try again"
    )


def run() -> int:
    """Load the command line and run it; return the exit code."""
    if (why := too_little_address_space()) is not None:
        sys.stderr.write(f"lshdesk: error: {why}\n")
        return 1
    # lshdesk calls no BLAS: numpy's OpenBLAS need not start a thread and a buffer per core when numpy loads (it
    # refused to load at all under a 100-200 MB address space, with only its own message)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    collecting = gc.isenabled()
    gc.disable()  # while the command loads: its collections were ~15 % of an empty folder's scan (issue 29)
    try:
        import signal

        from lshdesk.terminal import collector_paused, early_interrupts

        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # `python -m lshdesk` (the script: done)
            signal.signal(signal.SIGINT, early_interrupts)  # a Ctrl+C while the rest loads: one line, exit 130
        if collecting:
            collector_paused()  # the command turns it on again once its modules are loaded
        from lshdesk.cli import main
    except KeyboardInterrupt:  # before the handler was in place
        # at once: Python ends a process whose import a Ctrl+C stopped by SIGINT itself, caught or not (exit -2,
        # not 130: seen under load), and the command has not begun
        os.write(2, b"lshdesk: error: interrupted\n")
        os._exit(130)
    return main()


if __name__ == "__main__":
    raise SystemExit(run())
