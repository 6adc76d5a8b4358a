"""The command line's terminal: messages on standard error (never into standard output), checked output, exits."""

from __future__ import annotations

import os
import signal
import sys
import threading


def early_interrupts(signum, frame) -> None:  # Ctrl+C while the command starts: one line, no traceback
    os.write(2, b"lshdesk: error: interrupted\n")
    os._exit(130)


if os.path.basename(sys.argv[0] if sys.argv else "").startswith("lshdesk"):  # the console script, not an import
    signal.signal(signal.SIGINT, early_interrupts)


def say(text: str, end: str = "\n") -> None:
    """Write to standard error; when it is closed, say nothing (never into standard output)."""
    err = sys.stderr
    if err is None:
        return
    try:
        err.write(text + end)
        err.flush()
    except (OSError, ValueError):
        pass


def fail(message: str, code: int = 2) -> int:
    say(f"lshdesk: error: {message}")
    return code


def emit(text: str, output: str | None) -> int:
    """Write the output (atomically to a file, or to standard output, checked); 0, or 1 with a one-line message."""
    from lshdesk.core.persistence.atomic import OutputError, write_atomic, write_stream

    try:
        if output:
            write_atomic(output, text)
        elif sys.stdout is None:
            raise OutputError("standard output is closed: give a file with -o FILE")
        else:
            buffer = getattr(sys.stdout, "buffer", None)
            write_stream(buffer or sys.stdout, text.encode("utf-8") if buffer else text)  # type: ignore[arg-type]
    except OutputError as e:
        if not output and sys.stdout is not None:
            _silence_stdout()
        return fail(str(e), 1)
    return 0


def _silence_stdout() -> None:
    """After a failed write, point standard output at the null device: exiting must not try (and fail) again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


def end_now(code: int, argv: list[str] | None) -> int:
    """On Ctrl+C or out of memory from the command line: exit at once, not after helper threads still at work."""
    if argv is None and any(
        t.is_alive() and not t.daemon for t in threading.enumerate() if t is not threading.main_thread()
    ):
        os._exit(code)
    return code
